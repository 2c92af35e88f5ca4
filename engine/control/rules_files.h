/*
 * rules_files.h - rules files an engine publishes in the run directory
 * (rules.h) for processes to apply as they register their events:
 * a collection's, and default.rules, what `evtrace enable` and `disable`
 * said for the default collection (slot 0), read by each process when it
 * starts and whenever it loads a library.
 */
#ifndef EVT_ENGINE_RULES_FILES_H
#define EVT_ENGINE_RULES_FILES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rules.h"
#include "rundir.h"
#include "selection.h"

/* What a collection's rules say besides its patterns. */
struct evt_rules_head {
	uint32_t number;		/* in the run directory (slots.h) */
	uint64_t collection_id;
	uint32_t scope;			/* enum evt_rules_scope */
	uint32_t mode;			/* enum evt_buffer_mode */
	uint32_t packet_size;
	uint32_t packet_count;
	uint32_t block_us;		/* layout.h */
};

/* Writes text as the file name in the run directory, whole or not at
 * all (a temporary file renamed).  0, or -1 with err set. */
int evt_rundir_put(const struct evt_rundir *rd, const char *name,
		   const char *text, size_t len, char *err, size_t err_size);
/* The same, of rules. */
int evt_rules_publish(const struct evt_rundir *rd, const char *name,
		      const struct evt_rules *rules, char *err, size_t err_size);

/* The lines of default.rules about kernel events (enable kernel/...),
 * for every process or pid: only they decide a kernel event (the root
 * does not name them there).  0, or -1 with err set (not readable, or
 * not rules). */
int evt_default_rules_kernel(const struct evt_rundir *rd, int pid,
			     struct evt_rules *r, char *err, size_t err_size);

/*
 * Adds "enable PATTERN" or "disable PATTERN" (for process pid only, or
 * every process when 0) to default.rules, under a lock; lines of pids
 * that no longer run are dropped.  0, or -1 with err set.
 */
int evt_default_rules_add(const struct evt_rundir *rd, bool enable,
			  uint32_t pid, const char *pattern, char *err,
			  size_t err_size);

/* default.rules as it is (malloc'd), or NULL when unreadable. */
struct evt_rules *evt_default_rules_read(const struct evt_rundir *rd);
/* Whether default.rules caps any event (a rate line other than 0). */
bool evt_default_rules_rated(const struct evt_rundir *rd);
/* Adds "rate N PATTERN" likewise (0: no limit). */
int evt_default_rules_rate(const struct evt_rundir *rd, uint32_t pid,
			   const char *pattern, uint32_t rate, char *err,
			   size_t err_size);

/* A collection's rules file: head, and the patterns of its selection
 * (global ids have no place in it).  0, or -1 with err set, also when the
 * patterns do not fit a rules file. */
int evt_selection_publish(const struct evt_rundir *rd, const char *name,
			  const struct evt_rules_head *head,
			  const struct evt_selection *sel, char *err,
			  size_t err_size);

#endif
