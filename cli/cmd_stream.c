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

#include "cli.h"
#include "live_stream.h"
#include "rundir.h"

static volatile sig_atomic_t stop_requested;

static void on_stop(int sig)
{
	(void)sig;
	stop_requested = 1;
}

struct totals {
	uint64_t events;
	uint64_t lost;
};

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
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char **patterns = calloc(argc + 1, sizeof(char *));
	struct evt_live_stream *s = NULL;
	struct totals totals = { 0 };
	struct timespec tick = { 0, 20 * 1000 * 1000 };
	char rundir[EVT_RUNDIR_PATH_MAX], err[PATH_MAX + 200];
	unsigned npatterns = 0;
	int opt, pid = 0, ret = 1, seen = 0;

	if (!patterns)
		return cli_error("stream", "out of memory");
	while ((opt = getopt_long(argc, argv, "p:e:h", longopts, NULL)) != -1) {
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
	if (evt_rundir_path(rundir, sizeof(rundir), err, sizeof(err))) {
		cli_error("stream", "%s", err);
		goto out;
	}
	if (evt_live_stream_create(rundir, pid, patterns, npatterns, &s, err,
				   sizeof(err))) {
		cli_error("stream", "%s", err);
		goto out;
	}
	signal(SIGINT, on_stop);
	signal(SIGTERM, on_stop);
	signal(SIGHUP, on_stop);
	/* `stream | head`: a closed pipe ends the stream like ^C does, with
	 * its events disabled again, instead of killing it. */
	signal(SIGPIPE, SIG_IGN);
	setvbuf(stdout, NULL, _IOLBF, 0);
	while (!stop_requested && !ferror(stdout)) {
		int alive = evt_live_stream_poll(s, print_live, &totals);

		seen |= alive > 0;
		if (pid && !alive) {
			if (!seen) {
				cli_error("stream", "pid %d: no traced process with this pid in %s",
					  pid, rundir);
				goto out;
			}
			break;	/* it exited and everything it wrote is out */
		}
		nanosleep(&tick, NULL);
	}
	evt_live_stream_poll(s, print_live, &totals);
	printf("# %" PRIu64 " events, %" PRIu64 " lost\n", totals.events,
	       totals.lost);
	ret = 0;
out:
	evt_live_stream_destroy(s);
	free(patterns);
	return ret;
}
