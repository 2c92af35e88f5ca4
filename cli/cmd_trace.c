/*
 * cmd_trace.c - evtrace trace: run a command and print, live, its system
 * calls as strace shows them among its own events (and any kernel events
 * named), one line each in time order, following the children it forks.
 *
 * System calls come from the eBPF program (syscall_bpf.h, with the memory
 * their arguments point to) or, without it, the kernel's raw_syscalls
 * tracepoints (kernel_sampler.h), user events from a live stream of the command's
 * processes (live_stream.h), both on the trace clock; lines are held back
 * HOLD_MS so that both sources have handed over what came before them.
 * Lines go to standard error (strace's habit: the command's own output
 * stays as it is) or to -o FILE; -e trace=SPEC picks the system calls
 * (syscall_set.h), -c counts them instead (-C: both).  With -w, what both
 * sources hand over is also written as a trace (live_record.h,
 * kernel_record.h).  The eBPF program's calls become lines in
 * trace_bpf.c; through evtraced (a user the kernel refuses the system
 * call events), trace_remote.c.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "kernel_events.h"
#include "kernel_print.h"
#include "kernel_record.h"
#include "kernel_sampler.h"
#include "layout.h"
#include "protocol.h"
#include "live_record.h"
#include "live_stream.h"
#include "rules.h"
#include "report.h"
#include "rundir.h"
#include "session.h"
#include "syscall_bpf.h"
#include "syscall_set.h"
#include "trace.h"
#include "trace_lines.h"
#include "usdt_probes.h"

/* Each CPU's ring: printing is slower than recording, so a burst of
 * system calls has more to wait in (a user gets what the kernel lets
 * them lock). */
#define RING_KIB 8192

#define SYS_ENTER "kernel/raw_syscalls/sys_enter"
#define SYS_EXIT "kernel/raw_syscalls/sys_exit"

/* (glibc takes a size only with a buffer) */
static char output_buffer[TRACE_OUTPUT_BUFFER];

/* The trace kept could not be written: said once, then no more of it. */
static void output_failed(struct trace *t)
{
	if (!t->out_failed)
		cli_error("trace", "%s; the trace stops there, the live view goes on",
			  t->out_err);
	t->out_failed = true;
}

static int field_offset(const struct evt_kernel_event *e, const char *name,
			unsigned *off)
{
	uint32_t i;

	for (i = 0; i < e->format.nfields; i++)
		if (!strcmp(e->format.fields[i].name, name)) {
			*off = e->src[i].offset;
			return 0;
		}
	return -1;
}

static int find_raw_fields(struct trace *t, char *err, size_t err_size)
{
	unsigned i, n = evt_kernel_sampler_nevents(t->kernel);

	t->raw.enter = t->raw.exit = -1;
	for (i = 0; i < n; i++) {
		const struct evt_kernel_event *e = evt_kernel_sampler_event(t->kernel, i);

		if (!strcmp(e->path, SYS_ENTER) &&
		    !field_offset(e, "id", &t->raw.enter_id) &&
		    !field_offset(e, "args", &t->raw.enter_args))
			t->raw.enter = (int)i;
		if (!strcmp(e->path, SYS_EXIT) &&
		    !field_offset(e, "id", &t->raw.exit_id) &&
		    !field_offset(e, "ret", &t->raw.exit_ret))
			t->raw.exit = (int)i;
	}
	if (t->raw.enter < 0 || t->raw.exit < 0)
		return snprintf(err, err_size, "%s, %s: not the fields expected "
				"(id, args, ret)", SYS_ENTER, SYS_EXIT), -1;
	return 0;
}

static uint64_t raw_u64(const struct evt_kernel_sample *s, unsigned off)
{
	uint64_t v = 0;

	if ((size_t)off + 8 <= s->raw_size)
		memcpy(&v, s->raw + off, 8);
	return v;
}

/* The sampler's sink: system calls, and other kernel events as text. */
static int kernel_sample(void *ctx, const struct evt_kernel_sample *s)
{
	struct trace *t = ctx;
	struct trace_when w = { s->time, s->monotonic_ns, s->tid,
				(uint16_t)s->cpu, s->comm, s->pid };
	const struct evt_kernel_event *e;
	char text[EVT_RENDER_MAX_BYTES];
	uint64_t args[6];
	long n;
	int i, len;

	t->kernel_records++;
	if (t->owner >= 0 && trace_bpf_let_go(t, s->pid, s->monotonic_ns))
		return 0;
	if (t->kout && !t->out_failed && t->ksink.sample(t->ksink.ctx, s))
		output_failed(t);
	if (((int)s->event == t->raw.enter || (int)s->event == t->raw.exit) && t->bpf)
		return 0;	/* kept (-w), and shown from the eBPF program's */
	if ((int)s->event == t->raw.enter) {
		for (i = 0; i < 6; i++)
			args[i] = raw_u64(s, t->raw.enter_args + 8 * i);
		trace_lines_enter(t->lines, &w, (long)raw_u64(s, t->raw.enter_id), args,
				  NULL);
		return 0;
	}
	if ((int)s->event == t->raw.exit) {
		trace_lines_exit(t->lines, &w, (long)raw_u64(s, t->raw.exit_id),
				 (int64_t)raw_u64(s, t->raw.exit_ret), NULL);
		return 0;
	}
	e = evt_kernel_sampler_event(t->kernel, s->event);
	len = snprintf(text, sizeof(text), "%s: ", e->path);
	n = evt_kernel_sample_payload(t->kernel, s, &t->payload, &t->payload_cap);
	evt_kernel_sample_text(t->kernel, t->print, s, t->payload, n, text + len,
			       sizeof(text) - len);
	trace_lines_text(t->lines, &w, text, strlen(text));
	t->events++;
	return 0;
}

static int kernel_lost(void *ctx, unsigned ring, uint64_t n, uint64_t time,
		       int64_t monotonic_ns)
{
	struct trace *t = ctx;
	struct trace_when w = {
		time, monotonic_ns, 0,
		(uint16_t)evt_kernel_sampler_ring_cpu(t->kernel, ring), "kernel",
	};
	char text[128];

	if (t->kout && !t->out_failed &&
	    t->ksink.lost(t->ksink.ctx, ring, n, time, monotonic_ns))
		output_failed(t);
	snprintf(text, sizeof(text), "lost %" PRIu64 " kernel records", n);
	trace_lines_text(t->lines, &w, text, strlen(text));
	t->lost += n;
	return 0;
}

/* The live stream's: a user event, or what a thread lost. */
static void user_event(const struct evt_live_event *e, void *ctx)
{
	struct trace *t = ctx;
	struct trace_when w = { e->timestamp, e->monotonic_ns, e->tid, e->cpu,
				e->comm };
	char text[EVT_RENDER_MAX_BYTES + 1200];
	size_t n = e->text_len;

	if (t->out && !t->out_failed &&
	    evt_live_record_add(t->out, e, t->out_err, sizeof(t->out_err)))
		output_failed(t);
	if (!e->path) {
		snprintf(text, sizeof(text), "lost %" PRIu64 " event%s", e->lost,
			 cli_plural(e->lost));
		trace_lines_text(t->lines, &w, text, strlen(text));
		t->lost += e->lost;
		return;
	}
	if (n && e->text[n - 1] == '\n')
		n--;
	snprintf(text, sizeof(text), "%s: %.*s", e->path, (int)n, e->text);
	trace_lines_text(t->lines, &w, text, strlen(text));
	t->events++;
}

/* cli_spawn's hook: the command's system calls from its exec on. */
static int kernel_command(pid_t child, void *ctx)
{
	struct trace *t = ctx;
	char err[PATH_MAX + 300];

	if (t->bpf && evt_syscall_bpf_follow(t->bpf, child, err, sizeof(err)))
		return cli_error("trace", "%s", err), -1;
	t->command = child;
	if (t->kernel && evt_kernel_sampler_task(t->kernel, child, true, err, sizeof(err)))
		return cli_error("trace", "%s", err), -1;
	return 0;
}

/* -p: the system calls of pid's threads from now on, and of what they
 * start.  0, or -1 said. */
static int attach_threads(struct trace *t, pid_t pid)
{
	char err[PATH_MAX + 300];

	if ((t->bpf && evt_syscall_bpf_follow(t->bpf, pid, err, sizeof(err))) ||
	    (t->kernel && evt_kernel_sampler_process(t->kernel, pid, err, sizeof(err))))
		return cli_error("trace", "%s", err), -1;
	return 0;
}

/* Reads both sources, then prints what is older than HOLD_MS (all, with
 * final).  0, or -1 with err set. */
static int step(struct trace *t, bool final, char *err, size_t err_size)
{
	const struct evt_kernel_sink sink = { kernel_sample, kernel_lost, t };
	const struct evt_clock_calibration *clock = t->clock;
	uint16_t cpu;
	uint64_t now, hold;

	if (t->live)
		evt_live_stream_poll(t->live, user_event, t);
	if (t->bpf) {
		if (evt_syscall_bpf_read(t->bpf, trace_bpf_call, t, err, err_size) < 0)
			return -1;
		trace_bpf_losses(t);
	}
	if (t->kernel && evt_kernel_sampler_drain(t->kernel, final, &sink, err, err_size) < 0)
		return -1;
	if (final && t->live)	/* (a poll's bound at a time) */
		do
			evt_live_stream_poll(t->live, user_event, t);
		while (evt_live_stream_more(t->live));
	if (t->out && !t->out_failed &&
	    (evt_live_record_flush(t->out, final, t->out_err, sizeof(t->out_err)) ||
	     evt_kernel_record_flush(t->kout, final)))
		output_failed(t);
	now = evt_clock_now(clock->kind, &cpu);
	hold = (uint64_t)((double)clock->freq_hz * t->hold_ms / 1000);
	now = now > hold ? now - hold : 0;
	/* Through evtraced: no further than the worker has sent. */
	if (t->req && !final && now > t->remote_upto)
		now = t->remote_upto;
	trace_lines_print(t->lines, now, final);
	/* evtraced's worker: what its client may print up to. */
	if (t->for_client)
		fprintf(t->lines_out, "W %" PRId64 "\n",
			evt_clock_to_monotonic_ns(t->clock, now));
	return 0;
}

/* evtraced's worker: the files its client's usdt/ probes are in, as
 * the daemon opened them for the client (--probe-file /proc/self/fd/N). */
static const char *given_files[EVT_PROTO_MAX_PROBE_FILES];
static unsigned ngiven_files;

/* The files the usdt/ patterns among kpatterns name probes in: those
 * given, the process's, or the command's; none without such a pattern.
 * 0, or -1. */
static int probe_files(int pid, const char *cmd, const char **kpatterns, unsigned nk,
		       char ***files, unsigned *n, char *err, size_t err_size)
{
	unsigned i;

	*files = NULL;
	*n = 0;
	if (!ngiven_files)
		return evt_usdt_files_for(kpatterns, nk, pid, cmd, files, n, err,
					  err_size);
	for (i = 0; i < nk && !evt_is_usdt_path(kpatterns[i]); i++)
		;
	if (i == nk)
		return 0;
	if (!(*files = calloc(ngiven_files, sizeof(char *))))
		return snprintf(err, err_size, "out of memory"), -1;
	for (i = 0; i < ngiven_files; i++)
		if (!((*files)[(*n)++] = strdup(given_files[i])))
			return snprintf(err, err_size, "out of memory"), -1;
	return 0;
}

/* Through evtraced: the files of the usdt/ probes named, absolute, in
 * the request (files, kept until the end).  0, or -1 said. */
static int request_probe_files(struct evt_request *req, int pid, const char *cmd,
			       const char **kpatterns, unsigned nk, char ***files,
			       unsigned *n)
{
	char err[PATH_MAX + 300], real[PATH_MAX];
	unsigned i;

	if (probe_files(pid, cmd, kpatterns, nk, files, n, err, sizeof(err)))
		return cli_error("trace", "usdt/: %s", err), -1;
	/* (said here, by the files' names: evtraced's worker knows them by
	 * its fds only) */
	if (evt_usdt_check(kpatterns, nk, (const char *const *)*files, *n, err,
			   sizeof(err)))
		return cli_error("trace", "%s", err), -1;
	if (*n > EVT_PROTO_MAX_PROBE_FILES)
		return cli_error("trace", "usdt/: the probes are looked for in %u files; "
				 "evtraced takes %d at most", *n,
				 EVT_PROTO_MAX_PROBE_FILES), -1;
	for (i = 0; i < *n; i++) {
		char *abs;

		if (!realpath((*files)[i], real))
			return cli_error("trace", "usdt/: %s: %s", (*files)[i],
					 strerror(errno)), -1;
		if (!(abs = strdup(real)))
			return cli_error("trace", "out of memory"), -1;
		free((*files)[i]);
		(*files)[i] = abs;
		req->probe_files[req->nprobe_files++] = abs;
	}
	return 0;
}

static int start(struct trace *t, int pid, const char *cmd, const char **patterns,
		 unsigned n, const char **kpatterns, unsigned nk, uint32_t ring_kib,
		 const char *rundir, const char *output, char *err,
		 size_t err_size)
{
	char **files;
	unsigned i, nfiles;
	int made;

	if (!n) {	/* evtraced's worker: the client streams its events */
		if (evt_clock_calibrate(evt_clock_detect(), &t->own_clock))
			return snprintf(err, err_size, "the trace clock: %s",
					strerror(errno)), -1;
		t->clock = &t->own_clock;
	} else if (evt_live_stream_create(rundir, pid ? pid : EVT_LIVE_COMMAND,
					  "evtrace trace", 0, &t->live, err, err_size)) {
		return -1;
	} else {
		t->clock = evt_live_stream_clock(t->live);
	}
	for (i = 0; i < n; i++)
		if (evt_live_stream_select(t->live, true, patterns[i], 0, err,
					   err_size) < 0)
			return -1;
	if (probe_files(pid, cmd, kpatterns, nk, &files, &nfiles, err, err_size))
		return -1;
	made = evt_kernel_sampler_create_probes(kpatterns, nk, (const char *const *)files,
						nfiles, t->clock, ring_kib, &t->kernel,
						err, err_size);
	evt_usdt_files_free(files, nfiles);
	if (made)
		return -1;
	t->raw.enter = t->raw.exit = -1;
	if (t->kernel && !t->bpf && find_raw_fields(t, err, err_size))
		return -1;
	if (t->kernel && t->bpf && output)
		find_raw_fields(t, err, err_size);
	t->print = t->kernel ? evt_kernel_sampler_printer(t->kernel) : NULL;
	if (!output)
		return 0;
	/* The kernel's stream class is described before any of its packets. */
	if (evt_live_record_open(output, t->clock,
				 EVT_PACKET_DEFAULT_BYTES, &t->out, err, err_size) ||
	    evt_kernel_record_on(t->kernel, EVT_PACKET_DEFAULT_BYTES, &t->kout, err,
				 err_size))
		return -1;
	if (evt_kernel_record_describe(t->kout, evt_live_record_index(t->out)) < 0)
		return snprintf(err, err_size, "out of memory"), -1;
	evt_live_record_changed(t->out);
	evt_kernel_record_sink(t->kout, evt_live_record_dir(t->out), t->out_err,
			       sizeof(t->out_err), &t->ksink);
	return evt_live_record_flush(t->out, false, err, err_size);
}

int cmd_trace(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "event", required_argument, NULL, 'e' },
		{ "kernel-buffer", required_argument, NULL, 'K' },
		{ "output", required_argument, NULL, 'o' },
		{ "write", required_argument, NULL, 'w' },
		{ "summary-only", no_argument, NULL, 'c' },
		{ "summary", no_argument, NULL, 'C' },
		{ "follow-forks", no_argument, NULL, 'f' },
		{ "pid", required_argument, NULL, 'p' },
		{ "string-limit", required_argument, NULL, 's' },
		/* evtraced's worker's (not in --help) */
		{ "from-exec", no_argument, NULL, 'X' },
		{ "for-client", no_argument, NULL, 'Q' },
		{ "owner", required_argument, NULL, 'U' },
		{ "probe-file", required_argument, NULL, 'P' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static bool want[EVT_SYSCALL_NR_MAX], one[EVT_SYSCALL_NR_MAX];
	const char **patterns = calloc(argc + 3, sizeof(char *));
	const char **kpatterns = calloc(argc + 3, sizeof(char *));
	struct trace t = { .owner = -1, .owner_gid = -1, .sock = -1, .remote_status = -1,
			   .hold_ms = HOLD_MS };
	static struct evt_request req = { .verb = EVT_VERB_TRACE };
	bool remote = false, strsize_given = false, remote_other = false;
	bool refused;			/* the system call events, by the kernel */
	char rundir[EVT_RUNDIR_PATH_MAX], err[PATH_MAX + 300];
	unsigned n = 0, nk = 0, i;
	uint32_t ring_kib = RING_KIB;
	const char *output = NULL, *lines_file = NULL;
	FILE *out = stderr;
	int opt, ret = 1, pid = 0, pidfd = -1;
	char **req_files = NULL;	/* (through evtraced) */
	unsigned nreq_files = 0;
	uint32_t strsize = EVT_CAP_STRSIZE_DEFAULT;
	bool from_exec = false, for_client = false;
	bool failed = false, some = false, summary = false, quiet = false;
	struct cli_session run;

	cli_session_catch();	/* before the setup (session.h) */

	if (!patterns || !kpatterns) {
		ret = cli_error("trace", "out of memory");
		goto out;
	}
	while ((opt = getopt_long(argc, argv, "+e:o:w:p:s:cCfh", longopts, NULL)) != -1) {
		switch (opt) {
		case 'e':
			if (!strncmp(optarg, "trace=", 6)) {
				if (evt_syscall_set_parse(optarg + 6, one, err,
							  sizeof(err))) {
					cli_error("trace", "-e %s", err);
					goto out;
				}
				for (i = 0; i < EVT_SYSCALL_NR_MAX; i++)
					want[i] |= one[i];
				some = true;
				if (req.nsyscalls < 8)	/* (for evtraced) */
					req.syscalls[req.nsyscalls++] = optarg + 6;
				break;
			}
			if (!cli_pattern_ok("trace", optarg))
				goto out;
			if (evt_is_kernel_path(optarg))
				kpatterns[nk++] = optarg;
			else
				patterns[n++] = optarg;
			break;
		case 'K':
			if (cli_parse_kernel_buffer("trace", optarg, &ring_kib))
				goto out;
			break;
		case 'o':
			lines_file = optarg;
			break;
		case 'w':
			output = optarg;
			break;
		case 'c':
			summary = quiet = true;
			break;
		case 'C':
			summary = true;
			break;
		case 'f':	/* strace's: children are always followed */
			break;
		case 'X':
			from_exec = true;
			break;
		case 'Q':
			for_client = true;
			break;
		case 'U': {	/* UID:GID */
			char *end;

			t.owner = strtol(optarg, &end, 10);
			t.owner_gid = *end == ':' ? strtol(end + 1, &end, 10) : -1;
			if (t.owner < 0 || t.owner_gid < 0 || *end) {
				cli_error("trace", "--owner %s: not UID:GID", optarg);
				goto out;
			}
			break;
		}
		case 'P':
			if (ngiven_files == EVT_PROTO_MAX_PROBE_FILES) {
				cli_error("trace", "more than %d --probe-file",
					  EVT_PROTO_MAX_PROBE_FILES);
				goto out;
			}
			given_files[ngiven_files++] = optarg;
			break;
		case 'p':
			if ((pid = cli_parse_pid("trace", optarg)) < 0)
				goto out;
			break;
		case 's':
			strsize_given = true;
			if (cli_parse_strsize("trace", "-s", optarg, &strsize))
				goto out;
			break;
		case 'h':
			ret = cli_help("trace");
			goto out;
		default:
			ret = cli_usage("trace");
			goto out;
		}
	}
	if (optind >= argc && !pid) {
		cli_error("trace", "no command to run (or -p PID)");
		ret = cli_usage("trace");
		goto out;
	}
	if (optind < argc && pid) {
		cli_error("trace", "-p %d and a command: trace one or the other", pid);
		ret = cli_usage("trace");
		goto out;
	}
	if (pid) {
		int route = cli_route("trace", &pid, 1);

		/* Another user's: evtraced answers, with its rule. */
		remote_other = route == CLI_VIA_DAEMON;
		if (route < 0)
			goto out;
		/* Readable once the process has exited, zombie or not. */
		if ((pidfd = (int)syscall(SYS_pidfd_open, pid, 0)) < 0) {
			cli_error("trace", "pid %d: %s", pid, errno == ESRCH ?
				  "no such process" : strerror(errno));
			goto out;
		}
	}
	if (!cli_patterns_fit("trace", n, 1))	/* ftrace/print */
		goto out;
	if (for_client) {	/* the client's own events are its to stream */
		n = 0;
	} else {
		if (n == 0)
			patterns[n++] = "printk";
		patterns[n++] = "ftrace/print";
	}
	/* A user the kernel refuses the system call events, or who names
	 * USDT probes (uprobes are root's to make): evtraced traces the
	 * user's own processes for them (CAP_ANY), and its lines are merged
	 * here with the command's events. */
	for (i = 0; i < nk && !evt_is_usdt_path(kpatterns[i]); i++)
		;
	refused = trace_kernel_refuses_syscalls();
	remote = !for_client && (remote_other || refused || (i < nk && geteuid() != 0));
	if (remote && output) {
		cli_error("trace", "-w %s: keeping a trace is not yet supported "
			  "through evtraced (%s)", output, refused ?
			  "kernel.perf_event_paranoid is 2 here" :
			  "which makes the uprobes of USDT probes for you");
		goto out;
	}
	if (remote && (t.sock = evt_daemon_connect()) < 0 && remote_other) {
		cli_error("trace", "pid %d is another user's process, whose system "
			  "calls only root may trace", pid);
		goto out;
	}
	if (remote && t.sock < 0 && !refused) {
		cli_error("trace", "USDT probes need uprobes, which only root may "
			  "make, and evtraced, which makes them for your own "
			  "processes, is not running (%s: %s): start it ('evtrace "
			  "daemon', or 'systemctl start evtraced.socket')",
			  evt_daemon_socket_path(), strerror(errno));
		goto out;
	}
	if (remote && t.sock < 0) {
		cli_error("trace", "kernel.perf_event_paranoid is 2, so the kernel "
			  "lets only root (or CAP_PERFMON) record system calls, and "
			  "evtraced, which traces those of your own processes for you, "
			  "is not running (%s: %s): set kernel.perf_event_paranoid to 1 "
			  "or less, or start evtraced ('evtrace daemon', or "
			  "'systemctl start evtraced.socket')", evt_daemon_socket_path(),
			  strerror(errno));
		goto out;
	}
	if (remote) {
		/* (another user's process: evtraced refuses it first) */
		if (!remote_other &&
		    request_probe_files(&req, pid, optind < argc ? argv[optind] : NULL,
					kpatterns, nk, &req_files, &nreq_files))
			goto out;
		memcpy(req.events, kpatterns, nk * sizeof(*kpatterns));
		req.nevents = nk;
		nk = 0;
		req.has_strsize = strsize_given;
		req.strsize = (uint32_t)strsize;
		req.summary = summary ? (quiet ? 1 : 2) : 0;
		req.held = !pid;
		t.req = &req;
		t.hold_ms = HOLD_MS;	/* and no further than the worker sent */
		summary = false;	/* the worker's; -c's quiet stays */
	}
	/* The system calls' memory through eBPF, where it can be loaded;
	 * said once, addresses otherwise. */
	t.strsize = (uint32_t)strsize;
	/* One ring for all CPUs: as much as the kernel's rings per CPU. */
	if (remote)
		;
	else if (getenv("EVTRACE_NO_EBPF"))
		snprintf(err, sizeof(err), "eBPF: not used ($EVTRACE_NO_EBPF is set)");
	else
		t.bpf = evt_syscall_bpf_open((unsigned)strsize,
					     ring_kib * (unsigned)sysconf(_SC_NPROCESSORS_ONLN),
					     err, sizeof(err));
	/* evtraced's worker shows a client only the client's tasks, which
	 * takes the eBPF program's check at each call. */
	if (t.owner >= 0 && (!t.bpf ||
			     evt_syscall_bpf_owner(t.bpf, (uid_t)t.owner,
						   (gid_t)t.owner_gid, err, sizeof(err)))) {
		cli_error("trace", "%s; evtraced traces a user's system calls only "
			  "with its eBPF program, which leaves out the setuid "
			  "programs the user starts", err);
		goto out;
	}
	if (!t.bpf && !remote)
		cli_error("trace", "%s; system calls show the addresses of their "
			  "arguments, not the memory there", err);
	if ((!t.bpf || output) && !remote) {
		kpatterns[nk++] = SYS_ENTER;
		kpatterns[nk++] = SYS_EXIT;
	}
	if (for_client)		/* evtraced relays stdout as lines */
		out = stdout;
	if (lines_file) {
		FILE *f = fopen(lines_file, "we");

		if (!f) {
			cli_error("trace", "-o %s: %s", lines_file, strerror(errno));
			goto out;
		}
		out = f;
	}
	if (evt_rundir_path(rundir, sizeof(rundir), err, sizeof(err)) ||
	    !(t.lines = trace_lines_new(out)) ||
	    start(&t, pid, optind < argc ? argv[optind] : NULL, patterns, n, kpatterns,
		  nk, ring_kib, rundir, output, err, sizeof(err))) {
		cli_error("trace", "%s", t.lines ? err : "out of memory");
		goto out;
	}
	if (some)
		trace_lines_only(t.lines, want);
	trace_lines_quiet(t.lines, quiet);
	cli_session_start(&run, "trace", "tracing", "traced");
	signal(SIGPIPE, SIG_IGN);
	setvbuf(out, output_buffer, _IOFBF, sizeof(output_buffer));
	if (for_client) {
		trace_lines_for_client(t.lines);
		setvbuf(out, NULL, _IOLBF, 0);
		t.for_client = true;
		t.lines_out = out;
	}
	if (pid && from_exec)	/* evtraced's worker, for a held command */
		t.command = pid;
	if (pid) {
		ret = (remote ? trace_remote_command(pid, &t) :
				attach_threads(&t, pid)) ? 1 : 0;
		if (!ret)	/* as strace says it, for whoever waits for it */
			evt_report("trace: process %d attached", pid);
		run.name = "";
	} else {
		ret = cli_session_spawn(&run, argv + optind,
					evt_live_stream_rules_name(t.live), rundir,
					remote ? trace_remote_command : kernel_command, &t);
	}
	if (ret)
		goto out;
	while (remote) {	/* until evtraced's worker has ended */
		struct pollfd p = { .fd = t.sock, .events = POLLIN };
		static bool stop_sent;

		if (cli_session_over(&run) && !run.exited && !pid)
			break;		/* a second signal */
		if (cli_session_stops() && pid && !stop_sent) {
			static const char stop[] = "verb stop\n";

			evt_proto_send(t.sock, stop, sizeof(stop) - 1, -1);
			stop_sent = true;
		}
		if (step(&t, false, err, sizeof(err)) || t.remote_status >= 0)
			break;
		if (poll(&p, 1, POLL_MS) > 0 && trace_remote_frame(&t, 1000, NULL))
			break;
	}
	while (!remote && !cli_session_over(&run)) {
		struct pollfd gone = { .fd = pidfd, .events = POLLIN };

		if (pid && poll(&gone, 1, 0) > 0)
			break;	/* -p: it exited; what it did is read below */
		if (step(&t, false, err, sizeof(err))) {
			cli_error("trace", "%s; tracing stopped, '%s' runs on "
				  "untraced", err, pid ? "the process" : argv[optind]);
			failed = true;
			break;
		}
		if (ferror(out) && pid)
			break;
		if (ferror(out)) {	/* the reader is gone */
			kill(run.child, SIGTERM);
			waitpid(run.child, &run.status, 0);
			run.exited = true;
			break;
		}
		if (t.bpf) {	/* (kernel events too are read each turn) */
			evt_syscall_bpf_wait(t.bpf, POLL_MS);
		} else if (t.kernel) {
			evt_kernel_sampler_wait(t.kernel, POLL_MS);
		} else {
			struct timespec tick = { 0, POLL_MS * 1000000L };

			nanosleep(&tick, NULL);
		}
	}
	if (step(&t, true, err, sizeof(err)))
		cli_error("trace", "%s", err);
	if (summary)
		trace_lines_summary(t.lines, out);
	if (t.table)		/* evtraced's worker's -c */
		fputs(t.table, out);
	fflush(out);
	if (remote)		/* (the worker said its own) */
		fprintf(stderr, "evtrace: trace: %" PRIu64 " events of the "
			"command's own\n", t.events);
	else
		fprintf(stderr, "evtrace: trace: %" PRIu64 " system calls, %" PRIu64
			" other events; %" PRIu64 " kernel records read, %" PRIu64
			" events lost%s\n", trace_lines_syscalls(t.lines), t.events,
			t.kernel_records, t.lost, t.tasks_lost ?
			" (and new processes not followed: see their line)" : "");
	if (t.out && !t.out_failed) {
		uint64_t events, lost;
		struct evt_kernel_record_stats ks;

		evt_live_record_counts(t.out, &events, &lost);
		evt_kernel_record_stats(t.kout, &ks);
		fprintf(stderr, "evtrace: trace: %" PRIu64 " events written to %s; %"
			PRIu64 " events lost\n", events + ks.events, output,
			lost + ks.lost);
	}
	if (run.child && t.live)
		evt_live_stream_died_writing(t.live, run.child, run.died_writing,
					     sizeof(run.died_writing));
	ret = failed ? 1 : cli_session_end(&run);
	if (remote && !ret && t.remote_status > 0)
		ret = t.remote_status;
out:
	if (t.sock >= 0)
		close(t.sock);
	free(t.partial);
	free(t.table);
	evt_kernel_record_destroy(t.kout);
	evt_live_record_close(t.out);
	evt_kernel_sampler_destroy(t.kernel);
	evt_kernel_print_free(t.print);
	evt_syscall_bpf_close(t.bpf);
	evt_syscall_memory_texts_free(t.exec_texts);
	evt_live_stream_destroy(t.live);
	trace_lines_free(t.lines);
	if (out != stderr && fclose(out) && ret == 0)
		ret = cli_error("trace", "-o %s: %s", lines_file, strerror(errno));
	if (pidfd >= 0)
		close(pidfd);
	free(t.payload);
	free(t.untraced);
	free(patterns);
	free(kpatterns);
	evt_usdt_files_free(req_files, nreq_files);
	return ret;
}
