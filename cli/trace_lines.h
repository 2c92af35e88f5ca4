/*
 * trace_lines.h - the lines of evtrace trace: user events, system calls
 * and other kernel events from several sources, held back a moment and
 * printed in time order, each system call on one line with its result
 * and duration as strace shows it.  A call that another line interrupts
 * (another thread's, or a kernel event of its own thread) is printed
 * "<unfinished ...>" and its result later as "<... name resumed>".
 */
#ifndef EVT_CLI_TRACE_LINES_H
#define EVT_CLI_TRACE_LINES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct trace_lines;

/* The buffer the output is to have (setvbuf) while lines are printed. */
#define TRACE_OUTPUT_BUFFER (1u << 20)

/* What a line is about: whose, on which CPU, and when (ts orders lines,
 * on the trace clock; ns is what is printed). */
struct trace_when {
	uint64_t ts;
	int64_t ns;
	uint32_t tid;
	uint16_t cpu;
	const char *comm;
	uint32_t pid;		/* a kernel event's process (0: none said) */
};

/* Lines go to out. */
struct trace_lines *trace_lines_new(FILE *out);
/* Only the system calls nr with want[nr] (EVT_SYSCALL_NR_MAX of them)
 * are shown and counted; want is kept. */
void trace_lines_only(struct trace_lines *l, const bool *want);
/* Lines as records for a client to merge (evtraced's worker): each
 * "<monotonic ns> <tid> <cpu> <comm>\t<text>", and -c's table lines
 * after a "#". */
void trace_lines_for_client(struct trace_lines *l);
/* With quiet, no line is printed: the calls are only counted (-c). */
void trace_lines_quiet(struct trace_lines *l, bool quiet);
/* strace -c's table of the calls seen: time, calls, errors by call,
 * the most time first. */
void trace_lines_summary(const struct trace_lines *l, FILE *out);
void trace_lines_free(struct trace_lines *l);
/* A line of text (a user event, a kernel event, a loss). */
void trace_lines_text(struct trace_lines *l, const struct trace_when *w,
		      const char *text, size_t len);
/* The lines of process pid's kernel events from ts on, not printed yet,
 * are left out: it is no longer traced (a setuid program it became).
 * Held back as all lines are, they wait for this (trace_bpf.c). */
void trace_lines_let_go(struct trace_lines *l, uint32_t pid, uint64_t ts);
/* A task's end ("+++ exited with 0 +++"): a call it was in is shown
 * as never returning ("= ?") first. */
void trace_lines_gone(struct trace_lines *l, const struct trace_when *w,
		      const char *text, size_t len);
/* A call's entry and exit; mem (NULL: none) holds, by argument, the text
 * of the memory it points to as copied then (syscall_memory.h), or NULL. */
void trace_lines_enter(struct trace_lines *l, const struct trace_when *w,
		       long nr, const uint64_t args[6], const char *const *mem);
void trace_lines_exit(struct trace_lines *l, const struct trace_when *w,
		      long nr, int64_t ret, const char *const *mem);
/* Prints the lines up to ts, in order (all, and the calls that never
 * returned, with final). */
void trace_lines_print(struct trace_lines *l, uint64_t ts, bool final);
/* System calls printed so far (begun). */
uint64_t trace_lines_syscalls(const struct trace_lines *l);

#endif
