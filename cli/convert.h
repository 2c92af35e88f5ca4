/*
 * convert.h - the formats evtrace convert writes, each from one pass over
 * a trace in time order, keeping what the filter wants.
 */
#ifndef EVT_CLI_CONVERT_H
#define EVT_CLI_CONVERT_H

#include <stddef.h>
#include <stdio.h>

#include "report_filter.h"
#include "trace_reader.h"

/* What is converted: one trace, or several merged on real time, each
 * moved by its offset (--align; NULL: none). */
struct convert_input {
	const char *const *dirs;
	unsigned n;
	const int64_t *offsets_ns;
};

/* The Trace Event format (JSON) of convert_chrome.c, on f.  0 (st set),
 * or -1 with err set. */
int convert_chrome(FILE *f, const struct convert_input *in,
		   struct report_filter *filter, struct evt_trace_stats *st,
		   char *err, size_t err_size);
/* Perfetto's protobuf trace (convert_perfetto.c), on f. */
int convert_perfetto(FILE *f, const struct convert_input *in,
		     struct report_filter *filter, struct evt_trace_stats *st,
		     char *err, size_t err_size);

#endif
