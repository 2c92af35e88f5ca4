/*
 * inline_site.h - a static inline function with a trace_printk(), which
 * each translation unit that includes it compiles on its own: one event
 * (one file, one line, one function), a site in each unit.
 */
#ifndef INLINE_SITE_H
#define INLINE_SITE_H
#include <evtrace/evtrace.h>

static inline void inline_site(const char *unit, int round)
{
	trace_printk("inline %s %d\n", unit, round);
}

void unit_b_run(int round);
#endif
