/*
 * syscall_capture.h - what the eBPF program of evtrace trace
 * (syscall_capture.bpf.c) hands over, and what it is told: shared by the
 * program and its loader (syscall_bpf.c), so plain C types only.
 *
 * At each system call's entry and exit of a traced process, the program
 * copies the user memory the call's arguments point to, as the table of
 * the call says (a string, a buffer of a length another argument or the
 * result gives, a struct of a fixed size), into the ring: first one
 * record per copied argument, then the call's own record, all stamped
 * with the same time, so that the reader joins them by task and time.
 */
#ifndef EVT_ENGINE_SYSCALL_CAPTURE_H
#define EVT_ENGINE_SYSCALL_CAPTURE_H

#define EVT_CAP_NARGS 6
#define EVT_CAP_NR_MAX 1024		/* system call numbers below this */
#define EVT_CAP_BYTES_MAX 4096		/* of one argument; a power of two */
#define EVT_CAP_VEC_MAX 4		/* elements of an argv or iovec shown */
#define EVT_CAP_STRSIZE_DEFAULT 32	/* bytes of a buffer shown: strace's -s */

/* How an argument's memory is copied. */
enum evt_cap_kind {
	EVT_CAP_NONE = 0,
	EVT_CAP_STRING,		/* at entry, to its NUL (a path: whole) */
	EVT_CAP_BUF_IN,		/* at entry, as many bytes as argument
				 * len_arg says (write's buf) */
	EVT_CAP_BUF_OUT,	/* at exit, as many bytes as the result
				 * says (read's buf) */
	EVT_CAP_STRUCT_IN,	/* at entry, size bytes (nanosleep's
				 * timespec), or argument len_arg's when
				 * size is 0 (connect's sockaddr) */
	EVT_CAP_STRUCT_OUT,	/* at exit, when it succeeded (stat's) */
	EVT_CAP_STRING_OUT,	/* at exit, to its NUL (getcwd's) */
	EVT_CAP_ARGV,		/* at entry, the first strings of a
				 * NULL-ended array (execve's argv) */
	EVT_CAP_IOVEC_IN,	/* at entry, the first buffers of an
				 * iovec array: argument 1, its count
				 * argument 2 (writev's) */
	EVT_CAP_IOVEC_OUT,	/* at exit, the same, filled as far as the
				 * result says (readv's) */
};

/* A system call's table entry (the map "spec", by number). */
struct evt_cap_spec {
	unsigned char kind[EVT_CAP_NARGS];
	unsigned char len_arg[EVT_CAP_NARGS];
	unsigned short size[EVT_CAP_NARGS];
};

/* What the loader sets (the map "config", one entry). */
struct evt_cap_config {
	unsigned int buf_bytes;		/* -s: of a buffer, at most
					 * EVT_CAP_BYTES_MAX */
	unsigned int fork_child_off;	/* of child_pid in
					 * sched_process_fork's record */
	unsigned int signal_sig_off;	/* of sig and code in */
	unsigned int signal_code_off;	/* signal_deliver's */
	unsigned int exit_group_dead_off; /* of group_dead in
					 * sched_process_exit's, or 0 */
	unsigned int owner;		/* only tasks this uid and owner_gid
					 * could ptrace (evtraced's client:
					 * not a setuid child), or
					 * EVT_CAP_ANY_OWNER */
	unsigned int filter;		/* only the calls the map "wanted"
					 * names (EVT_CAP_WANT_*, by number) */
	unsigned int owner_gid;
};

/* The program's counts of records lost (its map "lost"): every one, and
 * the calls' own, which a recording counts as events lost; and the
 * children of followed processes that its map of them had no room for,
 * whose calls are missing. */
#define EVT_CAP_LOST_ALL 0
#define EVT_CAP_LOST_CALLS 1
#define EVT_CAP_LOST_TASKS 2
#define EVT_CAP_LOST_KINDS 3
#define EVT_CAP_TASKS_MAX 16384		/* processes followed at once */

#define EVT_CAP_WANT_ENTER 1
#define EVT_CAP_WANT_EXIT 2

#define EVT_CAP_ANY_OWNER 0xffffffffu

enum evt_cap_type {
	EVT_CAP_ENTER = 1,
	EVT_CAP_EXIT,
	EVT_CAP_ARG,		/* an argument's bytes, before its call's
				 * record */
	EVT_CAP_GONE,		/* a followed task ended (each thread,
				 * then its process): ret is its exit
				 * code (the exit status << 8, or the
				 * signal, | 0x80 with a core) */
	EVT_CAP_SIGNAL,		/* a signal delivered (not SIGKILL): nr
				 * is the signal, ret its si_code */
	EVT_CAP_UNTRACED,	/* a followed process the owner could no
				 * longer ptrace, let go of for good: ret
				 * says why (EVT_CAP_UNTRACED_*) */
};

#define EVT_CAP_UNTRACED_IDS 1		/* its uids or gids are not all the
					 * owner's (a setuid or setgid exec) */
#define EVT_CAP_UNTRACED_DUMPABLE 2	/* not dumpable (privilege gained by
					 * an exec, or PR_SET_DUMPABLE 0) */

/* Flags of an argument's bytes. */
#define EVT_CAP_CUT	1	/* there was more than was copied */
#define EVT_CAP_FAULT	2	/* the memory could not be read */
#define EVT_CAP_MORE	4	/* an argv's last element copied: it has
				 * more */

/* Every record starts so. */
struct evt_cap_head {
	unsigned long long ktime;	/* CLOCK_MONOTONIC ns, one per call
					 * side: joins an argument to its call */
	unsigned int pid, tid;
	char comm[16];			/* the task's */
	unsigned short cpu;
	unsigned char type;		/* enum evt_cap_type */
	unsigned char arg;		/* EVT_CAP_ARG: which one (for an
					 * argv: 8 * element + argument) */
	unsigned int flags;		/* EVT_CAP_ARG: EVT_CAP_CUT ... */
	unsigned int len;		/* bytes after the head */
	long long nr;
	long long ret;			/* EVT_CAP_EXIT; EVT_CAP_ARG: the
					 * address copied from */
};
/* An iovec element's record (argument 8 * (i + 1) + arg, as an argv's)
 * holds its iov_len first, as an unsigned long long, then its bytes;
 * EVT_CAP_FAULT: none could be read.  The array's own record (argument
 * arg), only when it could not be read. */
/* After an EVT_CAP_ENTER record's head: its arguments, as len bytes of
 * unsigned long long[EVT_CAP_NARGS]. */

#endif
