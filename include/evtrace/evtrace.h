/*
 * evtrace.h - instrumentation API: what a traced program includes.
 *
 *   #include <evtrace/evtrace.h>
 *   trace_printk("migrate task %s:%d\n", comm, pid);
 *
 * Each trace_printk() call site is its own event,
 * printk/<module>/<source path>/<line>, off until a tracer enables it.  A
 * disabled site costs two loads and a branch predicted not taken.  When
 * enabled, its arguments are stored in binary and turned into text only
 * when the trace is read.  ftrace_printk() formats its text at once and
 * records it into the single event ftrace/print, enabled by every recording.
 *
 * Build with `pkg-config --cflags --libs evtrace`.  See trace_printk(3).
 */
#ifndef EVTRACE_EVTRACE_H
#define EVTRACE_EVTRACE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(EVT_BUILDING_LIBRARY)
#define EVT_API __attribute__((visibility("default")))
#else
#define EVT_API
#endif

/*
 * One trace_printk() call site, placed by the macro in the section
 * "evt_sites" of its module (executable or shared object).  Frozen ABI:
 * the runtime checks `size` and only ever appends fields.
 */
struct evt_site {
	const volatile uint32_t *enable; /* first: the fast path loads it */
	uint32_t size;			 /* sizeof(struct evt_site) */
	uint32_t line;
	const char *format;
	const char *file;
	void *runtime;			 /* owned by libevtrace */
};

/*
 * One per module, merged across its translation units (weak, hidden):
 * lets the runtime register the module once and unregister it on dlclose.
 */
struct evt_module {
	uint32_t size;			/* sizeof(struct evt_module) */
	uint32_t registered;
	void *runtime;
};

EVT_API void evt__module_register(struct evt_module *module,
				  struct evt_site *start, struct evt_site *stop);
EVT_API void evt__module_unregister(struct evt_module *module);
EVT_API void evt__printk(struct evt_site *site, ...);
EVT_API void evt__ftrace_printk(const char *format, ...)
	__attribute__((format(printf, 1, 2)));
/* The enable word of ftrace/print; never NULL. */
EVT_API extern const volatile uint32_t *evt__ftrace_enable;

/* Per-module bookkeeping; hidden, so each module sees its own. */
extern struct evt_site __start_evt_sites[]
	__attribute__((weak, visibility("hidden")));
extern struct evt_site __stop_evt_sites[]
	__attribute__((weak, visibility("hidden")));
__attribute__((weak, visibility("hidden"))) struct evt_module evt__this_module;
#ifdef __cplusplus
#define EVT__DEFINE extern	/* const would otherwise be internal in C++ */
#else
#define EVT__DEFINE
#endif
__attribute__((weak, visibility("hidden"))) EVT__DEFINE const uint32_t evt__site_off = 0;

/* Runs in every translation unit; the runtime registers a module once. */
__attribute__((constructor, unused)) static void evt__unit_ctor(void)
{
	if ((const void *)__start_evt_sites != (const void *)__stop_evt_sites)
		evt__module_register(&evt__this_module, __start_evt_sites,
				     __stop_evt_sites);
}

__attribute__((destructor, unused)) static void evt__unit_dtor(void)
{
	if ((const void *)__start_evt_sites != (const void *)__stop_evt_sites)
		evt__module_unregister(&evt__this_module);
}

static inline __attribute__((format(printf, 1, 2), unused))
void evt__check_format(const char *format, ...)
{
	(void)format;
}

/**
 * trace_printk() - record a printf-style event at this call site.
 * @format: a string literal (anything else fails to compile), checked
 *          like printf's.  %n and conversions a reader cannot reproduce
 *          (%m, %ls, %lc, %Lf) are refused when the site registers: a
 *          message goes to stderr and the site stays off.
 *
 * Strings are copied up to EVT_STRING_MAX_BYTES - 1 bytes; a longer one is
 * cut and ends in "...".  Safe in signal handlers and from any thread; it
 * never blocks and never fails: what cannot be stored is counted as lost.
 */
#define trace_printk(evt_fmt, ...)					\
	do {								\
		static struct evt_site evt__site			\
		__attribute__((section("evt_sites"), used,		\
			       aligned(8))) = {				\
			.enable = &evt__site_off,			\
			.size = sizeof(struct evt_site),		\
			.line = __LINE__,				\
			.format = "" evt_fmt "",				\
			.file = __FILE__,				\
		};							\
		if (0)							\
			evt__check_format(evt_fmt, ##__VA_ARGS__);	\
		if (__builtin_expect(*evt__site.enable != 0, 0))	\
			evt__printk(&evt__site, ##__VA_ARGS__);		\
	} while (0)

/**
 * ftrace_printk() - format now and record into the event ftrace/print.
 * Every recording enables ftrace/print unless told otherwise.  Costs a
 * vsnprintf when enabled; prefer trace_printk() on hot paths.
 */
#define ftrace_printk(evt_fmt, ...)					\
	do {								\
		if (__builtin_expect(*evt__ftrace_enable != 0, 0))	\
			evt__ftrace_printk("" evt_fmt "", ##__VA_ARGS__); \
	} while (0)

#ifdef __cplusplus
}
#endif

#endif
