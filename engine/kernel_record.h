/*
 * kernel_record.h - the kernel tracepoints of a recording.
 *
 * perf_event_open(2) samples each tracepoint the patterns name
 * (PERF_TYPE_TRACEPOINT, every hit, PERF_SAMPLE_RAW), bound to processes
 * and the children they fork, or to every CPU; the events of a CPU share
 * one ring buffer.  Their records go to one stream file per CPU in the
 * trace directory, of the kernel stream class (layout.h), with fields in
 * evtrace's layout (kernel_events.h) and times on the trace clock: perf
 * stamps them with CLOCK_MONOTONIC, which is the trace clock or, for the
 * TSC, is mapped onto it through (TSC, CLOCK_MONOTONIC) pairs taken as it
 * goes.  Each record says whose it is (pid, tid and the task's name as it
 * was then).  Records a ring had no room for are counted, exactly, where
 * they were lost.
 */
#ifndef EVT_ENGINE_KERNEL_RECORD_H
#define EVT_ENGINE_KERNEL_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "clock.h"
#include "trace_dir.h"
#include "trace_index.h"

struct evt_kernel_record;

struct evt_kernel_record_stats {
	uint64_t events;
	uint64_t lost;
	uint64_t packets;
	uint64_t bytes;
};

/*
 * Loads the kernel events the kernel patterns among patterns name.  0 and
 * *out set (NULL when no pattern is a kernel one), or -1 with err set (a
 * pattern that names nothing, tracefs unreadable, a format evtrace cannot
 * express).  Packets are of packet_size bytes at most; clock is the
 * trace's; each CPU's ring has ring_kib KiB (a power of two, at least two
 * pages; less when the kernel allows less).
 */
#define EVT_KERNEL_RING_KIB_DEFAULT 1024
int evt_kernel_record_create(const char *const *patterns, unsigned npatterns,
			     const struct evt_clock_calibration *clock,
			     uint32_t packet_size, uint32_t ring_kib,
			     struct evt_kernel_record **out, char *err,
			     size_t err_size);
/*
 * Starts sampling in task tid and the children it forks from now on (all
 * of a process's threads: call it for each); with on_exec, from when tid
 * next execs.  0, or -1 with err set (the kernel's refusal, explained).
 */
int evt_kernel_record_task(struct evt_kernel_record *k, pid_t tid,
			   bool on_exec, char *err, size_t err_size);
/* Starts sampling on every CPU, whoever runs there. */
int evt_kernel_record_all_cpus(struct evt_kernel_record *k, char *err,
			       size_t err_size);
/* Adds the kernel stream class and its events to ix (once: returns 1 when
 * it did, 0 when done before, -1 out of memory). */
int evt_kernel_record_describe(struct evt_kernel_record *k,
			       struct evt_trace_index *ix);
/*
 * Reads what the rings hold into the stream files of out; with final,
 * writes out everything it holds.  Returns how many records it read, or
 * -1 with err set (the output failed).
 */
long evt_kernel_record_drain(struct evt_kernel_record *k,
			     const struct evt_trace_dir *out, bool final,
			     char *err, size_t err_size);
void evt_kernel_record_stats(const struct evt_kernel_record *k,
			     struct evt_kernel_record_stats *s);
void evt_kernel_record_destroy(struct evt_kernel_record *k);

#endif
