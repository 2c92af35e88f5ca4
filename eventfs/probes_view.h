/*
 * probes_view.h - the USDT probes of the process a mount shows (mount -p
 * PID), as events/usdt/PROVIDER/NAME: each with the enable state that
 * default.rules gives it for that process, and its places as `evtrace ls
 * --probes` lists them.  A write to an enable file is a line of
 * default.rules for the process, which its trace_pipe (a stream of its
 * default collection) follows as `evtrace enable -p PID usdt/...` does.
 */
#ifndef EVT_EVENTFS_PROBES_VIEW_H
#define EVT_EVENTFS_PROBES_VIEW_H

#include <stdbool.h>
#include <stdio.h>

#include "rundir.h"
#include "tree.h"

struct evt_probes_view {
	int pid;
	char **files;			/* the files it maps code from */
	unsigned nfiles;
	char **paths;			/* usdt/PROVIDER/NAME, each once */
	unsigned n;
	struct evt_tree_node *root;	/* NULL: no probe */
};

/* The probes of process pid's files (none when it has none, or its maps
 * do not read: nfiles 0, the process gone). */
void evt_probes_view_load(struct evt_probes_view *pv, int pid);
void evt_probes_view_free(struct evt_probes_view *pv);
/* Each probe's state from the default collection's rules in rd (off
 * without any). */
void evt_probes_view_states(struct evt_probes_view *pv, const struct evt_rundir *rd);
/* The places of the probes at path (an event, or a directory: all below). */
void evt_probes_view_format(const struct evt_probes_view *pv, const char *path,
			    FILE *f);
/* Switches the probes at path for the process: a line of default.rules.
 * 0, or -1 with err set. */
int evt_probes_view_set(const struct evt_probes_view *pv, const struct evt_rundir *rd,
			const char *path, bool on, char *err, size_t err_size);

#endif
