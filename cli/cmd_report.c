/*
 * cmd_report.c - evtrace report: the trace as ftrace-style text.
 */
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "trace_reader.h"

static int print_item(const struct evt_trace_item *it, void *ctx)
{
	(void)ctx;
	switch (it->kind) {
	case EVT_ITEM_EVENT:
		cli_print_event(it->comm, it->tid, it->cpu, it->monotonic_ns,
				it->event->path, it->text, it->text_len);
		break;
	case EVT_ITEM_LOST:
		cli_print_lost(it->comm, it->tid, it->monotonic_ns, it->lost);
		break;
	case EVT_ITEM_ERROR:
		fflush(stdout);
		fprintf(stderr, "evtrace: report: %s\n", it->message);
		break;
	}
	return 0;
}

int cmd_report(int argc, char **argv)
{
	struct evt_trace_stats stats;
	char err[PATH_MAX + 300];

	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")))
		return cli_help("report");
	if (argc != 2) {
		cli_error("report", argc < 2 ? "no trace directory given" :
			  "one trace directory expected");
		return cli_usage("report");
	}
	if (evt_trace_read(argv[1], print_item, NULL, &stats, err, sizeof(err)))
		return cli_error("report", "%s", err);
	printf("# %" PRIu64 " events, %" PRIu64 " lost, %u streams",
	       stats.events, stats.lost, stats.streams);
	if (stats.errors)
		printf(", %" PRIu64 " errors", stats.errors);
	printf("\n");
	return stats.errors ? 1 : 0;
}
