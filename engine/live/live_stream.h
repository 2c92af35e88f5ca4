/*
 * live_stream.h - read a collection of running processes live: records
 * are decoded from shared memory as soon as they are committed, a few at
 * a time, and handed over in time order.
 *
 * Without patterns it reads the default collection (slot 0), what
 * `enable` switched on, one reader at a time (it holds slot-0.lock), each
 * starting where the last one stopped.  With patterns it is a collection
 * of its own: it claims a slot (slots.h), takes it up in every process in
 * scope and in the children they fork, and switches its events on there,
 * as rules for events registered later too.
 */
#ifndef EVT_ENGINE_LIVE_STREAM_H
#define EVT_ENGINE_LIVE_STREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "clock.h"
#include "event_ids.h"
#include "record.h"

struct evt_live_event {
	int64_t monotonic_ns;
	uint64_t timestamp;	/* trace clock (evt_live_stream_clock()) */
	uint32_t pid;
	uint32_t tid;
	uint16_t cpu;
	char comm[17];
	const char *path;	/* NULL for a lost-events line */
	const char *text;
	size_t text_len;	/* may hold a NUL (a printk %c of 0) */
	uint64_t lost;
	/* The record itself (not for a lost-events line): */
	uint32_t id;		/* global id; EVT_NO_ID in the default collection */
	const char *format;
	const char *func;	/* a printk site's function, or NULL */
	const struct evt_event_layout *layout;
	const uint8_t *payload;
	size_t payload_size;
};

typedef void (*evt_live_cb)(const struct evt_live_event *e, void *ctx);

struct evt_live_stream;

/* A pid for evt_live_stream_create(): the processes of a command that
 * names evt_live_stream_rules_name() in $EVTRACE_COLLECTION, and those
 * they fork. */
#define EVT_LIVE_COMMAND (-1)

/*
 * Watches the processes of pid (all when 0) in rundir.  With what (which
 * says who holds the slot, for others' messages) it is a collection of
 * its own, with the events evt_live_stream_select() adds, while it runs
 * (see above); without, it reads the default collection.  0, or -1 with
 * err set (all slots taken: naming their holders).  block_us: what the
 * writers of its own slot wait for it when their buffer is full (layout.h).
 */
int evt_live_stream_create(const char *rundir, int pid, const char *what,
			   uint32_t block_us, struct evt_live_stream **out,
			   char *err, size_t err_size);
/* Caps the events pattern names in the processes watched now at rate a
 * second per thread (0: no cap; layout.h); how many it capped, or -1 with
 * err set (the file system of the run directory is full). */
int evt_live_stream_set_rate(struct evt_live_stream *s, const char *pattern,
			     uint32_t rate, char *err, size_t err_size);
/*
 * Adds or removes a pattern (or, pattern NULL, a global id) of its own
 * collection's selection, applied at once in every process.  Returns how
 * many events of the processes watched now it wants after an add (0 when
 * the pattern names none yet), 0 after a remove, or -1 with err set.
 */
int evt_live_stream_select(struct evt_live_stream *s, bool add,
			   const char *pattern, uint32_t id, char *err,
			   size_t err_size);
/* Its clock: kind and calibration. */
const struct evt_clock_calibration *evt_live_stream_clock(const struct evt_live_stream *s);
/* The rules file a command's processes are to name (EVT_LIVE_COMMAND). */
const char *evt_live_stream_rules_name(const struct evt_live_stream *s);
/* Looks for new processes; returns how many it watches. */
int evt_live_stream_watched(struct evt_live_stream *s);
/* Why the last process it could not take was not taken (every slot of
 * it another collection's, and whose), or NULL. */
const char *evt_live_stream_full(const struct evt_live_stream *s);
/* Calls cb for every distinct event seen so far, by global id; returns
 * how many. */
int evt_live_stream_events(struct evt_live_stream *s,
			   void (*cb)(uint32_t id, const char *path,
				      const char *format, void *ctx),
			   void *ctx);
/* Reads what was committed since the last call, 65,536 events at most;
 * returns the number of processes still watched (0 once a given pid has
 * exited). */
int evt_live_stream_poll(struct evt_live_stream *s, evt_live_cb cb, void *ctx);
/* Whether the last poll stopped at its bound with more waiting: poll
 * again at once (a blocked writer waits for it). */
bool evt_live_stream_more(const struct evt_live_stream *s);
/* Disables the patterns it enabled (frees its slot) and releases
 * everything. */
/* Whether events come with their text (the default): a reader of fields
 * alone (record --trigger) saves rendering it; text is then NULL. */
void evt_live_stream_want_text(struct evt_live_stream *s, bool want);
/*
 * What process pid, found dead, was writing when it died: "thread T was
 * writing PATH" for each thread that had begun a record and not
 * committed it (a library since 0.1.13 says), joined by "; ", into buf.
 * Its length; 0 when none.
 */
size_t evt_live_stream_died_writing(const struct evt_live_stream *s, int pid,
				    char *buf, size_t size);
void evt_live_stream_destroy(struct evt_live_stream *s);

#endif
