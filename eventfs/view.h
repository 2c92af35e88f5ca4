/*
 * view.h - what the events filesystem shows: the traced processes of one
 * run directory (or one process of it), their events as trees with the
 * default collection's (slot 0's) enable states, and the kernel's events.
 *
 * The view keeps the control files open between refreshes and opens only
 * those that appeared since; trees are rebuilt when the view is older
 * than the age the caller allows, so processes and libraries coming and
 * going show within it.  Not thread-safe: the filesystem holds a lock.
 */
#ifndef EVT_EVENTFS_VIEW_H
#define EVT_EVENTFS_VIEW_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "ctl.h"
#include "event_ids.h"
#include "rundir.h"
#include "tree.h"

/* One event of one process: node->event of a view's tree indexes these. */
struct evt_view_ref {
	struct evt_ctl *ctl;
	const struct evt_ctl_event *event;
};

/* The events of every process (pid 0) or of one, as a tree. */
struct evt_view_tree {
	int pid;
	struct evt_tree_node *root;
	struct evt_view_ref *refs;
	unsigned *node_of;		/* refs[i]'s node is node_of[i]'s */
	unsigned nrefs;
};

struct evt_view {
	struct evt_rundir rd;		/* fd -1 while there is none */
	char rundir[EVT_RUNDIR_PATH_MAX];
	int pid;			/* 0: every process of rd */
	struct evt_ctl **ctls;
	unsigned nctls;
	char **refused;			/* control files reported bad once */
	unsigned nrefused;
	struct evt_view_tree *trees;	/* built on demand, kept while no
					 * process or event comes or goes */
	unsigned ntrees;
	bool shape_changed;		/* since the trees were built */
	struct evt_event_ids ids;
	char **kernel_paths;		/* NULL when tracefs is not readable */
	unsigned nkernel;
	struct evt_tree_node *kernel_root;
	uint64_t refreshed_ns;		/* CLOCK_MONOTONIC; 0: stale */
};

/* 0, or -1 with err set (a bad run directory path). */
int evt_view_init(struct evt_view *v, const char *rundir, int pid,
		  char *err, size_t err_size);
void evt_view_free(struct evt_view *v);
/* Looks again at the run directory and the processes when the view is
 * older than max_age_ns (or marked stale): trees are built again when
 * processes or events came or went, else their states read again. */
void evt_view_refresh(struct evt_view *v, uint64_t max_age_ns);
static inline void evt_view_mark_stale(struct evt_view *v)
{
	v->refreshed_ns = 0;
}
/* The tree of every process (pid 0) or of pid; NULL when pid is not one
 * of the view's, or out of memory. */
const struct evt_view_tree *evt_view_tree(struct evt_view *v, int pid);
/* The pids of the view's processes, ascending, each once; returns how
 * many (at most max). */
unsigned evt_view_pids(const struct evt_view *v, int *pids, unsigned max);

/* Who asks to switch events: the filesystem's caller. */
struct evt_view_caller {
	uid_t uid;
	const gid_t *groups;		/* primary and supplementary */
	unsigned ngroups;
};

/*
 * Switches the events at path (an event or a directory of tree; "" the
 * root, which leaves printk/ alone) in slot 0 of every process of the
 * tree the caller may switch (root, the run directory's owner, or a
 * member of the group the process opted into), and adds a rule for
 * events registered there later.  0; -EACCES when the caller may switch
 * none of them; -ENOENT when there is none now; -EIO when the rule could
 * not be written (err says why: the events there now were switched).
 */
int evt_view_set(struct evt_view *v, const struct evt_view_tree *t,
		 const char *path, bool on, const struct evt_view_caller *who,
		 char *err, size_t err_size);
/* Sets the rate limit (0: none) of the events at path as evt_view_set
 * switches them, with the same rules and results. */
int evt_view_set_rate(struct evt_view *v, const struct evt_view_tree *t,
		      const char *path, uint32_t rate,
		      const struct evt_view_caller *who, char *err,
		      size_t err_size);
/* The rate limit of the events at path of tree t: their one rate (0:
 * none), or -1 when they differ (a directory, or processes). */
int64_t evt_view_rate(const struct evt_view_tree *t, const char *path);
/* Whether the caller may switch the events of the process of c. */
bool evt_view_may_switch(const struct evt_view *v, const struct evt_ctl *c,
			 const struct evt_view_caller *who);

/* The public id of an event (ls --ids shows it). */
uint32_t evt_view_event_id(struct evt_view *v, const struct evt_ctl_event *e);

#endif
