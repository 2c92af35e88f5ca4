/*
 * kernel_record.h - the kernel tracepoints of a recording, written into
 * its trace directory.
 *
 * The samples (kernel_sampler.h) go to one stream file per CPU,
 * stream_kernel_cpuN (and the eBPF program's system calls to
 * stream_kernel_syscalls), of the kernel stream class (layout.h): each record
 * says whose it is (pid, tid, the task's name then) and holds its fields
 * in evtrace's layout (kernel_events.h), on the trace clock.  What a ring
 * lost is counted in the packet header after the records before it.
 */
#ifndef EVT_ENGINE_KERNEL_RECORD_H
#define EVT_ENGINE_KERNEL_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "clock.h"
#include "kernel_sampler.h"
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
 * Loads the kernel events the kernel patterns among patterns name
 * (evt_kernel_sampler_create(), whose rules hold).  0 and *out set (NULL
 * when no pattern is a kernel one), or -1 with err set.  Packets are of
 * packet_size bytes at most.  With memory_bytes, the syscalls/ events
 * keep the memory their arguments point to, buffers up to memory_bytes
 * (evt_kernel_sampler_capture(), in the stream stream_kernel_syscalls);
 * where the eBPF program cannot be loaded, evt_report() says so once
 * and they keep addresses only.  The usdt/ patterns name USDT probes of
 * usdt_files (evt_kernel_sampler_create_probes()).
 */
int evt_kernel_record_create(const char *const *patterns, unsigned npatterns,
			     const char *const *usdt_files, unsigned nusdt_files,
			     const struct evt_clock_calibration *clock,
			     uint32_t packet_size, uint32_t ring_kib,
			     unsigned memory_bytes, struct evt_kernel_record **out,
			     char *err, size_t err_size);
/* The same on a sampler of the caller's, which it neither drains nor
 * destroys: samples reach it through evt_kernel_record_sink(). */
int evt_kernel_record_on(struct evt_kernel_sampler *sampler,
			 uint32_t packet_size, struct evt_kernel_record **out,
			 char *err, size_t err_size);
/* The sink that writes samples into out's stream files (err set when a
 * write fails). */
void evt_kernel_record_sink(struct evt_kernel_record *k,
			    const struct evt_trace_dir *out, char *err,
			    size_t err_size, struct evt_kernel_sink *sink);
/* Calls cb for each sample written, with its event's index (its id in
 * the kernel stream class) and its payload in evtrace's layout. */
typedef void (*evt_kernel_seen_cb)(void *ctx, unsigned event,
				   int64_t monotonic_ns, uint32_t pid,
				   uint32_t tid, const uint8_t *payload,
				   size_t size);
void evt_kernel_record_watch(struct evt_kernel_record *k, evt_kernel_seen_cb cb,
			     void *ctx);
/* Sends every packet to this relay too (relay.h). */
struct evt_relay;
void evt_kernel_record_relay(struct evt_kernel_record *k, struct evt_relay *r);
/* Writes out packets a second old (all with final).  0, or -1 with the
 * sink's err set. */
int evt_kernel_record_flush(struct evt_kernel_record *k, bool final);
/* Writes out every packet being filled now, the recording going on (a
 * window must see the kernel events up to now).  0, or -1 with the
 * sink's err set. */
int evt_kernel_record_write_open(struct evt_kernel_record *k);
/* evt_kernel_sampler_task(), _process() and _all_cpus(). */
int evt_kernel_record_task(struct evt_kernel_record *k, pid_t tid,
			   bool on_exec, char *err, size_t err_size);
int evt_kernel_record_process(struct evt_kernel_record *k, pid_t pid,
			      char *err, size_t err_size);
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
