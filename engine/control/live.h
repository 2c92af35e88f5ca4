/*
 * live.h - open the control files of the live processes in a run directory.
 */
#ifndef EVT_ENGINE_LIVE_H
#define EVT_ENGINE_LIVE_H

#include <stdbool.h>

#include "ctl.h"
#include "rundir.h"

/*
 * Opens the control files of live processes (all, or those of pid when
 * pid > 0) in rd, registries parsed.  Files that fail their checks are
 * reported on stderr and skipped, as are those skip (when given) says to
 * leave, by name, before they are opened.  Returns the number opened, or
 * -errno.
 */
int evt_rundir_open_live(const struct evt_rundir *rd, int pid,
			 bool (*skip)(const char *name, void *ctx), void *ctx,
			 struct evt_ctl ***out);
/* The same, the files of processes that have exited included (what they
 * wrote may still be read). */
int evt_rundir_open_all(const struct evt_rundir *rd, int pid,
			bool (*skip)(const char *name, void *ctx), void *ctx,
			struct evt_ctl ***out);
/* Either of them (dead_too), for a reader that rescans: refused is told
 * each file that could not be opened (and said), so that skip may pass
 * over it from then on instead of saying it again. */
int evt_rundir_open_watched(const struct evt_rundir *rd, int pid, bool dead_too,
			    bool (*skip)(const char *name, void *ctx),
			    void (*refused)(const char *name, void *ctx),
			    void *ctx, struct evt_ctl ***out);
void evt_rundir_close_all(struct evt_ctl **ctls, int n);

/*
 * Removes what dead processes and dead collections left behind: control
 * files whose writer is gone and whose collections (slots 1..7) no engine
 * holds, and rules files of collections whose slot lock is free; in live
 * processes, switches off the events of collections whose owner is gone
 * (slots.h).  Returns the number of files removed.  An engine acting for
 * a user without privilege (evt_policy_guest) leaves the directory as it
 * is: what a dead recorder of its owner left is the owner's to recover.
 */
int evt_rundir_sweep(const struct evt_rundir *rd);

/*
 * Opens the lock file of collection slot s ("slot-<s>.lock", made when
 * missing), checked.  The fd, or -1 with err set.
 */
int evt_rundir_slot_lock(const struct evt_rundir *rd, unsigned s, char *err,
			 size_t err_size);

#endif
