/*
 * caps.c - a collection's rate caps, noted, published and lifted
 * (caps.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "caps.h"
#include "layout.h"
#include "rules_files.h"
#include "slots.h"

#define CAPS_MAGIC "evtrace-caps 1\n"
/* What one file may hold: a cap a line, so many at most. */
#define CAPS_FILE_MAX 4096

int evt_caps_note(struct evt_caps *caps, uint32_t pid, uint32_t id, uint32_t rate,
		  enum evt_cap_kind kind)
{
	struct evt_cap *more;
	unsigned k;

	for (k = 0; k < caps->n; k++)
		if (caps->v[k].pid == pid && caps->v[k].id == id)
			break;
	if (k < caps->n && !rate) {
		caps->v[k] = caps->v[--caps->n];
		return 0;
	}
	if (k < caps->n) {
		caps->v[k].rate = rate;
		caps->v[k].kind = kind;
		return 0;
	}
	if (!rate || caps->n >= CAPS_FILE_MAX)
		return 0;
	more = realloc(caps->v, (caps->n + 1) * sizeof(*more));
	if (!more)
		return -1;
	caps->v = more;
	caps->v[caps->n++] = (struct evt_cap){ pid, id, rate, kind };
	return 0;
}

static void name_of(char *name, size_t size, unsigned number)
{
	snprintf(name, size, "slot-%u.caps", number);
}

void evt_caps_publish(const struct evt_rundir *rd, unsigned number,
		      const struct evt_caps *caps)
{
	char name[32], err[64];
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	unsigned k;

	if (!f)
		return;
	fputs(CAPS_MAGIC, f);
	for (k = 0; k < caps->n; k++)
		fprintf(f, "%u %u %u %s\n", caps->v[k].pid, caps->v[k].id,
			caps->v[k].rate, caps->v[k].kind == EVT_CAP_GUARD ? "guard" : "rate");
	if (!fclose(f)) {
		name_of(name, sizeof(name), number);
		evt_rundir_put(rd, name, text, len, err, sizeof(err));
	}
	free(text);
}

void evt_caps_lift(const struct evt_caps *caps, struct evt_ctl *c)
{
	unsigned k;

	for (k = 0; k < caps->n; k++) {
		const struct evt_cap *cap = &caps->v[k];

		if (c->h.pid == cap->pid && cap->id < c->nevents && !c->shrank &&
		    evt_ctl_rate(c, cap->id) == cap->rate)
			evt_ctl_set_rate(c, cap->id, 0);
	}
}

void evt_caps_end(const struct evt_rundir *rd, unsigned number, struct evt_caps *caps)
{
	char name[32];

	if (caps->n && rd && rd->fd >= 0) {
		name_of(name, sizeof(name), number);
		unlinkat(rd->fd, name, 0);
	}
	free(caps->v);
	caps->v = NULL;
	caps->n = 0;
}

/* The caps of file fd, collection number, into seen. */
static void read_file(int fd, unsigned number, struct evt_caps_seen *seen)
{
	FILE *f = fdopen(fd, "r");
	char line[128];
	unsigned lines = 0;

	if (!f) {
		close(fd);
		return;
	}
	if (!fgets(line, sizeof(line), f) || strcmp(line, CAPS_MAGIC)) {
		fclose(f);
		return;
	}
	while (fgets(line, sizeof(line), f) && lines++ < CAPS_FILE_MAX) {
		struct evt_cap cap;
		char kind[8];
		struct evt_cap *v;
		unsigned *num;

		if (sscanf(line, "%u %u %u %7s", &cap.pid, &cap.id, &cap.rate, kind) != 4 ||
		    (strcmp(kind, "guard") && strcmp(kind, "rate")))
			continue;
		cap.kind = kind[0] == 'g' ? EVT_CAP_GUARD : EVT_CAP_RATE;
		v = realloc(seen->v, (seen->n + 1) * sizeof(*v));
		if (v)
			seen->v = v;
		num = realloc(seen->number, (seen->n + 1) * sizeof(*num));
		if (num)
			seen->number = num;
		if (!v || !num)
			break;
		seen->v[seen->n] = cap;
		seen->number[seen->n++] = number;
	}
	fclose(f);
}

void evt_caps_read_all(const struct evt_rundir *rd, struct evt_caps_seen *seen)
{
	unsigned number;

	memset(seen, 0, sizeof(*seen));
	for (number = 1; number < EVT_MAX_NUMBERS; number++) {
		char name[32], err[64];
		int fd;

		if (!evt_slot_held(rd, number))
			continue;
		name_of(name, sizeof(name), number);
		fd = evt_rundir_openat(rd, name, O_RDONLY, 0, err, sizeof(err));
		if (fd >= 0)
			read_file(fd, number, seen);
	}
}

const struct evt_cap *evt_caps_find(const struct evt_caps_seen *seen, uint32_t pid,
				    uint32_t id, uint32_t rate, unsigned *number)
{
	unsigned k;

	for (k = 0; k < seen->n; k++)
		if (seen->v[k].pid == pid && seen->v[k].id == id &&
		    seen->v[k].rate == rate) {
			*number = seen->number[k];
			return &seen->v[k];
		}
	return NULL;
}

void evt_caps_seen_free(struct evt_caps_seen *seen)
{
	free(seen->v);
	free(seen->number);
	memset(seen, 0, sizeof(*seen));
}
