/*
 * cmd_stream.c - evtrace stream: print the events of running processes as
 * they happen, until interrupted, hung up or its reader is gone (or until
 * the process given with -p exits).  Whichever way it ends, what -e
 * enabled is disabled again.  Polls every 20 ms, so an event shows well
 * within 100 ms.
 */
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <evtrace/consumer.h>
#include <poll.h>

#include "cli.h"
#include "pattern.h"
#include "protocol.h"
#include "live_stream.h"
#include "orphans.h"
#include "report_filter.h"
#include "rundir.h"
#include "session.h"

struct totals {
	uint64_t events;
	uint64_t lost;
	/* -F: events an -e names pass; those only an -F names, if a field
	 * passes it. */
	const char **patterns;
	unsigned npatterns;
	struct report_field_filter *filters;
	unsigned nfilters;
};

static bool passes_filters(struct totals *t, const struct evt_consumer_record *r)
{
	unsigned i;

	if (!t->nfilters)
		return true;
	for (i = 0; i < t->npatterns; i++)
		if (cli_pattern_names(t->patterns[i], r->path, r->format, NULL))
			return true;
	for (i = 0; i < t->nfilters; i++)
		if (cli_pattern_names(t->filters[i].pattern, r->path, r->format, NULL) &&
		    report_field_filter_holds(&t->filters[i], r->fields,
					      (int)r->nfields))
			return true;
	return false;
}

/* A stream with -e is a consumer (consumer.h): its records. */
static void print_record(const struct evt_consumer_record *r, void *ctx)
{
	struct totals *t = ctx;

	if (!r->lost && !passes_filters(t, r))
		return;
	if (r->lost) {
		cli_print_lost(r->comm, r->tid, r->time_ns, r->lost);
		t->lost += r->lost;
	} else {
		cli_print_event(r->comm, r->tid, r->cpu, r->time_ns, r->path,
				r->text, r->text_len);
		t->events++;
	}
}

/* Without -e, it reads the default collection. */
static void print_live(const struct evt_live_event *e, void *ctx)
{
	struct totals *t = ctx;

	if (e->path) {
		cli_print_event(e->comm, e->tid, e->cpu, e->monotonic_ns, e->path,
				e->text, e->text_len);
		t->events++;
	} else {
		cli_print_lost(e->comm, e->tid, e->monotonic_ns, e->lost);
		t->lost += e->lost;
	}
}

int cmd_stream(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "pid", required_argument, NULL, 'p' },
		{ "event", required_argument, NULL, 'e' },
		{ "filter", required_argument, NULL, 'F' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char **patterns = calloc(2 * (size_t)argc + 1, sizeof(char *));
	const char **exprs = calloc((size_t)argc + 1, sizeof(char *));
	struct report_field_filter *filters = calloc((size_t)argc + 1, sizeof(*filters));
	struct evt_live_stream *s = NULL;
	struct evt_consumer *c = NULL;
	struct totals totals = { 0 };
	struct cli_session run;
	struct timespec tick = { 0, 20 * 1000 * 1000 };
	char rundir[EVT_RUNDIR_PATH_MAX], err[PATH_MAX + 200], what[320];
	unsigned npatterns = 0, nfilters = 0, nuser = 0, i;
	int opt, pid = 0, ret = 1, seen = 0;

	cli_session_catch();	/* before the setup (session.h) */

	if (!patterns || !filters || !exprs) {
		free(patterns);
		free(filters);
		free(exprs);
		return cli_error("stream", "out of memory");
	}
	while ((opt = getopt_long(argc, argv, "p:e:F:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'p':
			pid = cli_parse_pid("stream", optarg);
			if (pid < 0)
				goto out;
			break;
		case 'e':
			if (!cli_pattern_ok("stream", optarg))
				goto out;
			patterns[npatterns++] = optarg;
			break;
		case 'F':
			if (report_field_filter_parse(&filters[nfilters], "stream",
						      optarg))
				goto out;
			if (!cli_pattern_ok("stream", filters[nfilters].pattern)) {
				report_field_filter_free(&filters[nfilters]);
				goto out;
			}
			exprs[nfilters++] = optarg;
			break;
		case 'h':
			ret = cli_help("stream");
			goto out;
		default:
			ret = cli_usage("stream");
			goto out;
		}
	}
	if (optind < argc) {
		cli_error("stream", "unexpected argument '%s'", argv[optind]);
		ret = cli_usage("stream");
		goto out;
	}
	/* A consumer's records do not name their function, which the test of
	 * which pattern named a record would need. */
	for (i = 0; i < npatterns + nfilters && nfilters; i++)
		if (strstr(i < npatterns ? patterns[i] : filters[i - npatterns].pattern,
			   "fn:")) {
			cli_error("stream", "fn: beside --filter is not yet supported "
				  "(fmt: is): name the sites by path or format");
			goto out;
		}
	/* A filter's events come as -e's do; it says which it shows. */
	nuser = npatterns;
	totals.patterns = patterns;
	totals.npatterns = nuser;
	totals.filters = filters;
	totals.nfilters = nfilters;
	for (i = 0; i < nfilters; i++)
		patterns[npatterns++] = filters[i].pattern;
	if (pid) {
		int route = cli_route("stream", &pid, 1);

		if (route == CLI_VIA_DAEMON) {
			/* The daemon's stream tests the fields: it gets the
			 * -e patterns and the filters as given. */
			struct evt_request r = {
				.verb = EVT_VERB_STREAM, .npids = 1, .pids = { pid },
				.nevents = nuser, .nfilters = nfilters,
			};

			for (i = 0; i < npatterns; i++)
				if (evt_is_kernel_path(patterns[i])) {
					cli_error("stream", "%s: %s", patterns[i],
						  EVT_PROTO_NO_KERNEL_EVENTS);
					goto out;
				}
			if (!cli_patterns_fit("stream", npatterns, 0))
				goto out;
			memcpy(r.events, patterns, nuser * sizeof(*patterns));
			memcpy(r.filters, exprs, nfilters * sizeof(*exprs));
			ret = cli_via_daemon("stream", &r, NULL);
			goto out;
		}
		if (route < 0)
			goto out;
	}
	if (evt_rundir_path(rundir, sizeof(rundir), err, sizeof(err))) {
		cli_error("stream", "%s", err);
		goto out;
	}
	if (npatterns) {
		struct evt_consumer_attr attr = {
			.size = sizeof(attr), .mode = EVT_CONSUMER_RECORD,
			.pid = pid, .rundir = rundir, .name = what,
		};

		snprintf(what, sizeof(what), "evtrace stream -e %s%s", patterns[0],
			 npatterns > 1 ? " ..." : "");
		if (evt_consumer_open(&attr, &c, err, sizeof(err))) {
			cli_error("stream", "%s", err);
			goto out;
		}
		for (i = 0; i < npatterns; i++) {
			int n = evt_consumer_add(c, patterns[i], err, sizeof(err));

			if (n < 0) {
				cli_error("stream", "%s", err);
				goto out;
			}
		}
		cli_note_unmatched("stream", patterns, npatterns,
				   cli_consumer_events, c, false);
		cli_note_refused("stream", patterns, npatterns,
				 cli_consumer_events, c);
	} else if (evt_live_stream_create(rundir, pid, NULL, 0, &s, err,
					  sizeof(err))) {
		cli_error("stream", "%s", err);
		goto out;
	}
	cli_session_start(&run, "stream", "streaming", "streamed");
	/* `stream | head`: a closed pipe ends the stream like ^C does, with
	 * its events disabled again, instead of killing it. */
	signal(SIGPIPE, SIG_IGN);
	setvbuf(stdout, NULL, _IOLBF, 0);
	while (!cli_session_over(&run) && !ferror(stdout)) {
		int alive = c ? evt_consumer_read(c, print_record, &totals, err,
						  sizeof(err)) :
				evt_live_stream_poll(s, print_live, &totals);

		seen |= alive > 0;
		if (pid && alive <= 0) {
			if (!seen) {
				cli_error("stream", "%s", evt_rundir_why_untraced(rundir,
					  pid, err, sizeof(err)));
				goto out;
			}
			break;	/* it exited and everything it wrote is out */
		}
		if (c) {
			struct pollfd pfd = { .fd = evt_consumer_fd(c), .events = POLLIN };

			poll(&pfd, 1, 100);
		} else if (!evt_live_stream_more(s)) {
			nanosleep(&tick, NULL);
		}
	}
	/* What is left, a poll's bound at a time (a consumer's fd is
	 * readable at once while more waits). */
	if (c) {
		struct pollfd pfd = { .fd = evt_consumer_fd(c), .events = POLLIN };
		uint64_t before;

		do {
			before = totals.events + totals.lost;
			evt_consumer_read(c, print_record, &totals, err, sizeof(err));
		} while (totals.events + totals.lost > before && poll(&pfd, 1, 0) > 0);
	} else {
		do
			evt_live_stream_poll(s, print_live, &totals);
		while (evt_live_stream_more(s));
	}
	printf("# %" PRIu64 " event%s, %" PRIu64 " lost\n", totals.events,
	       cli_plural(totals.events), totals.lost);
	fflush(stdout);
	if (c) {	/* what the patterns left out, now that it all was seen */
		cli_note_refused("stream", patterns, npatterns,
				 cli_consumer_events, c);
		cli_note_unmatched("stream", patterns, npatterns,
				   cli_consumer_events, c, true);
		cli_note_unrecorded("stream", "streamed", patterns, npatterns,
				    cli_consumer_events, c);
	}
	for (i = 0; i < nfilters; i++)
		report_field_filter_note(&filters[i], "stream", false);
	ret = 0;
out:
	evt_consumer_close(c);
	evt_live_stream_destroy(s);
	for (i = 0; i < nfilters; i++)
		report_field_filter_free(&filters[i]);
	free(filters);
	free(patterns);
	free(exprs);
	return ret;
}
