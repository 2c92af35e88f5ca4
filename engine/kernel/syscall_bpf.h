/*
 * syscall_bpf.h - the eBPF program of evtrace trace (syscall_capture.h)
 * loaded, told which processes to follow, and its ring read: each system
 * call's entry and exit of those processes and their children, with the
 * user memory of its arguments as it was at the call, joined back to the
 * call.  Needs CAP_BPF and CAP_PERFMON (root); where the program cannot
 * be loaded the caller says so and shows addresses instead.
 */
#ifndef EVT_ENGINE_SYSCALL_BPF_H
#define EVT_ENGINE_SYSCALL_BPF_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "syscall_capture.h"
#include "syscall_memory.h"

struct evt_syscall_bpf;

/* A system call's entry or exit, with what was copied at it; or a
 * followed process's end (EVT_CAP_GONE, ret its exit code), a signal
 * (EVT_CAP_SIGNAL), a process let go of (EVT_CAP_UNTRACED, ret why). */
struct evt_cap_call {
	int type;			/* EVT_CAP_ENTER, _EXIT or _GONE */
	uint64_t ktime;			/* CLOCK_MONOTONIC ns */
	uint32_t pid, tid;
	const char *comm;
	uint16_t cpu;
	long nr;
	int64_t ret;
	uint64_t args[EVT_CAP_NARGS];	/* at entry */
	const struct evt_cap_bytes *mem;
	unsigned nmem;
};

typedef void (*evt_syscall_bpf_cb)(void *ctx, const struct evt_cap_call *call);

/*
 * Loads the program, its table of what to copy for each call and
 * buf_bytes (-s, at most EVT_CAP_BYTES_MAX) for buffers, with a ring of
 * ring_kib KiB (rounded up to a power of two); it follows no process
 * yet.  NULL with err saying why (not built with eBPF, no privilege, a
 * kernel that refuses).
 */
struct evt_syscall_bpf *evt_syscall_bpf_open(unsigned buf_bytes,
					     unsigned ring_kib, char *err,
					     size_t err_size);
void evt_syscall_bpf_close(struct evt_syscall_bpf *b);
/*
 * Shows only the calls of tasks that uid, with gid, could ptrace: all
 * their uids uid, all their gids gid, and dumpable (checked at each
 * call).  A followed process that fails the check is let go of for good,
 * with a call of type EVT_CAP_UNTRACED saying why: a setuid or setgid
 * program it execs, PR_SET_DUMPABLE 0.  0, or -1 with err set.
 */
int evt_syscall_bpf_owner(struct evt_syscall_bpf *b, uid_t uid, gid_t gid,
			  char *err, size_t err_size);
/* Follows every task of the machine (a recording of all CPUs).  0, or
 * -1 with err set. */
int evt_syscall_bpf_follow_all(struct evt_syscall_bpf *b, char *err,
			       size_t err_size);
/* Shows only the calls want names: want[nr] (EVT_CAP_NR_MAX of them)
 * says EVT_CAP_WANT_ENTER, _EXIT or both (an exit's entry is shown too,
 * for its arguments).  0, or -1 with err set. */
int evt_syscall_bpf_want(struct evt_syscall_bpf *b, const uint8_t *want,
			 char *err, size_t err_size);
/* Follows process pid and the children it forks from now on.  0, or -1
 * with err set. */
int evt_syscall_bpf_follow(struct evt_syscall_bpf *b, pid_t pid, char *err,
			   size_t err_size);
/* Hands over what the ring holds, call by call, in ring order (each
 * task's in its order).  The number of calls, or -1 with err set. */
int evt_syscall_bpf_read(struct evt_syscall_bpf *b, evt_syscall_bpf_cb cb,
			 void *ctx, char *err, size_t err_size);
/* A descriptor that polls readable when the ring holds something. */
int evt_syscall_bpf_fd(struct evt_syscall_bpf *b);
/* Waits up to timeout_ms for the ring to hold something. */
int evt_syscall_bpf_wait(struct evt_syscall_bpf *b, int timeout_ms);
/* Records the ring had no room for, so far. */
uint64_t evt_syscall_bpf_lost(struct evt_syscall_bpf *b);
/* Of those, the calls' own records (an entry or an exit, of a call
 * wanted as evt_syscall_bpf_want() says). */
uint64_t evt_syscall_bpf_lost_calls(struct evt_syscall_bpf *b);
/* Children of followed processes that were not followed, so far: the
 * program's map of processes (EVT_CAP_TASKS_MAX; $EVTRACE_BPF_TASKS_MAX
 * in tests) was full. */
uint64_t evt_syscall_bpf_lost_tasks(struct evt_syscall_bpf *b);

#endif
