/*
 * span.h - spans, async spans and counters; included by evtrace.h.
 *
 *   trace_scope("parse");			// until the block is left
 *   trace_span_begin("request", "id=%d", id);	// arguments: optional
 *   trace_span_end("request");
 *   trace_async_begin("upload", job->id);	// ends anywhere, even in
 *   trace_async_end("upload", job->id);	// another thread or process
 *   trace_counter("queue depth", n);		// integer or floating point
 *
 * Every span or counter is one event, switched like any other and off
 * until a tracer enables it: span/<name>, async/<name>, counter/<name>.
 * All the call sites of one name, in every module of the process, share
 * that one switch, so that a begin is never recorded without its end.  A
 * disabled call costs what a disabled trace_printk() does, and its
 * arguments (ids, values, printf arguments) are not evaluated.
 *
 * Records hold the phase (begin or end), the async id, the value, or the
 * printf-style arguments of a begin in binary, as trace_printk() does;
 * readers pair begins with ends: nested per thread for spans, by name and
 * id for async spans.  A span open when recording started or still open
 * when it ended, or one whose end may have been lost, is shown as such.
 *
 * Names: string literals.  See trace_printk(3) for the formats.
 */
#ifndef EVTRACE_SPAN_H
#define EVTRACE_SPAN_H

#include <stdint.h>

#include "bits/foreach.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The phase a record of a span holds. */
#define EVT_PHASE_BEGIN	1
#define EVT_PHASE_END	2

EVT_API void evt__span(struct evt_site *site, uint32_t phase);
/* A begin with printf-style arguments; the format is known already. */
EVT_API void evt__span_args(struct evt_site *site, const char *format, ...);
EVT_API void evt__async(struct evt_site *site, uint32_t phase, uint64_t id);
EVT_API void evt__async_args(struct evt_site *site, uint64_t id,
			     const char *format, ...);
EVT_API void evt__counter(struct evt_site *site, int64_t value);
EVT_API void evt__counter_real(struct evt_site *site, double value);

/* 1, 2, or M for three arguments or more (up to 64). */
#define EVT__ARITY(...) EVT__NARGS_(__VA_ARGS__, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, 2, 1, 0)
#define EVT__SECOND(...) EVT__SECOND_(__VA_ARGS__, evt__unused)
#define EVT__SECOND_(first, second, ...) second
#define EVT__THIRD(...) EVT__THIRD_(__VA_ARGS__, evt__unused)
#define EVT__THIRD_(first, second, third, ...) third
#define EVT__REST(first, ...) __VA_ARGS__
#define EVT__REST2(first, second, ...) __VA_ARGS__

/*
 * One call site of kind k: the statement that tests its switch and, when
 * on, does `write` (which names the site EVT__SITE).  `check` is compiled,
 * never run.  `codes` is, in parentheses, the codes of the format and its
 * arguments (C: EVT__ARGC, each with its comma), or EVT__NO_ARGS.
 * EVT__SITE_EXPR is the same as an expression: the site when it wrote,
 * else NULL.
 */
#define EVT__NO_ARGS ('s',)
#define EVT__CODES(...) (EVT__FOREACH(EVT__ARGC, 0, __VA_ARGS__))
#ifndef __cplusplus
#define EVT__SITE evt__site
#define EVT__SITE_DEFINE(k, name_, format_, codes)			\
	EVT__STATIC_ASSERT(EVT__IS_LITERAL(name_),			\
		"the name of a span or counter must be a string literal"); \
	static const volatile uint32_t *evt__enable			\
	__attribute__((section("evt_enables"), used)) =			\
		&evt__site_unregistered;				\
	static const char evt__arg_types[] = { EVT__EXPAND codes 0 };	\
	static struct evt_site evt__site = {				\
		.enable = &evt__site_unregistered,			\
		.size = sizeof(struct evt_site),			\
		.line = __LINE__,					\
		.format = format_,					\
		.file = __FILE__,					\
		.runtime = 0,						\
		.order = __COUNTER__,					\
		.func = __func__,					\
		.kind = (k),						\
		.name = "" name_ "",					\
		.enable_slot = &evt__enable,				\
		.arg_types = evt__arg_types + 1,			\
	};								\
	static struct evt_site *evt__site_ptr				\
	__attribute__((section("evt_site_ptrs"), used)) = &evt__site;
#define EVT__SITE_EXPR(k, name_, format_, codes, check, write)	\
	__extension__ ({ struct evt_site *evt__wrote = EVT__NULL; do {	\
		__label__ evt__on;					\
		EVT__SITE_DEFINE(k, name_, format_, codes)		\
		if (0) { check; }					\
		EVT__GOTO_IF_ON(evt__enable, evt__on);			\
		break;							\
	evt__on: EVT__COLD_LABEL;					\
		write;							\
		evt__wrote = &evt__site;				\
	} while (0); evt__wrote; })
#else
#define EVT__SITE evt__s::site
/* C++: the name is a string literal or any constant expression of one
 * (a constexpr char array, a C++20 template's string parameter): a name
 * known only at run time cannot name a site, which is static. */
#define EVT__SITE_DEFINE(k, name_, format_, codes)			\
	static constexpr const char *evt__span_or_counter_name_must_be_a_string_literal_or_constexpr = (name_); \
	static constexpr const char *evt__func = __PRETTY_FUNCTION__;	\
	static constexpr uint32_t evt__kind = (k);			\
	struct evt__tag {						\
		static constexpr const char *format() { return format_; } \
		static constexpr const char *file() { return __FILE__; } \
		static constexpr uint32_t line() { return __LINE__; }	\
		static constexpr uint32_t order() { return __COUNTER__; } \
		static constexpr const char *func() { return evt__func; } \
		static constexpr uint32_t kind() { return evt__kind; }	\
		static constexpr const char *name()			\
		{ return evt__span_or_counter_name_must_be_a_string_literal_or_constexpr; } \
	};								\
	typedef evt__cxx_site<evt__tag> evt__s;
#define EVT__SITE_EXPR(k, name_, format_, codes, check, write)	\
	__extension__ ({ struct evt_site *evt__wrote = EVT__NULL; do {	\
		EVT__SITE_DEFINE(k, name_, format_, codes)		\
		if (0) { check; (void)&evt__s::registration; }		\
		if (__builtin_expect(*evt__s::site.enable != 0, 0)) {	\
			write;						\
			evt__wrote = &evt__s::site;			\
		}							\
	} while (0); evt__wrote; })
#endif
#define EVT__SITE_STMT(k, name_, format_, codes, check, write)	\
	((void)EVT__SITE_EXPR(k, name_, format_, codes, check, write))

/* The calls of a begin, end or count without arguments: in C on x86-64
 * the record goes into the thread's window when it takes it
 * (bits/window.h), and through libevtrace otherwise. */
#ifdef EVT__WINDOW
static inline __attribute__((unused, always_inline))
void evt__span_w(struct evt_site *site, uint32_t phase)
{
	uint8_t head = (uint8_t)phase;

	if (!evt__window_head(site, &head, 1))
		evt__span(site, phase);
}

static inline __attribute__((unused, always_inline))
void evt__async_w(struct evt_site *site, uint32_t phase, uint64_t id)
{
	uint8_t head[9];

	head[0] = (uint8_t)phase;
	__builtin_memcpy(head + 1, &id, 8);
	if (!evt__window_head(site, head, 9))
		evt__async(site, phase, id);
}

static inline __attribute__((unused, always_inline))
void evt__counter_w(struct evt_site *site, int64_t value)
{
	if (!evt__window_head(site, &value, 8))
		evt__counter(site, value);
}

static inline __attribute__((unused, always_inline))
void evt__counter_real_w(struct evt_site *site, double value)
{
	if (!evt__window_head(site, &value, 8))
		evt__counter_real(site, value);
}
#define EVT__SPAN_CALL evt__span_w
#define EVT__ASYNC_CALL evt__async_w
#define EVT__COUNTER_CALL evt__counter_w
#define EVT__COUNTER_REAL_CALL evt__counter_real_w
#else
#define EVT__SPAN_CALL evt__span
#define EVT__ASYNC_CALL evt__async
#define EVT__COUNTER_CALL evt__counter
#define EVT__COUNTER_REAL_CALL evt__counter_real
#endif

/* A begin of span `name`, with or without printf-style arguments. */
#define EVT__SPAN_BEGIN(...) EVT__CAT(EVT__SPAN_BEGIN_, EVT__ARITY(__VA_ARGS__))(__VA_ARGS__)
#define EVT__SPAN_BEGIN_1(name)						\
	EVT__SITE_EXPR(EVT_SITE_SPAN, name, "", EVT__NO_ARGS, (void)0, \
		       EVT__SPAN_CALL(&EVT__SITE, EVT_PHASE_BEGIN))
#define EVT__SPAN_BEGIN_2(...) EVT__SPAN_BEGIN_M(__VA_ARGS__)
#define EVT__SPAN_BEGIN_M(...)						\
	EVT__SITE_EXPR(EVT_SITE_SPAN, EVT__FIRST(__VA_ARGS__),		\
		       "" EVT__SECOND(__VA_ARGS__) "",			\
		       EVT__CODES(EVT__REST(__VA_ARGS__)),		\
		       EVT__ARGS_CHECK(EVT__REST(__VA_ARGS__)),		\
		       EVT__SPAN_ARGS(&EVT__SITE, EVT__REST(__VA_ARGS__)))
/* Printf-style arguments of a span: checked by printf's rules in C and
 * C++11, as the call compiles from C++14 on (bits/printk_cxx.h). */
#if defined(__cplusplus) && __cplusplus >= 201402L
#define EVT__ARGS_CHECK(...) (void)0
#define EVT__SPAN_ARGS(site, ...) evt__span_args_cxx<evt__tag>(site, __VA_ARGS__)
#define EVT__ASYNC_ARGS(site, id, ...) evt__async_args_cxx<evt__tag>(site, id, __VA_ARGS__)
#else
#define EVT__ARGS_CHECK(...) evt__check_format(__VA_ARGS__)
#define EVT__SPAN_ARGS(site, ...) evt__span_args(site, __VA_ARGS__)
#define EVT__ASYNC_ARGS(site, id, ...) evt__async_args(site, id, __VA_ARGS__)
#endif

/**
 * trace_span_begin() - begin the span `name` on this thread.
 * @...: the name (a string literal), then optionally a printf-style format
 *       (a string literal) and its arguments, recorded with the begin and
 *       formatted when the trace is read, as trace_printk() does.
 *
 * Spans nest per thread: the next trace_span_end() of the same name on
 * this thread ends it.  Safe in signal handlers and from any thread;
 * never blocks, never fails (what cannot be stored is counted as lost).
 */
#define trace_span_begin(...) ((void)EVT__SPAN_BEGIN(__VA_ARGS__))

/** trace_span_end() - end the innermost open span `name` of this thread. */
#define trace_span_end(name)						\
	EVT__SITE_STMT(EVT_SITE_SPAN, name, "", EVT__NO_ARGS, (void)0, \
		       EVT__SPAN_CALL(&EVT__SITE, EVT_PHASE_END))

/**
 * trace_scope() - begin the span `name`, and end it when the enclosing
 * block is left, by its end, return, break, goto or (C++, or C built with
 * -fexceptions) an exception.  Arguments as trace_span_begin()'s.  A
 * declaration: one statement of its own in a block.  The end is recorded
 * when the begin was (and the span is still switched on).
 */
#ifndef __cplusplus
struct evt__scope {
	struct evt_site *site;
};

static inline __attribute__((unused)) void evt__scope_end(struct evt__scope *s)
{
	if (__builtin_expect(s->site != 0, 0))
		EVT__SPAN_CALL(s->site, EVT_PHASE_END);
}

#define trace_scope(...)						\
	struct evt__scope EVT__CAT(evt__scope_, __COUNTER__)		\
	__attribute__((cleanup(evt__scope_end), unused)) =		\
		{ EVT__SPAN_BEGIN(__VA_ARGS__) }
#else
#define trace_scope(...)						\
	const evt__scope_guard EVT__CAT(evt__scope_, __COUNTER__)	\
	__attribute__((unused)) = { EVT__SPAN_BEGIN(__VA_ARGS__) }
#endif

/* An async span's id as stored: any integer, or (C++, as C's cast
 * takes one) a pointer. */
#ifndef __cplusplus
#define EVT__ASYNC_ID(id) ((uint64_t)(id))
#else
}
extern "C++" {
template <typename T> constexpr uint64_t evt__async_id(T id)
{
	return static_cast<uint64_t>(id);
}
template <typename T> inline uint64_t evt__async_id(T *id)
{
	return reinterpret_cast<uintptr_t>(id);
}
}
extern "C" {
#define EVT__ASYNC_ID(id) evt__async_id(id)
#endif

/* A begin of async span `name` with `id`, and optional arguments. */
#define EVT__ASYNC_BEGIN_1(name)					\
	__extension__ ({ EVT__STATIC_ASSERT(0,				\
		"trace_async_begin(name, id): the id is missing"); })
#define EVT__ASYNC_BEGIN_2(name, id)					\
	EVT__SITE_STMT(EVT_SITE_ASYNC, name, "", EVT__NO_ARGS, (void)0, \
		       EVT__ASYNC_CALL(&EVT__SITE, EVT_PHASE_BEGIN, EVT__ASYNC_ID(id)))
#define EVT__ASYNC_BEGIN_M(...)						\
	EVT__SITE_STMT(EVT_SITE_ASYNC, EVT__FIRST(__VA_ARGS__),		\
		       "" EVT__THIRD(__VA_ARGS__) "",			\
		       EVT__CODES(EVT__REST2(__VA_ARGS__)),		\
		       EVT__ARGS_CHECK(EVT__REST2(__VA_ARGS__)),	\
		       EVT__ASYNC_ARGS(&EVT__SITE,			\
				       EVT__ASYNC_ID(EVT__SECOND(__VA_ARGS__)), \
				       EVT__REST2(__VA_ARGS__)))

/**
 * trace_async_begin() - begin the async span `name` identified by `id`.
 * @...: the name (a string literal), the id (any integer, converted to
 *       uint64_t), then optionally a printf-style format and arguments.
 *
 * It ends at the trace_async_end() of the same name and id, on any thread
 * of any traced process.  The id is evaluated only when the span is on.
 */
#define trace_async_begin(...)						\
	EVT__CAT(EVT__ASYNC_BEGIN_, EVT__ARITY(__VA_ARGS__))(__VA_ARGS__)

/** trace_async_end() - end the async span `name` identified by `id`. */
#define trace_async_end(name, id)					\
	EVT__SITE_STMT(EVT_SITE_ASYNC, name, "", EVT__NO_ARGS, (void)0, \
		       EVT__ASYNC_CALL(&EVT__SITE, EVT_PHASE_END, EVT__ASYNC_ID(id)))

/**
 * trace_counter() - record `value` as the counter `name` now.
 * @name:  a string literal.
 * @value: an integer (stored as int64_t) or a floating-point value
 *         (stored as double), evaluated only when the counter is on.
 */
#ifndef __cplusplus
#define EVT__COUNTER_KIND(value)					\
	_Generic((value) + 0, float: EVT_SITE_COUNTER_REAL,		\
		 double: EVT_SITE_COUNTER_REAL,				\
		 long double: EVT_SITE_COUNTER_REAL, default: EVT_SITE_COUNTER)
#define EVT__COUNTER_WRITE(site, value)					\
	_Generic((value) + 0, float: EVT__COUNTER_REAL_CALL,		\
		 double: EVT__COUNTER_REAL_CALL,			\
		 long double: EVT__COUNTER_REAL_CALL,			\
		 default: EVT__COUNTER_CALL)(site, (value))
#else
#define EVT__COUNTER_KIND(v)						\
	(evt__is_real<decltype((v) + 0)>::value ?			\
	 EVT_SITE_COUNTER_REAL : EVT_SITE_COUNTER)
#define EVT__COUNTER_WRITE(site, v) evt__counter_write(site, (v))
#endif
#define trace_counter(name, value)					\
	EVT__SITE_STMT(EVT__COUNTER_KIND(value), name, "", EVT__NO_ARGS, (void)0, \
		       EVT__COUNTER_WRITE(&EVT__SITE, value))

#ifdef __cplusplus
}

/* trace_scope()'s end, when the guard goes out of scope. */
struct evt__scope_guard {
	struct evt_site *site;
	~evt__scope_guard()
	{
		if (__builtin_expect(site != nullptr, 0))
			evt__span(site, EVT_PHASE_END);
	}
};

template <class T> struct evt__is_real {
	static constexpr bool value = false;
};
template <> struct evt__is_real<float> {
	static constexpr bool value = true;
};
template <> struct evt__is_real<double> {
	static constexpr bool value = true;
};
template <> struct evt__is_real<long double> {
	static constexpr bool value = true;
};

static inline void evt__counter_write(struct evt_site *site, double v)
{
	evt__counter_real(site, v);
}
static inline void evt__counter_write(struct evt_site *site, float v)
{
	evt__counter_real(site, v);
}
static inline void evt__counter_write(struct evt_site *site, long double v)
{
	evt__counter_real(site, static_cast<double>(v));
}
template <class T> static inline void evt__counter_write(struct evt_site *site, T v)
{
	evt__counter(site, static_cast<int64_t>(v));
}
#endif

#endif
