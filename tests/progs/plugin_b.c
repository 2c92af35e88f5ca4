/*
 * plugin_b.c - a second instrumented library with the same entry point as
 * plugin.c and another event: children of one process that load one or
 * the other disagree about what their next event id means.
 */
#include <evtrace/evtrace.h>

__attribute__((visibility("default"))) void plugin_run(int round);

void plugin_run(int round)
{
	trace_printk("plugin B round %d\n", round);
}
