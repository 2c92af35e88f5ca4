/*
 * cmd_record.c - evtrace record: run a command under a collection, or
 * attach one to running processes, and write its trace.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "report.h"
#include "status_line.h"
#include "protocol.h"
#include "collection.h"
#include "kernel_events.h"
#include "layout.h"
#include "rules.h"
#include "rundir.h"

/* Stop signals (SIGINT, SIGTERM, SIGHUP) received, and the last one. */
static volatile sig_atomic_t stop_requested, stop_signal;
/* The command, once it runs: a stop signal sent to record alone is
 * passed on to it; one from the terminal reached it already (its whole
 * process group gets it), and is not sent twice. */
static volatile pid_t forward_to;

static void on_stop(int sig, siginfo_t *si, void *uc)
{
	int saved = errno;

	(void)uc;
	stop_requested++;
	stop_signal = sig;
	if (forward_to > 0 && stop_requested == 1 && si->si_code != SI_KERNEL &&
	    si->si_pid != forward_to)
		kill(forward_to, sig);
	errno = saved;
}

static void catch_stop_signals(void)
{
	struct sigaction sa = { 0 };

	sa.sa_sigaction = on_stop;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

/* What draining cost this process (the engine; the command is not in it). */
static void print_engine_cpu(uint64_t bytes, uint64_t wakeups,
			     uint64_t step_offs)
{
	struct rusage ru;
	double cpu;

	if (getrusage(RUSAGE_SELF, &ru))
		return;
	cpu = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
	      ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
	fprintf(stderr, "evtrace: record: engine CPU %.3f s (user %.3f, system "
		"%.3f) for %llu bytes", cpu,
		ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6,
		ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6,
		(unsigned long long)bytes);
	if (cpu > 0)
		fprintf(stderr, ": %.0f MB per CPU second", bytes / cpu / 1e6);
	fprintf(stderr, "; woken %llu times by writers; left a writer's CPU "
		"%llu times\n", (unsigned long long)wakeups,
		(unsigned long long)step_offs);
}

static int parse_u32(const char *opt, const char *arg, uint32_t *out)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(arg, &end, 0);
	if (errno || end == arg || *end || v > UINT32_MAX || arg[0] == '-')
		return cli_error("record", "%s '%s': not a number", opt, arg);
	*out = (uint32_t)v;
	return 0;
}

/* When to stop recording: the command exited (or, attached, the
 * processes are gone), or we were asked to. */
struct until {
	pid_t child;		/* 0: attached, or every process */
	bool all;		/* -a without a command: until asked */
	bool child_exited;
	int status;
};

/*
 * A command's recording goes on through the first stop signal, as a
 * shell waits for its command: what the command writes while it shuts
 * down is recorded, to its exit.  The second stops at once.  Attached,
 * the first stops.
 */
static bool record_done(struct evt_collection *c, void *ctx)
{
	struct until *u = ctx;

	status_line_update(c);

	if (u->child) {
		if (stop_requested >= 2)
			return true;
		if (waitpid(u->child, &u->status, WNOHANG) != u->child)
			return false;
		u->child_exited = true;
		return true;
	}
	if (stop_requested)
		return true;
	return !u->all && evt_collection_running(c) == 0;
}

/* The exit status: the command's, or, stopped before it ended,
 * 128 + the signal. */
static int child_status(const struct until *u)
{
	if (!u->child_exited)
		return 128 + (stop_signal ? stop_signal : SIGINT);
	return WIFEXITED(u->status) ? WEXITSTATUS(u->status) :
	       WIFSIGNALED(u->status) ? 128 + WTERMSIG(u->status) : 1;
}

/* The trace directory record made for a command that could not run: it
 * holds nothing, and is taken away again. */
static void remove_empty_trace(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0)
		return;
	unlinkat(fd, "metadata", 0);
	unlinkat(fd, "evtrace/index", 0);
	unlinkat(fd, "evtrace", AT_REMOVEDIR);
	close(fd);
	rmdir(path);	/* only when nothing else is there */
}

/* The trace that opening path kept as path.old goes back, when the run
 * left path empty (and removed it). */
static void restore_old_trace(const char *path)
{
	char old[PATH_MAX + 8];
	size_t n = strlen(path);
	struct stat st;

	while (n > 1 && path[n - 1] == '/')
		n--;
	snprintf(old, sizeof(old), "%.*s.old", (int)n, path);
	if (lstat(path, &st) && errno == ENOENT)
		rename(old, path);
}

/* record -p of another user's processes, asked of evtraced. */
static int via_daemon(const int *pids, unsigned npids,
		      const struct evt_collection_opts *o, const char *relay,
		      bool show_stats)
{
	struct evt_request r = {
		.verb = EVT_VERB_RECORD, .npids = npids,
		.overwrite = o->mode == EVT_MODE_OVERWRITE,
		.nevents = o->npatterns, .relay = relay,
	};

	if (show_stats)
		return cli_error("record", "--stats: not for a recording evtraced "
				 "makes (its CPU time is the daemon's)");
	if (o->block_us)
		return cli_error("record", "--block: not yet supported for a "
				 "recording evtraced makes (another user's "
				 "processes); record without it");
	if (npids > EVT_PROTO_MAX_PIDS)
		return cli_error("record", "more than %d pids for evtraced",
				 EVT_PROTO_MAX_PIDS);
	memcpy(r.pids, pids, npids * sizeof(*pids));
	memcpy(r.events, o->patterns, o->npatterns * sizeof(*o->patterns));
	if (o->packet_size != EVT_PACKET_DEFAULT_BYTES)
		r.packet_size = o->packet_size;
	if (o->packet_count != EVT_PACKETS_DEFAULT)
		r.packet_count = o->packet_count;
	if (relay) {
		/* The daemon's worker would name the host as this does. */
		r.session = o->relay->session;
		r.hostname = o->relay->hostname;
		r.relay_buffer_mib = (uint32_t)(o->relay->max_queued >> 20);
	}
	return cli_via_daemon("record", &r, o->output);
}

/* --block[=MS]: 1 to 1000 ms, 5 when not given. */
static int parse_block(const char *arg, uint32_t *us)
{
	char *end;
	unsigned long ms;

	if (!arg) {
		*us = EVT_BLOCK_DEFAULT_MS * 1000;
		return 0;
	}
	errno = 0;
	ms = strtoul(arg, &end, 10);
	if (errno || end == arg || *end || arg[0] == '-' || ms < 1 ||
	    ms > EVT_BLOCK_MAX_US / 1000)
		return cli_error("record", "--block=%s: a wait in milliseconds, "
				 "1 to %u", arg, EVT_BLOCK_MAX_US / 1000), -1;
	*us = (uint32_t)ms * 1000;
	return 0;
}

/* What the relay took, and what it did not. */
static void print_relay_stats(const struct evt_collection_stats *s,
			      const char *host)
{
	fprintf(stderr, "evtrace: record: relay %s took %llu packet%s in %u "
		"session%s", host, (unsigned long long)s->relay_packets,
		cli_plural(s->relay_packets), s->relay_sessions,
		cli_plural(s->relay_sessions));
	if (s->relay_refused)
		fprintf(stderr, "; %llu packet%s did not fit its queue (their "
			"events are counted lost in the relay's trace)",
			(unsigned long long)s->relay_refused,
			cli_plural(s->relay_refused));
	if (s->relay_unsent)
		fprintf(stderr, "; %llu packet%s could not be sent before the end",
			(unsigned long long)s->relay_unsent,
			cli_plural(s->relay_unsent));
	fputc('\n', stderr);
}

static int relay_name_ok(const char *opt, const char *name)
{
	if (!evt_relay_name_ok(name))
		return cli_error("record", "%s %s: " EVT_RELAY_NAME_FORM, opt, name), 0;
	return 1;
}

/* cli_spawn's hook: the kernel events of the command, from its exec. */
static int kernel_command(pid_t child, void *ctx)
{
	char err[PATH_MAX + 300];

	if (evt_collection_kernel_command(ctx, child, err, sizeof(err)))
		return cli_error("record", "%s", err), -1;
	return 0;
}

int cmd_record(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "event", required_argument, NULL, 'e' },
		{ "pid", required_argument, NULL, 'p' },
		{ "all", no_argument, NULL, 'a' },
		{ "output", required_argument, NULL, 'o' },
		{ "overwrite", no_argument, NULL, 'O' },
		{ "block", optional_argument, NULL, 'B' },
		{ "packet-size", required_argument, NULL, 'S' },
		{ "packets", required_argument, NULL, 'N' },
		{ "kernel-buffer", required_argument, NULL, 'K' },
		{ "relay", required_argument, NULL, 'R' },
		{ "session", required_argument, NULL, 'n' },
		{ "hostname", required_argument, NULL, 'H' },
		{ "relay-buffer", required_argument, NULL, 'Q' },
		{ "stats", no_argument, NULL, 's' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct evt_collection_opts o = {
		.output = "trace", .mode = EVT_MODE_DISCARD,
		.packet_size = EVT_PACKET_DEFAULT_BYTES,
		.packet_count = EVT_PACKETS_DEFAULT,
	};
	const char **patterns = calloc(argc + 2, sizeof(char *));
	struct evt_collection_stats stats;
	struct evt_collection *c = NULL;
	char rundir[EVT_RUNDIR_PATH_MAX], err[PATH_MAX + 300];
	int opt, exec_errno = 0, ret = 1, show_stats = 0, *pids = NULL;
	bool kept_old = false, quiet = false;
	struct until u = { 0, 0 };
	bool made_output, ran = false;
	struct stat st;
	unsigned npids = 0, nuser, nkernel = 0;
	char what[PATH_MAX + 64];
	struct evt_relay_opts relay = { .session = "evtrace",
					.live_timer_us = EVT_RELAY_LIVE_TIMER_US };
	char relay_host[256], hostname[256] = "";
	const char *relay_arg = NULL;
	bool output_given = false;

	if (!patterns)
		return cli_error("record", "out of memory");
	while ((opt = getopt_long(argc, argv, "+e:p:ao:qh", longopts, NULL)) != -1) {
		switch (opt) {
		case 'e':
			if (!cli_pattern_ok("record", optarg))
				goto out;
			nkernel += evt_is_kernel_path(optarg);
			patterns[o.npatterns++] = optarg;
			break;
		case 'p':
			if (cli_parse_pids("record", optarg, &pids, &npids))
				goto out;
			break;
		case 'a':
			o.all = true;
			break;
		case 'o':
			o.output = optarg;
			output_given = true;
			break;
		case 'R':
			if (evt_relay_parse(optarg, &relay, relay_host,
					    sizeof(relay_host))) {
				cli_error("record", "--relay %s: " EVT_RELAY_ADDRESS_FORMS,
					  optarg);
				goto out;
			}
			relay_arg = optarg;
			o.relay = &relay;
			break;
		case 'n':
			if (!relay_name_ok("--session", optarg))
				goto out;
			relay.session = optarg;
			break;
		case 'H':
			if (!relay_name_ok("--hostname", optarg))
				goto out;
			relay.hostname = optarg;
			break;
		case 'Q': {
			uint32_t mib = 0;	/* (gcc -O3 cannot see parse_u32 sets it) */

			if (parse_u32("--relay-buffer", optarg, &mib))
				goto out;
			if (mib < 1 || mib > EVT_RELAY_QUEUE_MAX_MIB) {
				cli_error("record", "--relay-buffer %s: MiB, 1 to %u", optarg,
					  EVT_RELAY_QUEUE_MAX_MIB);
				goto out;
			}
			relay.max_queued = (size_t)mib << 20;
			break;
		}
		case 'O':
			o.mode = EVT_MODE_OVERWRITE;
			break;
		case 'B':
			if (parse_block(optarg, &o.block_us))
				goto out;
			break;
		case 'S':
			if (parse_u32("--packet-size", optarg, &o.packet_size))
				goto out;
			break;
		case 'N':
			if (parse_u32("--packets", optarg, &o.packet_count))
				goto out;
			break;
		case 'K':
			if (cli_parse_kernel_buffer("record", optarg, &o.kernel_ring_kib))
				goto out;
			break;
		case 'q':
			quiet = true;
			break;
		case 's':
			show_stats = 1;
			break;
		case 'h':
			free(patterns);
			return cli_help("record");
		default:
			ret = cli_usage("record");
			goto out;
		}
	}
	if (npids && optind < argc) {
		cli_error("record", "-p and a command to run exclude each other");
		ret = cli_usage("record");
		goto out;
	}
	if (o.block_us && o.mode == EVT_MODE_OVERWRITE) {
		cli_error("record", "--block and --overwrite exclude each other (a "
			  "flight recorder never waits: it reuses its oldest packet)");
		ret = cli_usage("record");
		goto out;
	}
	if (o.relay && o.mode == EVT_MODE_OVERWRITE) {
		cli_error("record", "--relay and --overwrite exclude each other (a "
			  "relay gets packets as they are drained; a flight "
			  "recorder drains at its end)");
		ret = cli_usage("record");
		goto out;
	}
	if (!o.relay && (relay.hostname || strcmp(relay.session, "evtrace") ||
			 relay.max_queued)) {
		cli_error("record", "--session, --hostname and --relay-buffer are "
			  "about what --relay sends: give --relay too");
		ret = cli_usage("record");
		goto out;
	}
	if (o.relay && !relay.hostname) {
		evt_relay_default_hostname(hostname, sizeof(hostname));
		relay.hostname = hostname;
	}
	if (o.relay && !output_given)
		o.output = NULL;	/* the relay only */
	if (npids && o.all) {
		cli_error("record", "-p and -a exclude each other");
		ret = cli_usage("record");
		goto out;
	}
	if (!npids && !o.all && optind >= argc) {
		cli_error("record", "no command to run, and no -p");
		ret = cli_usage("record");
		goto out;
	}
	if (o.npatterns >= EVT_RULES_MAX_PATTERNS) {
		cli_error("record", "more than %d -e patterns",
			  EVT_RULES_MAX_PATTERNS - 1);
		goto out;
	}
	o.patterns = patterns;
	if (npids) {
		int route = cli_route("record", pids, npids);

		if (route == CLI_VIA_DAEMON && nkernel) {
			for (unsigned i = 0; i < o.npatterns; i++)
				if (evt_is_kernel_path(patterns[i])) {
					cli_error("record", "%s: %s", patterns[i],
						  EVT_PROTO_NO_KERNEL_EVENTS);
					break;
				}
			goto out;
		}
		if (route == CLI_VIA_DAEMON) {
			ret = via_daemon(pids, npids, &o, relay_arg, show_stats);
			goto out;
		}
		if (route < 0)
			goto out;
	}
	if ((uint64_t)o.packet_size * o.packet_count > EVT_ARENA_BYTES / 8 &&
	    (uint64_t)o.packet_size * o.packet_count <= EVT_ARENA_BYTES)
		fprintf(stderr, "evtrace: record: note: each thread buffer takes %llu KiB "
			"of a process's %llu MiB, so at most %llu threads of a process "
			"get one; the events of others are counted as lost\n",
			(unsigned long long)o.packet_size * o.packet_count >> 10,
			EVT_ARENA_BYTES >> 20,
			(unsigned long long)(EVT_ARENA_BYTES /
					     ((uint64_t)o.packet_size * o.packet_count)));
	nuser = o.npatterns;
	/* -e kernel/... alone: a process need not be traced. */
	o.untraced_ok = nkernel && nkernel == nuser;
	if (o.npatterns == 0) {	/* every event of the program */
		patterns[o.npatterns++] = "printk";
		patterns[o.npatterns++] = "*";
	}
	patterns[o.npatterns++] = "ftrace/print";
	o.patterns = patterns;
	if (evt_rundir_path(rundir, sizeof(rundir), err, sizeof(err))) {
		cli_error("record", "%s", err);
		goto out;
	}
	o.rundir = rundir;
	o.pids = pids;
	o.npids = npids;
	if (o.output)
		snprintf(what, sizeof(what), "evtrace record -o %s", o.output);
	else
		snprintf(what, sizeof(what), "evtrace record --relay %s", relay_host);
	o.what = what;
	made_output = o.output && lstat(o.output, &st) != 0;
	if (o.output) {	/* a trace there is kept as DIR.old when the trace is made */
		char index[PATH_MAX + 16];

		snprintf(index, sizeof(index), "%s/evtrace/index", o.output);
		kept_old = !made_output && lstat(index, &st) == 0;
	}
	if (evt_collection_create(&o, &c, err, sizeof(err))) {
		cli_error("record", "%s", err);
		goto out;
	}
	/* Its processes' events, for the patterns that name none. */
	if (npids && evt_collection_poll(c, err, sizeof(err)) < 0) {
		cli_error("record", "%s", err);
		goto out;
	}
	if (npids) {
		cli_note_unmatched("record", patterns, nuser, cli_collection_events, c, false);
		cli_note_refused("record", patterns, o.npatterns, cli_collection_events, c);
	}
	catch_stop_signals();
	u.all = o.all && optind >= argc;
	if (!npids && !u.all) {
		/* With -a the kernel events are every CPU's already. */
		u.child = cli_spawn(argv + optind, evt_collection_rules_name(c),
				    rundir, nkernel && !o.all ? kernel_command : NULL,
				    c, &exec_errno);
		if (exec_errno == -1) {	/* kernel_command said why */
			/* An empty trace, which the next record may replace. */
			evt_collection_finish(c, NULL, err, sizeof(err));
			ret = 1;
			goto out;
		}
		if (u.child < 0 || exec_errno) {
			cli_error("record", "cannot run '%s': %s", argv[optind],
				  strerror(u.child < 0 ? errno : exec_errno));
			evt_collection_finish(c, NULL, err, sizeof(err));
			if (made_output || kept_old)
				remove_empty_trace(o.output);
			if (kept_old)
				restore_old_trace(o.output);
			ret = 127;
			goto out;
		}
		ran = true;
		forward_to = u.child;
	}
	status_line_start(!quiet);
	ret = evt_collection_run(c, record_done, &u, err, sizeof(err));
	status_line_clear();
	evt_report_set(NULL, NULL);
	if (ret) {
		/* What is on disk stays readable; the processes are not
		 * ours to stop: they run on, untraced, to their end. */
		if (u.child) {
			cli_error("record", "%s; recording stopped, '%s' runs on "
				  "untraced", err, argv[optind]);
			while (stop_requested < 2 &&
			       waitpid(u.child, &u.status, WNOHANG) != u.child)
				usleep(20 * 1000);
		} else {
			cli_error("record", "%s; recording stopped, the processes "
				  "run on untraced", err);
		}
		ret = 1;
		goto out;
	}
	ret = u.child ? child_status(&u) : 0;
	if (u.child && !u.child_exited)
		fprintf(stderr, "evtrace: record: stopped by a second signal before "
			"'%s' (pid %d) ended: what it writes from now on is not "
			"recorded, and it runs on\n", argv[optind], (int)u.child);
	if (evt_collection_finish(c, &stats, err, sizeof(err))) {
		cli_error("record", "%s", err);
		ret = ret ? ret : 1;
	} else {
		uint64_t lost = stats.lost + stats.lost_unbuffered;

		fprintf(stderr, "evtrace: record: %s%llu packet%s, %llu byte%s from %u "
			"process%s %s %s; %llu event%s lost",
			nuser ? "" : "every event (no -e): ",
			(unsigned long long)stats.packets, cli_plural(stats.packets),
			(unsigned long long)stats.bytes, cli_plural(stats.bytes),
			stats.processes, stats.processes == 1 ? "" : "es",
			o.output ? "written to" : "sent to relay",
			o.output ? o.output : relay_host,
			(unsigned long long)lost, cli_plural(lost));
		if (stats.unfollowed)
			fprintf(stderr, ", and an unknown number from %u process%s "
				"it could not follow (named above)", stats.unfollowed,
				stats.unfollowed == 1 ? "" : "es");
		fputc('\n', stderr);
		/* A command's patterns, now that all it registered was read. */
		if (ran)
			cli_note_unmatched("record", patterns, nuser,
					   cli_collection_events, c, true);
		if (ran && nuser)
			cli_note_unrecorded("record", "recorded", patterns, o.npatterns,
					    cli_collection_events, c);
		cli_note_refused("record", patterns, o.npatterns,
				 cli_collection_events, c);
		if (ran && !stats.processes && !o.untraced_ok)
			fprintf(stderr, "evtrace: record: no traced process appeared: "
				"'%s' is not linked with libevtrace, or its environment "
				"was cleared (it must keep EVTRACE_COLLECTION and "
				"EVTRACE_RUNDIR)\n", argv[optind]);
		if (stats.lost_unbuffered)
			fprintf(stderr, "evtrace: record: %llu of them found no "
				"buffer (memory bound reached)\n",
				(unsigned long long)stats.lost_unbuffered);
		if (o.relay)
			print_relay_stats(&stats, relay_host);
		if (show_stats)
			print_engine_cpu(stats.bytes, stats.wakeups,
					 stats.step_offs);
	}
out:
	evt_collection_destroy(c);
	free(patterns);
	free(pids);
	return ret;
}
