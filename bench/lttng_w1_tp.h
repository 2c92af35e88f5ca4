/*
 * lttng_w1_tp.h - the LTTng-UST tracepoint that carries workload W1
 * (comm, pid), the benchmark peer of trace_printk("migrate task %s:%d\n").
 */
#undef TRACEPOINT_PROVIDER
#define TRACEPOINT_PROVIDER evtbench

#undef TRACEPOINT_INCLUDE
#define TRACEPOINT_INCLUDE "./lttng_w1_tp.h"

#if !defined(EVT_BENCH_LTTNG_W1_TP_H) || defined(TRACEPOINT_HEADER_MULTI_READ)
#define EVT_BENCH_LTTNG_W1_TP_H

#include <lttng/tracepoint.h>

TRACEPOINT_EVENT(evtbench, migrate,
	TP_ARGS(const char *, comm, int, pid),
	TP_FIELDS(
		ctf_string(comm, comm)
		ctf_integer(int, pid, pid)
	)
)

#endif

#include <lttng/tracepoint-event.h>
