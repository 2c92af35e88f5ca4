/*
 * kernel_sampler.h - kernel tracepoints sampled with perf_event_open(2),
 * handed over in time order with whose they are.
 *
 * Each tracepoint the patterns name is sampled at every hit
 * (PERF_TYPE_TRACEPOINT, PERF_SAMPLE_RAW), bound to tasks and the
 * children they fork, or to every CPU; the events of a CPU share one ring
 * buffer.  A drain reads every ring and hands the samples to a sink in
 * time order, each with its task's pid, tid and name as it was then, and
 * its time on the trace clock: perf stamps samples with CLOCK_MONOTONIC,
 * which is the trace clock or, for the TSC, is mapped onto it through
 * (TSC, CLOCK_MONOTONIC) pairs taken as it goes.  What a full ring lost
 * is handed over, exactly, where it was lost.
 */
#ifndef EVT_ENGINE_KERNEL_SAMPLER_H
#define EVT_ENGINE_KERNEL_SAMPLER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "clock.h"
#include "kernel_events.h"

struct evt_kernel_sampler;

struct evt_kernel_sample {
	unsigned ring;			/* which CPU's ring: 0 .. nrings - 1 */
	uint32_t cpu;
	unsigned event;			/* index of the sampler's event */
	uint32_t pid, tid;
	const char *comm;		/* the task's name then */
	uint64_t time;			/* trace clock */
	int64_t monotonic_ns;
	const uint8_t *raw;		/* the kernel's record, common fields first */
	uint32_t raw_size;
};

/* Where a drain hands samples over; a callback's -1 stops the drain. */
struct evt_kernel_sink {
	int (*sample)(void *ctx, const struct evt_kernel_sample *s);
	/* n samples of ring were lost, after those handed over before; the
	 * kernel said so at time (trace clock), monotonic_ns */
	int (*lost)(void *ctx, unsigned ring, uint64_t n, uint64_t time,
		    int64_t monotonic_ns);
	void *ctx;
};

#define EVT_KERNEL_RING_KIB_DEFAULT 1024

/*
 * Loads the kernel events the kernel patterns among patterns name.  0 and
 * *out set (NULL when no pattern is a kernel one), or -1 with err set (a
 * pattern that names nothing, tracefs unreadable, a format evtrace cannot
 * express).  clock is the trace's; each CPU's ring has ring_kib KiB (a
 * power of two, at least two pages; less when the kernel allows less).
 */
int evt_kernel_sampler_create(const char *const *patterns, unsigned npatterns,
			      const struct evt_clock_calibration *clock,
			      uint32_t ring_kib, struct evt_kernel_sampler **out,
			      char *err, size_t err_size);
/* The same with the USDT probes the usdt/ patterns name in files
 * (usdt_probes.h): uprobes made for the sampler's life, their events
 * named usdt/PROVIDER/NAME. */
int evt_kernel_sampler_create_probes(const char *const *patterns, unsigned npatterns,
				     const char *const *files, unsigned nfiles,
				     const struct evt_clock_calibration *clock,
				     uint32_t ring_kib, struct evt_kernel_sampler **out,
				     char *err, size_t err_size);
/*
 * Takes its syscalls/ events from the eBPF program instead, with the
 * memory their arguments point to (kernel_capture.h; buffers up to
 * buf_bytes): before any task or CPU is sampled.  Their records go to a
 * ring of their own, after the CPUs' (its cpu -1).  1 when it did, 0 when
 * there is no such event, -1 with err set when the program cannot be
 * loaded (they stay perf's then, without memory).
 */
int evt_kernel_sampler_capture(struct evt_kernel_sampler *k, unsigned buf_bytes,
			       char *err, size_t err_size);
unsigned evt_kernel_sampler_nevents(const struct evt_kernel_sampler *k);
const struct evt_kernel_event *evt_kernel_sampler_event(const struct evt_kernel_sampler *k,
							unsigned i);
unsigned evt_kernel_sampler_nrings(const struct evt_kernel_sampler *k);
/* The CPU of a ring, or -1 for the eBPF program's. */
int evt_kernel_sampler_ring_cpu(const struct evt_kernel_sampler *k, unsigned ring);
/*
 * Starts sampling in task tid and the children it forks from now on (all
 * of a process's threads: call it for each); with on_exec, from when tid
 * next execs.  0, or -1 with err set (the kernel's refusal, explained).
 */
int evt_kernel_sampler_task(struct evt_kernel_sampler *k, pid_t tid,
			    bool on_exec, char *err, size_t err_size);
/*
 * The same for every thread of the running process pid (listed again
 * until none is new, for a thread started while the others were being
 * attached; one that ended meanwhile is no error).  0, or -1 with err set.
 */
int evt_kernel_sampler_process(struct evt_kernel_sampler *k, pid_t pid,
			       char *err, size_t err_size);
/* Starts sampling on every CPU, whoever runs there. */
int evt_kernel_sampler_all_cpus(struct evt_kernel_sampler *k, char *err,
				size_t err_size);
/*
 * Hands what the rings hold to sink, in time order.  With final, first
 * stops the events (in the children too) and has the kernel say what it
 * lost last.  Returns how many records it read, or -1 (err set by it, or
 * by the sink's callback).
 */
long evt_kernel_sampler_drain(struct evt_kernel_sampler *k, bool final,
			      const struct evt_kernel_sink *sink, char *err,
			      size_t err_size);
/* Waits up to timeout_ms, less when a ring is a quarter full. */
void evt_kernel_sampler_wait(struct evt_kernel_sampler *k, int timeout_ms);
/* A printer of its events by their print fmt (kernel_print.h), or NULL. */
struct evt_kernel_print;
struct evt_kernel_print *evt_kernel_sampler_printer(const struct evt_kernel_sampler *k);
/* A sample's fields in evtrace's layout (kernel_events.h) in *buf, grown
 * as needed: their bytes, or -1 (no memory, or a field outside the
 * record). */
long evt_kernel_sample_payload(const struct evt_kernel_sampler *k,
			       const struct evt_kernel_sample *s, uint8_t **buf,
			       size_t *cap);
/* A sample's text by its print fmt through p, else its fields (the
 * payload above, payload_len -1 when there is none) as field=value:
 * its length in out. */
size_t evt_kernel_sample_text(const struct evt_kernel_sampler *k,
			      struct evt_kernel_print *p,
			      const struct evt_kernel_sample *s, const uint8_t *payload,
			      long payload_len, char *out, size_t out_size);
void evt_kernel_sampler_destroy(struct evt_kernel_sampler *k);

#endif
