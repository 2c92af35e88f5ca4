/*
 * per_call.c - W1 timed call by call (per_call.h): trace_printk("migrate
 * task %s:%d\n", comm, i).  Run under evtrace record.
 *
 *   per_call N REPS
 */
#include <evtrace/evtrace.h>

#include "per_call.h"

static const char *comm = "kworker";

PER_CALL_MAIN("per_call", (void)0, trace_printk("migrate task %s:%d\n", comm, (int)i))
