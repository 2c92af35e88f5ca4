/*
 * rules.h - published enable rules, read by traced processes.
 *
 * A collection that must see processes from their start writes its rules
 * to a file in the run directory; a process applies the rules that cover
 * it itself when it registers its events, so it never waits on an engine.
 * Which rules files cover a process:
 *
 *   collection-<id>.rules  scope tree: named in $EVTRACE_COLLECTION in the
 *                          environment of a recorded command (children
 *                          inherit it); scope all: every process of the
 *                          run directory, started before or after
 *   default.rules          number 0, the default collection: what `evtrace
 *                          enable` and `disable` said of directories and
 *                          patterns, so that events registered later (a
 *                          library dlopen'd, a process started) follow it
 *
 * Text, one directive per line:
 *
 *   evtrace-rules 1
 *   number 1                  (its number in the run directory, slots.h;
 *                              0: the default collection)
 *   collection 1234567890     (its id; not for number 0)
 *   scope tree | all
 *   mode discard | overwrite | count
 *   packet-size 65536
 *   packet-count 16
 *   block-us 5000             (discard mode: writers wait, see layout.h;
 *                              4294967295: as long as the engine lives)
 *   enable <pattern>          (any number, in order; the last line whose
 *   disable <pattern>          pattern names an event decides; ":<pid>"
 *   enable:<pid> <pattern>     after the verb limits a line to the
 *                              process with that pid)
 *   rate <n> <pattern>        (number 0: each event the pattern names is
 *   rate:<pid> <n> <pattern>   capped at n a second per thread, 0: not;
 *                              the last such line decides, apart from
 *                              enable and disable)
 */
#ifndef EVT_FORMAT_RULES_H
#define EVT_FORMAT_RULES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "layout.h"

#define EVT_RULES_MAX_PATTERNS 64
#define EVT_RULES_PATTERN_MAX 256

enum evt_rules_scope {
	EVT_SCOPE_TREE = 0,	/* the processes whose environment names it */
	EVT_SCOPE_ALL = 1,	/* every process in the run directory */
};

struct evt_rules {
	uint32_t number;		/* the collection's (0: the default) */
	uint64_t collection_id;
	uint32_t scope;			/* enum evt_rules_scope */
	uint32_t mode;
	uint32_t packet_size;
	uint32_t packet_count;
	uint32_t block_us;
	unsigned npatterns;
	char patterns[EVT_RULES_MAX_PATTERNS][EVT_RULES_PATTERN_MAX];
	uint8_t disable[EVT_RULES_MAX_PATTERNS];	/* a disable line */
	uint8_t is_rate[EVT_RULES_MAX_PATTERNS];	/* a rate line */
	uint32_t rate[EVT_RULES_MAX_PATTERNS];		/* its events a second */
	uint32_t pid[EVT_RULES_MAX_PATTERNS];	/* 0: any process */
};

/* Returns 0, or -1 with "line N: why" in err. */
int evt_rules_parse(const char *text, size_t len, struct evt_rules *rules,
		    char *err, size_t err_size);
int evt_rules_write(FILE *f, const struct evt_rules *rules);
/*
 * What the rules say of the event at path in process pid (a printk site
 * of function func and format format, for fn: and fmt: patterns; each
 * NULL when it has none): 1 on, 0 off, -1 nothing (no line names it).
 */
int evt_rules_decide(const struct evt_rules *rules, const char *path,
		     const char *func, const char *format, uint32_t pid);
/* The rate limit the rules give the event at path in process pid, 0 for
 * none said or none, or -1 when no rate line names it. */
int64_t evt_rules_rate(const struct evt_rules *rules, const char *path,
		       const char *func, const char *format, uint32_t pid);
/* Appends a rate line, first dropping the rate lines it makes moot.  0,
 * or -1 with err set when the rules are full. */
int evt_rules_add_rate(struct evt_rules *rules, uint32_t pid,
		       const char *pattern, uint32_t rate, char *err,
		       size_t err_size);
/* Copies line from over line to (compacting the lines). */
void evt_rules_move(struct evt_rules *rules, unsigned to, unsigned from);
/*
 * Appends a line (pid 0: for every process), first dropping the lines it
 * makes moot: those for the same or a narrower pattern (a path below a
 * directory it names) and the same or a narrower set of processes, and a
 * disable line with no enable line before it.  0, or -1 with err set when
 * the rules are full.
 */
int evt_rules_add(struct evt_rules *rules, bool enable, uint32_t pid,
		  const char *pattern, char *err, size_t err_size);
/* 0 when sizes and counts are within the limits of layout.h. */
int evt_buffer_config_check(uint32_t packet_size, uint32_t packet_count,
			    char *err, size_t err_size);

#endif
