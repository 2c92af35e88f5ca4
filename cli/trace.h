/*
 * trace.h - what the parts of evtrace trace share: its state (cmd_trace.c
 * runs it), the eBPF program's calls turned into lines (trace_bpf.c), and
 * the client of evtraced's trace (trace_remote.c).
 */
#ifndef EVT_CLI_TRACE_H
#define EVT_CLI_TRACE_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "clock.h"
#include "kernel_record.h"
#include "protocol.h"
#include "syscall_bpf.h"
#include "trace_lines.h"

/* Lines are held back HOLD_MS, so that every source has handed over
 * what came before them; sources are read every POLL_MS. */
#define HOLD_MS 100
#define POLL_MS 10

struct evt_kernel_print;
struct evt_kernel_sampler;
struct evt_live_record;
struct evt_live_stream;

/* Where the fields of the raw_syscalls records are. */
struct raw_fields {
	int enter, exit;		/* their indexes in the sampler */
	unsigned enter_id, enter_args, exit_id, exit_ret;	/* offsets */
};

struct trace {
	struct trace_lines *lines;
	struct evt_kernel_sampler *kernel;
	struct evt_live_stream *live;
	struct raw_fields raw;
	struct evt_kernel_print *print;	/* kernel events by their print fmt */
	/* System calls with their arguments' memory (eBPF), or NULL: from
	 * the raw_syscalls records, addresses only. */
	struct evt_syscall_bpf *bpf;
	uint64_t bpf_lost;
	/* The trace clock: the live stream's, or (evtraced's worker, which
	 * streams no user events) one of its own. */
	const struct evt_clock_calibration *clock;
	struct evt_clock_calibration own_clock;
	/* evtraced's worker: only the processes this user and group could
	 * ptrace are shown (a setuid child of the client's is not); -1:
	 * any.  Those let go of, from when (their kernel events too). */
	long owner, owner_gid;
	struct untraced {
		uint32_t pid;
		uint64_t ktime;
	} *untraced;
	size_t nuntraced;
	uint64_t tasks_lost;		/* children the eBPF program could
					 * not follow */
	/* Through evtraced: the connection, the request, what is left of a
	 * line, -c's table, the worker's status once it ended (-1 before). */
	int sock;
	struct evt_request *req;
	char *partial;
	size_t npartial;
	char *table;
	size_t ntable;
	int remote_status;
	unsigned hold_ms;		/* lines held back, for order */
	uint64_t remote_upto;		/* the worker has sent all lines before */
	bool for_client;		/* evtraced's worker */
	FILE *lines_out;
	uint32_t strsize;		/* -s */
	/* The command's process until its exec succeeds: its calls are
	 * trace's own (the wait to start, execvp's tries along PATH), but
	 * for that execve, held until it returns. */
	pid_t command;
	bool execd;
	struct evt_cap_call exec_enter;
	char *exec_texts[6];
	uint64_t events;
	uint64_t kernel_records;
	uint64_t lost;
	uint8_t *payload;
	size_t payload_cap;
	/* -o: the trace kept, until its output fails */
	struct evt_live_record *out;
	struct evt_kernel_record *kout;
	struct evt_kernel_sink ksink;
	bool out_failed;
	char out_err[PATH_MAX + 300];
};

/* trace_bpf.c: the eBPF program's record (evt_syscall_bpf_read's
 * callback, ctx the trace); what its ring lost since the last look, and
 * the children it could not follow, as lines and in the totals; whether
 * a kernel event of pid at monotonic_ns comes after the program let the
 * process go. */
void trace_bpf_call(void *ctx, const struct evt_cap_call *c);
void trace_bpf_losses(struct trace *t);
bool trace_bpf_let_go(const struct trace *t, uint32_t pid, int64_t monotonic_ns);

/* trace_remote.c: whether the kernel refuses this user the system call
 * events (then evtraced traces the user's own processes); one frame from
 * evtraced (attached, when not NULL, says the worker attached); the spawn
 * hook that asks evtraced and releases the held command. */
bool trace_kernel_refuses_syscalls(void);
int trace_remote_frame(struct trace *t, int timeout_ms, bool *attached);
int trace_remote_command(pid_t child, void *ctx);

#endif
