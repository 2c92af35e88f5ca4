/*
 * tree.h - the event tree of one process (or of the kernel's events), with
 * tri-state enable states.
 *
 * Directories are the '/'-separated prefixes of event paths.  The state of
 * an event is its enable bit for one slot; a directory's is '?' with
 * nothing below, '0' or '1' when all below agree, 'X' otherwise.  The root
 * folds everything except printk/, the directory it does not switch.
 */
#ifndef EVT_ENGINE_TREE_H
#define EVT_ENGINE_TREE_H

#include "ctl.h"
#include "pattern.h"

struct evt_tree_node {
	char *name;
	char *path;			/* "" for the root */
	int event;			/* index in ctl->events, or -1 */
	enum evt_tristate state;
	struct evt_tree_node **children;	/* sorted by name */
	unsigned nchildren;
};

/* NULL when out of memory. */
struct evt_tree_node *evt_tree_build(const struct evt_ctl *c, unsigned slot);
/* A tree of any events: paths[i] with state on[i]; node->event is i. */
struct evt_tree_node *evt_tree_build_paths(const char *const *paths,
					   const bool *on, unsigned count);
/* The same with a state for each; a path given more than once is one
 * event (the first index) whose states are joined ('X' when they differ).
 * With first, first[i] is the index the node of paths[i] has. */
struct evt_tree_node *evt_tree_build_states(const char *const *paths,
					    const enum evt_tristate *states,
					    unsigned count, unsigned *first);
/* Computes every node's state again from states, indexed by node->event
 * (a path given more than once: its states already joined). */
void evt_tree_refold(struct evt_tree_node *root,
		     const enum evt_tristate *states);
void evt_tree_free(struct evt_tree_node *root);
/* The node at path ("" or "/" for the root; a trailing '/' is allowed). */
const struct evt_tree_node *evt_tree_find(const struct evt_tree_node *root,
					  const char *path);
/* Sets slot's bit of every event pattern names; returns how many. */
unsigned evt_tree_set(struct evt_ctl *c, const char *pattern, unsigned slot,
		      bool on);
/* Sets the rate limit of every event pattern names; how many it set, and
 * in *err_no the first errno of one it could not (0: none).  Each one set
 * is noted in caps as a collection's rate (NULL: a rule's, noted
 * nowhere). */
struct evt_caps;
unsigned evt_tree_set_rate(struct evt_ctl *c, const char *pattern, uint32_t rate,
			   struct evt_caps *caps, int *err_no);

#endif
