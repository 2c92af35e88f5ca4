/*
 * cmd_mount.c - evtrace mount: the events filesystem (eventfs/) on a
 * directory, for the processes of the user's run directory or one of
 * them.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "eventfs.h"
#include "rundir.h"

static void pipe_line(FILE *f, const struct evt_live_event *e)
{
	if (e->path)
		cli_fprint_event(f, e->comm, e->tid, e->cpu, e->monotonic_ns,
				 e->path, e->text, e->text_len);
	else
		cli_fprint_lost(f, e->comm, e->tid, e->monotonic_ns, e->lost);
}

static void format_text(FILE *f, const struct evt_ctl_event *e)
{
	cli_fprint_format(f, e, "");
}

int cmd_mount(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "pid", required_argument, NULL, 'p' },
		{ "daemon", no_argument, NULL, 'd' },
		{ "allow-other", no_argument, NULL, 'A' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct evt_eventfs_opts o = {
		.line = pipe_line, .format = format_text,
	};
	char rundir[EVT_RUNDIR_PATH_MAX], err[PATH_MAX + 300];
	struct stat st;
	int opt;

	while ((opt = getopt_long(argc, argv, "p:dh", longopts, NULL)) != -1) {
		switch (opt) {
		case 'p':
			o.pid = cli_parse_pid("mount", optarg);
			if (o.pid < 0)
				return 1;
			break;
		case 'd':
			o.daemonize = true;
			break;
		case 'A':
			o.allow_other = true;
			break;
		case 'h':
			return cli_help("mount");
		default:
			return cli_usage("mount");
		}
	}
	if (optind >= argc) {
		cli_error("mount", "no directory to mount on given");
		return cli_usage("mount");
	}
	o.mountpoint = argv[optind++];
	if (optind < argc) {
		cli_error("mount", "unexpected argument '%s'", argv[optind]);
		return cli_usage("mount");
	}
	if (stat(o.mountpoint, &st))
		return cli_error("mount", "%s: %s", o.mountpoint, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return cli_error("mount", "%s: not a directory", o.mountpoint);
	if (o.pid) {
		int route = cli_route("mount", &o.pid, 1);

		if (route < 0)
			return 1;
		if (route == CLI_VIA_DAEMON)
			return cli_error("mount", "pid %d is another user's: a mount shows "
					 "your own processes (or, as root, anyone's)",
					 o.pid);
	}
	if (evt_rundir_path(rundir, sizeof(rundir), err, sizeof(err)))
		return cli_error("mount", "%s", err);
	o.rundir = rundir;
	if (evt_eventfs_run(&o, err, sizeof(err)))
		return cli_error("mount", "%s", err);
	return 0;
}
