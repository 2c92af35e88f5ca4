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
#include <sys/types.h>

#include "bits/foreach.h"

/* This header's version: the release of evtrace it comes with. */
#define EVTRACE_VERSION_MAJOR	0
#define EVTRACE_VERSION_MINOR	1
#define EVTRACE_VERSION_PATCH	14
#define EVTRACE_VERSION	\
	(EVTRACE_VERSION_MAJOR * 10000 + EVTRACE_VERSION_MINOR * 100 + \
	 EVTRACE_VERSION_PATCH)

/* The longest string stored for one argument or field, its NUL included;
 * a longer one is cut and ends in "...". */
#define EVT_STRING_MAX_BYTES	256

#ifdef __cplusplus
/*
 * A null pointer and conversions that the strictest flags users build
 * with take as they are (-Wzero-as-null-pointer-constant,
 * -Wold-style-cast, -Wuseless-cast): in C++, a named cast inside a
 * function template, which no compiler calls useless when its types
 * happen to agree.
 */
extern "C++" {
template <typename T, typename U> constexpr T evt__as(U u)
{
	return static_cast<T>(u);
}
}
#define EVT__NULL nullptr
#define EVT__AS(type, x) evt__as<type>(x)
#define EVT__UNCONST(type, x) const_cast<type>(x)
extern "C" {
#define EVT__STATIC_ASSERT(cond, msg) static_assert(cond, msg)
#else
#define EVT__NULL ((void *)0)
#define EVT__AS(type, x) ((type)(x))
#define EVT__UNCONST(type, x) ((type)(x))
#define EVT__STATIC_ASSERT(cond, msg) __extension__ _Static_assert(cond, msg)
#endif

#if defined(EVT_BUILDING_LIBRARY)
#define EVT_API __attribute__((visibility("default")))
#define EVT__CALLED_COLD
#else
#define EVT_API
/* A site's call, as its caller sees it: the compiler moves the block
 * that makes it out of the hot code (.text.unlikely), so that a disabled
 * site adds its compare and branch to the function and nothing else.
 * Not where libevtrace is built: there it is the enabled path. */
#define EVT__CALLED_COLD __attribute__((cold))
#endif

/*
 * The instrumentation ABI: what compiled-in code shares with libevtrace.
 * A module built against one version of these headers must keep working
 * with a newer library, so each structure carries its size and only ever
 * grows at its end, the module hands the runtime pointers to its sites and
 * events (never arrays it would have to stride through), and the layouts
 * below are pinned by static assertions.
 */

/*
 * One trace_printk() call site.  In C, a pointer to it is placed in the
 * section "evt_site_ptrs" of its module (executable or shared object),
 * which the module's constructor registers; in C++, a static object
 * registers it at start-up (or at dlopen) and unregisters it at exit (or
 * at dlclose), since C++ gives a site in an inline function or template
 * vague linkage that one named section cannot hold beside others.
 */
struct evt_site {
	const volatile uint32_t *enable; /* first: the fast path loads it */
	uint32_t size;			 /* sizeof(struct evt_site) */
	uint32_t line;
	const char *format;
	const char *file;
	void *runtime;			 /* owned by libevtrace */
	/* Since 0.1.1: __COUNTER__ at the call, so that the sites of one
	 * line are numbered in source order (/N, /N-1, /N-2), and the
	 * enclosing function (C++: with its signature), for evtrace ls -f. */
	uint32_t order;
	const char *func;
	/* Since 0.1.5: what the site records (EVT_SITE_*; trace_printk()'s
	 * are EVT_SITE_PRINTK) and, for spans and counters, their name. */
	uint32_t kind;
	const char *name;
	/* Since 0.1.7: where the fast path reads the site's enable pointer,
	 * a copy of enable kept by libevtrace in a dense array of them
	 * (the module's section "evt_enables": eight sites a cache line,
	 * where the sites themselves take more than one each); NULL when
	 * the fast path reads enable (C++). */
	const volatile uint32_t **enable_slot;
	/* Since 0.1.10: the byte a C site's fast path tests, in its
	 * translation unit's pages of them (evt__unit_flags), over which
	 * libevtrace maps pages of the process's control file; NULL when
	 * the fast path reads *enable_slot or enable.  Non-zero whenever
	 * enable's word is (libevtrace and the engines keep it so), and
	 * maybe for a while after: the site then reads the word. */
	const volatile uint8_t *flag;
	/* Since 0.1.12: what a C call of trace_printk() passed after its
	 * format, one code an argument (EVT__ARGC), captured at compile
	 * time; libevtrace refuses a site whose format reads other types
	 * (it never writes).  NULL: not captured (older headers; C++,
	 * which checks them as the call compiles: bits/printk_cxx.h). */
	const char *arg_types;
	/* Since 0.1.14: the site's event id + 1 when the site may write its
	 * own records into the thread's window (bits/window.h): a C
	 * site whose format reads its arguments' types as they are, of an
	 * id a compact header holds; set by libevtrace as it registers the
	 * site, else 0. */
	uint32_t inline_id;
};

/* What a site records: evt_site.kind. */
#define EVT_SITE_PRINTK		0	/* trace_printk() */
#define EVT_SITE_SPAN		1	/* span begin or end, trace_scope() */
#define EVT_SITE_ASYNC		2	/* async span begin or end */
#define EVT_SITE_COUNTER	3	/* counter of an integer value */
#define EVT_SITE_COUNTER_REAL	4	/* counter of a floating-point value */

/*
 * One per module, merged across its translation units (weak, hidden):
 * lets the runtime register the module once and unregister it on dlclose.
 */
struct evt_module {
	uint32_t size;			/* sizeof(struct evt_module) */
	uint32_t registered;
	void *runtime;
};

#if defined(__LP64__)
EVT__STATIC_ASSERT(sizeof(struct evt_site) == 104, "evt_site layout");
EVT__STATIC_ASSERT(__builtin_offsetof(struct evt_site, size) == 8 &&
		   __builtin_offsetof(struct evt_site, format) == 16 &&
		   __builtin_offsetof(struct evt_site, runtime) == 32 &&
		   __builtin_offsetof(struct evt_site, order) == 40 &&
		   __builtin_offsetof(struct evt_site, func) == 48 &&
		   __builtin_offsetof(struct evt_site, kind) == 56 &&
		   __builtin_offsetof(struct evt_site, name) == 64 &&
		   __builtin_offsetof(struct evt_site, enable_slot) == 72 &&
		   __builtin_offsetof(struct evt_site, flag) == 80 &&
		   __builtin_offsetof(struct evt_site, arg_types) == 88 &&
		   __builtin_offsetof(struct evt_site, inline_id) == 96,
		   "evt_site layout");
EVT__STATIC_ASSERT(sizeof(struct evt_module) == 16, "evt_module layout");
#endif

struct evt_event;
EVT_API void evt__module_register(struct evt_module *module,
				  struct evt_site **start, struct evt_site **stop,
				  struct evt_event **events_start,
				  struct evt_event **events_stop);
EVT_API void evt__module_unregister(struct evt_module *module);
/* One site, at once (C++): registered, or off for good if it cannot be. */
EVT_API void evt__site_register(struct evt_site *site);
EVT_API void evt__site_unregister(struct evt_site *site);
/* Both get the format again as a named argument, which spares the macros
 * GNU's ", ##__VA_ARGS__" (the format is the first of __VA_ARGS__). */
EVT_API EVT__CALLED_COLD void evt__printk(struct evt_site *site, const char *format, ...);
EVT_API void evt__ftrace_printk(const char *literal, const char *format, ...)
	__attribute__((format(printf, 2, 3)));
#include "bits/window.h"

/* The first of a macro's variadic arguments, in plain C99. */
#define EVT__FIRST(...) EVT__FIRST_(__VA_ARGS__, evt__unused)
#define EVT__FIRST_(first, ...) first
/* The enable word of ftrace/print; never NULL. */
EVT_API extern const volatile uint32_t *evt__ftrace_enable;

/* Per-module bookkeeping; hidden, so each module sees its own. */
extern struct evt_site *__start_evt_site_ptrs[]
	__attribute__((weak, visibility("hidden")));
extern struct evt_site *__stop_evt_site_ptrs[]
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
	return EVT__AS(const void *, __start_evt_site_ptrs) !=
	       EVT__AS(const void *, __stop_evt_site_ptrs) ||
	       EVT__AS(const void *, __start_evt_events) !=
	       EVT__AS(const void *, __stop_evt_events);
}

/*
 * Defined by libevtrace since 0.1.10, which maps the pages of flag bytes
 * that C sites test (evt_site.flag).  An older one leaves them 0, which
 * would keep those sites off whatever is enabled; so a module that finds
 * it missing sets its sites' bytes itself: each then calls in and reads
 * its enable word, as sites did before.
 */
#if defined(EVT_BUILDING_LIBRARY)
EVT_API void evt__site_flags_mapped(void);
#else
EVT_API void evt__site_flags_mapped(void) __attribute__((weak));
#endif

static inline __attribute__((unused)) void
evt__sites_call_in(struct evt_site **p, struct evt_site **stop)
{
	for (; p < stop; p++)
		if (*p && (*p)->size >= sizeof(struct evt_site) && (*p)->flag)
			*EVT__UNCONST(volatile uint8_t *, (*p)->flag) = 1;
}

/* Runs in every translation unit; the runtime registers a module once.
 * Priority 101, the first left to programs: before the module's own
 * constructors, so that they can trace too. */
__attribute__((constructor(101), unused)) static void evt__unit_ctor(void)
{
	int first = !evt__this_module.registered;	/* of the module's units */

	if (!evt__module_has_events())
		return;
	evt__module_register(&evt__this_module, __start_evt_site_ptrs,
			     __stop_evt_site_ptrs, __start_evt_events,
			     __stop_evt_events);
#if !defined(EVT_BUILDING_LIBRARY)
	/* (the module's sites, once: not again in each of its units) */
	if (first && !evt__site_flags_mapped)
		evt__sites_call_in(__start_evt_site_ptrs, __stop_evt_site_ptrs);
#else
	(void)first;
#endif
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
 * A C site's pointer is read from its module's dense array of them
 * (evt_site.enable_slot), not from the site: a hot path full of sites
 * then keeps eight pointers a cache line warm instead of one.
 */
/* Not with clang: it takes every asm goto label of a function as a
 * target of each of its asm gotos, and a jump past a trace_scope()'s
 * cleanup variable is then an error. */
#if defined(__x86_64__) && !defined(__cplusplus) && !defined(EVT_NO_ASM_GOTO) && \
	!defined(__clang__)
#define EVT__GOTO_IF_ON(enable_ptr, label)				\
	__asm__ goto("movq %c0(%%rip), %%rax\n\t"			\
		     "cmpl $0, (%%rax)\n\t"				\
		     "jne %l[" #label "]"				\
		     : : "i"(&(enable_ptr)) : "rax", "cc" : label)
/*
 * A trace_printk() site in C tests one byte instead (evt_site.flag): its
 * translation unit's pages of flag bytes, 64 sites a cache line, at an
 * address the linker knows, so the disabled path is a compare with
 * memory and a branch, one load.  The pages are aligned and whole, so
 * that libevtrace can map pages of the control file over them, which
 * engines write.  Byte n is the site whose __COUNTER__ is n; a site past the
 * pages tests its enable word as above.  (Pages of .bss: they cost
 * address space, and memory only once mapped, one per 4096 sites.)
 */
#define EVT__FLAG_BYTES (16 * 4096)
static unsigned char evt__unit_flags[EVT__FLAG_BYTES]
	__attribute__((aligned(4096), unused));
#define EVT__SITE_FLAG(n)						\
	((n) < EVT__FLAG_BYTES ? &evt__unit_flags[(n) % EVT__FLAG_BYTES] : 0)
#define EVT__GOTO_IF_FLAG(n, enable_ptr, label)				\
	do {								\
		if ((n) < EVT__FLAG_BYTES)				\
			__asm__ goto("cmpb $0, %c0(%%rip)\n\t"	\
				     "jne %l[" #label "]"		\
				     : : "i"(&evt__unit_flags[(n) %	\
						EVT__FLAG_BYTES])	\
				     : "cc" : label);			\
		else							\
			EVT__GOTO_IF_ON(enable_ptr, label);		\
	} while (0)
#else
#define EVT__SITE_FLAG(n) 0
#define EVT__GOTO_IF_FLAG(n, enable_ptr, label) EVT__GOTO_IF_ON(enable_ptr, label)
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

#ifndef __cplusplus
/* What an argument of trace_printk() is, as libevtrace compares it with
 * the conversion that reads it (its promoted type; not evaluated): an
 * int or narrower 'i', unsigned int 'u', a 64-bit integer 'l' or 'L', a
 * double 'd', a char pointer 's', another pointer 'p', anything else '?'.
 * EVT__ARGC, followed by a comma, is what EVT__FOREACH lists. */
#define EVT__LONG_ARGC(s, u) (sizeof(long) == 8 ? (s) : (u))
#define EVT__ARGC(unused, x) EVT__ARGC_CODE(x),
#define EVT__ARGC_CODE(x) _Generic((x),					\
	_Bool: 'i', char: 'i', signed char: 'i', unsigned char: 'i',	\
	short: 'i', unsigned short: 'i', int: 'i', unsigned int: 'u',	\
	long: EVT__LONG_ARGC('l', 'i'),					\
	unsigned long: EVT__LONG_ARGC('L', 'u'),			\
	long long: 'l', unsigned long long: 'L',			\
	float: 'd', double: 'd', long double: '?',			\
	char *: 's', const char *: 's', signed char *: 's',		\
	const signed char *: 's', unsigned char *: 's',			\
	const unsigned char *: 's',					\
	default: __builtin_classify_type(x) == 5 ? 'p' : '?')
#endif

/**
 * trace_printk() - record a printf-style event at this call site.
 * @format: a string literal (anything else fails to compile), checked
 *          like printf's.  %n and conversions a reader cannot reproduce
 *          (%m, %ls, %lc, %Lf) are refused when the site registers: the
 *          site stays off, and evtrace ls/record/enable say why.
 *
 * Strings are copied up to EVT_STRING_MAX_BYTES - 1 bytes; a longer one is
 * cut and ends in "...".  Safe in signal handlers and from any thread; it
 * never blocks and never fails: what cannot be stored is counted as lost.
 * errno is left as it was.
 */
/* A string literal's type is an array of exactly its size; a pointer's
 * is not (an array variable passes, and fails at the concatenation). */
#ifndef __cplusplus
#define EVT__IS_LITERAL(x)						\
	__builtin_types_compatible_p(__typeof__(x), char[sizeof(x)])
#else
#define EVT__IS_LITERAL(x) evt__is_array<decltype(x)>::value
#endif

#ifndef __cplusplus
#define trace_printk(...) EVT__PRINTK(__COUNTER__, __VA_ARGS__)
#define EVT__PRINTK(n, ...)						\
	__extension__ ({ do {						\
		__label__ evt__on;					\
		EVT__STATIC_ASSERT(EVT__IS_LITERAL(EVT__FIRST(__VA_ARGS__)), \
			"the format of trace_printk() must be a string literal"); \
		static const volatile uint32_t *evt__enable		\
		__attribute__((section("evt_enables"), used)) =		\
			&evt__site_unregistered;			\
		/* (the format's code first) */				\
		static const char evt__arg_types[] = {			\
			EVT__FOREACH(EVT__ARGC, 0, __VA_ARGS__) 0 };	\
		static struct evt_site evt__site = {			\
			.enable = &evt__site_unregistered,		\
			.size = sizeof(struct evt_site),		\
			.line = __LINE__,				\
			.format = "" EVT__FIRST(__VA_ARGS__) "",	\
			.file = __FILE__,				\
			.runtime = 0,					\
			.order = (n),					\
			.func = __func__,				\
			.kind = EVT_SITE_PRINTK,			\
			.name = 0,					\
			.enable_slot = &evt__enable,			\
			.flag = EVT__SITE_FLAG(n),			\
			.arg_types = evt__arg_types + 1,		\
		};							\
		static struct evt_site *evt__site_ptr			\
		__attribute__((section("evt_site_ptrs"), used)) =	\
			&evt__site;					\
		if (0)							\
			evt__check_format(__VA_ARGS__);			\
		EVT__GOTO_IF_FLAG(n, evt__enable, evt__on);		\
		break;							\
	evt__on: EVT__COLD_LABEL;					\
		EVT__PRINTK_ON(evt__site, __VA_ARGS__);			\
	} while (0); })
#else
/* The site is a static member of a template instantiated with a type of
 * the call site's own: one object per site (per instantiation of an
 * enclosing template), merged across translation units for an inline
 * function, and registered by a static object before main (or at dlopen). */
#define trace_printk(...)						\
	__extension__ ({ do {						\
		EVT__STATIC_ASSERT(EVT__IS_LITERAL(EVT__FIRST(__VA_ARGS__)), \
			"the format of trace_printk() must be a string literal"); \
		static constexpr const char *evt__func = __PRETTY_FUNCTION__; \
		struct evt__tag {					\
			static constexpr const char *format()		\
			{ return "" EVT__FIRST(__VA_ARGS__) ""; }	\
			static constexpr const char *file()		\
			{ return __FILE__; }				\
			static constexpr uint32_t line()		\
			{ return __LINE__; }				\
			static constexpr uint32_t order()		\
			{ return __COUNTER__; }				\
			static constexpr const char *func()		\
			{ return evt__func; }				\
			static constexpr uint32_t kind()		\
			{ return EVT_SITE_PRINTK; }			\
			static constexpr const char *name()		\
			{ return EVT__NULL; }				\
		};							\
		typedef evt__cxx_site<evt__tag> evt__s;			\
		if (0)							\
			(void)&evt__s::registration;			\
		if (__builtin_expect(*evt__s::site.enable != 0, 0))	\
			EVT__PRINTK_CXX(&evt__s::site, __VA_ARGS__);	\
	} while (0); })
#if __cplusplus >= 201402L
/* The format checked against the arguments' types as the call compiles
 * (bits/printk_cxx.h), and C++ values passed as what it reads. */
#define EVT__PRINTK_CXX(site, ...) evt__printk_cxx<evt__tag>(site, __VA_ARGS__)
#else
/* C++11: printf's checking (-Wformat), and C's values only. */
#define EVT__PRINTK_CXX(site, ...)					\
	do {								\
		if (0)							\
			evt__check_format(__VA_ARGS__);			\
		evt__printk(site, __VA_ARGS__);				\
	} while (0)
#endif
#endif

/**
 * ftrace_printk() - format now and record into the event ftrace/print.
 * Every recording enables ftrace/print.  Costs a vsnprintf when enabled;
 * prefer trace_printk() on hot paths.  Text longer than
 * EVT_STRING_MAX_BYTES - 1 bytes is cut and ends in "...".
 */
#define ftrace_printk(...)						\
	do {								\
		EVT__STATIC_ASSERT(EVT__IS_LITERAL(EVT__FIRST(__VA_ARGS__)), \
			"the format of ftrace_printk() must be a string literal"); \
		if (__builtin_expect(*evt__ftrace_enable != 0, 0))	\
			evt__ftrace_printk("" EVT__FIRST(__VA_ARGS__) "", \
					   __VA_ARGS__);		\
	} while (0)

/**
 * evt_trace_allow_group() - let the members of group gid trace this process
 * as its own user may.  Through evtraced (`evtrace daemon`) they may then
 * record and switch any of its events, not only count them and record those
 * flagged EVT_FL_CAP_ANY.  The environment variable EVTRACE_GROUP (a group
 * name or number) does the same from the start; the call overrides it, and
 * forked children keep the choice.  Returns 0, or -EINVAL for (gid_t)-1.
 */
EVT_API int evt_trace_allow_group(gid_t gid);

#ifdef __cplusplus
}

/* Registers a site when constructed, unregisters it when destroyed. */
struct evt__cxx_registration {
	struct evt_site *site;
	explicit evt__cxx_registration(struct evt_site *s) : site(s)
	{
		evt__site_register(s);
	}
	~evt__cxx_registration() { evt__site_unregister(site); }
};

template <class Tag> struct evt__cxx_site {
	static struct evt_site site;
	static const evt__cxx_registration registration;
};

/* Constant-initialized: set before any constructor runs. */
template <class Tag> struct evt_site evt__cxx_site<Tag>::site = {
	&evt__site_unregistered, sizeof(struct evt_site), Tag::line(),
	Tag::format(), Tag::file(), EVT__NULL, Tag::order(), Tag::func(),
	Tag::kind(), Tag::name(), EVT__NULL, EVT__NULL,	/* C++ reads enable */
	EVT__NULL,	/* (C++ checks them as the call compiles) */
	0,		/* (C++ sites call) */
};

template <class Tag> const evt__cxx_registration
	evt__cxx_site<Tag>::registration(&evt__cxx_site<Tag>::site);

template <class T> struct evt__is_array {
	static constexpr bool value = false;
};
template <class T, __SIZE_TYPE__ N> struct evt__is_array<T (&)[N]> {
	static constexpr bool value = true;
};
#endif

#include "event.h"
#include "span.h"
#include "bits/printk_cxx.h"

#endif
