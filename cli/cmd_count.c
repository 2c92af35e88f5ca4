/*
 * cmd_count.c - evtrace count: how many times events happen in a command
 * or in running processes, like perf stat.  A counting collection writes
 * no records: each thread adds to a counter per event in its control file.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "protocol.h"
#include "collection.h"
#include "kernel_count.h"
#include "kernel_events.h"
#include "usdt_probes.h"
#include "layout.h"
#include "rules.h"
#include "rundir.h"
#include "session.h"

/* What an interval printed last, by public id, to print differences. */
struct interval {
	struct last {
		uint32_t id;
		uint64_t count;
	} *last;
	uint32_t n;
	double elapsed;
};

/* When to stop counting (session.h), and when to print an interval. */
struct until {
	struct cli_session *run;
	int interval_ms;
	double start, next_print;
	struct interval iv, kiv;
	struct evt_kernel_count *kernel;	/* kernel events, or NULL */
	uint32_t kernel_index;
};

/* The kernel events the patterns name, in the command's process. */
struct kernel_patterns {
	const char *const *patterns;
	unsigned n;
	const char *const *files;	/* of its usdt/ probes */
	unsigned nfiles;
	struct evt_kernel_count **out;
};

static void print_total(uint32_t id, const char *path, uint64_t count, void *ctx)
{
	(void)id;
	(void)ctx;
	fprintf(stderr, "%20" PRIu64 "      %s\n", count, path);
}

static void print_interval(uint32_t id, const char *path, uint64_t count,
			   void *ctx)
{
	struct interval *iv = ctx;
	uint64_t before = 0;
	uint32_t i;

	for (i = 0; i < iv->n && iv->last[i].id != id; i++)
		;
	if (i == iv->n) {
		struct last *grown = realloc(iv->last, (iv->n + 1) * sizeof(*grown));

		if (!grown)
			return;
		iv->last = grown;
		iv->last[iv->n++] = (struct last){ id, 0 };
	}
	before = iv->last[i].count;
	iv->last[i].count = count;
	fprintf(stderr, "%14.6f %20" PRIu64 "      %s\n", iv->elapsed,
		count - before, path);
}

static void print_kernel_total(const char *path, uint64_t count, void *ctx)
{
	print_total(0, path, count, ctx);
}

/* Kernel counters keep their order: the index keys their last counts. */
static void print_kernel_interval(const char *path, uint64_t count, void *ctx)
{
	struct until *u = ctx;

	u->kiv.elapsed = u->iv.elapsed;
	print_interval(u->kernel_index++, path, count, &u->kiv);
}

/* cli_spawn's hook: counting starts when the command execs. */
static int open_kernel(pid_t child, void *ctx)
{
	struct kernel_patterns *k = ctx;
	char err[PATH_MAX + 300];

	if (evt_kernel_count_open(k->patterns, k->n, k->files, k->nfiles, child,
				  true, k->out, err, sizeof(err)))
		return cli_error("count", "%s", err), -1;
	return 0;
}

/*
 * count -p PID -e kernel/... with no user events: the process need not be
 * traced, so no collection; counts until ^C or the process is gone.
 */
static int count_kernel_only(pid_t pid, const char *const *patterns,
			     unsigned n, const char *const *files, unsigned nfiles,
			     int interval_ms)
{
	struct until u = { .interval_ms = interval_ms };
	struct cli_session run;
	char err[PATH_MAX + 300];
	int ret = 1;

	if (evt_kernel_count_open(patterns, n, files, nfiles, pid, false, &u.kernel,
				  err, sizeof(err)))
		return cli_error("count", "%s", err);
	cli_session_start(&run, "count", "counting", "counted");
	u.start = (cli_monotonic_ns() / 1e9);
	u.next_print = u.start + interval_ms / 1000.0;
	while (!cli_session_over(&run) && (kill(pid, 0) == 0 || errno == EPERM)) {
		usleep(20 * 1000);
		if (interval_ms && (cli_monotonic_ns() / 1e9) >= u.next_print) {
			u.iv.elapsed = (cli_monotonic_ns() / 1e9) - u.start;
			u.kernel_index = 0;
			if (evt_kernel_count_read(u.kernel, print_kernel_interval, &u,
						  err, sizeof(err)))
				goto out;
			u.next_print += interval_ms / 1000.0;
		}
	}
	fprintf(stderr, "\n Event counts for pid %d (kernel events):\n\n", (int)pid);
	if (evt_kernel_count_read(u.kernel, print_kernel_total, NULL, err, sizeof(err)))
		goto out;
	fprintf(stderr, "\n%20.6f seconds time elapsed\n", (cli_monotonic_ns() / 1e9) - u.start);
	ret = 0;
out:
	if (ret)
		cli_error("count", "%s", err);
	evt_kernel_count_close(u.kernel);
	free(u.kiv.last);
	return ret;
}

static bool count_done(struct evt_collection *c, void *ctx)
{
	struct until *u = ctx;

	if (cli_session_over(u->run))
		return true;
	if (!u->run->child && !evt_collection_running(c))
		return true;
	if (u->interval_ms && (cli_monotonic_ns() / 1e9) >= u->next_print) {
		char err[PATH_MAX + 100];

		u->iv.elapsed = (cli_monotonic_ns() / 1e9) - u->start;
		evt_collection_counts(c, print_interval, &u->iv);
		u->kernel_index = 0;
		if (evt_kernel_count_read(u->kernel, print_kernel_interval, u, err,
					  sizeof(err)))
			cli_error("count", "%s", err);
		u->next_print += u->interval_ms / 1000.0;
	}
	return false;
}

static int parse_interval(const char *arg, int *ms)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno || end == arg || *end || v < 10 || v > 3600 * 1000)
		return cli_error("count", "-I '%s': not a number of milliseconds "
				 "from 10 to 3600000", arg);
	*ms = (int)v;
	return 0;
}

int cmd_count(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "event", required_argument, NULL, 'e' },
		{ "pid", required_argument, NULL, 'p' },
		{ "interval", required_argument, NULL, 'I' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct evt_collection_opts o = {
		.mode = EVT_MODE_COUNT, .what = "evtrace count",
		.packet_size = EVT_PACKET_DEFAULT_BYTES,
		.packet_count = EVT_PACKETS_DEFAULT,
	};
	const char **patterns = calloc(argc + 2, sizeof(char *));
	const char **kpatterns = calloc(argc + 2, sizeof(char *));
	struct until u = { 0 };
	struct evt_collection_stats stats;
	struct evt_collection *c = NULL;
	char rundir[EVT_RUNDIR_PATH_MAX], err[PATH_MAX + 300];
	int opt, ret = 1, interval_ms = 0;
	bool own = false;
	int *pids = NULL;
	unsigned npids = 0, nuser, nkernel = 0, nkfiles = 0;
	char **kfiles = NULL;		/* of the usdt/ probes named */
	struct cli_session run;

	cli_session_catch();	/* before the setup (session.h) */

	if (!patterns || !kpatterns) {
		free(patterns);
		free(kpatterns);
	evt_usdt_files_free(kfiles, nkfiles);
		return cli_error("count", "out of memory");
	}
	while ((opt = getopt_long(argc, argv, "+e:p:I:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'e':
			if (!cli_pattern_ok("count", optarg))
				goto out;
			if (evt_is_kernel_path(optarg))
				kpatterns[nkernel++] = optarg;
			else
				patterns[o.npatterns++] = optarg;
			break;
		case 'p':
			if (cli_parse_pids("count", optarg, &pids, &npids))
				goto out;
			break;
		case 'I':
			if (parse_interval(optarg, &interval_ms))
				goto out;
			break;
		case 'h':
			ret = cli_help("count");
			goto out;
		default:
			ret = cli_usage("count");
			goto out;
		}
	}
	if (npids && optind < argc) {
		cli_error("count", "-p and a command to run exclude each other");
		ret = cli_usage("count");
		goto out;
	}
	if (!npids && optind >= argc) {
		cli_error("count", "no command to run, and no -p");
		ret = cli_usage("count");
		goto out;
	}
	if (!cli_patterns_fit("count", o.npatterns, 0))
		goto out;
	nuser = o.npatterns;
	if (o.npatterns == 0 && !nkernel) {	/* every event, as record */
		patterns[o.npatterns++] = "printk";
		patterns[o.npatterns++] = "*";
	}
	if (npids) {
		int route = cli_route("count", pids, npids);

		if (route == CLI_VIA_DAEMON && nkernel) {
			cli_error("count", "%s: %s", kpatterns[0],
				  EVT_PROTO_NO_KERNEL_EVENTS);
			goto out;
		}
		if (route == CLI_VIA_DAEMON) {
			struct evt_request r = {
				.verb = EVT_VERB_COUNT, .npids = npids,
				.nevents = o.npatterns, .interval_ms = (uint32_t)interval_ms,
			};

			if (npids > EVT_PROTO_MAX_PIDS) {
				cli_error("count", "more than %d pids for evtraced",
					  EVT_PROTO_MAX_PIDS);
				goto out;
			}
			memcpy(r.pids, pids, npids * sizeof(*pids));
			memcpy(r.events, patterns, o.npatterns * sizeof(*patterns));
			ret = cli_via_daemon("count", &r, NULL);
			goto out;
		}
		if (route < 0)
			goto out;
	}
	if (npids > 1 && nkernel) {
		cli_error("count", "%s: counting kernel events in several processes "
			  "at once is not yet supported: give one -p", kpatterns[0]);
		goto out;
	}
	if (evt_usdt_files_for(kpatterns, nkernel, npids ? pids[0] : 0,
			       optind < argc ? argv[optind] : NULL, &kfiles, &nkfiles,
			       err, sizeof(err))) {
		cli_error("count", "usdt/: %s", err);
		goto out;
	}
	if (npids && nkernel && !nuser) {
		ret = count_kernel_only(pids[0], kpatterns, nkernel,
					(const char *const *)kfiles, nkfiles, interval_ms);
		goto out;
	}
	o.patterns = patterns;
	o.pids = pids;
	o.npids = npids;
	if (evt_rundir_path(rundir, sizeof(rundir), err, sizeof(err))) {
		cli_error("count", "%s", err);
		goto out;
	}
	o.rundir = rundir;
	if (cli_collection_create("count", &o, optind < argc, rundir,
				  sizeof(rundir), &c, &own))
		goto out;
	/* Its processes' events, for the patterns that name none. */
	if (npids && evt_collection_poll(c, err, sizeof(err)) < 0) {
		cli_error("count", "%s", err);
		goto out;
	}
	if (npids && nuser)
		cli_note_unmatched("count", patterns, nuser, cli_collection_events, c, false);
	if (npids)
		cli_note_refused("count", patterns, o.npatterns, cli_collection_events, c);
	if (npids && nkernel &&
	    evt_kernel_count_open(kpatterns, nkernel, (const char *const *)kfiles,
				  nkfiles, pids[0], false, &u.kernel, err, sizeof(err))) {
		cli_error("count", "%s", err);
		goto out;
	}
	cli_session_start(&run, "count", "counting", "counted");
	if (!npids) {
		struct kernel_patterns k = { kpatterns, nkernel,
					     (const char *const *)kfiles, nkfiles,
					     &u.kernel };

		ret = cli_session_spawn(&run, argv + optind,
					evt_collection_rules_name(c), rundir,
					nkernel ? open_kernel : NULL, &k);
		if (ret)
			goto out;
	}
	u.run = &run;
	u.interval_ms = interval_ms;
	u.start = (cli_monotonic_ns() / 1e9);
	u.next_print = u.start + interval_ms / 1000.0;
	if (evt_collection_run(c, count_done, &u, err, sizeof(err))) {
		cli_error("count", "%s", err);
		ret = 1;
		goto out;
	}
	ret = cli_session_end(&run);
	if (evt_collection_finish(c, &stats, err, sizeof(err))) {
		cli_error("count", "%s", err);
		ret = ret ? ret : 1;
		goto out;
	}
	if (run.child) {
		fprintf(stderr, "\n Event counts for '%s'", argv[optind]);
	} else {
		unsigned k;

		fprintf(stderr, "\n Event counts for pid");
		for (k = 0; k < npids; k++)
			fprintf(stderr, "%c%d", k ? ',' : ' ', pids[k]);
	}
	fprintf(stderr, " (%u process%s):\n\n", stats.processes,
		stats.processes == 1 ? "" : "es");
	if (evt_collection_counts(c, print_total, NULL))
		cli_error("count", "out of memory");
	if (evt_kernel_count_read(u.kernel, print_kernel_total, NULL, err,
				  sizeof(err)))
		cli_error("count", "%s", err);
	fprintf(stderr, "\n%20.6f seconds time elapsed\n", (cli_monotonic_ns() / 1e9) - u.start);
	cli_note_refused("count", patterns, o.npatterns, cli_collection_events, c);
	if (nuser) {
		fputc('\n', stderr);
		cli_note_unmatched("count", patterns, nuser, cli_collection_events,
				   c, true);
		cli_note_unrecorded("count", "counted", patterns, nuser,
				    cli_collection_events, c);
	}
	if (stats.lost_unbuffered)
		fprintf(stderr, "evtrace: count: %" PRIu64 " events could not be "
			"counted (no room for counters: memory bound reached)\n",
			stats.lost_unbuffered);
	if (run.child && !stats.processes && !nkernel)
		cli_note_untraced("count", argv[optind]);
	if (stats.unfollowed)
		fprintf(stderr, "evtrace: count: and an unknown number from %u "
			"processes it could not follow (named above)\n",
			stats.unfollowed);
out:
	evt_collection_destroy(c);
	if (own)
		cli_own_rundir_remove(rundir);
	evt_kernel_count_close(u.kernel);
	free(u.iv.last);
	free(u.kiv.last);
	free(kpatterns);
	free(patterns);
	free(pids);
	return ret;
}
