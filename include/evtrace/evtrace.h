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

struct evt_event;
EVT_API void evt__module_register(struct evt_module *module,
				  struct evt_site *start, struct evt_site *stop,
				  struct evt_event **events_start,
				  struct evt_event **events_stop);
EVT_API void evt__module_unregister(struct evt_module *module);
/* Both get the format again as a named argument, which spares the macros
 * GNU's ", ##__VA_ARGS__" (the format is the first of __VA_ARGS__). */
EVT_API void evt__printk(struct evt_site *site, const char *format, ...);
EVT_API void evt__ftrace_printk(const char *literal, const char *format, ...)
	__attribute__((format(printf, 2, 3)));

/* The first of a macro's variadic arguments, in plain C99. */
#define EVT__FIRST(...) EVT__FIRST_(__VA_ARGS__, evt__unused)
#define EVT__FIRST_(first, ...) first
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
/* Where a site's enable pointer starts: not zero, so that a site the
 * module's constructor did not register (C++ puts a function template's
 * statics outside the section) registers itself when first executed. */
__attribute__((weak, visibility("hidden"))) EVT__DEFINE const uint32_t evt__site_unregistered = 1;

extern struct evt_event *__start_evt_events[]
	__attribute__((weak, visibility("hidden")));
extern struct evt_event *__stop_evt_events[]
	__attribute__((weak, visibility("hidden")));

static inline __attribute__((unused)) int evt__module_has_events(void)
{
	return (const void *)__start_evt_sites != (const void *)__stop_evt_sites ||
	       (const void *)__start_evt_events != (const void *)__stop_evt_events;
}

/* Runs in every translation unit; the runtime registers a module once.
 * Priority 101, the first left to programs: before the module's own
 * constructors, so that they can trace too. */
__attribute__((constructor(101), unused)) static void evt__unit_ctor(void)
{
	if (evt__module_has_events())
		evt__module_register(&evt__this_module, __start_evt_sites,
				     __stop_evt_sites, __start_evt_events,
				     __stop_evt_events);
}

__attribute__((destructor, unused)) static void evt__unit_dtor(void)
{
	if (evt__module_has_events())
		evt__module_unregister(&evt__this_module);
}

/*
 * The disabled path: load the site's enable pointer, compare the word it
 * points to with zero, branch (forward, so predicted not taken) to the
 * out-of-line call.  On x86-64 an asm goto pins it to exactly those three
 * instructions; a volatile read in C costs a fourth (load, then test).
 */
#if defined(__x86_64__) && !defined(__cplusplus) && !defined(EVT_NO_ASM_GOTO)
#define EVT__GOTO_IF_ON(enable_ptr, label)				\
	__asm__ goto("movq %c0(%%rip), %%rax\n\t"			\
		     "cmpl $0, (%%rax)\n\t"				\
		     "jne %l[" #label "]"				\
		     : : "i"(&(enable_ptr)) : "rax", "cc" : label)
#else
/* C++ too: a static in an inline function may be a weak global, which a
 * RIP-relative reference in a shared object cannot reach. */
#define EVT__GOTO_IF_ON(enable_ptr, label)				\
	do {								\
		if (__builtin_expect(*(enable_ptr) != 0, 0))		\
			goto label;					\
	} while (0)
#endif

#if defined(__clang__)
#define EVT__COLD_LABEL
#else
#define EVT__COLD_LABEL __attribute__((cold))
#endif

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
 * errno is left as it was.
 */
#define trace_printk(...)						\
	__extension__ ({ do {						\
		__label__ evt__on;					\
		static struct evt_site evt__site			\
		__attribute__((section("evt_sites"), used,		\
			       aligned(8))) = {				\
			.enable = &evt__site_unregistered,		\
			.size = sizeof(struct evt_site),		\
			.line = __LINE__,				\
			.format = "" EVT__FIRST(__VA_ARGS__) "",	\
			.file = __FILE__,				\
			.runtime = 0,					\
		};							\
		if (0)							\
			evt__check_format(__VA_ARGS__);			\
		EVT__GOTO_IF_ON(evt__site.enable, evt__on);		\
		break;							\
	evt__on: EVT__COLD_LABEL;					\
		evt__printk(&evt__site, __VA_ARGS__);			\
	} while (0); })

/**
 * ftrace_printk() - format now and record into the event ftrace/print.
 * Every recording enables ftrace/print.  Costs a vsnprintf when enabled;
 * prefer trace_printk() on hot paths.  Text longer than
 * EVT_STRING_MAX_BYTES - 1 bytes is cut and ends in "...".
 */
#define ftrace_printk(...)						\
	do {								\
		if (__builtin_expect(*evt__ftrace_enable != 0, 0))	\
			evt__ftrace_printk("" EVT__FIRST(__VA_ARGS__) "", \
					   __VA_ARGS__);		\
	} while (0)

#ifdef __cplusplus
}
#endif

#include "event.h"

#endif
