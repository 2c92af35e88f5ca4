/*
 * plugin.c - an instrumented library the tests open and close with
 * dlopen(): its sites must keep their event ids across reloads.
 */
#include <evtrace/evtrace.h>

__attribute__((visibility("default"))) void plugin_run(int round);

void plugin_run(int round)
{
	trace_printk("plugin round %d\n", round);
}
