/*
 * selection.h - the events a collection wants: path patterns and global
 * ids, added and removed while it runs.  Every change bumps gen, so that
 * whoever applied it to a process knows to apply it again.
 */
#ifndef EVT_ENGINE_SELECTION_H
#define EVT_ENGINE_SELECTION_H

#include <stdbool.h>
#include <stdint.h>

struct evt_selection {
	char **patterns;
	unsigned npatterns;
	char **excludes;		/* wanted by none of them (record --keep's) */
	unsigned nexcludes;
	uint32_t *ids;			/* global ids (event_ids.h) */
	unsigned nids;
	uint32_t gen;
};

/* 0, -1 when out of memory, -2 when it would not fit a rules file (too
 * many patterns, or too long).  Adding what is there already is a no-op. */
int evt_selection_add_pattern(struct evt_selection *s, const char *pattern);
int evt_selection_add_id(struct evt_selection *s, uint32_t id);
/* Whether it was there. */
bool evt_selection_remove_pattern(struct evt_selection *s, const char *pattern);
bool evt_selection_remove_id(struct evt_selection *s, uint32_t id);
bool evt_selection_has_pattern(const struct evt_selection *s, const char *pattern);
/* The error for taking back a pattern it does not have, saying what it
 * has, in err; returns -1. */
int evt_selection_not_there(const struct evt_selection *s, unsigned slot,
			    const char *pattern, char *err, size_t err_size);
/* Events this pattern names are not wanted, whatever else names them.
 * 0, -1 when out of memory, -2 when it would not fit a rules file. */
int evt_selection_exclude(struct evt_selection *s, const char *pattern);
/* Whether it wants event id at path (a printk site's function and format
 * for fn: and fmt: patterns, each NULL when it has none). */
bool evt_selection_wants(const struct evt_selection *s, uint32_t id,
			 const char *path, const char *func,
			 const char *format);
/* Adds or removes a pattern (or, pattern NULL, an id).  0, or -1 with err
 * set: out of memory, too many, or not there to remove. */
int evt_selection_change(struct evt_selection *s, bool add, const char *pattern,
			 uint32_t id, char *err, size_t err_size);
void evt_selection_free(struct evt_selection *s);

#endif
