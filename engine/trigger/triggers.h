/*
 * triggers.h - the triggers of a flight recorder: expressions
 * (trigger_expr.h) evaluated by the recorder on a live stream of the
 * events they name, each firing writing a window of the flight recorder
 * (a snapshot of its rings, window_take.h) into DIR/window-<n>.  One
 * implementation for record --trigger, consumer.h's evt_consumer_arm()
 * and evtraced's recordings.
 *
 * Messages (a window written, one that could not be, a field an event
 * lacks, the summary) go where the engine's go (report.h), as "WHO: ...".
 */
#ifndef EVT_ENGINE_TRIGGERS_H
#define EVT_ENGINE_TRIGGERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "trigger_expr.h"

struct evt_triggers;
struct evt_clock_calibration;
struct evt_event_layout;

/* A window, as it was written (or not). */
struct evt_triggers_window {
	const char *dir;		/* NULL: none could be written */
	const char *trigger;		/* the expression that fired */
	const char *event;		/* the path that fired it; for 'lost',
					 * "lost N events" */
	uint32_t pid, tid;		/* 0: no event ('lost') */
	int64_t fired_ns;		/* CLOCK_MONOTONIC */
	int held;			/* it holds the event that fired it: 1;
					 * 0: not (why); -1: not known */
	const char *why;		/* not written, not held, or NULL */
};

struct evt_triggers_opts {
	const struct evt_trigger *const *triggers;	/* stay the caller's */
	unsigned ntriggers;
	const char *who;		/* "record": messages' prefix */
	const char *what;		/* who holds the triggers' collection,
					 * as ls says it */
	const char *rundir;
	const char *outdir;		/* windows go to outdir/window-<n> */
	const char *outdir_name;	/* how messages name outdir (NULL: as
					 * it is; evtraced's /proc/self/fd/N
					 * is its client's DIR) */
	uint32_t slot;			/* the flight recorder's collection */
	/* Its clock's calibration, which windows take as theirs */
	const struct evt_clock_calibration *calibration;
	int64_t after_ns;		/* how long after a firing the window is
					 * taken */
	int64_t before_ns;		/* how long before it the window starts
					 * (0: all the rings hold) */
	unsigned max_windows;
	bool stats;			/* say how many events were evaluated */
	/* What the flight recorder lost so far, for 'lost' (NULL: none). */
	uint64_t (*lost_now)(void *recorder);
	/* Adds the recording's kernel events from from_ns (CLOCK_MONOTONIC;
	 * 0: the window's start) to the window written into dir (NULL: it
	 * has none).  0, or -1 with err set. */
	int (*kernel_window)(void *recorder, const char *dir, int64_t from_ns,
			     char *err, size_t err_size);
	void *recorder;
	/* Called before each window is taken (NULL: nothing): record --keep
	 * brings its pinned sites' collection up to the processes now. */
	void (*before_window)(void *ctx);
	void *before_window_ctx;
	/* Called for each window written or not (NULL: said on standard
	 * error instead). */
	void (*on_window)(const struct evt_triggers_window *w, void *ctx);
	void *on_window_ctx;
};

/* Starts watching pid (and the children it forks; 0: every process;
 * EVT_LIVE_COMMAND: the processes of a command that names its rules) for
 * the triggers' events.  NULL with err set. */
struct evt_triggers *evt_triggers_start(const struct evt_triggers_opts *o,
					int pid, char *err, size_t err_size);
/* The rules file a command's processes name to be watched (started
 * with EVT_LIVE_COMMAND). */
const char *evt_triggers_rules_name(const struct evt_triggers *rt);
/* A kernel event the recording wrote (its fields in layout), for the
 * triggers on kernel events. */
void evt_triggers_kernel_event(struct evt_triggers *rt, const char *path,
			       const struct evt_event_layout *layout,
			       const uint8_t *payload, size_t size,
			       int64_t monotonic_ns, uint32_t pid, uint32_t tid);
/* Reads what came, fires, and writes the windows that are due; how many
 * events came (lost ones too). */
uint64_t evt_triggers_poll(struct evt_triggers *rt);
/* Writes the windows still due, says what fired; frees rt. */
void evt_triggers_finish(struct evt_triggers *rt);

#endif
