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

/* The Trace Event format (JSON) of convert_chrome.c, on f.  0 (st set),
 * or -1 with err set. */
int convert_chrome(FILE *f, const char *dir, struct report_filter *filter,
		   struct evt_trace_stats *st, char *err, size_t err_size);
/* Perfetto's protobuf trace (convert_perfetto.c), on f. */
int convert_perfetto(FILE *f, const char *dir, struct report_filter *filter,
		     struct evt_trace_stats *st, char *err, size_t err_size);

#endif
