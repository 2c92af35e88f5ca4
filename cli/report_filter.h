/*
 * report_filter.h - the cut report and the converters share: -e PATTERN,
 * -F 'PATTERN if FIELD OP VALUE', -p PID, -t TID, --since and --until,
 * resolved against the first item of the trace.  With -e or -F, an event
 * is kept when an -e names it or an -F names it and its field passes.
 */
#ifndef EVT_CLI_REPORT_FILTER_H
#define EVT_CLI_REPORT_FILTER_H

#include <stdbool.h>
#include <stdint.h>

#include "field_test.h"
#include "report_output.h"

/* -F: a pattern and the test of one of its events' fields. */
struct report_field_filter {
	const char *text;		/* as given */
	char *pattern;
	struct field_test test;
	bool matched;			/* it kept an event */
	bool named;			/* it named an event */
	bool lacking;			/* an event it named lacks the field */
};

/* Parses arg into ff: 0, or -1 (said, for cmd). */
int report_field_filter_parse(struct report_field_filter *ff, const char *cmd,
			      const char *arg);
/* Whether the fields of an event ff names pass it (noted in ff). */
bool report_field_filter_holds(struct report_field_filter *ff,
			       const struct evt_field *fields, int n);
/* Says, at the end, why ff kept nothing (others: other filters cut). */
void report_field_filter_note(const struct report_field_filter *ff,
			      const char *cmd, bool others);
void report_field_filter_free(struct report_field_filter *ff);

struct report_filter {
	const char **patterns;
	bool *matched;			/* the pattern named an event read */
	unsigned npatterns;
	struct report_field_filter *filters;
	unsigned nfilters;
	int *pids, *tids;
	unsigned npids, ntids;
	struct report_time since, until;
	enum report_clock clock;	/* the command's --clock: a bare
					 * number in --since/--until is on it */

	uint64_t kept_events, kept_lost;	/* what was wanted so far */
	bool started;			/* the trace's first item was met */
	int64_t start_monotonic_ns, realtime_offset_ns;
	int64_t since_ns, until_ns;	/* resolved at start, on */
	bool since_real, until_real;	/* CLOCK_REALTIME, or CLOCK_MONOTONIC */
	/* Of every trace read, for saying what a range missed: */
	uint64_t items, in_range;	/* items read; in --since/--until */
	int64_t first_monotonic_ns, last_monotonic_ns;
	int64_t first_realtime_ns, last_realtime_ns;
};

/* The getopt_long options of the filter, for a command's table. */
#define REPORT_FILTER_LONGOPTS \
	{ "event", required_argument, NULL, 'e' }, \
	{ "filter", required_argument, NULL, 'F' }, \
	{ "pid", required_argument, NULL, 'p' }, \
	{ "tid", required_argument, NULL, 't' }, \
	{ "since", required_argument, NULL, 'S' }, \
	{ "until", required_argument, NULL, 'U' }
#define REPORT_FILTER_SHORTOPTS "e:F:p:t:"

/* Takes option opt ('e', 'F', 'p', 't', 'S' or 'U') of command cmd: 1 when it
 * was one of the filter's, 0 when not, -1 when arg is bad (reported). */
int report_filter_option(struct report_filter *f, const char *cmd, int opt,
			 const char *arg);
/* Whether it, the next item in time order, is wanted; the first call
 * resolves the times against it. */
bool report_filter_wanted(struct report_filter *f, const struct evt_trace_item *it);
/* Says which -e patterns named no event read; whether one did not. */
bool report_filter_note_unmatched(const struct report_filter *f, const char *cmd);
/* Says when --since/--until selected nothing, or one of them lies
 * outside the trace as a time that looks meant after its start. */
void report_filter_note_range(const struct report_filter *f, const char *cmd);
/* Whether any of the options was given. */
bool report_filter_any(const struct report_filter *f);
/* Forgets the trace's start, for the next trace of several. */
void report_filter_restart(struct report_filter *f);
void report_filter_free(struct report_filter *f);

#endif
