/*
 * default_switch.h - switching events of the default collection (slot
 * 0), what `evtrace enable`/`disable` and the events filesystem's
 * `enable` files do: the events there now, and the rule that events
 * registered later follow.
 */
#ifndef EVT_ENGINE_DEFAULT_SWITCH_H
#define EVT_ENGINE_DEFAULT_SWITCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ctl.h"
#include "rundir.h"

/* What the caller says of one process. */
enum evt_switch_verdict {
	EVT_SWITCH_SKIP,	/* not one of those meant */
	EVT_SWITCH_REFUSE,	/* meant, but the caller may not switch it */
	EVT_SWITCH_YES,
};

struct evt_switch_result {
	unsigned events;	/* events switched, in processes still whole */
	unsigned processes;	/* processes where at least one was */
	unsigned refused;	/* processes meant but refused */
};

/*
 * Switches the events under pattern on or off in slot 0 of each of the n
 * control files that verdict (NULL: all) says yes to, then, when any
 * was switched, adds the rule to default.rules: for pid (0: every
 * process), or, with per_process, one for each process switched (a
 * group member may switch those alone).  0, or -1 with err when the rule
 * could not be written: the events there now were switched, those
 * registered later will not be.
 */
int evt_default_switch(const struct evt_rundir *rd, struct evt_ctl **ctls,
		       unsigned n, const char *pattern, bool on, uint32_t pid,
		       bool per_process,
		       enum evt_switch_verdict (*verdict)(const struct evt_ctl *c,
							   void *ctx),
		       void *ctx, struct evt_switch_result *res, char *err,
		       size_t err_size);

/*
 * Sets the rate limit (0: none) of the events under pattern in the n
 * control files that verdict (NULL: all) says yes to, and adds the rule
 * to default.rules for pid (0: every process) when any was set.  0, or -1
 * with err: the rule could not be written, or (res->events counts those
 * set) some event's rate could not be (the file system of the run
 * directory is full).
 */
int evt_default_set_rate(const struct evt_rundir *rd, struct evt_ctl **ctls,
			 unsigned n, const char *pattern, uint32_t rate,
			 uint32_t pid,
			 enum evt_switch_verdict (*verdict)(const struct evt_ctl *c,
							    void *ctx),
			 void *ctx, struct evt_switch_result *res, char *err,
			 size_t err_size);

#endif
