/*
 * perfetto_ftrace.h - kernel events as Perfetto's ftrace events, in a
 * bundle per CPU (FtraceEventBundle), the form from which Perfetto's
 * trace processor draws CPU and thread-state tracks and syscall slices.
 *
 * The events Perfetto's schema types (sched_switch, sched_waking and the
 * other scheduler and task events, raw_syscalls' sys_enter and sys_exit)
 * are written as their own messages, their fields matched by name; every
 * other kernel event as a GenericFtraceEvent of its fields.  Timestamps
 * are the trace's CLOCK_MONOTONIC; a bundle without ftrace_clock is on
 * BOOTTIME for the importer, which the converter's clock snapshot gives
 * CLOCK_MONOTONIC's value (convert_perfetto.c).
 */
#ifndef EVT_CLI_PERFETTO_FTRACE_H
#define EVT_CLI_PERFETTO_FTRACE_H

#include <stdbool.h>
#include <stdint.h>

#include "protobuf.h"
#include "trace_reader.h"

/* Each CPU's events not yet written, and whether its buffer lost some. */
struct ftrace_bundles {
	struct ftrace_cpu {
		struct pb events;	/* FtraceEventBundle.event fields */
		uint32_t n;
		bool lost;
	} *cpus;
	uint32_t ncpus;
};

/* Events a bundle holds at most: a full one is written. */
#define FTRACE_BUNDLE_EVENTS 1024

/* Adds the kernel event it to its CPU's bundle: that CPU (a full bundle
 * to write now), UINT32_MAX (not full), or -1 when out of memory. */
int64_t ftrace_bundles_add(struct ftrace_bundles *b, const struct evt_trace_item *it);
/* Says that the kernel's buffer of cpu lost events: its next bundle
 * says so.  0, or -1 when out of memory. */
int ftrace_bundles_lost(struct ftrace_bundles *b, uint32_t cpu);
/* Whether cpu has a bundle to write. */
bool ftrace_bundles_pending(const struct ftrace_bundles *b, uint32_t cpu);
/* Writes cpu's bundle as the TracePacket field ftrace_events into pkt,
 * and empties it. */
void ftrace_bundles_write(struct ftrace_bundles *b, uint32_t cpu, struct pb *pkt);
void ftrace_bundles_free(struct ftrace_bundles *b);

#endif
