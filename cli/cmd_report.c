/*
 * cmd_report.c - evtrace report: the trace as ftrace-style text, JSON
 * lines or a table of counts, filtered by event, process, thread and time.
 */
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "align.h"
#include "cli.h"
#include "trace_index.h"
#include "report_filter.h"

enum report_output { OUT_TEXT, OUT_JSON, OUT_STATS };

struct report {
	struct report_filter filter;
	enum report_clock clock;
	enum report_output output;

	uint64_t shown, lost_shown;
	struct report_stats *stats;
	bool out_of_memory;
};

static int show(const struct evt_trace_item *it, void *ctx)
{
	struct report *r = ctx;
	char time[48];

	if (it->kind == EVT_ITEM_ERROR) {
		fflush(stdout);
		fprintf(stderr, "evtrace: report: %s\n", it->message);
		return 0;
	}
	if (!report_filter_wanted(&r->filter, it))
		return 0;
	if (it->kind == EVT_ITEM_EVENT)
		r->shown++;
	else
		r->lost_shown += it->lost;
	if (r->output == OUT_STATS) {
		if (report_stats_add(r->stats, it))
			return r->out_of_memory = true, 1;
		return 0;
	}
	if (r->output == OUT_JSON) {
		report_json_item(stdout, it);
		return 0;
	}
	report_time_text(time, sizeof(time), r->clock, it->monotonic_ns,
			 it->realtime_ns, r->filter.start_monotonic_ns);
	if (it->kind == EVT_ITEM_EVENT)
		cli_fprint_event_at(stdout, it->comm, it->tid, it->cpu, time,
				    it->event->path, it->text, it->text_len);
	else
		cli_fprint_lost_at(stdout, time, it);
	return 0;
}

static void summary(const struct report *r, const struct evt_trace_stats *st)
{
	FILE *f = r->output == OUT_JSON ? stderr : stdout;

	if (report_filter_any(&r->filter))
		fprintf(f, "# %" PRIu64 " of %" PRIu64 " event%s, %" PRIu64 " of %"
			PRIu64 " lost", r->shown, st->events, cli_plural(st->events),
			r->lost_shown, st->lost);
	else
		fprintf(f, "# %" PRIu64 " event%s, %" PRIu64 " lost", st->events,
			cli_plural(st->events), st->lost);
	fprintf(f, ", %u stream%s", st->streams, cli_plural(st->streams));
	if (st->errors)
		fprintf(f, ", %" PRIu64 " error%s", st->errors, cli_plural(st->errors));
	fprintf(f, "\n");
}

/* A trace recorded from the host in a container: the container, and the
 * pid the host saw of each process (the events name the container's). */
static void container_summary(FILE *f, const char *dir)
{
	struct evt_trace_index ix = { 0 };
	char err[PATH_MAX + 300];
	uint32_t i;
	bool any = false;

	if (evt_trace_index_read_dir(dir, &ix, err, sizeof(err)) ||
	    !ix.container_pidns) {
		evt_trace_index_free(&ix);
		return;
	}
	fprintf(f, "# %s: recorded from the host in a container, pid namespace "
		"%" PRIu64 ", cgroup %s; its pids, and the host's:", dir,
		ix.container_pidns, ix.container_cgroup[0] ? ix.container_cgroup : "?");
	for (i = 0; i < ix.nstreams; i++)
		if (ix.streams[i].host_pid) {
			fprintf(f, " %u=%u", ix.streams[i].pid, ix.streams[i].host_pid);
			any = true;
		}
	fprintf(f, "%s\n", any ? "" : " (the host's not found)");
	evt_trace_index_free(&ix);
}

int cmd_report(int argc, char **argv)
{
	static const struct option longopts[] = {
		REPORT_FILTER_LONGOPTS,
		{ "clock", required_argument, NULL, 'c' },
		{ "stats", no_argument, NULL, 's' },
		{ "json", no_argument, NULL, 'j' },
		{ "align", required_argument, NULL, 'A' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct report r = { 0 };
	struct evt_trace_stats st;
	char err[PATH_MAX + 300];
	const char *dir = "trace", *flows[ALIGN_FLOWS_MAX];
	const char *const *dirs = &dir;
	int64_t *offsets = NULL;
	unsigned ndirs = 1, nflows = 0;
	bool clock_given = false;
	int opt, ret = 1;

	optind = 1;
	while ((opt = getopt_long(argc, argv, REPORT_FILTER_SHORTOPTS "h", longopts,
				  NULL)) != -1) {
		int taken = report_filter_option(&r.filter, "report", opt, optarg);

		if (taken < 0)
			goto out;
		if (taken)
			continue;
		switch (opt) {
		case 'c':
			if (report_clock_parse("report", optarg, &r.clock))
				goto out;
			clock_given = true;
			break;
		case 'A':
			if (align_flow_check("report", optarg, nflows))
				goto out;
			flows[nflows++] = optarg;
			break;
		case 's':
		case 'j':
			if (r.output != OUT_TEXT) {
				cli_error("report", "--stats and --json do not go together");
				goto out;
			}
			r.output = opt == 's' ? OUT_STATS : OUT_JSON;
			break;
		case 'h':
			ret = cli_help("report");
			goto out;
		default:
			ret = cli_usage("report");
			goto out;
		}
	}
	if (optind < argc) {
		dirs = (const char *const *)argv + optind;
		ndirs = (unsigned)(argc - optind);
		dir = dirs[0];
	}
	/* Several machines' clocks meet on real time only. */
	if (ndirs > 1 && !clock_given)
		r.clock = REPORT_REALTIME;
	r.filter.clock = r.clock;
	if (r.output == OUT_STATS && !(r.stats = report_stats_new())) {
		cli_error("report", "out of memory");
		goto out;
	}
	if (align_offsets("report", dirs, ndirs, flows, nflows, &offsets))
		goto out;
	if (evt_trace_read_set(dirs, ndirs, offsets, show, &r, &st, err, sizeof(err))) {
		cli_error("report", "%s", err);
		goto out;
	}
	if (r.out_of_memory) {
		cli_error("report", "out of memory counting the events");
		goto out;
	}
	if (r.output == OUT_STATS)
		report_stats_print(stdout, r.stats, r.clock, r.filter.start_monotonic_ns,
				   r.filter.realtime_offset_ns);
	summary(&r, &st);
	for (unsigned k = 0; k < ndirs; k++)
		container_summary(r.output == OUT_JSON ? stderr : stdout, dirs[k]);
	fflush(stdout);
	report_filter_note_unmatched(&r.filter, "report");
	report_filter_note_range(&r.filter, "report");
	ret = st.errors ? 1 : 0;
	if (!st.streams && st.processes && !st.complete) {
		cli_error("report", "%s holds no event of its %u process%s (pid %u "
			  "first), and its recording did not end: its recorder was "
			  "killed, or still runs.  A flight recorder (--overwrite) "
			  "writes at its end; 'evtrace recover %u' reads what a killed "
			  "one left in that process's buffers, while it runs", dir,
			  st.processes, st.processes == 1 ? "" : "es", st.first_pid,
			  st.first_pid);
		ret = 1;
	}
out:
	free(offsets);
	report_stats_free(r.stats);
	report_filter_free(&r.filter);
	return ret;
}
