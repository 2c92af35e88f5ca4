/*
 * ctl.h - an engine's view of one traced process's control file.
 *
 * Opening checks every header offset and size against the file; the
 * registry is parsed incrementally, entry by entry, each bounds-checked,
 * its format re-parsed and compared with its stored argument types.  A bad
 * file is refused with a message naming the file and the offset.
 */
#ifndef EVT_ENGINE_CTL_H
#define EVT_ENGINE_CTL_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "layout.h"
#include "record.h"
#include "rundir.h"

struct evt_ctl_event {
	uint32_t id;
	uint32_t reg_off;	/* checked offset of its entry in the registry */
	uint32_t parent;	/* stable events: their raw event; else ~0 */
	uint8_t unloaded;
	uint8_t refused;	/* a printk site whose format was refused
				 * (format is that one), or a typed event
				 * whose definition was (format is why);
				 * no layout */
	uint8_t rider;		/* a span's event for records with more
				 * than the head (layout.h): path is its
				 * switch's, and it is not listed */
	char *path;
	char *format;
	char *func;		/* a printk site's function, or NULL */
	struct evt_event_layout layout;
};

/*
 * Whether the event at path with format (as a process registered it) was
 * refused; then why, into why: a printk format's problems, or what the
 * library said of a typed event's definition.
 */
bool evt_refusal(const char *path, const char *format, char *why,
		 size_t why_size);

struct evt_ctl {
	char path[PATH_MAX];		/* for messages */
	char name[64];			/* in its run directory */
	int fd;
	uint8_t *base;
	size_t size;
	struct evt_ctl_header h;	/* checked copy of the header */
	struct evt_ctl_slot *slots;
	struct evt_ctl_tbuf *tbufs;
	uint32_t *enable;
	struct evt_ctl_event *events;
	uint32_t nevents;
	uint32_t events_cap;
	uint32_t registry_parsed;	/* bytes */
	bool registry_bad;		/* stop parsing: an error was reported */
	volatile int shrank;		/* the file was truncated under the
					 * mapping: it reads zeroes since */
};

/*
 * Opens and checks the control file name in the run directory rd (see
 * rundir.h for the checks on the file itself).  Returns 0; -EAGAIN when the
 * file is not published yet; or another -errno with err set.
 */
int evt_ctl_open(const struct evt_rundir *rd, const char *name,
		 struct evt_ctl **out, char *err, size_t err_size);
void evt_ctl_close(struct evt_ctl *c);
/* Parses entries added since the last call.  0, or -1 with err set. */
int evt_ctl_refresh(struct evt_ctl *c, char *err, size_t err_size);
/* Whether the process appended to its registry since the last refresh. */
bool evt_ctl_registry_grew(const struct evt_ctl *c);
/* The group the process opted into (evt_trace_allow_group), read now, or
 * EVT_NO_GROUP. */
uint32_t evt_ctl_optin_gid(const struct evt_ctl *c);
/* True while the process that wrote it is still running this image. */
bool evt_ctl_alive(const struct evt_ctl *c);
/*
 * Sets or clears slot bit s in the enable word of event id; for a stable
 * event, also its raw event's view bit for slot s (the union of its views).
 */
void evt_ctl_set_enable(struct evt_ctl *c, uint32_t id, unsigned s, bool on);
bool evt_ctl_enabled(const struct evt_ctl *c, uint32_t id, unsigned s);
/*
 * The acknowledgment of slot s's engine: it has set the first upto events
 * of the registry (c->events[0 .. upto)) to its selection.  Whether the
 * engine has so set every event c knows: what a test or a user waits
 * for, rather than for the slot to be taken.
 */
void evt_ctl_slot_set_applied(struct evt_ctl *c, unsigned s, uint32_t upto);
bool evt_ctl_slot_applied(const struct evt_ctl *c, unsigned s);
/* Event id's rate limit in events a second per thread (layout.h), read
 * now with pread; 0 for none. */
uint32_t evt_ctl_rate(const struct evt_ctl *c, uint32_t id);
/* Sets it (0: none): written with pwrite, and the enable word's rate bit
 * set while a slot wants the event.  0, or -1 with errno (ENOSPC: the
 * file system is full). */
int evt_ctl_set_rate(struct evt_ctl *c, uint32_t id, uint32_t rate);
/* The counters of descriptor d of a counting slot (layout.h), checked
 * against the arena, and how many there are; NULL when out of bounds. */
const uint64_t *evt_ctl_tbuf_counters(const struct evt_ctl *c,
				      const struct evt_ctl_tbuf *d, uint32_t *n);
/* How many buffer descriptors to look at: those the process ever claimed
 * (read now: it grows), at most the table. */
uint32_t evt_ctl_tbufs_used(const struct evt_ctl *c);
/* Entry i of the drop table (layout.h: a buffer's, or EVT_DROPS_OF_SLOT's)
 * read with pread (a page the process never made the file's reads as
 * zeroes, and stays a hole).  0, or -1 when it cannot be read. */
int evt_ctl_drops_read(const struct evt_ctl *c, uint32_t i,
		       struct evt_ctl_drops *out);
/* Empties entry i of the drop table, when it holds anything. */
void evt_ctl_drops_empty(const struct evt_ctl *c, uint32_t i);
/* The pid in a control file name "<pid>-<n>.ctl", or -1. */
int evt_ctl_name_pid(const char *name);

#endif
