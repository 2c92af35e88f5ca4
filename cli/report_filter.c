/*
 * report_filter.c - which items of a trace report and the converters
 * keep.  Relative times count from the first item of the trace, whether
 * it is kept or not; a lost-events notice is kept by -e, since a loss may
 * have hidden any event.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "pattern.h"
#include "report_filter.h"

static int parse_time(const char *cmd, const char *opt, const char *arg,
		      struct report_time *t)
{
	char err[300];

	if (report_time_parse(arg, t, err, sizeof(err))) {
		cli_error(cmd, "--%s %s", opt, err);
		return -1;
	}
	return 0;
}

int report_filter_option(struct report_filter *f, const char *cmd, int opt,
			 const char *arg)
{
	const char **grown;
	bool *more;

	switch (opt) {
	case 'e':
		if (!cli_pattern_ok(cmd, arg))
			return -1;
		grown = realloc(f->patterns, (f->npatterns + 1) * sizeof(*grown));
		if (grown)
			f->patterns = grown;
		more = realloc(f->matched, (f->npatterns + 1) * sizeof(*more));
		if (more)
			f->matched = more;
		if (!grown || !more) {
			cli_error(cmd, "out of memory");
			return -1;
		}
		f->matched[f->npatterns] = false;
		f->patterns[f->npatterns++] = arg;
		return 1;
	case 'p':
		return cli_parse_pids(cmd, arg, &f->pids, &f->npids) ? -1 : 1;
	case 't':
		return cli_parse_pids(cmd, arg, &f->tids, &f->ntids) ? -1 : 1;
	case 'S':
		return parse_time(cmd, "since", arg, &f->since) ? -1 : 1;
	case 'U':
		return parse_time(cmd, "until", arg, &f->until) ? -1 : 1;
	}
	return 0;
}

static bool listed(const int *ids, unsigned n, uint32_t id)
{
	unsigned i;

	for (i = 0; i < n; i++)
		if ((uint32_t)ids[i] == id)
			return true;
	return false;
}

static void start(struct report_filter *f, const struct evt_trace_item *it)
{
	f->started = true;
	f->start_monotonic_ns = it->monotonic_ns;
	f->realtime_offset_ns = it->realtime_ns - it->monotonic_ns;
	f->since_ns = f->since.kind == TIME_RELATIVE ? it->monotonic_ns + f->since.ns :
		      report_time_resolve(&f->since, it->realtime_ns);
	f->until_ns = f->until.kind == TIME_RELATIVE ? it->monotonic_ns + f->until.ns :
		      report_time_resolve(&f->until, it->realtime_ns);
}

static bool wanted(struct report_filter *f, const struct evt_trace_item *it)
{
	bool hit = false;
	unsigned i;

	if (!f->started)
		start(f, it);
	if (f->npids && !listed(f->pids, f->npids, it->pid))
		return false;
	if (f->ntids && !listed(f->tids, f->ntids, it->tid))
		return false;
	/* Relative times against the clock --clock relative prints, wall
	 * clock times against the one --clock realtime prints. */
	if (f->since.kind && (f->since.kind == TIME_RELATIVE ?
			      it->monotonic_ns < f->since_ns : it->realtime_ns < f->since_ns))
		return false;
	if (f->until.kind && (f->until.kind == TIME_RELATIVE ?
			      it->monotonic_ns > f->until_ns : it->realtime_ns > f->until_ns))
		return false;
	if (it->kind == EVT_ITEM_LOST || !f->npatterns)
		return true;
	/* Every pattern is tried until it has named an event, so that one
	 * that never does can be said. */
	for (i = 0; i < f->npatterns; i++) {
		if (hit && f->matched[i])
			continue;
		if (evt_pattern_match_site(f->patterns[i], it->event->path,
					   it->event->func, it->event->format))
			hit = f->matched[i] = true;
	}
	return hit;
}

bool report_filter_wanted(struct report_filter *f, const struct evt_trace_item *it)
{
	if (!wanted(f, it))
		return false;
	if (it->kind == EVT_ITEM_LOST)
		f->kept_lost += it->lost;
	else
		f->kept_events++;
	return true;
}

bool report_filter_note_unmatched(const struct report_filter *f, const char *cmd)
{
	bool any = false;
	unsigned i;

	for (i = 0; i < f->npatterns; i++)
		if (!f->matched[i]) {
			fprintf(stderr, "evtrace: %s: -e %s matched no event%s "
				"(report --stats lists the trace's)\n", cmd,
				f->patterns[i], f->npids || f->ntids || f->since.kind ||
				f->until.kind ? " of those the other filters kept" : "");
			any = true;
		}
	return any;
}

bool report_filter_any(const struct report_filter *f)
{
	return f->npatterns || f->npids || f->ntids || f->since.kind ||
	       f->until.kind;
}

void report_filter_restart(struct report_filter *f)
{
	f->started = false;
}

void report_filter_free(struct report_filter *f)
{
	free(f->patterns);
	free(f->matched);
	free(f->pids);
	free(f->tids);
}
