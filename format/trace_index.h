/*
 * trace_index.h - what a trace directory says about its streams and events
 * besides the CTF metadata, for evtrace's own readers: the clock
 * calibration, each stream class (processes whose local event ids mean
 * the same events share one; pid and comm are those of the first) and
 * each event's path, storage types and printk format.  The CTF metadata is
 * generated from the same descriptions (ctf_metadata.c).
 *
 * File <trace>/evtrace/index (and the metadata's evtrace-index comments),
 * text:
 *   evtrace-index <version>[.<minor>]
 *   clock <kind> <freq_hz> <ref_value> <ref_monotonic_ns> <ref_realtime_ns>
 *   stream <sid> <pid> "<comm>"
 *   kernel-stream <sid>          (kernel tracepoints, layout.h)
 *   event <sid> <id> <kind> <types|-> "<path>" "<format>"
 *   function <sid> <id> "<function>"   (after its event's line, when known)
 *   complete                  (the recording ended, rather than being
 *                              killed: version 3)
 *   host "<name>" "<boot id>"  (the machine it was recorded on: version 4)
 *   clock-snapshot <value> <monotonic_ns> <realtime_ns>
 *                             (the clocks read together, at the start, at
 *                              least every 10 s and at the end: version 4)
 *   kernel-format <sid> <id> "<text>"
 *                             (after a kernel event's line: its format file
 *                              as tracefs had it, whose print fmt says how
 *                              the kernel prints it: version 6)
 *   kernel "<release>" "<machine>"
 *                             (uname's, of the kernel whose events the
 *                              trace holds, after the host line: 6.1)
 * types: comma-separated enum evt_arg_type numbers (printk kinds); the
 * format of a typed or stable event is its format text (event_format.h).
 * Version 2 and 3 traces have compact record headers (record_header.h),
 * version 1 traces 12-byte ones; version 3 adds the function lines,
 * version 4 the host and clock snapshots.  All are read.
 */
#ifndef EVT_FORMAT_TRACE_INDEX_H
#define EVT_FORMAT_TRACE_INDEX_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "clock.h"
#include "record.h"

struct evt_event_desc {
	uint32_t sid;
	uint32_t id;
	char *path;
	char *format;
	char *func;			/* a printk site's function, or NULL */
	char *kernel_format;		/* a kernel event's tracefs format
					 * file, or NULL */
	struct evt_event_layout layout;	/* kind, and the format parsed */
	uint32_t line;			/* in the index file it was read from */
};

struct evt_stream_class {
	uint32_t sid;
	uint32_t pid;			/* as the process sees itself */
	char comm[17];
	bool kernel;			/* records carry evt_kernel_context */
	uint32_t host_pid;		/* a container's process: the pid the
					 * recorder saw it by; 0: the same */
};

/* 5 says what a container's recording adds (the "container" and
 * "host-pid" lines); others are written as 4, which readers before 5
 * take. */
#define EVT_TRACE_INDEX_VERSION 4
#define EVT_TRACE_INDEX_CONTAINER_VERSION 5
/* 6: kernel events with their tracefs format (kernel-format lines). */
#define EVT_TRACE_INDEX_KERNEL_FORMAT_VERSION 6
/* The newest index version (its major) this reader reads, and the minor
 * of it: an index of a later minor ("evtrace-index 6.1") is read, the
 * lines this reader does not know skipped (doc/versions.md). */
#define EVT_TRACE_INDEX_MAJOR_MAX 6
#define EVT_TRACE_INDEX_MINOR 1
/* 6.1: the kernel line. */
#define EVT_TRACE_INDEX_KERNEL_MINOR 1

/* The trace clock read with CLOCK_MONOTONIC and CLOCK_REALTIME. */
struct evt_clock_snapshot {
	uint64_t value;
	int64_t monotonic_ns;
	int64_t realtime_ns;
};

/* How much of an index a part of it has given already (relay_out.c). */
struct evt_index_marks {
	uint32_t streams, events, snapshots;
};

struct evt_trace_index {
	uint32_t version;		/* 0 when made here: the current one */
	struct evt_clock_calibration clock;
	struct evt_stream_class *streams;
	uint32_t nstreams;
	struct evt_event_desc *events;
	uint32_t nevents;
	bool complete;			/* its recording ended (a "complete"
					 * line); else it was cut short or
					 * still runs */
	char host[256];			/* "" when the index does not say */
	char boot_id[40];
	/* The kernel's release and machine (uname), when the trace holds
	 * its events and says ("" when not). */
	char kernel_release[65];
	char kernel_machine[65];
	struct evt_clock_snapshot *snapshots;	/* in the order taken */
	uint32_t nsnapshots;
	/* Recorded in a container from the host: its pid namespace's inode
	 * (0: not) and cgroup path. */
	uint64_t container_pidns;
	char container_cgroup[256];
};

int evt_trace_index_write(FILE *f, const struct evt_trace_index *ix);
/* The lines of what ix has past the marks from (NULL: all of it); with
 * head, the version, clock and host lines first. */
int evt_trace_index_write_part(FILE *f, const struct evt_trace_index *ix,
			       bool head, const struct evt_index_marks *from);
/* Adds a snapshot of the clocks; 0, or -1 when out of memory. */
int evt_trace_index_add_snapshot(struct evt_trace_index *ix,
				 const struct evt_clock_snapshot *s);
/*
 * The CTF metadata carries the index too, in comments that open with
 * "evtrace-index" on a line of their own (the parts of a growing one, in
 * order), so that a trace without evtrace/index (a relay's copy) is read
 * as well: evt_trace_index_read_metadata reads it from there.
 */
#define EVT_INDEX_COMMENT "evtrace-index"
int evt_trace_index_read_metadata(const char *file, struct evt_trace_index *ix,
				  char *err, size_t err_size);
/* Returns 0, or -1 with "<file>:<line>: why" in err. */
int evt_trace_index_read(const char *file, struct evt_trace_index *ix,
			 char *err, size_t err_size);
/* The index of the trace directory dir: its evtrace/index, or, in a
 * relay's copy, its metadata's.  0, or -1 with err set. */
int evt_trace_index_read_dir(const char *dir, struct evt_trace_index *ix,
			     char *err, size_t err_size);
void evt_trace_index_free(struct evt_trace_index *ix);
/* The stream class sid, or NULL (an index as read: sorted). */
const struct evt_stream_class *evt_trace_index_stream(const struct evt_trace_index *ix,
						      uint32_t sid);
/* The event with this stream class and id, or NULL (an index as read:
 * sorted). */
const struct evt_event_desc *evt_trace_index_event(const struct evt_trace_index *ix,
						   uint32_t sid, uint32_t id);

#endif
