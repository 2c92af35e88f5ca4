/*
 * cmd_snapshot.c - evtrace snapshot: what a running --overwrite
 * recording (a flight recorder) holds in its buffers now, written as a
 * trace of its own; the recording goes on untouched.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "collection.h"
#include "trigger_expr.h"
#include "layout.h"
#include "protocol.h"
#include "requests.h"
#include "rundir.h"
#include "window_take.h"
#include "trace_names.h"

/* The recording's kernel events of the window, which its recorder writes
 * as they come into its own directory: asked of it, which adds them (it
 * has none: nothing).  Said when it cannot; the snapshot stands. */
static void snapshot_kernel(const struct evt_collection_opts *o, unsigned slot)
{
	char dir[PATH_MAX], err[PATH_MAX + 400];
	struct evt_rundir rd;

	if (!realpath(o->output, dir) ||
	    evt_rundir_open(&rd, o->rundir, EVT_RUNDIR_ROOT_ENTERS, err, sizeof(err))) {
		fprintf(stderr, "evtrace: snapshot: note: the recording's kernel "
			"events are not in %s: %s\n", o->output, strerror(errno));
		return;
	}
	if (evt_window_request_send(&rd, slot, o->snapshot_since_ns, dir, err,
				    sizeof(err)))
		fprintf(stderr, "evtrace: snapshot: note: the recording's kernel "
			"events are not in %s: %s\n", o->output, err);
	evt_rundir_close(&rd);
}

int cmd_snapshot(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "pid", required_argument, NULL, 'p' },
		{ "collection", required_argument, NULL, 'c' },
		{ "before", required_argument, NULL, 'b' },
		{ "no-kernel", no_argument, NULL, 'K' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct evt_collection_opts o = {
		.output = "snapshot", .mode = EVT_MODE_OVERWRITE,
		.packet_size = EVT_PACKET_DEFAULT_BYTES,
		.packet_count = EVT_PACKETS_DEFAULT, .snapshot = true,
	};
	struct evt_collection_stats stats;
	char rundir[PATH_MAX], what[PATH_MAX + 32], err[PATH_MAX + 400];
	int opt, pid = 0, route;
	uint32_t slot;
	bool kernel = true;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "o:p:c:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'o':
			o.output = optarg;
			break;
		case 'p':
			pid = cli_parse_pid("snapshot", optarg);
			if (pid < 0)
				return 1;
			break;
		case 'c': {
			int n = cli_parse_slot("snapshot", "--collection", optarg);

			if (n < 0)
				return 1;
			o.adopt_slot = (uint32_t)n;
			break;
		}
		case 'b': {
			struct timespec now;
			int64_t before;

			if (evt_trigger_duration(optarg, &before) || before <= 0)
				return cli_error("snapshot", "--before '%s': not a "
						 "duration (N followed by ns, us, ms "
						 "or s)", optarg);
			/* From now, not from when the recording is found. */
			clock_gettime(CLOCK_MONOTONIC, &now);
			o.snapshot_since_ns = (int64_t)now.tv_sec * 1000000000 +
					      now.tv_nsec - before;
			break;
		}
		case 'K':
			kernel = false;
			break;
		case 'h':
			return cli_help("snapshot");
		default:
			return cli_usage("snapshot");
		}
	}
	if (optind < argc) {
		cli_error("snapshot", "'%s': unexpected (-p PID or --collection N "
			  "names the recording)", argv[optind]);
		return cli_usage("snapshot");
	}
	/* Its run directory: a container's, a recording's of its own, or
	 * (root) another user's. */
	route = pid ? cli_route("snapshot", &pid, 1) : CLI_LOCAL;
	if (route < 0)
		return 1;
	if (route == CLI_VIA_DAEMON) {
		/* evtraced's worker takes it, into the directory handed over,
		 * with --before from now as said here. */
		struct evt_request r = {
			.verb = EVT_VERB_SNAPSHOT, .npids = 1, .pids = { pid },
			.has_before = o.snapshot_since_ns != 0,
			.collection = o.adopt_slot,
		};

		if (o.snapshot_since_ns) {
			struct timespec now;
			int64_t since;

			clock_gettime(CLOCK_MONOTONIC, &now);
			since = (int64_t)now.tv_sec * 1000000000 + now.tv_nsec -
				o.snapshot_since_ns;
			r.before_ns = since > 0 ? (uint64_t)since : 1;
		}
		return cli_via_daemon("snapshot", &r, o.output);
	}
	if (evt_rundir_path(rundir, sizeof(rundir), err, sizeof(err)))
		return cli_error("snapshot", "%s", err);
	if (pid) {
		o.pids = &pid;
		o.npids = 1;
	}
	o.rundir = rundir;
	snprintf(what, sizeof(what), "evtrace snapshot -o %s", o.output);
	o.what = what;
	if (evt_window_take(&o, &stats, &slot, err, sizeof(err)))
		return cli_error("snapshot", "%s", err);
	if (kernel)
		snapshot_kernel(&o, slot);
	fprintf(stderr, "evtrace: snapshot: %llu packet%s, %llu byte%s from %u "
		"process%s written to %s; %llu event%s overwritten before it, %llu "
		"lost\n",
		(unsigned long long)stats.packets, cli_plural(stats.packets),
		(unsigned long long)stats.bytes, cli_plural(stats.bytes),
		stats.processes, stats.processes == 1 ? "" : "es", o.output,
		(unsigned long long)stats.overwritten, cli_plural(stats.overwritten),
		(unsigned long long)(stats.lost - stats.overwritten));
	return 0;
}
