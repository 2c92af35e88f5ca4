/*
 * ctl_version.c - which control files a reader reads (ctl_version.h).
 */
#include <stdio.h>
#include <string.h>

#include "ctl_version.h"

/* A release as the library writes it: digits, letters, '.', '+', '~'
 * and '-', not empty. */
static bool release_text(const char *s, size_t max)
{
	size_t i;

	for (i = 0; i < max && s[i]; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'z') ||
		      (s[i] >= 'A' && s[i] <= 'Z') || strchr(".+~-", s[i])))
			return false;
	return i > 0 && i < max;
}

const char *evt_ctl_release(const struct evt_ctl_header *h, char *buf,
			    size_t size)
{
	if (h->version == EVT_CTL_MAJOR_FIRST && h->minor == 0)
		snprintf(buf, size, "%s", EVT_CTL_RELEASE_8_0);
	else if (h->header_size >= EVT_CTL_RELEASE_OFFSET + sizeof(h->release) &&
		 release_text(h->release, sizeof(h->release)))
		snprintf(buf, size, "%s", h->release);
	else
		snprintf(buf, size, "?");
	return buf;
}

int evt_ctl_version_check(const struct evt_ctl_header *h, const char *what,
			  char *why, size_t why_size)
{
	char release[sizeof(h->release) + 1];

	if (h->version < EVT_CTL_MAJOR_FIRST) {
		snprintf(why, why_size, "%s: pid %u runs a libevtrace older than "
			 "%s (control file version %u), which this evtrace (%s) "
			 "does not read: restart it with libevtrace %s or later",
			 what, h->pid, EVT_CTL_RELEASE_8_0, h->version,
			 EVT_RELEASE, EVT_CTL_RELEASE_8_0);
		return -1;
	}
	if (h->version > EVT_CTL_MAJOR) {
		evt_ctl_release(h, release, sizeof(release));
		if (strcmp(release, "?"))
			snprintf(why, why_size, "%s: pid %u runs libevtrace %s "
				 "(control file %u.%u), which this evtrace (%s, "
				 "control files %u.x) does not read: install "
				 "evtrace %s or later", what, h->pid, release,
				 h->version, h->minor, EVT_RELEASE, EVT_CTL_MAJOR,
				 release);
		else
			snprintf(why, why_size, "%s: pid %u runs a libevtrace "
				 "newer than this evtrace (%s) reads (control file "
				 "%u.%u, not %u.x): install a later evtrace",
				 what, h->pid, EVT_RELEASE, h->version, h->minor,
				 EVT_CTL_MAJOR);
		return -1;
	}
	return 0;
}
