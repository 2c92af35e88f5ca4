/*
 * kernel_capture.h - a recording's syscalls/ events from the eBPF program
 * (syscall_bpf.h) instead of perf, so that each record keeps the user
 * memory its call's arguments pointed to, copied at the call: a path, a
 * buffer's first bytes, a struct (syscall_memory.h).  The event's format
 * is the kernel's with one field added after the kernel's own,
 * evtrace_memory, a sequence of bytes (syscall_memory.h's packing); a
 * record is laid out as the kernel lays out that format, so that the
 * sampler hands it over as it hands over a perf sample.
 */
#ifndef EVT_ENGINE_KERNEL_CAPTURE_H
#define EVT_ENGINE_KERNEL_CAPTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "kernel_events.h"

struct evt_kernel_capture;

/*
 * Loads the program and takes over the events among ev[0 .. nev) that are
 * kernel/syscalls/sys_enter_* or sys_exit_*: their formats gain the field,
 * and taken[i] says which.  Buffers are copied up to buf_bytes, into a
 * ring of ring_kib KiB.  NULL with err set when the program cannot be
 * loaded (no event changed then), or with err empty when none of the
 * events is a system call's.
 */
struct evt_kernel_capture *evt_kernel_capture_open(struct evt_kernel_event *ev,
						   unsigned nev, bool *taken,
						   unsigned buf_bytes,
						   unsigned ring_kib, char *err,
						   size_t err_size);
/*
 * Follows process pid and the children it forks from now on; with
 * until_exec, what pid does before its next successful exec is left out
 * (perf's enable_on_exec: the first record is that execve's exit).  0, or
 * -1 with err set.
 */
int evt_kernel_capture_follow(struct evt_kernel_capture *c, pid_t pid,
			      bool until_exec, char *err, size_t err_size);
/* Follows every task of the machine. */
int evt_kernel_capture_all(struct evt_kernel_capture *c, char *err,
			   size_t err_size);

struct evt_kernel_capture_record {
	unsigned event;			/* index into the ev given to open */
	uint32_t pid, tid, cpu;
	const char *comm;
	int64_t monotonic_ns;
	const uint8_t *raw;		/* in the kernel's layout of the
					 * event's format, common fields first */
	uint32_t raw_size;
};

typedef int (*evt_kernel_capture_cb)(void *ctx,
				     const struct evt_kernel_capture_record *r);
/* Hands over each record of a taken event that the ring holds, in ring
 * order.  How many records were read, or -1 with err set. */
long evt_kernel_capture_read(struct evt_kernel_capture *c,
			     evt_kernel_capture_cb cb, void *ctx, char *err,
			     size_t err_size);
/* Records of the taken events the ring had no room for, so far. */
uint64_t evt_kernel_capture_lost(struct evt_kernel_capture *c);
/* Children of followed processes the program could not follow, so far:
 * their system calls are missing. */
uint64_t evt_kernel_capture_lost_tasks(struct evt_kernel_capture *c);
/* Polls readable when the ring holds something. */
int evt_kernel_capture_fd(struct evt_kernel_capture *c);
void evt_kernel_capture_close(struct evt_kernel_capture *c);

#endif
