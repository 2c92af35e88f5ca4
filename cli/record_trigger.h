/*
 * record_trigger.h - record --overwrite --trigger: expressions evaluated
 * by the recorder on a live stream of the events they name, each firing
 * writing a window of the flight recorder (a snapshot of its rings) into
 * DIR/window-<n>.
 *
 *   PATTERN                     any event PATTERN names
 *   PATTERN if FIELD OP VALUE   one whose field compares (== != < <= > >=;
 *                               integers, reals; strings with == and !=)
 *   span NAME > DURATION        a span that lasted longer (ns us ms s), or
 *                               is still open past it
 *   lost                        events were lost
 * A PATTERN under kernel/ names kernel events, which the recording
 * records (the caller adds the pattern) and hands over as it writes them
 * (record_triggers_kernel_event()).
 */
#ifndef EVT_CLI_RECORD_TRIGGER_H
#define EVT_CLI_RECORD_TRIGGER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct trigger;

/* A duration, a number and ns, us, ms or s, in ns: 0, or -1. */
int trigger_duration(const char *s, int64_t *ns);
/* Parses expr; NULL with err set, naming the position of what is wrong. */
struct trigger *trigger_parse(const char *expr, char *err, size_t err_size);
void trigger_free(struct trigger *t);
/* The kernel events a trigger is on (kernel/...), or NULL. */
const char *trigger_kernel_pattern(const struct trigger *t);
/* The field it compares, or NULL; its expression. */
const char *trigger_field(const struct trigger *t);
const char *trigger_text(const struct trigger *t);

struct record_triggers;
struct evt_clock_calibration;

struct record_triggers_opts {
	struct trigger **triggers;
	unsigned ntriggers;
	const char *rundir;
	const char *outdir;		/* windows go to outdir/window-<n> */
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
};

/* Starts watching pid (and the children it forks; 0: every process;
 * EVT_LIVE_COMMAND: the processes of a command that names its rules) for
 * the triggers' events.  NULL with err set. */
struct record_triggers *record_triggers_start(const struct record_triggers_opts *o,
					      int pid, char *err, size_t err_size);
/* The rules file a command's processes name to be watched (started
 * with EVT_LIVE_COMMAND). */
const char *record_triggers_rules_name(const struct record_triggers *rt);
/* A kernel event the recording wrote (its fields in layout), for the
 * triggers on kernel events. */
struct evt_event_layout;
void record_triggers_kernel_event(struct record_triggers *rt, const char *path,
				  const struct evt_event_layout *layout,
				  const uint8_t *payload, size_t size,
				  int64_t monotonic_ns, uint32_t pid, uint32_t tid);
/* Reads what came, fires, and writes the windows that are due; how many
 * events came (lost ones too). */
uint64_t record_triggers_poll(struct record_triggers *rt);
/* Writes a window still due, says what fired; frees rt. */
void record_triggers_finish(struct record_triggers *rt);

#endif
