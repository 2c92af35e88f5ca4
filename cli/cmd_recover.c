/*
 * cmd_recover.c - evtrace recover: what a recording left in a process's
 * buffers when its recorder was killed (and, often, the process crashed
 * after), read into a trace directory.
 */
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "collection.h"
#include "ctl.h"
#include "layout.h"
#include "rundir.h"

/* PID, or a control file PATH/PID-N.ctl (its directory the run
 * directory): the pid, and the run directory in rundir. */
static int target(const char *arg, char *rundir, size_t size)
{
	char err[PATH_MAX + 200], copy[PATH_MAX];
	int pid, route;

	if (strchr(arg, '/') || strstr(arg, ".ctl")) {
		snprintf(copy, sizeof(copy), "%s", arg);
		pid = evt_ctl_name_pid(basename(copy));
		if (pid <= 0)
			return cli_error("recover", "%s: not a control file "
					 "(PID-N.ctl)", arg), -1;
		snprintf(copy, sizeof(copy), "%s", arg);
		snprintf(rundir, size, "%s", dirname(copy));
		return pid;
	}
	pid = cli_parse_pid("recover", arg);
	/* Its run directory: a container's, a recording's of its own, or
	 * (root) another user's. */
	route = pid > 0 ? cli_route("recover", &pid, 1) : CLI_LOCAL;
	if (route < 0)
		return -1;
	if (route == CLI_VIA_DAEMON)
		return cli_error("recover", "pid %d: another user's processes are "
				 "not yet supported (evtraced does not recover)",
				 pid), -1;
	if (pid > 0 && evt_rundir_path(rundir, size, err, sizeof(err)))
		return cli_error("recover", "%s", err), -1;
	return pid;
}

int cmd_recover(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "slot", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct evt_collection_opts o = {
		.output = "trace", .mode = EVT_MODE_DISCARD,
		.packet_size = EVT_PACKET_DEFAULT_BYTES,
		.packet_count = EVT_PACKETS_DEFAULT, .npids = 1, .recover = true,
	};
	struct evt_collection_stats stats;
	struct evt_collection *c;
	char rundir[PATH_MAX], what[PATH_MAX + 32], err[PATH_MAX + 400];
	int opt, pid, slot;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'o':
			o.output = optarg;
			break;
		case 's':
			slot = cli_parse_slot("recover", "--slot", optarg);
			if (slot < 0)
				return 1;
			o.adopt_slot = (uint32_t)slot;
			break;
		case 'h':
			return cli_help("recover");
		default:
			return cli_usage("recover");
		}
	}
	if (argc - optind != 1) {
		cli_error("recover", argc == optind ? "no process given" :
			  "one process expected");
		return cli_usage("recover");
	}
	pid = target(argv[optind], rundir, sizeof(rundir));
	if (pid <= 0)
		return 1;
	o.pids = &pid;
	o.rundir = rundir;
	snprintf(what, sizeof(what), "evtrace recover -o %s", o.output);
	o.what = what;
	if (evt_collection_create(&o, &c, err, sizeof(err)))
		return cli_error("recover", "%s", err);
	if (evt_collection_finish(c, &stats, err, sizeof(err))) {
		evt_collection_destroy(c);
		return cli_error("recover", "%s", err);
	}
	evt_collection_destroy(c);
	fprintf(stderr, "evtrace: recover: %llu packet%s, %llu byte%s of pid %d "
		"written to %s; %llu event%s lost\n",
		(unsigned long long)stats.packets, cli_plural(stats.packets),
		(unsigned long long)stats.bytes, cli_plural(stats.bytes), pid,
		o.output, (unsigned long long)stats.lost, cli_plural(stats.lost));
	return 0;
}
