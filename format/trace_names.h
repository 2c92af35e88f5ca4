/*
 * trace_names.h - the names a trace directory holds, and the names of
 * evtrace's own events in it: one spelling for the writers (engine/),
 * the readers (format/, cli/, babeltrace2/) and the relay.
 *
 *   <trace>/metadata              CTF 1.8 metadata
 *   <trace>/stream_*              CTF streams (stream_kernel_*: the kernel's)
 *   <trace>/evtrace/index         evtrace's index (trace_index.h)
 */
#ifndef EVT_FORMAT_TRACE_NAMES_H
#define EVT_FORMAT_TRACE_NAMES_H

#define EVT_TRACE_METADATA		"metadata"
#define EVT_TRACE_SUBDIR		"evtrace"
#define EVT_TRACE_INDEX			"index"		/* in EVT_TRACE_SUBDIR */
#define EVT_TRACE_INDEX_PATH		EVT_TRACE_SUBDIR "/" EVT_TRACE_INDEX
#define EVT_TRACE_STREAM_PREFIX		"stream_"
#define EVT_TRACE_KERNEL_PREFIX		EVT_TRACE_STREAM_PREFIX "kernel_"
/* Inside a record --keep trace: the pinned sites' own trace. */
#define EVT_TRACE_KEEP			"keep"
/* What a writer names a file before renaming it over the real one, and
 * query's cache beside a trace (a dot file: no reader takes it). */
#define EVT_TRACE_TMP_SUFFIX		".tmp"
#define EVT_TRACE_QUERY_PREFIX		".evtrace-query-"

/* evtrace's own events in every trace (lost_record.h, record_header.h). */
#define EVT_LOST_EVENT_NAME		"evtrace/lost"
#define EVT_CPU_EVENT_NAME		"evtrace/cpu"

#endif
