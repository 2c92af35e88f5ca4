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

#include "cli.h"
#include "pattern.h"
#include "report_output.h"

enum report_output { OUT_TEXT, OUT_JSON, OUT_STATS };

struct report {
	const char **patterns;
	unsigned npatterns;
	int *pids, *tids;
	unsigned npids, ntids;
	struct report_time since, until;
	enum report_clock clock;
	enum report_output output;

	bool started;			/* the trace's first item was met */
	int64_t start_monotonic_ns, realtime_offset_ns;
	int64_t since_ns, until_ns;	/* resolved at start: CLOCK_MONOTONIC
					 * when relative, else CLOCK_REALTIME */
	uint64_t shown, lost_shown;
	struct report_stats *stats;
	bool out_of_memory;
};

static bool listed(const int *ids, unsigned n, uint32_t id)
{
	unsigned i;

	for (i = 0; i < n; i++)
		if ((uint32_t)ids[i] == id)
			return true;
	return false;
}

static bool wanted(const struct report *r, const struct evt_trace_item *it)
{
	unsigned i;

	if (r->npids && !listed(r->pids, r->npids, it->pid))
		return false;
	if (r->ntids && !listed(r->tids, r->ntids, it->tid))
		return false;
	/* Relative times against the clock --clock relative prints, wall
	 * clock times against the one --clock realtime prints. */
	if (r->since.kind && (r->since.kind == TIME_RELATIVE ?
			      it->monotonic_ns < r->since_ns : it->realtime_ns < r->since_ns))
		return false;
	if (r->until.kind && (r->until.kind == TIME_RELATIVE ?
			      it->monotonic_ns > r->until_ns : it->realtime_ns > r->until_ns))
		return false;
	if (it->kind == EVT_ITEM_LOST || !r->npatterns)
		return true;	/* a loss may have hidden any event */
	for (i = 0; i < r->npatterns; i++)
		if (evt_pattern_match(r->patterns[i], it->event->path))
			return true;
	return false;
}

static void start(struct report *r, const struct evt_trace_item *it)
{
	r->started = true;
	r->start_monotonic_ns = it->monotonic_ns;
	r->realtime_offset_ns = it->realtime_ns - it->monotonic_ns;
	r->since_ns = r->since.kind == TIME_RELATIVE ? it->monotonic_ns + r->since.ns :
		      report_time_resolve(&r->since, it->realtime_ns);
	r->until_ns = r->until.kind == TIME_RELATIVE ? it->monotonic_ns + r->until.ns :
		      report_time_resolve(&r->until, it->realtime_ns);
}

static int show(const struct evt_trace_item *it, void *ctx)
{
	struct report *r = ctx;
	char time[48];

	if (it->kind == EVT_ITEM_ERROR) {
		fflush(stdout);
		fprintf(stderr, "evtrace: report: %s\n", it->message);
		return 0;
	}
	if (!r->started)
		start(r, it);
	if (!wanted(r, it))
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
			 it->realtime_ns, r->start_monotonic_ns);
	if (it->kind == EVT_ITEM_EVENT)
		cli_fprint_event_at(stdout, it->comm, it->tid, it->cpu, time,
				    it->event->path, it->text, it->text_len);
	else
		cli_fprint_lost_at(stdout, it->comm, it->tid, time, it->lost);
	return 0;
}

static bool filtered(const struct report *r)
{
	return r->npatterns || r->npids || r->ntids || r->since.kind ||
	       r->until.kind;
}

static void summary(const struct report *r, const struct evt_trace_stats *st)
{
	FILE *f = r->output == OUT_JSON ? stderr : stdout;

	if (filtered(r))
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

static int parse_clock(const char *arg, enum report_clock *c)
{
	if (!strcmp(arg, "monotonic"))
		*c = REPORT_MONOTONIC;
	else if (!strcmp(arg, "realtime"))
		*c = REPORT_REALTIME;
	else if (!strcmp(arg, "relative"))
		*c = REPORT_RELATIVE;
	else
		return cli_error("report", "--clock %s: not a clock (monotonic, "
				 "realtime or relative)", arg);
	return 0;
}

static int parse_time(const char *opt, const char *arg, struct report_time *t)
{
	char err[300];

	if (report_time_parse(arg, t, err, sizeof(err)))
		return cli_error("report", "--%s %s", opt, err);
	return 0;
}

int cmd_report(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "event", required_argument, NULL, 'e' },
		{ "pid", required_argument, NULL, 'p' },
		{ "tid", required_argument, NULL, 't' },
		{ "since", required_argument, NULL, 'S' },
		{ "until", required_argument, NULL, 'U' },
		{ "clock", required_argument, NULL, 'c' },
		{ "stats", no_argument, NULL, 's' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct report r = { 0 };
	struct evt_trace_stats st;
	char err[PATH_MAX + 300];
	const char *dir = "trace";
	int opt, ret = 1;

	r.patterns = calloc(argc, sizeof(*r.patterns));
	if (!r.patterns)
		return cli_error("report", "out of memory");
	optind = 1;
	while ((opt = getopt_long(argc, argv, "e:p:t:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'e':
			if (!cli_pattern_ok("report", optarg))
				goto out;
			r.patterns[r.npatterns++] = optarg;
			break;
		case 'p':
			if (cli_parse_pids("report", optarg, &r.pids, &r.npids))
				goto out;
			break;
		case 't':
			if (cli_parse_pids("report", optarg, &r.tids, &r.ntids))
				goto out;
			break;
		case 'S':
			if (parse_time("since", optarg, &r.since))
				goto out;
			break;
		case 'U':
			if (parse_time("until", optarg, &r.until))
				goto out;
			break;
		case 'c':
			if (parse_clock(optarg, &r.clock))
				goto out;
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
	if (argc - optind > 1) {
		cli_error("report", "one trace directory expected, not %d",
			  argc - optind);
		ret = cli_usage("report");
		goto out;
	}
	if (optind < argc)
		dir = argv[optind];
	if (r.output == OUT_STATS && !(r.stats = report_stats_new())) {
		cli_error("report", "out of memory");
		goto out;
	}
	if (evt_trace_read(dir, show, &r, &st, err, sizeof(err))) {
		cli_error("report", "%s", err);
		goto out;
	}
	if (r.out_of_memory) {
		cli_error("report", "out of memory counting the events");
		goto out;
	}
	if (r.output == OUT_STATS)
		report_stats_print(stdout, r.stats, r.clock, r.start_monotonic_ns,
				   r.realtime_offset_ns);
	summary(&r, &st);
	ret = st.errors ? 1 : 0;
out:
	report_stats_free(r.stats);
	free(r.patterns);
	free(r.pids);
	free(r.tids);
	return ret;
}
