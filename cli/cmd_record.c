/*
 * cmd_record.c - evtrace record: run a command under a collection, or
 * attach one to running processes, and write its trace.
 */
#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "cli.h"
#include "live_stream.h"
#include "triggers.h"
#include "report.h"
#include "session.h"
#include "status_line.h"
#include "protocol.h"
#include "collection.h"
#include "container.h"
#include "kernel_events.h"
#include "syscall_capture.h"
#include "layout.h"
#include "lost_record.h"
#include "rules.h"
#include "rundir.h"
#include "trace_dir.h"
#include "trace_names.h"
#include "usdt_probes.h"

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

/* A duration up to an hour. */
static int parse_ns(const char *opt, const char *arg, int64_t *out)
{
	if (evt_trigger_duration(arg, out) || *out > 3600000000000LL)
		return cli_error("record", "%s %s: a duration up to an hour: a "
				 "number and ns, us, ms or s", opt, arg);
	return 0;
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
 * processes are gone), or we were asked to (session.h). */
struct until {
	struct cli_session *run;
	bool all;		/* -a without a command: until asked */
	struct evt_triggers *triggers;
	struct evt_collection *keep;	/* --keep's, or NULL */
	/* -e, said early when one names nothing the command registered */
	const char *const *patterns;
	unsigned npatterns;
	int64_t seen_ns;		/* when a process first ran; 0: not yet */
	bool patterns_checked;
};

/* A second after the command's first process appeared, its start has
 * registered what it will: an -e that names nothing yet is said now,
 * not after a run that recorded nothing. */
static void check_patterns_early(struct until *u, struct evt_collection *c)
{
	int64_t now = cli_monotonic_ns();

	if (u->patterns_checked || !u->run->child || !u->npatterns)
		return;
	if (!u->seen_ns) {
		if (evt_collection_running(c))
			u->seen_ns = now;
		return;
	}
	if (now - u->seen_ns < 1000000000)
		return;
	u->patterns_checked = true;
	status_line_clear();
	cli_note_unmatched("record", u->patterns, u->npatterns,
			   cli_collection_events, c, false);
}

static bool record_done(struct evt_collection *c, void *ctx)
{
	struct until *u = ctx;

	check_patterns_early(u, c);
	status_line_update(c);
	if (u->keep) {	/* it takes on the processes the recording meets */
		char err[PATH_MAX + 300];

		evt_collection_poll(u->keep, err, sizeof(err));
	}
	if (u->triggers && evt_triggers_poll(u->triggers))
		evt_collection_hurry(c);	/* events flow: look again soon */
	if (cli_session_over(u->run))
		return true;
	return !u->run->child && !u->all && evt_collection_running(c) == 0;
}

/* record -p of another user's processes, asked of evtraced. */
/* --block[=MS|inf]: 1 to 1000 ms, 5 when not given. */
static int parse_block(const char *arg, uint32_t *us)
{
	char *end;
	unsigned long ms;

	if (!arg) {
		*us = EVT_BLOCK_DEFAULT_MS * 1000;
		return 0;
	}
	if (!strcmp(arg, "inf")) {
		*us = EVT_BLOCK_INF;
		return 0;
	}
	errno = 0;
	ms = strtoul(arg, &end, 10);
	if (errno || end == arg || *end || arg[0] == '-' || ms < 1 ||
	    ms > EVT_BLOCK_MAX_US / 1000)
		return cli_error("record", "--block=%s: a wait in milliseconds, "
				 "1 to %u, or inf", arg, EVT_BLOCK_MAX_US / 1000), -1;
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

/* What record was asked for. */
#define KEEP_MAX 16

struct record_args {
	struct evt_collection_opts o;
	const char **patterns;		/* -e and --events-from, of room for
					 * patterns_cap */
	unsigned patterns_cap;
	char *from_files[EVT_RULES_MAX_PATTERNS + 1];	/* theirs, to free */
	unsigned nfrom_files;
	int *pids;
	unsigned npids, nuser, nkernel;
	struct evt_relay_opts relay;
	char relay_host[256], hostname[256];
	const char *relay_arg;
	bool output_given, quiet, show_stats, fail_on_loss;
	char **cmdv;		/* the command to run, or NULL */
	struct evt_trigger **triggers;	/* --trigger */
	struct evt_triggers_opts trig;	/* its options */
	bool after_given, before_given, max_given;
	const char *keep[KEEP_MAX];	/* --keep: pinned sites */
	unsigned nkeep;
	const char *probes_in[KEEP_MAX];	/* --probes-in: more files of
						 * USDT probes */
	unsigned nprobes_in;
};

/* The options; -1 to go on, else the exit status. */
static int parse_args(struct record_args *a, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "event", required_argument, NULL, 'e' },
		{ "events-from", required_argument, NULL, 1003 },
		{ "pid", required_argument, NULL, 'p' },
		{ "all", no_argument, NULL, 'a' },
		{ "output", required_argument, NULL, 'o' },
		{ "overwrite", no_argument, NULL, 'O' },
		{ "block", optional_argument, NULL, 'B' },
		{ "packet-size", required_argument, NULL, 'S' },
		{ "packets", required_argument, NULL, 'N' },
		{ "kernel-buffer", required_argument, NULL, 'K' },
		{ "strsize", required_argument, NULL, 1004 },
		{ "relay", required_argument, NULL, 'R' },
		{ "session", required_argument, NULL, 'n' },
		{ "hostname", required_argument, NULL, 'H' },
		{ "relay-buffer", required_argument, NULL, 'Q' },
		{ "stats", no_argument, NULL, 's' },
		{ "fail-on-loss", no_argument, NULL, 'F' },
		{ "guard", required_argument, NULL, 1001 },
		{ "keep", required_argument, NULL, 1002 },
		{ "probes-in", required_argument, NULL, 1099 },
		{ "trigger", required_argument, NULL, 'G' },
		{ "after", required_argument, NULL, 'A' },
		{ "before", required_argument, NULL, 'b' },
		{ "max-windows", required_argument, NULL, 'W' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	while ((opt = getopt_long(argc, argv, "+e:p:ao:qh", longopts, NULL)) != -1) {
		switch (opt) {
		case 'e':
			if (!cli_pattern_ok("record", optarg))
				return 1;
			a->nkernel += evt_is_kernel_path(optarg);
			a->patterns[a->o.npatterns++] = optarg;
			break;
		case 1003: {
			unsigned from = a->o.npatterns, k;

			/* (as many as a selection takes: at most that many
			 * strings of the files are ever held) */
			unsigned cap = EVT_RULES_MAX_PATTERNS < a->patterns_cap - 3 ?
				       EVT_RULES_MAX_PATTERNS : a->patterns_cap - 3;
			int bad = cli_read_patterns("record", optarg, a->patterns,
						    &a->o.npatterns, cap);

			for (k = from; k < a->o.npatterns; k++) {
				a->nkernel += evt_is_kernel_path(a->patterns[k]);
				if (a->nfrom_files < EVT_RULES_MAX_PATTERNS + 1)
					a->from_files[a->nfrom_files++] =
						(char *)a->patterns[k];
			}
			if (bad || !cli_patterns_fit("record", a->o.npatterns, 0))
				return 1;
			break;
		}
		case 'p':
			if (cli_parse_pids("record", optarg, &a->pids, &a->npids))
				return 1;
			break;
		case 'a':
			a->o.all = true;
			break;
		case 'o':
			a->o.output = optarg;
			a->output_given = true;
			break;
		case 'R':
			if (evt_relay_parse(optarg, &a->relay, a->relay_host,
					    sizeof(a->relay_host))) {
				cli_error("record", "--relay %s: " EVT_RELAY_ADDRESS_FORMS,
					  optarg);
				return 1;
			}
			a->relay_arg = optarg;
			a->o.relay = &a->relay;
			break;
		case 'n':
			if (!relay_name_ok("--session", optarg))
				return 1;
			a->relay.session = optarg;
			break;
		case 'H':
			if (!relay_name_ok("--hostname", optarg))
				return 1;
			a->relay.hostname = optarg;
			break;
		case 'Q': {
			uint32_t mib = 0;	/* (gcc -O3 cannot see parse_u32 sets it) */

			if (parse_u32("--relay-buffer", optarg, &mib))
				return 1;
			if (mib < 1 || mib > EVT_RELAY_QUEUE_MAX_MIB) {
				cli_error("record", "--relay-buffer %s: MiB, 1 to %u", optarg,
					  EVT_RELAY_QUEUE_MAX_MIB);
				return 1;
			}
			a->relay.max_queued = (size_t)mib << 20;
			break;
		}
		case 'O':
			a->o.mode = EVT_MODE_OVERWRITE;
			break;
		case 'B':
			if (parse_block(optarg, &a->o.block_us))
				return 1;
			break;
		case 'S':
			if (parse_u32("--packet-size", optarg, &a->o.packet_size))
				return 1;
			break;
		case 'N':
			if (parse_u32("--packets", optarg, &a->o.packet_count))
				return 1;
			break;
		case 'K':
			if (cli_parse_kernel_buffer("record", optarg, &a->o.kernel_ring_kib))
				return 1;
			break;
		case 1004:
			if (cli_parse_strsize("record", "--strsize", optarg,
					      &a->o.syscall_memory))
				return 1;
			break;
		case 'q':
			a->quiet = true;
			break;
		case 's':
			a->show_stats = true;
			break;
		case 1099:	/* --probes-in */
			if (a->nprobes_in == KEEP_MAX)
				return cli_error("record", "more than %d --probes-in",
						 KEEP_MAX);
			a->probes_in[a->nprobes_in++] = optarg;
			break;
		case 1002:	/* --keep */
			if (a->nkeep == KEEP_MAX)
				return cli_error("record", "more than %d --keep", KEEP_MAX);
			if (!cli_pattern_ok("record", optarg))
				return 1;
			if (evt_is_kernel_path(optarg))
				return cli_error("record", "--keep %s: kernel events "
						 "are not yet supported", optarg);
			a->keep[a->nkeep++] = optarg;
			break;
		case 1001: {	/* --guard */
			uint32_t percent = 0;

			if (parse_u32("--guard", optarg, &percent))
				return 1;
			if (percent < 1 || percent > 100)
				return cli_error("record", "--guard %s: a percentage, 1 "
						 "to 100", optarg);
			a->o.guard_percent = percent;
			break;
		}
		case 'F':
			a->fail_on_loss = true;
			break;
		case 'G': {
			char why[PATH_MAX + 300];
			struct evt_trigger *t = evt_trigger_parse(optarg, why, sizeof(why));

			if (!t)
				return cli_error("record", "%s", why);
			a->triggers[a->trig.ntriggers++] = t;
			break;
		}
		case 'A':
			if (parse_ns("--after", optarg, &a->trig.after_ns))
				return 1;
			a->after_given = true;
			break;
		case 'b':
			if (parse_ns("--before", optarg, &a->trig.before_ns))
				return 1;
			if (a->trig.before_ns <= 0)
				return cli_error("record", "--before %s: more than 0",
						 optarg);
			a->before_given = true;
			break;
		case 'W':
			if (parse_u32("--max-windows", optarg, &a->trig.max_windows))
				return 1;
			if (a->trig.max_windows < 1 || a->trig.max_windows > 10000)
				return cli_error("record", "--max-windows %s: 1 to 10000",
						 optarg);
			a->max_given = true;
			break;
		case 'h':
			return cli_help("record");
		default:
			return cli_usage("record");
		}
	}
	a->cmdv = optind < argc ? argv + optind : NULL;
	return -1;
}

/* Options that exclude each other, and what they leave implied; -1 to
 * go on, else the exit status. */
static int check_args(struct record_args *a)
{
	const char *bad = NULL;

	if (a->npids && a->cmdv)
		bad = "-p and a command to run exclude each other";
	else if (a->o.block_us && a->o.mode == EVT_MODE_OVERWRITE)
		bad = "--block and --overwrite exclude each other (a flight "
		      "recorder never waits: it reuses its oldest packet)";
	else if (a->o.relay && a->o.mode == EVT_MODE_OVERWRITE)
		bad = "--relay and --overwrite exclude each other (a relay gets "
		      "packets as they are drained; a flight recorder drains at "
		      "its end)";
	else if (!a->o.relay && (a->relay.hostname ||
				 strcmp(a->relay.session, "evtrace") ||
				 a->relay.max_queued))
		bad = "--session, --hostname and --relay-buffer are about what "
		      "--relay sends: give --relay too";
	else if (a->npids && a->o.all)
		bad = "-p and -a exclude each other";
	else if (a->trig.ntriggers && a->o.mode != EVT_MODE_OVERWRITE)
		bad = "--trigger writes windows of a flight recorder: give "
		      "--overwrite";
	else if ((a->after_given || a->before_given || a->max_given) &&
		 !a->trig.ntriggers)
		bad = "--after, --before and --max-windows are about the windows "
		      "--trigger writes: give --trigger too";
	else if (a->trig.ntriggers && a->npids > 1)
		bad = "--trigger watches one -p process (and its children), or a "
		      "command, or -a";
	else if (a->nkeep && (a->o.mode != EVT_MODE_OVERWRITE || !a->o.output))
		bad = "--keep pins sites of a flight recorder: give --overwrite "
		      "(and a trace directory)";
	else if (a->o.guard_percent && a->o.mode == EVT_MODE_OVERWRITE)
		bad = "--guard and --overwrite exclude each other (a flight "
		      "recorder reads its buffers at its end only)";
	else if (a->fail_on_loss && a->o.mode == EVT_MODE_OVERWRITE)
		bad = "--fail-on-loss and --overwrite exclude each other (a flight "
		      "recorder drops its oldest events by design)";
	else if (!a->npids && !a->o.all && !a->cmdv)
		bad = "no command to run, and no -p";
	if (bad) {
		cli_error("record", "%s", bad);
		return cli_usage("record");
	}
	if (!cli_patterns_fit("record", a->o.npatterns, 1))	/* ftrace/print */
		return 1;
	if (a->o.relay && !a->relay.hostname) {
		evt_relay_default_hostname(a->hostname, sizeof(a->hostname));
		a->relay.hostname = a->hostname;
	}
	if (a->o.relay && !a->output_given)
		a->o.output = NULL;	/* the relay only */
	a->o.patterns = a->patterns;
	return -1;
}

/* The recording as a request to evtraced, which makes it for us. */
static int via_daemon(const struct record_args *a)
{
	const struct evt_collection_opts *o = &a->o;
	struct evt_request r = {
		.verb = EVT_VERB_RECORD, .npids = a->npids,
		.overwrite = o->mode == EVT_MODE_OVERWRITE,
		.nevents = o->npatterns, .relay = a->relay_arg, .block_us = o->block_us,
		.ntriggers = a->trig.ntriggers, .has_after = a->after_given,
		.after_ns = (uint64_t)a->trig.after_ns, .has_before = a->before_given,
		.before_ns = (uint64_t)a->trig.before_ns,
		.max_windows = a->max_given ? a->trig.max_windows : 0,
		.nkeep = a->nkeep, .guard_percent = o->guard_percent,
		.fail_on_loss = a->fail_on_loss,
	};
	unsigned k;

	if (a->show_stats)
		return cli_error("record", "--stats: not for a recording evtraced "
				 "makes (its CPU time is the daemon's)");
	if (a->npids > EVT_PROTO_MAX_PIDS)
		return cli_error("record", "more than %d pids for evtraced",
				 EVT_PROTO_MAX_PIDS);
	if (a->trig.ntriggers > EVT_PROTO_MAX_TRIGGERS)
		return cli_error("record", "more than %d --trigger for evtraced",
				 EVT_PROTO_MAX_TRIGGERS);
	memcpy(r.pids, a->pids, a->npids * sizeof(*a->pids));
	memcpy(r.events, o->patterns, o->npatterns * sizeof(*o->patterns));
	for (k = 0; k < a->trig.ntriggers; k++)
		r.triggers[k] = a->triggers[k]->text;
	memcpy(r.keep, a->keep, a->nkeep * sizeof(*a->keep));
	if (o->packet_size != EVT_PACKET_DEFAULT_BYTES)
		r.packet_size = o->packet_size;
	if (o->packet_count != EVT_PACKETS_DEFAULT)
		r.packet_count = o->packet_count;
	if (a->relay_arg) {
		/* The daemon's worker would name the host as this does. */
		r.session = o->relay->session;
		r.hostname = o->relay->hostname;
		r.relay_buffer_mib = (uint32_t)(o->relay->max_queued >> 20);
	}
	return cli_via_daemon("record", &r, o->output);
}

/* record -p of processes evtraced must record: -1 when they are ours to
 * record here, else the exit status. */
static int route(struct record_args *a)
{
	int where = cli_route("record", a->pids, a->npids);
	unsigned i;

	if (where == CLI_VIA_DAEMON && a->nkernel) {
		for (i = 0; i < a->o.npatterns; i++)
			if (evt_is_kernel_path(a->patterns[i])) {
				cli_error("record", "%s: %s", a->patterns[i],
					  EVT_PROTO_NO_KERNEL_EVENTS);
				break;
			}
		return 1;
	}
	if (where == CLI_VIA_DAEMON)
		return via_daemon(a);
	if (where == CLI_LOCAL && cli_routed_container() && a->nkernel)
		return cli_error("record", "kernel events of a process in a "
				 "container are not yet supported; record its own "
				 "events, or run evtrace inside the container");
	if (where == CLI_LOCAL && cli_routed_container()) {
		a->o.container_pidns = cli_routed_container()->pidns;
		a->o.container_cgroup = cli_routed_container()->cgroup;
	}
	return where < 0 ? 1 : -1;
}

/* The sites named in a summary; the others are summed by cause. */
#define SUMMARY_SITES 8

struct loss_summary {
	struct evt_loss_part parts[SUMMARY_SITES + EVT_LOSS_CAUSES];
	unsigned n;
	uint64_t other[EVT_LOSS_CAUSES];
	bool relay;		/* the relay's losses, else the writers' */
	uint64_t total;
};

static void add_loss(const char *path, unsigned cause, uint64_t count, void *ctx)
{
	struct loss_summary *l = ctx;

	if ((cause == EVT_LOSS_RELAY_FULL) != l->relay)
		return;
	l->total += count;
	if (path && l->n < SUMMARY_SITES)
		l->parts[l->n++] = (struct evt_loss_part){ path, cause, count };
	else if (cause < EVT_LOSS_CAUSES)
		l->other[cause] += count;
}

/* "lost 12 events: 7 of SITE (buffer full), ...": what the writers named
 * (lost in all), or with relay what the relay's queue refused; the causes
 * named, as bits. */
static unsigned print_losses(struct evt_collection *c, uint64_t lost, bool relay)
{
	struct loss_summary l = { .n = 0, .relay = relay };
	char text[(SUMMARY_SITES + EVT_LOSS_CAUSES) * 300];
	unsigned cause, causes = 0, i;

	evt_collection_losses(c, add_loss, &l);
	for (cause = 1; cause < EVT_LOSS_CAUSES; cause++)
		if (l.other[cause])
			l.parts[l.n++] = (struct evt_loss_part){ NULL, cause,
								 l.other[cause] };
	if (!l.n)
		return 0;
	for (i = 0; i < l.n; i++)
		causes |= 1u << l.parts[i].cause;
	evt_loss_text(text, sizeof(text), relay || !lost ? l.total : lost, l.parts,
		      l.n);
	fprintf(stderr, "evtrace: record: %s%s\n", relay ? "the relay's trace " : "",
		text);
	return causes;
}

/* What to do about the losses of threads without a buffer, by cause. */
static void advise_unbuffered(const char *rundir, unsigned causes,
			      uint64_t unbuffered)
{
	char full[2 * PATH_MAX + 300];

	if (causes & (1u << EVT_LOSS_NO_BUFFER))
		fprintf(stderr, "evtrace: record: a process has %u buffers in "
			"%llu MiB: fewer threads at once, or a smaller "
			"--packet-size or --packets, leave one for each\n",
			EVT_MAX_TBUFS, (unsigned long long)EVT_ARENA_BYTES >> 20);
	if (causes & (1u << EVT_LOSS_NO_SPACE))
		fprintf(stderr, "evtrace: record: %s\n",
			evt_rundir_full(rundir, full, sizeof(full)));
	if (unbuffered && !(causes & (1u << EVT_LOSS_NO_BUFFER |
				      1u << EVT_LOSS_NO_SPACE)))
		fprintf(stderr, "evtrace: record: %llu of them in threads that "
			"got no buffer\n", (unsigned long long)unbuffered);
}

static void print_guarded(const char *path, uint32_t pid, uint32_t rate,
			  unsigned share, void *ctx)
{
	(void)ctx;
	fprintf(stderr, "evtrace: record: --guard capped %s in pid %u at %u "
		"events a second a thread (it took %u%% of a thread's buffer in "
		"a second)\n", path, pid, rate, share);
}

/* Sites that lost events to a rate cap, and whether this recording's
 * --guard set it: a cap it did not set is said, with who may have. */
#define FOREIGN_CAPS_MAX 16

struct caps_seen {
	struct { const char *path; uint64_t count; bool ours; } site[FOREIGN_CAPS_MAX];
	unsigned n;
};

static unsigned cap_site(struct caps_seen *cs, const char *path)
{
	unsigned i;

	for (i = 0; i < cs->n; i++)
		if (!strcmp(cs->site[i].path, path))
			return i;
	if (cs->n == FOREIGN_CAPS_MAX)
		return FOREIGN_CAPS_MAX;
	cs->site[cs->n].path = path;
	cs->site[cs->n].count = 0;
	cs->site[cs->n].ours = false;
	return cs->n++;
}

static void capped_loss(const char *path, unsigned cause, uint64_t count, void *ctx)
{
	struct caps_seen *cs = ctx;
	unsigned i;

	if (cause == EVT_LOSS_RATE_LIMIT && path &&
	    (i = cap_site(cs, path)) < FOREIGN_CAPS_MAX)
		cs->site[i].count += count;
}

static void guarded_site(const char *path, uint32_t pid, uint32_t rate,
			 unsigned share, void *ctx)
{
	struct caps_seen *cs = ctx;
	unsigned i;

	(void)pid, (void)rate, (void)share;
	for (i = 0; i < cs->n; i++)
		if (!strcmp(cs->site[i].path, path))
			cs->site[i].ours = true;
}

static void print_foreign_caps(struct evt_collection *c)
{
	struct caps_seen cs = { .n = 0 };
	unsigned i;

	evt_collection_losses(c, capped_loss, &cs);
	evt_collection_guarded(c, guarded_site, &cs);
	for (i = 0; i < cs.n; i++)
		if (!cs.site[i].ours && cs.site[i].count)
			fprintf(stderr, "evtrace: record: %llu event%s of %s held back by "
				"a rate cap this recording did not set (evtrace enable "
				"--rate, or a consumer's or another recording's --guard; "
				"evtrace ls shows it): 'evtrace enable --rate 0 %s' lifts "
				"it\n", (unsigned long long)cs.site[i].count,
				cli_plural(cs.site[i].count), cs.site[i].path,
				cs.site[i].path);
}

/*
 * --keep: the pinned sites go to a flight recorder of their own, small
 * rings that the hot events (which the recording leaves out of its own
 * rings) cannot overwrite, into DIR/keep, which readers of DIR read with
 * it.
 */
#define KEEP_PACKET_BYTES EVT_PACKET_MIN_BYTES
#define KEEP_PACKETS 4

static int keep_start(const struct record_args *a, const char *rundir,
		      uint32_t slot, struct evt_collection **k, char *err,
		      size_t err_size)
{
	static char out[PATH_MAX], what[PATH_MAX + 32];
	struct evt_collection_opts ko = {
		.rundir = rundir, .output = out, .mode = EVT_MODE_OVERWRITE,
		.packet_size = KEEP_PACKET_BYTES, .packet_count = KEEP_PACKETS,
		.patterns = a->keep, .npatterns = a->nkeep,
		.pids = a->pids, .npids = a->npids, .all = a->o.all,
		.untraced_ok = a->o.untraced_ok, .hold_exited = true, .what = what,
		.keep_of = slot + 1,	/* a snapshot of the recording takes it too */
	};

	snprintf(out, sizeof(out), "%s/" EVT_TRACE_KEEP, a->o.output);
	snprintf(what, sizeof(what), "evtrace record --keep -o %s", a->o.output);
	return evt_collection_create(&ko, k, err, err_size);
}

/*
 * Before a window: the --keep collection takes on the processes the
 * recording has now, not at its next look at the run directory, so that
 * their pinned sites are marked as the recording's (keep_of) when the
 * window's snapshot looks for them.  (A window taken first had none.)
 */
static void keep_catch_up(void *keep)
{
	char err[PATH_MAX + 300];

	evt_collection_rescan(keep);
	evt_collection_poll(keep, err, sizeof(err));
}

/* A window's kernel events. */
static int kernel_window(void *c, const char *dir, int64_t from_ns, char *err,
			 size_t err_size)
{
	return evt_collection_kernel_window(c, dir, from_ns, err, err_size);
}

/* A kernel event the recording wrote, for the triggers on them. */
static void kernel_seen(const struct evt_kernel_seen *s, void *triggers)
{
	evt_triggers_kernel_event(triggers, s->path, s->layout, s->payload,
				     s->payload_size, s->monotonic_ns, s->pid,
				     s->tid);
}

/* For --trigger lost. */
static uint64_t lost_now(void *c)
{
	return evt_collection_lost_now(c);
}

/* The summary of a finished recording (ran: a command of ours). */
static void summary(const struct record_args *a, struct evt_collection *c,
		    const struct evt_collection_stats *stats, bool ran)
{
	const struct evt_collection_opts *o = &a->o;
	/* A flight recorder overwrites by design: that is not a loss. */
	uint64_t lost = stats->lost - stats->overwritten + stats->lost_unbuffered;
	unsigned causes;

	fprintf(stderr, "evtrace: record: %s%llu packet%s, %llu byte%s from %u "
		"process%s %s %s; ",
		a->nuser ? "" : "every event (no -e): ",
		(unsigned long long)stats->packets, cli_plural(stats->packets),
		(unsigned long long)stats->bytes, cli_plural(stats->bytes),
		stats->processes, stats->processes == 1 ? "" : "es",
		o->output ? "written to" : "for relay",
		o->output ? o->output : a->relay_host);
	if (o->mode == EVT_MODE_OVERWRITE)
		fprintf(stderr, "%llu event%s overwritten (the flight recorder "
			"keeps the newest), %llu lost",
			(unsigned long long)stats->overwritten,
			cli_plural(stats->overwritten), (unsigned long long)lost);
	else
		fprintf(stderr, "%llu event%s lost", (unsigned long long)lost,
			cli_plural(lost));
	if (stats->unfollowed)
		fprintf(stderr, ", and an unknown number from %u process%s "
			"it could not follow (named above)", stats->unfollowed,
			stats->unfollowed == 1 ? "" : "es");
	fputc('\n', stderr);
	/* A command's patterns, now that all it registered was read. */
	if (ran)
		cli_note_unmatched("record", a->patterns, a->nuser,
				   cli_collection_events, c, true);
	if (ran && a->nuser)
		cli_note_unrecorded("record", "recorded", a->patterns, o->npatterns,
				    cli_collection_events, c);
	cli_note_refused("record", a->patterns, o->npatterns,
			 cli_collection_events, c);
	if (ran && !stats->processes && !o->untraced_ok)
		cli_note_untraced("record", a->cmdv[0]);
	causes = lost ? print_losses(c, lost, false) : 0;
	if (o->relay)
		print_losses(c, 0, true);
	evt_collection_guarded(c, print_guarded, NULL);
	if (causes & (1u << EVT_LOSS_RATE_LIMIT))
		print_foreign_caps(c);
	advise_unbuffered(o->rundir, causes, stats->lost_unbuffered);
	if (o->relay)
		print_relay_stats(stats, a->relay_host);
	if (a->show_stats)
		print_engine_cpu(stats->bytes, stats->wakeups, stats->step_offs);
}

/* 1 when what was recorded is nowhere (a relay never reached, no -o) or,
 * with --fail-on-loss, when anything was lost (said); else 0. */
static int loss_status(const struct record_args *a,
		       const struct evt_collection_stats *s)
{
	uint64_t lost = s->lost + s->lost_unbuffered;

	if (s->relay_unsent && !a->o.output) {
		fprintf(stderr, "evtrace: record: exits 1: %llu packet%s never "
			"reached relay %s (why is said above), and no -o kept "
			"them\n", (unsigned long long)s->relay_unsent,
			cli_plural(s->relay_unsent), a->relay_host);
		return 1;
	}
	if (!a->fail_on_loss || (!lost && !s->unfollowed && !s->relay_refused &&
				 !s->relay_unsent))
		return 0;
	if (lost)
		fprintf(stderr, "evtrace: record: exits 1 (--fail-on-loss): %llu "
			"event%s lost\n", (unsigned long long)lost, cli_plural(lost));
	else if (s->unfollowed)
		fprintf(stderr, "evtrace: record: exits 1 (--fail-on-loss): %u "
			"process%s could not be followed\n", s->unfollowed,
			s->unfollowed == 1 ? "" : "es");
	else
		fprintf(stderr, "evtrace: record: exits 1 (--fail-on-loss): the "
			"relay did not take every packet\n");
	return 1;
}

/* The patterns the collection takes: every event without -e, the
 * kernel events of triggers, and ftrace/print always. */
static void complete_patterns(struct record_args *a)
{
	struct evt_collection_opts *o = &a->o;
	uint64_t buffer = (uint64_t)o->packet_size * o->packet_count;
	unsigned k, i;

	if (buffer > EVT_ARENA_BYTES / 8 && buffer <= EVT_ARENA_BYTES)
		fprintf(stderr, "evtrace: record: note: each thread buffer takes %llu KiB "
			"of a process's %llu MiB, so at most %llu threads of a process "
			"get one; the events of others are counted as lost\n",
			(unsigned long long)buffer >> 10, EVT_ARENA_BYTES >> 20,
			(unsigned long long)(EVT_ARENA_BYTES / buffer));
	a->nuser = o->npatterns;
	/* -e kernel/... alone: a process need not be traced. */
	o->untraced_ok = a->nkernel && a->nkernel == a->nuser;
	if (o->npatterns == 0) {	/* every event of the program */
		a->patterns[o->npatterns++] = "printk";
		a->patterns[o->npatterns++] = "*";
	}
	for (k = 0; k < a->trig.ntriggers; k++) {
		const char *p = evt_trigger_kernel_pattern(a->triggers[k]);

		for (i = 0; p && i < o->npatterns && strcmp(a->patterns[i], p); i++)
			;
		if (p && i == o->npatterns) {	/* the triggers see what is recorded */
			a->patterns[o->npatterns++] = p;
			a->nkernel++;
		}
	}
	a->patterns[o->npatterns++] = "ftrace/print";
}

/* The files the usdt/ patterns' probes are looked for in: the command's
 * executable and the libraries it links, or the files the -p processes
 * map; none when no pattern is usdt/.  0, or 1 (said). */
static int usdt_files(const struct record_args *a, char ***files, unsigned *n)
{
	char err[PATH_MAX + 200];
	unsigned i, k;

	*files = NULL;
	*n = 0;
	for (i = 0; i < a->o.npatterns && !evt_is_usdt_path(a->patterns[i]); i++)
		;
	if (i == a->o.npatterns) {
		if (a->nprobes_in)
			return cli_error("record", "--probes-in: no -e usdt/... names "
					 "probes to look for there");
		return 0;
	}
	if (a->cmdv &&
	    evt_usdt_files_of_command(a->cmdv[0], files, n, err, sizeof(err)))
		return cli_error("record", "%s: %s", a->patterns[i], err);
	for (k = 0; !a->cmdv && k < a->npids; k++) {
		char **more, **grown;
		unsigned nmore;

		if (evt_usdt_files_of_process(a->pids[k], &more, &nmore, err, sizeof(err)))
			return evt_usdt_files_free(*files, *n),
			       cli_error("record", "%s: %s", a->patterns[i], err);
		if (!(grown = realloc(*files, (*n + nmore + 1) * sizeof(*grown)))) {
			evt_usdt_files_free(more, nmore);
			return cli_error("record", "out of memory");
		}
		*files = grown;
		memcpy(*files + *n, more, nmore * sizeof(*more));
		*n += nmore;
		free(more);
	}
	/* --probes-in: a library the program dlopens later, say */
	for (k = 0; k < a->nprobes_in; k++) {
		char real[PATH_MAX], **grown = NULL;

		if (realpath(a->probes_in[k], real) &&
		    (grown = realloc(*files, (*n + 1) * sizeof(*grown))))
			*files = grown;
		if (!realpath(a->probes_in[k], real) || *files != grown ||
		    !((*files)[*n] = strdup(real))) {
			int e = errno;

			evt_usdt_files_free(*files, *n);
			*files = NULL;
			*n = 0;
			return cli_error("record", "--probes-in %s: %s", a->probes_in[k],
					 strerror(e));
		}
		*files = grown;
		(*n)++;
	}
	return 0;
}

/* Records here (not through evtraced); the exit status. */
static int record_here(struct record_args *a)
{
	struct evt_collection_opts *o = &a->o;
	struct evt_collection_stats stats;
	struct evt_collection *c = NULL;
	char rundir[EVT_RUNDIR_PATH_MAX], err[PATH_MAX + 300];
	char what[PATH_MAX + 64];
	struct cli_session run;
	struct until u = { .run = &run, .all = o->all && !a->cmdv };
	bool made_output, kept_old = false, ran = false, own = false;
	struct stat st;
	char **usdt = NULL;
	unsigned nusdt = 0;
	int ret, finished;

	complete_patterns(a);
	u.patterns = a->patterns;
	u.npatterns = a->nuser;
	if (evt_rundir_path(rundir, sizeof(rundir), err, sizeof(err)))
		return cli_error("record", "%s", err);
	o->rundir = rundir;
	o->pids = a->pids;
	o->npids = a->npids;
	if (o->output)
		snprintf(what, sizeof(what), "evtrace record -o %s", o->output);
	else
		snprintf(what, sizeof(what), "evtrace record --relay %s",
			 a->relay_host);
	o->what = what;
	made_output = o->output && lstat(o->output, &st) != 0;
	if (o->output) {	/* a trace there is kept as DIR.old when the trace is made */
		char index[PATH_MAX + 16];

		snprintf(index, sizeof(index), "%s/" EVT_TRACE_INDEX_PATH, o->output);
		kept_old = !made_output && lstat(index, &st) == 0;
	}
	o->hold_exited = a->trig.ntriggers > 0;	/* windows hold them */
	/* A process that died is read by the windows due until then: those
	 * fired by its last events, taken --after later. */
	o->hold_dead_ms = (uint32_t)(a->trig.after_ns / 1000000) + 2000;
	o->excludes = a->keep;	/* the pinned sites: in their own rings */
	o->nexcludes = a->nkeep;
	if (usdt_files(a, &usdt, &nusdt)) {
		if (made_output)
			evt_trace_dir_undo(o->output, true, false);
		return 1;
	}
	o->usdt_files = (const char *const *)usdt;
	o->nusdt_files = nusdt;
	ret = cli_collection_create("record", o, a->cmdv != NULL, rundir,
				    sizeof(rundir), &c, &own);
	o->usdt_files = NULL;	/* (the uprobes are made: the files not kept) */
	evt_usdt_files_free(usdt, nusdt);
	if (ret) {
		/* (refused: -p of a process it could not take, say; a
		 * directory it made goes, one there before is as it left it) */
		if (made_output)
			evt_trace_dir_undo(o->output, true, false);
		return 1;
	}
	if (a->nkeep && keep_start(a, rundir, evt_collection_number(c), &u.keep, err,
				   sizeof(err))) {
		ret = cli_error("record", "--keep: %s", err);
		evt_collection_finish(c, NULL, err, sizeof(err));
		goto out;
	}
	/* Its processes' events, for the patterns that name none. */
	if (a->npids && evt_collection_poll(c, err, sizeof(err)) < 0) {
		ret = cli_error("record", "%s", err);
		goto out;
	}
	if (a->npids) {
		cli_note_unmatched("record", a->patterns, a->nuser,
				   cli_collection_events, c, false);
		cli_note_refused("record", a->patterns, o->npatterns,
				 cli_collection_events, c);
	}
	a->trig.triggers = (const struct evt_trigger *const *)a->triggers;
	a->trig.who = "record";
	a->trig.what = "evtrace record --trigger";
	a->trig.rundir = rundir;
	a->trig.outdir = o->output;
	a->trig.slot = evt_collection_number(c);
	a->trig.calibration = evt_collection_calibration(c);
	a->trig.lost_now = lost_now;
	a->trig.kernel_window = a->nkernel ? kernel_window : NULL;
	a->trig.recorder = c;
	a->trig.before_window = u.keep ? keep_catch_up : NULL;
	a->trig.before_window_ctx = u.keep;
	a->trig.stats = a->show_stats;
	if (!a->trig.max_windows)
		a->trig.max_windows = 5;
	/* Kernel events are known now: a field none has is refused. */
	for (unsigned k = 0; k < a->trig.ntriggers; k++) {
		const struct evt_trigger *t = a->triggers[k];
		const char *p = evt_trigger_kernel_pattern(t), *f = evt_trigger_field(t);

		if (p && f && evt_collection_kernel_field(c, p, f) == 0) {
			ret = cli_error("record", "--trigger '%s': no event %s names "
					"has a field %s (evtrace ls -f %s shows their "
					"fields)", t->text, p, f, p);
			evt_collection_finish(c, NULL, err, sizeof(err));
			evt_trace_dir_undo(o->output, made_output, kept_old);
			goto out;
		}
	}
	/* The triggers' stream: of the command's processes (which take up
	 * its rules from the start, beside the recording's), of -p's, or of
	 * all with -a alone. */
	if (a->trig.ntriggers &&
	    !(u.triggers = evt_triggers_start(&a->trig, a->npids ? a->pids[0] :
						 u.all ? 0 : EVT_LIVE_COMMAND,
						 err, sizeof(err)))) {
		ret = cli_error("record", "--trigger: %s", err);
		goto out;
	}
	if (u.triggers && a->nkernel)
		evt_collection_watch_kernel(c, kernel_seen, u.triggers);
	cli_session_start(&run, "record", "recording", "recorded");
	if (!a->npids && !u.all) {
		char rules[256];

		snprintf(rules, sizeof(rules), "%s%s%s%s%s", evt_collection_rules_name(c),
			 u.triggers ? "," : "",
			 u.triggers ? evt_triggers_rules_name(u.triggers) : "",
			 u.keep ? "," : "", u.keep ? evt_collection_rules_name(u.keep) : "");
		/* With -a the kernel events are every CPU's already. */
		ret = cli_session_spawn(&run, a->cmdv, rules,
					rundir, a->nkernel && !o->all ?
					kernel_command : NULL, c);
		if (ret) {
			/* An empty trace, which the next record may replace;
			 * none when the command could not run at all. */
			evt_collection_finish(c, NULL, err, sizeof(err));
			if (ret == 127)
				evt_trace_dir_undo(o->output, made_output, kept_old);
			goto out;
		}
		ran = true;
	}
	if (o->all) {
		unsigned n = evt_containers_traced();

		if (n)
			fprintf(stderr, "evtrace: record: -a covers the processes "
				"of %s; traced processes in %u other mount "
				"namespace%s (containers) are not in it: record -p "
				"HOSTPID reaches one\n", rundir, n, n == 1 ? "" : "s");
	}
	status_line_start(!a->quiet);
	ret = evt_collection_run(c, record_done, &u, err, sizeof(err));
	status_line_clear();
	evt_report_set(NULL, NULL);
	if (ret) {
		/* What is on disk stays readable; the processes are not
		 * ours to stop: they run on, untraced, to their end. */
		if (run.child) {
			cli_error("record", "%s; recording stopped, '%s' runs on "
				  "untraced", err, a->cmdv[0]);
			while (!cli_session_over(&run))
				usleep(20 * 1000);
		} else {
			cli_error("record", "%s; recording stopped, the processes "
				  "run on untraced", err);
		}
		print_losses(c, 0, false);	/* what its buffers held then */
		ret = 1;
		goto out;
	}
	if (u.triggers && a->nkernel) {
		/* The triggers see the last kernel events, and no more (the
		 * processes' buffers are left as they are, for the windows). */
		evt_collection_kernel_flush(c, err, sizeof(err));
		evt_triggers_finish(u.triggers);
		u.triggers = NULL;
		evt_collection_watch_kernel(c, NULL, NULL);
	}
	evt_triggers_finish(u.triggers);	/* while the recorder holds its rings */
	u.triggers = NULL;
	/* Said after the last drain, which reads what it was writing. */
	finished = evt_collection_finish(c, &stats, err, sizeof(err));
	if (run.child)
		evt_collection_died_writing(c, run.child, run.died_writing,
					    sizeof(run.died_writing));
	ret = cli_session_end(&run);
	if (finished) {
		cli_error("record", "%s", err);
		ret = ret ? ret : 1;
	} else {
		summary(a, c, &stats, ran);
		ret = ret ? ret : loss_status(a, &stats);
	}
	if (u.keep && evt_collection_finish(u.keep, &stats, err, sizeof(err))) {
		cli_error("record", "--keep: %s", err);
		ret = ret ? ret : 1;
	} else if (u.keep) {
		fprintf(stderr, "evtrace: record: --keep: %llu packet%s of the pinned "
			"sites written to %s/keep\n",
			(unsigned long long)stats.packets, cli_plural(stats.packets),
			o->output);
	}
out:
	if (c && u.triggers)
		evt_collection_watch_kernel(c, NULL, NULL);
	evt_triggers_finish(u.triggers);
	evt_collection_destroy(u.keep);
	evt_collection_destroy(c);
	if (own)
		cli_own_rundir_remove(rundir);
	return ret;
}

int cmd_record(int argc, char **argv)
{
	struct record_args a = {
		.o = {
			.output = "trace", .mode = EVT_MODE_DISCARD,
			.packet_size = EVT_PACKET_DEFAULT_BYTES,
			.packet_count = EVT_PACKETS_DEFAULT,
			.syscall_memory = EVT_CAP_STRSIZE_DEFAULT,
		},
		.relay = { .session = "evtrace",
			   .live_timer_us = EVT_RELAY_LIVE_TIMER_US },
	};
	int ret;

	cli_session_catch();	/* before the setup (session.h) */

	/* (room for the patterns complete_patterns() adds, and for a file's
	 * one more than a selection takes, to say so) */
	a.patterns_cap = (unsigned)argc + 3 + EVT_RULES_MAX_PATTERNS + 1;
	if (!(a.patterns = calloc(a.patterns_cap, sizeof(char *))) ||
	    !(a.triggers = calloc(argc, sizeof(*a.triggers)))) {
		free(a.patterns);
		return cli_error("record", "out of memory");
	}
	ret = parse_args(&a, argc, argv);
	if (ret < 0)
		ret = check_args(&a);
	if (ret < 0 && a.npids)
		ret = route(&a);
	if (ret < 0)
		ret = record_here(&a);
	for (unsigned k = 0; k < a.trig.ntriggers; k++)
		evt_trigger_free(a.triggers[k]);
	free(a.triggers);
	for (unsigned k = 0; k < a.nfrom_files; k++)
		free(a.from_files[k]);
	free(a.patterns);
	free(a.pids);
	return ret;
}
