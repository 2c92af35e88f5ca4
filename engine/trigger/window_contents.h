/*
 * window_contents.h - what a flight recorder's window holds, read back
 * from the trace once written: its time span, events, processes and
 * losses, and whether it holds the event that fired it.
 */
#ifndef EVT_ENGINE_WINDOW_CONTENTS_H
#define EVT_ENGINE_WINDOW_CONTENTS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define WINDOW_PIDS_MAX 16

/* The event a window should hold: path on tid, at trace-clock ts (0: a
 * kernel event, found by its CLOCK_MONOTONIC time ns to the microsecond). */
struct window_firing {
	const char *path;
	uint32_t tid;
	uint64_t ts;
	int64_t ns;
};

struct window_contents {
	uint64_t events;
	uint64_t lost_before;	/* before each thread's first event:
				 * overwritten by the flight recorder, or
				 * lost, before the window */
	uint64_t lost_inside;	/* after a thread's first event */
	int64_t from_ns, to_ns;	/* its first and last event, CLOCK_MONOTONIC */
	uint32_t pids[WINDOW_PIDS_MAX];
	unsigned npids;
	bool more_pids;		/* past WINDOW_PIDS_MAX */
	bool held;		/* the firing event is in it */
	/* The firing thread's: */
	uint64_t firing_thread_events, firing_thread_lost_before;
	int64_t firing_thread_from_ns;
	/* Threads that have had an event (a loss before a thread's first
	 * event is before the window, for that thread): */
	uint32_t *tids;
	size_t ntids, captids;
};

/* Reads window dir; looks for want unless NULL.  0, or -1 with err set;
 * window_contents_free() after either. */
int window_contents_read(const char *dir, const struct window_firing *want,
			 struct window_contents *wc, char *err, size_t err_size);
void window_contents_free(struct window_contents *wc);
/* Why a window does not hold want ("overwritten before ..."), into buf. */
void window_contents_why_not(char *buf, size_t size, const struct window_contents *wc,
			     const struct window_firing *want);
/* The lines of evtrace/trigger that say what it holds. */
void window_contents_print(FILE *out, const struct window_contents *wc,
			   const struct window_firing *want);

#endif
