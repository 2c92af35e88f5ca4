/*
 * lttng_tp.h - the LTTng-UST tracepoints of the benchmark peers: W1
 * (comm, pid), as trace_printk("migrate task %s:%d\n"), and W2 (u64 a,
 * u32 b, i32 c, string s), as the typed event bench/w2.
 */
#undef TRACEPOINT_PROVIDER
#define TRACEPOINT_PROVIDER evtbench

#undef TRACEPOINT_INCLUDE
#define TRACEPOINT_INCLUDE "./lttng_tp.h"

#if !defined(EVT_BENCH_LTTNG_TP_H) || defined(TRACEPOINT_HEADER_MULTI_READ)
#define EVT_BENCH_LTTNG_TP_H

#include <lttng/tracepoint.h>

TRACEPOINT_EVENT(evtbench, migrate,
	TP_ARGS(const char *, comm, int, pid),
	TP_FIELDS(
		ctf_string(comm, comm)
		ctf_integer(int, pid, pid)
	)
)

TRACEPOINT_EVENT(evtbench, w2,
	TP_ARGS(uint64_t, a, uint32_t, b, int32_t, c, const char *, s),
	TP_FIELDS(
		ctf_integer(uint64_t, a, a)
		ctf_integer(uint32_t, b, b)
		ctf_integer(int32_t, c, c)
		ctf_string(s, s)
	)
)

#endif

#include <lttng/tracepoint-event.h>
