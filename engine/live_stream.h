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

#include <stddef.h>
#include <stdint.h>

struct evt_live_event {
	int64_t monotonic_ns;
	uint32_t pid;
	uint32_t tid;
	uint16_t cpu;
	char comm[17];
	const char *path;	/* NULL for a lost-events line */
	const char *text;
	size_t text_len;	/* may hold a NUL (a printk %c of 0) */
	uint64_t lost;
};

typedef void (*evt_live_cb)(const struct evt_live_event *e, void *ctx);

struct evt_live_stream;

/* Watches the processes of pid (all when 0) in rundir and enables the
 * patterns in them while it runs (see above).  0, or -1 with err set (all
 * slots taken: naming their holders). */
int evt_live_stream_create(const char *rundir, int pid,
			   const char *const *patterns, unsigned npatterns,
			   struct evt_live_stream **out, char *err,
			   size_t err_size);
/* Reads what was committed since the last call; returns the number of
 * processes still watched (0 once a given pid has exited). */
int evt_live_stream_poll(struct evt_live_stream *s, evt_live_cb cb, void *ctx);
/* Disables the patterns it enabled (frees its slot) and releases
 * everything. */
void evt_live_stream_destroy(struct evt_live_stream *s);

#endif
