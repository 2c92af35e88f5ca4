/*
 * ctl_version.h - which control files a reader reads, and what their
 * maker (the libevtrace a process runs) can give: the control file's ABI
 * version, major and minor (doc/versions.md).
 *
 * header.version is the major: a reader reads majors EVT_CTL_MAJOR_FIRST
 * to EVT_CTL_MAJOR.  header.minor is the minor: within a major,
 * structures only grow at their end and a field a minor adds reads 0 in
 * an earlier minor's file, so that a reader asks for the minor a feature
 * came with (evt_ctl_has) before it relies on it, and reads a later minor
 * than its own as its own.
 */
#ifndef EVT_FORMAT_CTL_VERSION_H
#define EVT_FORMAT_CTL_VERSION_H

#include <stdbool.h>
#include <stddef.h>

#include "layout.h"

/* The release of major 8, minor 0, whose header has no release field. */
#define EVT_CTL_RELEASE_8_0	"0.1.10"

/*
 * The release of libevtrace that made a control file whose header is h
 * (h->release since minor 1, printable characters of a version only,
 * else "?"), into buf.  Returns buf.
 */
const char *evt_ctl_release(const struct evt_ctl_header *h, char *buf,
			    size_t size);

/*
 * Whether a reader of this version reads a file of header h: 0, or why
 * not in why (what to install), for a header whose magic was checked and
 * whose first header_size bytes (at least EVT_CTL_HEADER_MIN_BYTES, or
 * the fields to release) are h's.  what names the file.
 */
int evt_ctl_version_check(const struct evt_ctl_header *h, const char *what,
			  char *why, size_t why_size);

/* Whether a file of header h (checked) has what minor brought. */
static inline bool evt_ctl_has(const struct evt_ctl_header *h, unsigned minor)
{
	/* (a later major is never read; an earlier one has its own minors) */
	return h->version == EVT_CTL_MAJOR && h->minor >= minor;
}

#endif
