/*
 * eventfs.h - the events filesystem (FUSE): the event trees of running
 * processes as directories with enable, format and id files, tracefs's
 * way, and trace_pipe.
 *
 *   README  available_events  trace_pipe
 *   events/enable  events/<path>/{enable,format,id}  events/kernel/...
 *   proc/<pid>/events/...
 *
 * Reading a file gives what it says when it is opened: a run directory
 * looked at again when the view is older than 50 ms, so processes and
 * libraries that come and go show within 100 ms (the kernel caches no
 * name or attribute).  It never waits on a traced process: enable bits
 * are set in shared memory, records read from it.
 */
#ifndef EVT_EVENTFS_EVENTFS_H
#define EVT_EVENTFS_EVENTFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "ctl.h"
#include "trace_pipe.h"

struct evt_eventfs_opts {
	const char *mountpoint;
	const char *rundir;
	int pid;			/* 0: every process of rundir */
	bool daemonize;			/* return once mounted */
	bool allow_other;		/* other users may look (and, as
					 * the rules allow, switch) */
	evt_pipe_line_fn line;		/* trace_pipe's lines */
	/* An event's format, as `evtrace format` prints it. */
	void (*format)(FILE *f, const struct evt_ctl_event *e);
};

/*
 * Mounts, serves until unmounted (fusermount3 -u) or until SIGINT,
 * SIGTERM or SIGHUP (then readers of trace_pipe get the end of the file
 * and it unmounts).  0; or -1 with err set when it could not mount.
 */
int evt_eventfs_run(const struct evt_eventfs_opts *o, char *err,
		    size_t err_size);

#endif
