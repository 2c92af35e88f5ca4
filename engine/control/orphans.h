/*
 * orphans.h - running processes whose control file was removed from the
 * run directory while they ran (by hand, or by a cleaner of /dev/shm):
 * no engine finds them there any more, and what they write is lost with
 * no count.  They still map the file, which /proc/PID/maps shows as
 * "<run directory>/<pid>-<n>.ctl (deleted)": that is how they are found,
 * among the processes whose maps the caller may read.
 */
#ifndef EVT_ENGINE_ORPHANS_H
#define EVT_ENGINE_ORPHANS_H

#include <stddef.h>
#include <sys/types.h>

#include "rundir.h"

/* An orphan: pid, its name, and the file it maps (a path of rd's). */
typedef void (*evt_orphan_cb)(pid_t pid, const char *comm, const char *file,
			      void *ctx);

/*
 * Calls cb for each process (only pid when it is not 0) that maps a
 * removed control file of rd.  The number found.
 */
unsigned evt_rundir_orphans(const struct evt_rundir *rd, pid_t pid,
			    evt_orphan_cb cb, void *ctx);
/* The removed control file of the run directory dir that pid maps, into
 * file; 0, or -1 when none. */
int evt_rundir_orphan_file(const char *dir, pid_t pid, char *file, size_t size);
/*
 * Why pid has no control file in the run directory dir, into why: "pid
 * N: no traced process with this pid in DIR", or, when it runs on with
 * its file removed, that.  Returns why.
 */
const char *evt_rundir_why_untraced(const char *dir, pid_t pid, char *why,
				    size_t size);

#endif
