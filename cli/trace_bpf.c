/*
 * trace_bpf.c - evtrace trace's lines from the eBPF program's records
 * (syscall_bpf.h): each call with the texts of the memory it pointed to
 * (syscall_memory.h), the command's calls before its exec dropped, a
 * process's end as strace says it, and what the ring lost.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "syscall_args.h"
#include "syscall_bpf.h"
#include "syscall_memory.h"
#include "syscall_names.h"
#include "trace.h"

/*
 * The command's calls before its exec are dropped, but for the execve
 * that succeeds: its entry is held until it returns 0 and then shown
 * with its exit.  Whether c was taken (texts then freed or kept).
 */
static bool held_before_exec(struct trace *t, const struct evt_cap_call *c,
			     const struct trace_when *w, char *texts[6])
{
	const char *name;
	struct trace_when ew;

	if (t->execd || !t->command || c->pid != (uint32_t)t->command)
		return false;
	name = evt_syscall_name(c->nr);
	if (!name || strcmp(name, "execve")) {
		evt_syscall_memory_texts_free(texts);
		return true;
	}
	if (c->type == EVT_CAP_ENTER) {
		evt_syscall_memory_texts_free(t->exec_texts);
		t->exec_enter = *c;
		t->exec_enter.mem = NULL;
		memcpy(t->exec_texts, texts, 6 * sizeof(*texts));
		return true;
	}
	if (c->ret == 0 && t->exec_enter.nr == c->nr) {
		ew = *w;
		ew.ts = evt_clock_from_monotonic_ns(t->clock,
						    (int64_t)t->exec_enter.ktime);
		ew.ns = (int64_t)t->exec_enter.ktime;
		trace_lines_enter(t->lines, &ew, c->nr, t->exec_enter.args,
				  (const char *const *)t->exec_texts);
		t->execd = true;
		evt_syscall_memory_texts_free(t->exec_texts);
		return false;	/* and its exit shown */
	}
	evt_syscall_memory_texts_free(texts);
	return true;
}

/* strace's line for a task's end (each thread's, then its process's):
 * "+++ exited with 1 +++", "+++ killed by SIGKILL (core dumped) +++". */
static void process_gone(struct trace *t, const struct trace_when *w, int64_t code)
{
	char text[128], sig[32];

	if (code & 0x7f) {
		evt_syscall_arg_put(EVT_SHOW_SIGNAL, 32, (uint64_t)(code & 0x7f), sig,
				    sizeof(sig));
		snprintf(text, sizeof(text), "+++ killed by %s%s +++", sig,
			 code & 0x80 ? " (core dumped)" : "");
	} else {
		snprintf(text, sizeof(text), "+++ exited with %d +++",
			 (int)((code >> 8) & 0xff));
	}
	trace_lines_gone(t->lines, w, text, strlen(text));
}

/*
 * A process the owner could no longer ptrace, let go of for good:
 * strace's -f loses a setuid program in the same way.  Its kernel
 * events from then on are left out too (trace_bpf_let_go).
 */
static void let_go(struct trace *t, const struct trace_when *w,
		   const struct evt_cap_call *c)
{
	struct untraced *grown = realloc(t->untraced, (t->nuntraced + 1) *
					 sizeof(*grown));
	const char *why = c->ret == EVT_CAP_UNTRACED_IDS ?
		"its user or group ids are no longer only yours (a setuid or "
		"setgid program)" :
		"it is not dumpable (a program that gained privilege, or "
		"PR_SET_DUMPABLE 0)";
	char text[200];

	if (grown) {
		t->untraced = grown;
		t->untraced[t->nuntraced++] = (struct untraced){ c->pid, c->ktime };
	}
	snprintf(text, sizeof(text), "+++ no longer traced: %s +++", why);
	trace_lines_gone(t->lines, w, text, strlen(text));
	/* Its kernel events (usdt/ probes) read before this are held back
	 * still: those from now on go too. */
	trace_lines_let_go(t->lines, c->pid, w->ts);
}

bool trace_bpf_let_go(const struct trace *t, uint32_t pid, int64_t monotonic_ns)
{
	size_t i;

	for (i = 0; i < t->nuntraced; i++)
		if (t->untraced[i].pid == pid &&
		    monotonic_ns >= (int64_t)t->untraced[i].ktime)
			return true;
	return false;
}

/* The eBPF program's: a system call's entry or exit, with its memory. */
void trace_bpf_call(void *ctx, const struct evt_cap_call *c)
{
	struct trace *t = ctx;
	const struct evt_clock_calibration *clock = t->clock;
	struct trace_when w = { evt_clock_from_monotonic_ns(clock, (int64_t)c->ktime),
				(int64_t)c->ktime, c->tid, c->cpu, c->comm };
	char *texts[6];
	unsigned i;

	t->kernel_records++;
	if (c->type == EVT_CAP_GONE) {
		process_gone(t, &w, c->ret);
		return;
	}
	if (c->type == EVT_CAP_UNTRACED) {
		let_go(t, &w, c);
		return;
	}
	if (c->type == EVT_CAP_SIGNAL) {
		char text[160];

		evt_syscall_signal_put((int)c->nr, (int)c->ret, text, sizeof(text));
		trace_lines_text(t->lines, &w, text, strlen(text));
		return;
	}
	evt_syscall_memory_texts(evt_syscall_name(c->nr), c->mem, c->nmem,
				 t->strsize, texts);
	if (held_before_exec(t, c, &w, texts))
		return;
	if (c->type == EVT_CAP_ENTER)
		trace_lines_enter(t->lines, &w, c->nr, c->args, (const char *const *)texts);
	else
		trace_lines_exit(t->lines, &w, c->nr, c->ret, (const char *const *)texts);
	for (i = 0; i < 6; i++)
		free(texts[i]);
}

/* A line of the program's own, now. */
static void kernel_line(struct trace *t, const char *text)
{
	struct timespec now;
	int64_t ns;

	clock_gettime(CLOCK_MONOTONIC, &now);
	ns = (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
	trace_lines_text(t->lines, &(struct trace_when){
		evt_clock_from_monotonic_ns(t->clock, ns), ns, 0, 0, "kernel" },
		text, strlen(text));
}

/* What the eBPF program's ring could not take since the last look, and
 * the children it could not follow: a line each, and the totals. */
void trace_bpf_losses(struct trace *t)
{
	uint64_t lost = evt_syscall_bpf_lost(t->bpf);
	uint64_t tasks = evt_syscall_bpf_lost_tasks(t->bpf);
	char text[200];

	if (lost > t->bpf_lost) {
		snprintf(text, sizeof(text), "lost %" PRIu64 " kernel records",
			 lost - t->bpf_lost);
		kernel_line(t, text);
		t->lost += lost - t->bpf_lost;
		t->bpf_lost = lost;
	}
	if (tasks > t->tasks_lost) {
		snprintf(text, sizeof(text), "%" PRIu64 " new process%s not followed: "
			 "the eBPF program's map of followed processes is full",
			 tasks - t->tasks_lost, tasks - t->tasks_lost == 1 ? "" : "es");
		kernel_line(t, text);
		t->tasks_lost = tasks;
	}
}
