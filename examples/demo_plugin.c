/*
 * demo_plugin.c - a shared library with its own trace_printk() sites,
 * opened by the demo with dlopen(): its events live under
 * printk/libdemo_plugin.so/.
 */
#include <evtrace/evtrace.h>

__attribute__((visibility("default"))) void plugin_run(int n);

void plugin_run(int n)
{
	int i;

	for (i = 0; i < n; i++)
		trace_printk("plugin step %d of %d (%s)\n", i + 1, n, "loaded");
}
