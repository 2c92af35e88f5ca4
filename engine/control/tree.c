/*
 * tree.c - build event trees and apply enable patterns (see tree.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "caps.h"
#include "tree.h"

static struct evt_tree_node *node_new(const char *name, const char *path)
{
	struct evt_tree_node *n = calloc(1, sizeof(*n));

	if (!n)
		return NULL;
	n->name = strdup(name);
	n->path = strdup(path);
	n->event = -1;
	n->state = EVT_STATE_EMPTY;
	if (!n->name || !n->path) {
		free(n->name);
		free(n->path);
		free(n);
		return NULL;
	}
	return n;
}

void evt_tree_free(struct evt_tree_node *n)
{
	unsigned i;

	if (!n)
		return;
	for (i = 0; i < n->nchildren; i++)
		evt_tree_free(n->children[i]);
	free(n->children);
	free(n->name);
	free(n->path);
	free(n);
}

static struct evt_tree_node *child(struct evt_tree_node *dir, const char *name,
				   size_t len, const char *path)
{
	struct evt_tree_node *n, **grown;
	char part[1024];
	unsigned i;

	if (len >= sizeof(part))
		len = sizeof(part) - 1;
	memcpy(part, name, len);
	part[len] = '\0';
	for (i = 0; i < dir->nchildren; i++)
		if (!strcmp(dir->children[i]->name, part))
			return dir->children[i];
	grown = realloc(dir->children, (dir->nchildren + 1) * sizeof(*grown));
	if (!grown)
		return NULL;
	dir->children = grown;
	n = node_new(part, path);
	if (!n)
		return NULL;
	dir->children[dir->nchildren++] = n;
	return n;
}

static int by_name(const void *a, const void *b)
{
	return strverscmp((*(struct evt_tree_node *const *)a)->name,
			  (*(struct evt_tree_node *const *)b)->name);
}

static enum evt_tristate join(enum evt_tristate a, enum evt_tristate b)
{
	if (a == EVT_STATE_EMPTY)
		return b;
	if (b == EVT_STATE_EMPTY)
		return a;
	return a == b ? a : EVT_STATE_MIXED;
}

static enum evt_tristate fold(struct evt_tree_node *n,
			      const enum evt_tristate *states, bool root)
{
	enum evt_tristate s = EVT_STATE_EMPTY;
	unsigned i;

	if (n->nchildren)
		qsort(n->children, n->nchildren, sizeof(*n->children), by_name);
	if (n->event >= 0)
		s = states[n->event];
	for (i = 0; i < n->nchildren; i++) {
		enum evt_tristate cs = fold(n->children[i], states, false);

		if (root && !strcmp(n->children[i]->name, "printk"))
			continue;
		s = join(s, cs);
	}
	n->state = s;
	return s;
}

struct evt_tree_node *evt_tree_build_states(const char *const *paths,
					    const enum evt_tristate *states,
					    unsigned count, unsigned *first)
{
	struct evt_tree_node *root = node_new("", "");
	enum evt_tristate *joined = malloc((count + 1) * sizeof(*joined));
	unsigned i;

	if (!root || !joined) {
		evt_tree_free(root);
		free(joined);
		return NULL;
	}
	memcpy(joined, states, count * sizeof(*joined));
	for (i = 0; i < count; i++) {
		const char *path = paths[i], *p = path;
		struct evt_tree_node *n = root;

		while (n) {
			const char *slash = strchr(p, '/');
			size_t len = slash ? (size_t)(slash - p) : strlen(p);
			char prefix[1100];

			snprintf(prefix, sizeof(prefix), "%.*s",
				 (int)(p - path + len), path);
			n = child(n, p, len, prefix);
			if (!slash)
				break;
			p = slash + 1;
		}
		if (!n) {
			evt_tree_free(root);
			free(joined);
			return NULL;
		}
		/* One path met twice (two processes): its states joined. */
		if (n->event >= 0)
			joined[n->event] = join(joined[n->event], states[i]);
		else
			n->event = (int)i;
		if (first)
			first[i] = (unsigned)n->event;
	}
	fold(root, joined, true);
	free(joined);
	return root;
}

void evt_tree_refold(struct evt_tree_node *root,
		     const enum evt_tristate *states)
{
	fold(root, states, true);
}

struct evt_tree_node *evt_tree_build_paths(const char *const *paths,
					   const bool *on, unsigned count)
{
	enum evt_tristate *states = malloc((count + 1) * sizeof(*states));
	struct evt_tree_node *root;
	unsigned i;

	if (!states)
		return NULL;
	for (i = 0; i < count; i++)
		states[i] = on[i] ? EVT_STATE_ON : EVT_STATE_OFF;
	root = evt_tree_build_states(paths, states, count, NULL);
	free(states);
	return root;
}

struct evt_tree_node *evt_tree_build(const struct evt_ctl *c, unsigned slot)
{
	const char **paths = malloc((c->nevents + 1) * sizeof(*paths));
	enum evt_tristate *states = malloc((c->nevents + 1) * sizeof(*states));
	struct evt_tree_node *root = NULL;
	uint32_t i;

	if (paths && states) {
		for (i = 0; i < c->nevents; i++) {
			paths[i] = c->events[i].path;
			/* A refused site is never on: not part of the state of
			 * the directories above it; a rider is its switch. */
			states[i] = c->events[i].refused || c->events[i].rider ?
				    EVT_STATE_EMPTY :
				    evt_ctl_enabled(c, c->events[i].id, slot) ?
				    EVT_STATE_ON : EVT_STATE_OFF;
		}
		root = evt_tree_build_states(paths, states, c->nevents, NULL);
	}
	free(paths);
	free(states);
	return root;
}

static int by_key(const void *key, const void *node)
{
	return strverscmp(key, (*(struct evt_tree_node *const *)node)->name);
}

const struct evt_tree_node *evt_tree_find(const struct evt_tree_node *root,
					  const char *path)
{
	const struct evt_tree_node *n = root;
	char part[1024];

	while (*path == '/')
		path++;
	while (n && *path) {
		const char *slash = strchr(path, '/');
		size_t len = slash ? (size_t)(slash - path) : strlen(path);
		struct evt_tree_node **found;

		if (len >= sizeof(part))
			return NULL;
		memcpy(part, path, len);
		part[len] = '\0';
		/* Children are sorted (strverscmp) once the tree is built. */
		found = n->nchildren ? bsearch(part, n->children, n->nchildren,
					       sizeof(*n->children), by_key) : NULL;
		n = found ? *found : NULL;
		path += len;
		while (*path == '/')
			path++;
	}
	return n;
}

/* Whether pattern names event i of c (a rider goes with its switch). */
static bool names(const struct evt_ctl *c, uint32_t i, const char *pattern)
{
	const struct evt_ctl_event *e = &c->events[i];

	return !e->rider && evt_pattern_match_site(pattern, e->path, e->func,
						   e->format);
}

unsigned evt_tree_set(struct evt_ctl *c, const char *pattern, unsigned slot,
		      bool on)
{
	unsigned count = 0;
	uint32_t i;

	for (i = 0; i < c->nevents; i++) {
		if (!names(c, i, pattern))
			continue;
		if (!c->events[i].refused)	/* it stays off; still named */
			evt_ctl_set_enable(c, c->events[i].id, slot, on);
		count++;
	}
	return count;
}

unsigned evt_tree_set_rate(struct evt_ctl *c, const char *pattern, uint32_t rate,
			   struct evt_caps *caps, int *err_no)
{
	unsigned count = 0;
	uint32_t i;

	*err_no = 0;
	for (i = 0; i < c->nevents; i++) {
		if (!names(c, i, pattern))
			continue;
		if (evt_ctl_set_rate(c, c->events[i].id, rate) && !*err_no) {
			*err_no = errno;
			continue;
		}
		count++;
		if (caps)
			evt_caps_note(caps, c->h.pid, c->events[i].id, rate, EVT_CAP_RATE);
	}
	return count;
}
