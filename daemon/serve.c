/*
 * serve.c - one client of evtraced: who it is, what it asks, whether it
 * may, and the command run for it.
 *
 * The command is evtrace's own (ls, count, record, ...), run in a worker
 * process whose environment names the run directory of the processes
 * asked for, its output relayed as frames.  The worker never sees a path
 * the client chose: pids and patterns only, and for record the directory
 * the client opened and passed.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "audit.h"
#include "ctl.h"
#include "event_format.h"
#include "live.h"
#include "orphans.h"
#include "permission.h"
#include "policy.h"
#include "protocol.h"
#include "serve.h"
#include "serve_consumer.h"
#include "trace_seats.h"
#include "trigger_expr.h"

/* Where the worker finds the trace directory record was handed. */
#define OUTPUT_FD 9
#define REQUEST_TIMEOUT_MS 5000

static unsigned stall_timeout_s = 10;
static struct evt_trace_seats *trace_seats;

void evt_serve_set_stall_timeout(unsigned seconds)
{
	stall_timeout_s = seconds;
}

void evt_serve_set_trace_seats(struct evt_trace_seats *seats)
{
	trace_seats = seats;
}

struct client {
	int sock;
	struct evt_peer peer;
	struct evt_request req;
	const char *verb;
	int output_fd;			/* record's directory, or -1 */
	struct evt_process_info info;	/* of the first pid: the run directory */
	struct evt_rundir rd;
	struct evt_ctl **ctls;		/* of every pid, in order */
	int nctls;
	bool privileged;		/* towards every one of them */
	bool restricted;		/* record only CAP_ANY events */
};

/* "evtrace: VERB: message" on the client's standard error, and exit
 * status 1 (2: the request itself is wrong). */
static void __attribute__((format(printf, 3, 4)))
refuse(struct client *c, int status, const char *fmt, ...)
{
	char text[2048], code[8];
	va_list ap;
	int n;

	n = snprintf(text, sizeof(text), "evtrace: %s: ", c->verb);
	va_start(ap, fmt);
	vsnprintf(text + n, sizeof(text) - (size_t)n - 1, fmt, ap);
	va_end(ap);
	evt_audit(&c->peer, "refused: %s", text + n);
	strcat(text, "\n");
	evt_proto_send_kind(c->sock, 'e', text, strlen(text));
	n = snprintf(code, sizeof(code), "%d", status);
	evt_proto_send_kind(c->sock, 'x', code, (size_t)n);
}

/*
 * trace: the process exists, is seen by the client, and is one the
 * client could ptrace, as the kernel decides for perf_event_open (the
 * kernel's CAP_ANY rule for the system call events): all its ids the
 * client's, dumpable.  It need not be traced.  The eBPF program checks
 * the same at each call, for what it starts and becomes.
 */
static int trace_target(struct client *c)
{
	char err[PATH_MAX + 300], why[200];
	int pid = c->req.pids[0], sees = 0, may;

	if (evt_process_info(pid, &c->info, err, sizeof(err)) == 0)
		sees = evt_peer_sees(&c->peer, pid);
	if (sees <= 0)
		return refuse(c, 1, "pid %d: no such process", pid), -1;
	if (c->peer.uid == 0)
		return 0;
	may = evt_peer_may_read(&c->peer, pid, why, sizeof(why));
	if (may < 0)
		return refuse(c, 1, "pid %d: evtraced could not ask the kernel "
			      "whether you may trace it (%s); not served", pid,
			      strerror(errno)), -1;
	if (!may)
		return refuse(c, 1, "pid %d (%s, user %s): evtraced traces the "
			      "system calls and probes of your own processes only (the "
			      "kernel's CAP_ANY rule: a task you own and could "
			      "ptrace): %s", pid, c->info.comm, c->info.user,
			      why), -1;
	/* A seat for this process's life; the daemon frees it. */
	switch (evt_trace_seat_take(trace_seats, c->peer.uid, getpid())) {
	case -1:
		return refuse(c, 1, "you have %d trace sessions through evtraced "
			      "already, as many as a user may (each puts its eBPF "
			      "program on every system call of the machine, other "
			      "users' too): end one first", EVT_TRACE_SEATS_PER_USER), -1;
	case -2:
		return refuse(c, 1, "evtraced runs %d trace sessions for users "
			      "already, as many as it runs at once (each puts its "
			      "eBPF program on every system call of the machine): "
			      "try again later", EVT_TRACE_SEATS), -1;
	}
	return 0;
}

/* Every pid exists, is seen by the client, and is traced in one run
 * directory (that of its user); their control files opened. */
static int find_targets(struct client *c)
{
	char err[PATH_MAX + 300];
	unsigned i;

	if (c->req.verb == EVT_VERB_TRACE)
		return trace_target(c);
	if (!c->req.npids)	/* the kernel's events: no process */
		return 0;
	c->ctls = calloc(c->req.npids, sizeof(*c->ctls));
	if (!c->ctls)
		return refuse(c, 1, "out of memory"), -1;
	for (i = 0; i < c->req.npids; i++) {
		struct evt_process_info info;
		struct evt_ctl **found = NULL;
		int pid = c->req.pids[i], n, sees = 0;

		if (evt_process_info(pid, &info, err, sizeof(err)) == 0)
			sees = evt_peer_sees(&c->peer, pid);
		if (!sees)
			return refuse(c, 1, "pid %d: no such process", pid), -1;
		if (sees < 0)
			return refuse(c, 1, "pid %d: evtraced cannot read its pid "
				      "namespace (%s), so it cannot tell that you "
				      "see it; not served", pid, strerror(errno)), -1;
		if (!info.rundir[0])
			return refuse(c, 1, "pid %d: its environment cannot be read, "
				      "so neither where it is traced", pid), -1;
		if (i == 0) {
			c->info = info;
			if (evt_rundir_open(&c->rd, info.rundir, EVT_RUNDIR_ROOT_ENTERS,
					    err, sizeof(err))) {
				c->rd.fd = -1;
				return refuse(c, 1, "pid %d: not traced (%s)", pid,
					      err), -1;
			}
			if (c->rd.owner != info.euid) {
				return refuse(c, 1, "pid %d: its run directory %s belongs "
					      "to uid %u, not to its user %s: not followed",
					      pid, info.rundir, (unsigned)c->rd.owner,
					      info.user), -1;
			}
		} else if (strcmp(info.rundir, c->info.rundir)) {
			return refuse(c, 1, "pids %d and %d are traced in different run "
				      "directories (users %s and %s): ask for each "
				      "separately", c->req.pids[0], pid, c->info.user,
				      info.user), -1;
		}
		n = evt_rundir_open_live(&c->rd, pid, NULL, NULL, &found);
		if (n <= 0) {
			evt_rundir_close_all(found, 0);
			if (evt_rundir_orphan_file(info.rundir, pid, err, sizeof(err)))
				return refuse(c, 1, "pid %d: no traced process with this "
					      "pid (user %s's processes are traced in "
					      "%s)", pid, info.user, info.rundir), -1;
			return refuse(c, 1, "%s", evt_rundir_why_untraced(info.rundir,
				      pid, err, sizeof(err))), -1;
		}
		c->ctls[c->nctls++] = found[0];
		while (--n > 0)
			evt_ctl_close(found[n]);
		free(found);
	}
	return 0;
}

/*
 * The patterns a record request names besides its events: its triggers'
 * and --keep's, into out (of room for EVT_PROTO_MAX_TRIGGERS +
 * EVT_PROTO_MAX_KEEP); how many, or -1 refused (a trigger that is wrong,
 * or on kernel events).
 */
static int more_patterns(struct client *c, char (*out)[EVT_RULES_PATTERN_MAX])
{
	char why[1200];
	unsigned k;
	int n = 0;

	for (k = 0; k < c->req.ntriggers; k++) {
		struct evt_trigger *t = evt_trigger_parse(c->req.triggers[k], why,
							  sizeof(why));

		if (!t)
			return refuse(c, 2, "%s", why), -1;
		if (t->kernel) {
			refuse(c, 1, "%s: %s", t->pattern, EVT_PROTO_NO_KERNEL_EVENTS);
			evt_trigger_free(t);
			return -1;
		}
		if (t->pattern)
			snprintf(out[n++], EVT_RULES_PATTERN_MAX, "%s", t->pattern);
		evt_trigger_free(t);
	}
	for (k = 0; k < c->req.nkeep; k++)
		snprintf(out[n++], EVT_RULES_PATTERN_MAX, "%s", c->req.keep[k]);
	return n;
}

/* The permission table, applied to the request.  0, or -1 refused. */
static int check_rights(struct client *c)
{
	char who[1024];
	char more[EVT_PROTO_MAX_TRIGGERS + EVT_PROTO_MAX_KEEP][EVT_RULES_PATTERN_MAX];
	int i, nmore = 0;
	unsigned k;

	if (c->req.verb == EVT_VERB_RECORD && (nmore = more_patterns(c, more)) < 0)
		return -1;
	c->privileged = true;
	if (c->req.verb == EVT_VERB_TRACE)	/* (trace_target checked) */
		return 0;
	if (!c->nctls)		/* kernel events' names and formats: anyone's */
		return 0;
	for (i = 0; i < c->nctls; i++)
		c->privileged &= evt_peer_privileged(&c->peer, c->info.euid,
						     evt_ctl_optin_gid(c->ctls[i]));
	if (c->privileged)
		return 0;
	evt_privileged_who(&c->info, evt_ctl_optin_gid(c->ctls[0]), who, sizeof(who));
	/* A stranger's reader must not set another user's pace. */
	if (c->req.block_us)
		return refuse(c, 1, "pid %d (%s, user %s): making another user's "
			      "threads wait for your reader (--block, block_ms) "
			      "needs privilege towards the process: %s; read "
			      "without it (what your reader misses is counted)",
			      c->req.pids[0], c->info.comm, c->info.user, who), -1;
	switch (c->req.verb) {
	case EVT_VERB_LS:
	case EVT_VERB_FORMAT:
		return 0;
	case EVT_VERB_COUNT:
		return refuse(c, 1, "pid %d (%s, user %s): counting another user's "
			      "events needs privilege towards the process: %s (it "
			      "would put the process's counted sites on the counting "
			      "path; perf asks ptrace access for the same)",
			      c->req.pids[0], c->info.comm, c->info.user, who), -1;
	case EVT_VERB_CONSUME:		/* each add is checked */
		if (c->req.count)
			return refuse(c, 1, "pid %d (%s, user %s): counting another "
				      "user's events needs privilege towards the "
				      "process: %s", c->req.pids[0], c->info.comm,
				      c->info.user, who), -1;
		c->restricted = true;
		return 0;
	case EVT_VERB_ENABLE:
	case EVT_VERB_DISABLE:
		return refuse(c, 1, "%s in pid %d (%s, user %s): switching another "
			      "user's events needs privilege towards the process: %s",
			      c->req.path, c->req.pids[0], c->info.comm, c->info.user,
			      who), -1;
	case EVT_VERB_SNAPSHOT:
		/* Its worker takes only a guest collection's buffers (the
		 * engine's policy): a recording evtraced made for a client
		 * without privilege, which holds CAP_ANY events alone. */
		c->restricted = true;
		return 0;
	case EVT_VERB_STREAM:
	case EVT_VERB_RECORD:
		if (!c->req.nevents && !c->req.nfilters &&
		    c->req.verb == EVT_VERB_STREAM)
			return refuse(c, 1, "pid %d (%s, user %s): reading its default "
				      "collection needs privilege towards the process: "
				      "%s; give -e for a stream of your own", c->req.pids[0],
				      c->info.comm, c->info.user, who), -1;
		if (!c->req.nevents && !c->req.nfilters)
			return refuse(c, 1, "pid %d (%s, user %s): without -e, record "
				      "takes every printk event, and recording their "
				      "fields needs privilege towards the process: %s; "
				      "give -e for events flagged CAP_ANY", c->req.pids[0],
				      c->info.comm, c->info.user, who), -1;
		for (i = 0; i < c->nctls; i++)
			for (k = 0; k < c->req.nevents + c->req.nfilters + (unsigned)nmore; k++) {
				char pattern[EVT_RULES_PATTERN_MAX] = "";
				const struct evt_ctl_event *e;

				if (k < c->req.nevents)
					snprintf(pattern, sizeof(pattern), "%s",
						 c->req.events[k]);
				else if (k < c->req.nevents + c->req.nfilters)
					evt_proto_filter_pattern(c->req.filters[k - c->req.nevents],
								 pattern, sizeof(pattern));
				else	/* a trigger's or --keep's */
					snprintf(pattern, sizeof(pattern), "%s",
						 more[k - c->req.nevents - c->req.nfilters]);
				e = evt_uncapped_event(c->ctls[i], pattern);

				if (e) {
					evt_refuse_fields(&c->info, c->ctls[i]->h.pid,
							  evt_ctl_optin_gid(c->ctls[i]),
							  e->path, who, sizeof(who));
					return refuse(c, 1, "%s", who), -1;
				}
			}
		c->restricted = true;
		return 0;
	default:
		return refuse(c, 2, "not a request"), -1;
	}
}

/*
 * trace's: the client's process, held before its exec, from its exec on
 * (--from-exec), its lines as records for the client to merge with its
 * own events (--for-client), only the calls of processes of the client's
 * (--owner: a setuid child is not), and what the client asked.
 */
static int build_trace_argv(const struct client *c, char **argv, char *numbers)
{
	static char sets[8][300];
	const struct evt_request *r = &c->req;
	int argc = 0;
	unsigned i;

	argv[argc++] = "trace";
	argv[argc++] = "-p";
	sprintf(numbers, "%d", r->pids[0]);
	argv[argc++] = numbers;
	if (r->held)
		argv[argc++] = "--from-exec";
	argv[argc++] = "--for-client";
	argv[argc++] = "--owner";	/* (32 bytes: two numbers) */
	sprintf(numbers + 16, "%u:%u", (unsigned)c->peer.uid,
		(unsigned)c->peer.gid);
	argv[argc++] = numbers + 16;
	for (i = 0; i < r->nevents; i++) {
		argv[argc++] = "-e";
		argv[argc++] = (char *)r->events[i];
	}
	for (i = 0; i < r->nsyscalls; i++) {
		snprintf(sets[i], sizeof(sets[i]), "trace=%s", r->syscalls[i]);
		argv[argc++] = "-e";
		argv[argc++] = sets[i];
	}
	if (r->has_strsize) {
		argv[argc++] = "-s";
		sprintf(numbers + 48, "%u", r->strsize);
		argv[argc++] = numbers + 48;
	}
	if (r->summary)
		argv[argc++] = r->summary == 1 ? "-c" : "-C";
	argv[argc] = NULL;
	return argc;
}

/* The command line of the request. */
static int build_argv(const struct client *c, char **argv, char *pids,
		      size_t pids_size, char *numbers)
{
	const struct evt_request *r = &c->req;
	int argc = 0;
	size_t used = 0;
	unsigned i;

	if (r->verb == EVT_VERB_TRACE)
		return build_trace_argv(c, argv, numbers);
	for (i = 0; i < r->npids; i++)
		used += (size_t)snprintf(pids + used, pids_size - used, "%s%d",
					 i ? "," : "", r->pids[i]);
	argv[argc++] = (char *)c->verb;
	if (r->npids) {
		argv[argc++] = "-p";
		argv[argc++] = pids;
	}
	if (r->formats)
		argv[argc++] = "-f";
	if (r->ids)
		argv[argc++] = "--ids";
	if (r->tracefs)
		argv[argc++] = "--tracefs";
	for (i = 0; i < r->nevents; i++) {
		argv[argc++] = "-e";
		argv[argc++] = (char *)r->events[i];
	}
	for (i = 0; i < r->nfilters; i++) {
		argv[argc++] = "-F";
		argv[argc++] = (char *)r->filters[i];
	}
	if (r->interval_ms) {
		argv[argc++] = "-I";
		sprintf(numbers, "%u", r->interval_ms);
		argv[argc++] = numbers;
		numbers += 16;
	}
	if (c->output_fd >= 0) {
		argv[argc++] = "-o";
		argv[argc++] = "/proc/self/fd/9/.";
	}
	if (r->relay) {
		argv[argc++] = "--relay";
		argv[argc++] = (char *)r->relay;
	}
	if (r->session) {
		argv[argc++] = "--session";
		argv[argc++] = (char *)r->session;
	}
	if (r->hostname) {
		argv[argc++] = "--hostname";
		argv[argc++] = (char *)r->hostname;
	}
	if (r->relay_buffer_mib) {
		argv[argc++] = "--relay-buffer";
		sprintf(numbers, "%u", r->relay_buffer_mib);
		argv[argc++] = numbers;
		numbers += 16;
	}
	if (r->overwrite)
		argv[argc++] = "--overwrite";
	if (r->block_us == EVT_BLOCK_INF) {
		argv[argc++] = "--block=inf";
	} else if (r->block_us) {
		/* (to the millisecond above, as a wait is never shorter) */
		sprintf(numbers, "--block=%u", (r->block_us + 999) / 1000);
		argv[argc++] = numbers;
		numbers += 16;
	}
	if (r->packet_size) {
		argv[argc++] = "--packet-size";
		sprintf(numbers, "%u", r->packet_size);
		argv[argc++] = numbers;
		numbers += 16;
	}
	if (r->packet_count) {
		argv[argc++] = "--packets";
		sprintf(numbers, "%u", r->packet_count);
		argv[argc++] = numbers;
		numbers += 16;
	}
	for (i = 0; i < r->ntriggers; i++) {
		argv[argc++] = "--trigger";
		argv[argc++] = (char *)r->triggers[i];
	}
	if (r->has_after) {
		sprintf(numbers, "%lluns", (unsigned long long)r->after_ns);
		argv[argc++] = "--after";
		argv[argc++] = numbers;
		numbers += 24;
	}
	if (r->has_before) {
		sprintf(numbers, "%lluns", (unsigned long long)r->before_ns);
		argv[argc++] = "--before";
		argv[argc++] = numbers;
		numbers += 24;
	}
	if (r->max_windows) {
		sprintf(numbers, "%u", r->max_windows);
		argv[argc++] = "--max-windows";
		argv[argc++] = numbers;
		numbers += 16;
	}
	for (i = 0; i < r->nkeep; i++) {
		argv[argc++] = "--keep";
		argv[argc++] = (char *)r->keep[i];
	}
	if (r->guard_percent) {
		sprintf(numbers, "%u", r->guard_percent);
		argv[argc++] = "--guard";
		argv[argc++] = numbers;
		numbers += 16;
	}
	if (r->fail_on_loss)
		argv[argc++] = "--fail-on-loss";
	if (r->has_rate) {
		sprintf(numbers, "%u", r->rate);
		argv[argc++] = "--rate";
		argv[argc++] = numbers;
		numbers += 16;
	}
	if (r->collection) {
		sprintf(numbers, "%u", r->collection);
		argv[argc++] = "--collection";
		argv[argc++] = numbers;
	}
	if (r->verb == EVT_VERB_SNAPSHOT && c->restricted)
		argv[argc++] = "--no-kernel";	/* (a guest's has none) */
	if (r->path) {
		argv[argc++] = "--";
		argv[argc++] = (char *)r->path;
	}
	argv[argc] = NULL;
	return argc;
}

/* The daemon stopping ends the command as ^C would, and says so. */
static volatile pid_t worker_pid;
static volatile sig_atomic_t terminated;

static void on_term(int sig)
{
	(void)sig;
	terminated = 1;
	if (worker_pid > 0)
		kill(worker_pid, SIGTERM);
}

static void __attribute__((noreturn))
worker(const struct client *c, int out, int err, evt_command_fn run)
{
	char *argv[40 + 2 * (EVT_RULES_MAX_PATTERNS + EVT_PROTO_MAX_TRIGGERS +
			     EVT_PROTO_MAX_KEEP + EVT_PROTO_MAX_PROBE_FILES)],
		pids[EVT_PROTO_MAX_PIDS * 12];
	static char fd_paths[EVT_PROTO_MAX_PROBE_FILES][32];
	int fds[EVT_PROTO_MAX_PROBE_FILES];
	unsigned i;
	/* 16 bytes a number (24 a duration): five of any command, two
	 * durations and four more numbers of record, enable or snapshot */
	char numbers[5 * 16 + 2 * 24 + 4 * 16];
	int argc = build_argv(c, argv, pids, sizeof(pids), numbers);

	if (dup2(out, STDOUT_FILENO) < 0 || dup2(err, STDERR_FILENO) < 0)
		_exit(1);
	/* trace's usdt/ probes: in the files as the client opened them
	 * (the worker reads and probes each by its fd, never by a path a
	 * client named). */
	if (c->req.nprobe_files) {
		char why[PATH_MAX + 100];

		if (evt_open_as_client(&c->peer, c->req.probe_files,
				       c->req.nprobe_files, fds, why, sizeof(why))) {
			fprintf(stderr, "evtrace: %s: usdt/: %s\n", c->verb, why);
			_exit(1);
		}
		for (i = 0; i < c->req.nprobe_files; i++) {
			snprintf(fd_paths[i], sizeof(fd_paths[i]), "/proc/self/fd/%d", fds[i]);
			argv[argc++] = "--probe-file";
			argv[argc++] = fd_paths[i];
		}
		argv[argc] = NULL;
	}
	if (c->output_fd >= 0) {
		if (dup2(c->output_fd, OUTPUT_FD) < 0)
			_exit(1);
		evt_policy_output_owner(c->peer.uid);
	}
	if (c->peer.uid != 0) {
		char why[200];

		if (evt_act_as_client(c->peer.uid, c->peer.gid, why, sizeof(why))) {
			fprintf(stderr, "evtrace: %s: %s\n", c->verb, why);
			_exit(1);
		}
	}
	/* Killed with the daemon, it still ends its trace properly.  Set
	 * after the credentials: changing them clears it. */
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (c->restricted)
		evt_policy_cap_any_only();
	if (c->info.rundir[0])
		setenv("EVTRACE_RUNDIR", c->info.rundir, 1);
	setvbuf(stdout, NULL, _IOLBF, 0);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGPIPE, SIG_IGN);	/* the relay gone, it still finishes */
	optind = 0;
	exit(run(argc, argv));
}

/* Relays the worker's output until it ends; a "stop" from the client is
 * ^C to it, the client leaving or stalling (*stalled) is SIGTERM. */
static int relay(struct client *c, pid_t pid, int out, int err, bool *stalled)
{
	static char buf[EVT_PROTO_MAX_BODY + 1];
	struct pollfd p[3] = {
		{ .fd = out, .events = POLLIN }, { .fd = err, .events = POLLIN },
		{ .fd = c->sock, .events = POLLIN },
	};
	int status = 0, open_pipes = 2;

	while (open_pipes) {
		int i;

		if (poll(p, 3, -1) < 0 && errno != EINTR)
			break;
		for (i = 0; i < 2; i++) {
			ssize_t n;

			if (p[i].fd < 0 || !p[i].revents)
				continue;
			n = read(p[i].fd, buf, 16384);
			if (n <= 0) {
				close(p[i].fd);
				p[i].fd = -1;
				open_pipes--;
				continue;
			}
			/* Gone, or took nothing for the stall timeout: its
			 * command ends as if it had left; drained below. */
			if (p[2].fd >= 0 &&
			    evt_proto_send_kind(c->sock, i ? 'e' : 'o', buf, (size_t)n)) {
				*stalled = errno == EAGAIN || errno == EWOULDBLOCK;
				kill(pid, SIGTERM);
				p[2].fd = -1;
			}
		}
		if (p[2].fd >= 0 && p[2].revents) {
			char why[200];
			struct evt_request stop;
			long n = evt_proto_recv(c->sock, buf, NULL, 1000, why, sizeof(why));

			if (n >= 0 && !evt_proto_parse(buf, (size_t)n, &stop, why,
						       sizeof(why)) &&
			    stop.verb == EVT_VERB_STOP) {
				kill(pid, SIGINT);
			} else {
				kill(pid, SIGTERM);
				p[2].fd = -1;
			}
		}
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return WIFEXITED(status) ? WEXITSTATUS(status) :
	       WIFSIGNALED(status) ? 128 + WTERMSIG(status) : 1;
}

/* record's and snapshot's directory: the client's own, as it handed it
 * over. */
static int check_output(struct client *c)
{
	struct stat st;

	if (c->req.verb != EVT_VERB_RECORD && c->req.verb != EVT_VERB_SNAPSHOT)
		return 0;
	if (c->output_fd < 0 && c->req.relay)
		return 0;	/* the relay only */
	if (c->output_fd < 0)
		return refuse(c, 2, "no trace directory came with the request"), -1;
	if (fstat(c->output_fd, &st) || !S_ISDIR(st.st_mode) ||
	    st.st_uid != c->peer.uid)
		return refuse(c, 1, "the trace directory handed over is not a "
			      "directory of uid %u's", (unsigned)c->peer.uid), -1;
	return 0;
}

/* Lets the client read the last answer: closing with what it sent still
 * unread would reset the connection and lose it. */
static void close_gently(int sock)
{
	struct pollfd p = { .fd = sock, .events = POLLIN };
	char sink[4096];
	int rounds = 0;

	shutdown(sock, SHUT_WR);
	while (rounds++ < 64 && poll(&p, 1, 200) > 0 &&
	       read(sock, sink, sizeof(sink)) > 0)
		;
}

void evt_serve(int sock, evt_command_fn run)
{
	static char body[EVT_PROTO_MAX_BODY + 1];
	struct client c = { .sock = sock, .verb = "evtraced", .output_fd = -1 };
	struct sigaction term = { .sa_handler = on_term };
	char err[300], code[8];
	int pipes[2][2] = { { -1, -1 }, { -1, -1 } }, status;
	bool stalled = false;
	long n;
	pid_t pid;

	c.rd.fd = -1;
	if (evt_peer_get(sock, &c.peer))
		return;
	{
		struct timeval stall = { .tv_sec = stall_timeout_s };

		setsockopt(sock, SOL_SOCKET, SO_SNDTIMEO, &stall, sizeof(stall));
	}
	n = evt_proto_recv(sock, body, &c.output_fd, REQUEST_TIMEOUT_MS, err,
			   sizeof(err));
	if (n == -2)
		return;
	if (n < 0 || evt_proto_parse(body, (size_t)n, &c.req, err, sizeof(err))) {
		refuse(&c, 2, "%s", err);
		goto out;
	}
	c.verb = evt_verb_name(c.req.verb);
	evt_audit_request(&c.peer, &c.req);
	if (c.req.verb == EVT_VERB_STOP ||
	    evt_verb_in_session(c.req.verb)) {
		refuse(&c, 2, "'%s' is not a first request", c.verb);
		goto out;
	}
	if (c.req.verb == EVT_VERB_STREAM && c.req.npids > 1) {
		refuse(&c, 2, "one pid at a time");
		goto out;
	}
	if (check_output(&c) || find_targets(&c) || check_rights(&c))
		goto out;
	if (c.req.verb == EVT_VERB_CONSUME) {
		struct evt_session session = {
			.sock = sock, .uid = c.peer.uid, .gid = c.peer.gid,
			.client_pid = c.peer.pid,
			.info = &c.info, .ctl = c.ctls[0], .rundir = c.info.rundir,
			.count = c.req.count, .restricted = c.restricted,
			.req = &c.req, .peer = &c.peer,
		};

		evt_serve_consumer(&session);
		evt_audit(&c.peer, "served (a consumer)");
		goto out;
	}
	evt_rundir_close_all(c.ctls, c.nctls);
	c.ctls = NULL;
	if (pipe2(pipes[0], O_CLOEXEC) || pipe2(pipes[1], O_CLOEXEC)) {
		refuse(&c, 1, "%s", strerror(errno));
		goto out;
	}
	sigaction(SIGTERM, &term, NULL);
	pid = fork();
	if (pid == 0) {
		close(sock);
		worker(&c, pipes[0][1], pipes[1][1], run);
	}
	worker_pid = pid;
	close(pipes[0][1]);
	close(pipes[1][1]);
	if (pid < 0) {
		close(pipes[0][0]);
		close(pipes[1][0]);
		refuse(&c, 1, "%s", strerror(errno));
		goto out;
	}
	status = relay(&c, pid, pipes[0][0], pipes[1][0], &stalled);
	if (stalled) {
		refuse(&c, 1, "evtraced dropped this client: it took nothing of "
		       "what was sent to it for %u s", stall_timeout_s);
		goto out;
	}
	if (terminated) {
		refuse(&c, status ? status : 1, "evtraced stopped, which ended it");
		goto out;
	}
	n = snprintf(code, sizeof(code), "%d", status);
	evt_proto_send_kind(sock, 'x', code, (size_t)n);
	evt_audit(&c.peer, "served, exit status %d", status);
out:
	if (c.ctls)
		evt_rundir_close_all(c.ctls, c.nctls);
	if (c.rd.fd >= 0)
		evt_rundir_close(&c.rd);
	if (c.output_fd >= 0)
		close(c.output_fd);
	close_gently(sock);
}
