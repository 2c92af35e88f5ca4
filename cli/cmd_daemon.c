/*
 * cmd_daemon.c - evtrace daemon: run evtraced, the system engine.
 */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "cli.h"
#include "evtraced.h"

int cmd_daemon(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "socket", required_argument, NULL, 's' },
		{ "stall-timeout", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *path = evt_daemon_socket_path();
	char err[PATH_MAX + 100];
	int opt;

	while ((opt = getopt_long(argc, argv, "s:t:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 's':
			path = optarg;
			break;
		case 't': {
			char *end;
			unsigned long s = strtoul(optarg, &end, 10);

			if (!*optarg || *end || s < 1 || s > 3600)
				return cli_error("daemon", "--stall-timeout '%s': not a "
						 "number of seconds from 1 to 3600",
						 optarg);
			evt_serve_set_stall_timeout((unsigned)s);
			break;
		}
		case 'h':
			return cli_help("daemon");
		default:
			return cli_usage("daemon");
		}
	}
	if (optind < argc) {
		cli_error("daemon", "unexpected argument '%s'", argv[optind]);
		return cli_usage("daemon");
	}
	if (geteuid() != 0)
		return cli_error("daemon", "must run as root: it opens every user's "
				 "run directory, and gives each client only what "
				 "the permission rules allow");
	if (evt_daemon_run(path, cli_run, err, sizeof(err)))
		return cli_error("daemon", "%s", err);
	return 0;
}
