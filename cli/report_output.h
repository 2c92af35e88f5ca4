/*
 * report_output.h - what evtrace report's options need apart from the walk in
 * cmd_report.c: times on the clock asked for (report_time.c), events as
 * JSON (report_json.c, also convert's) and per-event and per-thread
 * counts (report_stats.c).
 */
#ifndef EVT_CLI_REPORT_OUTPUT_H
#define EVT_CLI_REPORT_OUTPUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "json_text.h"
#include "trace_reader.h"

enum report_clock { REPORT_MONOTONIC, REPORT_REALTIME, REPORT_RELATIVE };

/*
 * --since/--until: a time on the clock the command prints times on (a
 * bare number: CLOCK_MONOTONIC seconds; with --clock relative, seconds
 * after the trace's first item; with --clock realtime, Unix seconds), a
 * time after the trace's first item (a sign or a unit: +1.5, 1.5s,
 * 250ms), a wall-clock time of day on the date of that item, or a full
 * local date and time.
 */
struct report_time {
	enum { TIME_UNSET, TIME_RELATIVE, TIME_ON_CLOCK, TIME_OF_DAY, TIME_DATE } kind;
	int64_t ns;		/* RELATIVE: after the start; ON_CLOCK: the
				 * time; else within the second */
	int year, mon, mday, hour, min, sec;
	const char *text;	/* as given */
};

/* Parses ARG of option opt; 0, or -1 with why in err. */
int report_time_parse(const char *arg, struct report_time *t, char *err,
		      size_t err_size);
/* The CLOCK_REALTIME instant a time of day or a date names, for a trace
 * whose first item was at start_realtime_ns. */
int64_t report_time_resolve(const struct report_time *t,
			    int64_t start_realtime_ns);
/* The word --clock takes for c. */
const char *report_clock_name(enum report_clock c);
/* --clock ARG of command cmd; 0, or 1 reported. */
int report_clock_parse(const char *cmd, const char *arg, enum report_clock *c);
/* The item's time as report prints it on clock c: "<s>.<ns>", seconds
 * since the start, or "YYYY-MM-DDTHH:MM:SS.<ns>" in local time. */
void report_time_text(char *buf, size_t size, enum report_clock c,
		      int64_t monotonic_ns, int64_t realtime_ns,
		      int64_t start_monotonic_ns);

/* One JSON object on one line for the item (an event or a lost-events
 * notice). */
void report_json_item(FILE *f, const struct evt_trace_item *it);
/* A JSON string of n bytes; what is not UTF-8 becomes U+FFFD. */
void report_json_string(FILE *f, const char *text, size_t n);
/* An event's decoded fields as a JSON object. */
void report_json_fields(FILE *f, const struct evt_trace_item *it);
/* A loss's sites as a JSON array of {"event", "cause", "count"}; event
 * null for other sites.  Their counts sum to the loss's at most. */
void report_json_loss_sites(FILE *f, const struct evt_trace_item *it);

struct report_stats;
struct report_stats *report_stats_new(void);
/* Counts an event or a lost-events notice; -1 when out of memory. */
int report_stats_add(struct report_stats *s, const struct evt_trace_item *it);
/* The table: per event count, rate over the span of what was counted,
 * first and last time; per thread events and lost. */
void report_stats_print(FILE *f, const struct report_stats *s,
			enum report_clock c, int64_t start_monotonic_ns,
			int64_t realtime_offset_ns);
void report_stats_free(struct report_stats *s);

#endif
