/*
 * event.h - typed tracepoints and stable events; included by evtrace.h.
 *
 * Define an event once, in a header that any number of files include:
 *
 *   EVT_EVENT(sched, switch,
 *	EVT_PROTO(const struct task *prev, const struct task *next),
 *	EVT_ARGS(prev, next),
 *	EVT_FIELDS(
 *		evt_array(char, prev_comm, 16, prev->comm),
 *		evt_integer(pid_t, prev_pid, prev->pid),
 *		evt_enum(uint8_t, prev_state, task_state, prev->state),
 *		evt_integer(pid_t, next_pid, next->pid)))
 *
 * and call it where it happens: trace_sched_switch(prev, next).  The event
 * is sched/switch, off until a tracer enables it; a disabled call costs
 * three instructions on x86-64 with gcc (load its enable pointer, compare, branch), its
 * arguments are not evaluated, and an enabled one stores the fields in
 * binary.  Fields, in the order given (at least one, at most 64):
 *
 *   evt_integer(type, name, expr)       signed or unsigned, 8 to 64 bits
 *   evt_enum(type, name, values, expr)  an integer named by EVT_ENUM(values)
 *   evt_bool(name, expr)
 *   evt_double(name, expr)
 *   evt_array(type, name, count, expr)  count elements at pointer expr;
 *                                       char arrays read as text
 *   evt_string(name, expr)              NUL-terminated, up to 255 bytes
 *                                       (longer ones are cut, end in "...");
 *                                       in C++ also a std::string or a
 *                                       std::string_view (its size, not a
 *                                       NUL, ends it), nullptr "(null)"
 *   evt_sequence(type, name, expr, length)  length elements at expr, up to
 *                                       EVT_SEQUENCE_MAX_BYTES of them
 *
 * Field expressions may use the event's arguments; an unsupported type or
 * a field name used twice fails to compile.  The expressions of strings
 * and sequences are evaluated once, the others once per enabled event.
 *
 * A stable event is a restricted view of one such raw event, with a flat
 * path stable/<name> and fields computed from the raw event's arguments
 * (`args->name`).  It has no call site of its own: the raw event's call
 * feeds it.  When the raw event no longer has what the view needs, the
 * build fails:
 *
 *   EVT_STABLE_EVENT(sched_switch, sched, switch,
 *	EVT_FIELDS(evt_integer(pid_t, prev_pid, args->prev->pid),
 *		   evt_integer(char, prev_state, args->prev->state)))
 *
 * EVT_EVENT_FLAGS(provider, name, EVT_FL_CAP_ANY) after an event's
 * definition declares that unprivileged tracers may record its fields
 * (stable events: provider `stable`).
 */
#ifndef EVTRACE_EVENT_H
#define EVTRACE_EVENT_H

#include <stdint.h>
#include <string.h>

#include "bits/foreach.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The event may have its fields recorded by unprivileged users tracing
 * their own processes (enforced by the system daemon). */
#define EVT_FL_CAP_ANY		0x1u

#define EVT_SEQUENCE_MAX_BYTES	4096

enum {
	EVT__FK_INTEGER = 1, EVT__FK_ENUM, EVT__FK_BOOL, EVT__FK_DOUBLE,
	EVT__FK_ARRAY, EVT__FK_STRING, EVT__FK_SEQUENCE,
};

/* One named value of an EVT_ENUM. */
struct evt_enum_value {
	const char *name;
	long long value;
};

/* One field of a typed event, as the macros describe it.  (Named
 * evt_field until 0.1.3, which consumer.h's field of a record also was:
 * the two headers could not be included together.  The layout is the
 * same, so programs built before run as they did.) */
struct evt_event_field {
	uint32_t kind;			/* EVT__FK_* */
	uint32_t size;			/* bytes of one element */
	uint32_t count;			/* arrays */
	uint32_t is_signed;
	uint32_t align;			/* natural alignment, bytes */
	const char *name;
	const char *type;		/* as the source spells it */
	const struct evt_enum_value *values;	/* enums: ends at a NULL name */
};

/*
 * A typed or stable event, one per module (weak, hidden), registered by
 * the module's constructor from the section "evt_events".  Frozen ABI
 * like struct evt_site: the runtime checks `size`.
 */
struct evt_event {
	const volatile uint32_t *enable; /* first: the fast path loads it */
	uint32_t size;			 /* sizeof(struct evt_event) */
	uint32_t is_stable;
	const char *provider;
	const char *name;
	const struct evt_event_field *fields;
	uint32_t nfields;
	const uint32_t *flags;		 /* EVT_EVENT_FLAGS, or NULL */
	struct evt_event *raw;		 /* stable: the event it views */
	void (*probe)(const struct evt_event *view, const void *args);
	struct evt_event *views;	 /* owned by libevtrace */
	struct evt_event *next_view;	 /* owned by libevtrace */
	void *runtime;			 /* owned by libevtrace */
	uint32_t field_size;		 /* sizeof(struct evt_event_field): the
					  * stride of fields[] */
	/* Since 0.1.14, in what was padding: the event's id + 1 when its C
	 * calls may write their records into the thread's window
	 * (bits/window.h), set by libevtrace as it registers the event;
	 * else 0. */
	uint32_t inline_id;
};

#if defined(__LP64__)
EVT__STATIC_ASSERT(sizeof(struct evt_enum_value) == 16, "evt_enum_value layout");
EVT__STATIC_ASSERT(sizeof(struct evt_event_field) == 48 &&
		   __builtin_offsetof(struct evt_event_field, name) == 24,
		   "evt_event_field layout");
EVT__STATIC_ASSERT(sizeof(struct evt_event) == 104 &&
		   __builtin_offsetof(struct evt_event, fields) == 32 &&
		   __builtin_offsetof(struct evt_event, runtime) == 88 &&
		   __builtin_offsetof(struct evt_event, field_size) == 96 &&
		   __builtin_offsetof(struct evt_event, inline_id) == 100,
		   "evt_event layout");
#endif

/* Where an enabled event's record is being written. */
struct evt__writer {
	void *thread;
	uint8_t *record;
	uint64_t now;
	uint32_t mask;			/* slots still to copy it to */
	uint32_t slot;
};

/* Returns where the payload (size bytes) goes for the slots in word (the
 * event's enable word as the caller read it), or NULL: nothing to do. */
EVT_API uint8_t *evt__event_reserve(struct evt_event *event, uint32_t word,
				    uint32_t size, struct evt__writer *w);
EVT_API void evt__event_commit(struct evt__writer *w, uint32_t size);
/* Feeds the stable views of raw that are enabled. */
EVT_API void evt__event_views(const struct evt_event *raw, const void *args);

/* Enable word: bits 0-7 the event's slots, 8-15 its stable views'. */
#define EVT__SLOT_BITS	0xffu

/* POSIX strnlen, which strict C modes do not declare; it is several times
 * faster here than a byte loop or memchr. */
#if defined(__has_builtin)
#if __has_builtin(__builtin_strnlen)
#define evt__strnlen __builtin_strnlen
#endif
#endif
#ifndef evt__strnlen
extern size_t evt__strnlen(const char *s, size_t max)
	__asm__("strnlen") __attribute__((pure, nothrow));
#endif

/* Bytes a string field stores: up to 255 characters and the NUL. */
static inline uint32_t evt__string_bytes(const char *s)
{
	return s ? EVT__AS(uint32_t, evt__strnlen(s, 255)) + 1 : 7; /* 7: "(null)" */
}

static inline uint8_t *evt__put_string(uint8_t *p, const char *s, uint32_t bytes)
{
	if (!s)
		s = "(null)";
	if (bytes == 256 && s[255]) {	/* longer than 255: cut, "..." */
		memcpy(p, s, 252);
		memcpy(p + 252, "...", 3);
	} else {
#ifdef EVT__WINDOW
		evt__copy_bytes(p, s, bytes - 1);	/* (no rep movsq) */
#else
		memcpy(p, s, bytes - 1);
#endif
	}
	p[bytes - 1] = '\0';
	return p + bytes;
}

static inline uint32_t evt__sequence_count(unsigned long long n, uint32_t size)
{
	return n > EVT_SEQUENCE_MAX_BYTES / size ?
		EVT_SEQUENCE_MAX_BYTES / size : EVT__AS(uint32_t, n);
}

/* ---- the field macros: each is a tuple the passes below take apart ---- */

#define evt_integer(type, name, expr)		(INTEGER, type, name, expr)
#define evt_enum(type, name, values, expr)	(ENUM, type, name, values, expr)
#define evt_bool(name, expr)			(BOOL, name, expr)
#define evt_double(name, expr)			(DOUBLE, name, expr)
#define evt_array(type, name, count, expr)	(ARRAY, type, name, count, expr)
#define evt_string(name, expr)			(STRING, name, expr)
#define evt_sequence(type, name, expr, length)	(SEQUENCE, type, name, expr, length)

#define EVT_PROTO(...)	(__VA_ARGS__)
#define EVT_ARGS(...)	(__VA_ARGS__)
#define EVT_FIELDS(...)	__VA_ARGS__

/* Names the values of an enum field: EVT_ENUM(task_state, {"R", 0}, ...). */
#define EVT_ENUM(values, ...)						\
	static const struct evt_enum_value evt__enum_##values[]		\
	__attribute__((unused)) = { __VA_ARGS__, { EVT__NULL, 0 } };

/* Applies pass P to one field tuple: EVT__<P>_<KIND>(the rest). */
#define EVT__PASS(P, tuple) EVT__PASS_(P, EVT__EXPAND tuple)
#define EVT__PASS_(P, ...) EVT__PASS__(P, __VA_ARGS__)
#define EVT__PASS__(P, kind, ...) EVT__##P##_##kind(__VA_ARGS__)
#define EVT__EACH(P, ...) EVT__FOREACH(EVT__PASS, P, __VA_ARGS__)

#ifdef __cplusplus
/* Whether an integer type is signed; an enum's, by its underlying type
 * (a scoped enum has no ~). */
extern "C++" {
template <typename T, bool = __is_enum(T)> struct evt__integer_of {
	typedef T integer;
};
template <typename T> struct evt__integer_of<T, true> {
	typedef __underlying_type(T) integer;
};
template <typename T> constexpr bool evt__is_signed()
{
	return static_cast<typename evt__integer_of<T>::integer>(-1) <
	       static_cast<typename evt__integer_of<T>::integer>(0);
}
}
/* A string field's value: a C string, or (C++) anything with data() of
 * chars and size(), a std::string or std::string_view, whose size says
 * where it ends (a string_view has no NUL). */
extern "C++" {
const char *evt__chars(const char *);	/* (only named in decltype) */
struct evt__text {
	const char *s;
	uint32_t bytes;		/* stored, the NUL included */
	bool longer;		/* than 255 bytes: cut, ending in "..." */
};
static inline evt__text evt__text_of(const char *s)
{
	evt__text t = { s, evt__string_bytes(s), s && evt__strnlen(s, 256) == 256 };

	return t;
}
static inline evt__text evt__text_of(decltype(nullptr))
{
	evt__text t = { nullptr, 7, false };

	return t;
}
template <class S>
inline auto evt__text_of(const S &s)
	-> decltype(static_cast<void>(s.size()), evt__chars(s.data()), evt__text())
{
	evt__text t = { s.data(), static_cast<uint32_t>((s.size() < 255 ? s.size() : 255) + 1),
			s.size() > 255 };

	return t;
}
static inline uint8_t *evt__put_text(uint8_t *p, const evt__text &t)
{
	if (!t.s) {
		memcpy(p, "(null)", 7);
		return p + 7;
	}
	if (t.longer) {
		memcpy(p, t.s, 252);
		memcpy(p + 252, "...", 3);
	} else {
		memcpy(p, t.s, t.bytes - 1);
	}
	p[t.bytes - 1] = '\0';
	return p + t.bytes;
}
}
#define EVT__SIGNED(type) evt__is_signed<type>()
#define EVT__CLASSIFY(type) __builtin_classify_type(*static_cast<type *>(nullptr))
#define EVT__TEXT_LOCAL(name, expr)					\
	const evt__text evt__s_##name = evt__text_of(expr);		\
	uint32_t evt__n_##name = evt__s_##name.bytes;
#define EVT__TEXT_STORE(name)						\
	evt__p = evt__put_text(evt__p, evt__s_##name);
#else
#define EVT__SIGNED(type) ((type)~(type)0 < (type)1)
#define EVT__CLASSIFY(type) __builtin_classify_type(*(type *)0)
#define EVT__TEXT_LOCAL(name, expr)					\
	const char *evt__s_##name = (expr);				\
	uint32_t evt__n_##name = evt__string_bytes(evt__s_##name);
#define EVT__TEXT_STORE(name)						\
	evt__p = evt__put_string(evt__p, evt__s_##name, evt__n_##name);
#endif
/* Integer types (char, enums and, in C, bool included) of 1 to 8 bytes. */
#define EVT__IS_INTEGER(type)						\
	((EVT__CLASSIFY(type) == 1 || EVT__CLASSIFY(type) == 3) &&	\
	 (sizeof(type) == 1 || sizeof(type) == 2 ||			\
	  sizeof(type) == 4 || sizeof(type) == 8))
#define EVT__ASSERT_INTEGER(type, name, what)				\
	EVT__STATIC_ASSERT(EVT__IS_INTEGER(type), what "(" #type ", " #name \
		"): the type must be an integer of 8, 16, 32 or 64 bits"); \
	EVT__ASSERT_NAME(name, what)
#define EVT__ASSERT_NAME(name, what)					\
	EVT__STATIC_ASSERT(sizeof(#name) <= 64, what " field " #name	\
		": a name of at most 63 characters");

/* DESC: the field's description. */
#define EVT__DESC_INTEGER(type, name, expr)				\
	{ EVT__FK_INTEGER, sizeof(type), 0, EVT__SIGNED(type),		\
	  __alignof__(type), #name, #type, EVT__NULL },
#define EVT__DESC_ENUM(type, name, values, expr)			\
	{ EVT__FK_ENUM, sizeof(type), 0, EVT__SIGNED(type),		\
	  __alignof__(type), #name, #type, evt__enum_##values },
#define EVT__DESC_BOOL(name, expr)					\
	{ EVT__FK_BOOL, 1, 0, 0, 1, #name, "bool", EVT__NULL },
#define EVT__DESC_DOUBLE(name, expr)					\
	{ EVT__FK_DOUBLE, 8, 0, 1, __alignof__(double), #name, "double", EVT__NULL },
#define EVT__DESC_ARRAY(type, name, count, expr)			\
	{ EVT__FK_ARRAY, sizeof(type), (count), EVT__SIGNED(type),	\
	  __alignof__(type), #name, #type, EVT__NULL },
#define EVT__DESC_STRING(name, expr)					\
	{ EVT__FK_STRING, 1, 0, EVT__SIGNED(char), 1, #name, "char", EVT__NULL },
#define EVT__DESC_SEQUENCE(type, name, expr, length)			\
	{ EVT__FK_SEQUENCE, sizeof(type), 0, EVT__SIGNED(type),		\
	  __alignof__(type), #name, #type, EVT__NULL },

/* CHECK: what the compiler can refuse, with a message that says why. */
#define EVT__CHECK_INTEGER(type, name, expr) \
	EVT__ASSERT_INTEGER(type, name, "evt_integer")
#define EVT__CHECK_ENUM(type, name, values, expr) \
	EVT__ASSERT_INTEGER(type, name, "evt_enum")
#define EVT__CHECK_BOOL(name, expr) EVT__ASSERT_NAME(name, "evt_bool")
#define EVT__CHECK_DOUBLE(name, expr) EVT__ASSERT_NAME(name, "evt_double")
#define EVT__CHECK_ARRAY(type, name, count, expr)			\
	EVT__ASSERT_INTEGER(type, name, "evt_array")			\
	EVT__STATIC_ASSERT((count) > 0 &&				\
		(count) * sizeof(type) <= EVT_SEQUENCE_MAX_BYTES,	\
		"evt_array(" #type ", " #name ", " #count		\
		"): 1 to 4096 bytes of elements");
#define EVT__CHECK_STRING(name, expr) EVT__ASSERT_NAME(name, "evt_string")
#define EVT__CHECK_SEQUENCE(type, name, expr, length) \
	EVT__ASSERT_INTEGER(type, name, "evt_sequence")

/* NAMES: a struct member per field, so that a name used twice is a
 * "duplicate member" error. */
#define EVT__NAMES_INTEGER(type, name, expr) char name;
#define EVT__NAMES_ENUM(type, name, values, expr) char name;
#define EVT__NAMES_BOOL(name, expr) char name;
#define EVT__NAMES_DOUBLE(name, expr) char name;
#define EVT__NAMES_ARRAY(type, name, count, expr) char name;
#define EVT__NAMES_STRING(name, expr) char name;
#define EVT__NAMES_SEQUENCE(type, name, expr, length) char name;

/* LOCAL: variable-size fields evaluate their expression once. */
#define EVT__LOCAL_INTEGER(type, name, expr)
#define EVT__LOCAL_ENUM(type, name, values, expr)
#define EVT__LOCAL_BOOL(name, expr)
#define EVT__LOCAL_DOUBLE(name, expr)
#define EVT__LOCAL_ARRAY(type, name, count, expr)
#define EVT__LOCAL_STRING(name, expr) EVT__TEXT_LOCAL(name, expr)
#define EVT__LOCAL_SEQUENCE(type, name, expr, length)			\
	const type *evt__s_##name = (expr);				\
	uint32_t evt__n_##name = evt__sequence_count((length), sizeof(type));

/* SIZE: the payload's bytes. */
#define EVT__SIZE_INTEGER(type, name, expr) + EVT__AS(uint32_t, sizeof(type))
#define EVT__SIZE_ENUM(type, name, values, expr) + EVT__AS(uint32_t, sizeof(type))
#define EVT__SIZE_BOOL(name, expr) + 1u
#define EVT__SIZE_DOUBLE(name, expr) + 8u
#define EVT__SIZE_ARRAY(type, name, count, expr) + EVT__AS(uint32_t, (count) * sizeof(type))
#define EVT__SIZE_STRING(name, expr) + evt__n_##name
#define EVT__SIZE_SEQUENCE(type, name, expr, length)			\
	+ 4u + evt__n_##name * EVT__AS(uint32_t, sizeof(type))

/* STORE: the payload, packed, in field order. */
#define EVT__STORE_INTEGER(type, name, expr)				\
	{ type evt__v = (expr); memcpy(evt__p, &evt__v, sizeof(type));	\
	  evt__p += sizeof(type); }
#define EVT__STORE_ENUM(type, name, values, expr)			\
	EVT__STORE_INTEGER(type, name, expr)
#define EVT__STORE_BOOL(name, expr) *evt__p++ = (expr) ? 1 : 0;
#define EVT__STORE_DOUBLE(name, expr)					\
	{ double evt__v = (expr); memcpy(evt__p, &evt__v, 8); evt__p += 8; }
#define EVT__STORE_ARRAY(type, name, count, expr)			\
	{ const type *evt__v = (expr);					\
	  memcpy(evt__p, evt__v, (count) * sizeof(type));		\
	  evt__p += (count) * sizeof(type); }
#define EVT__STORE_STRING(name, expr)					\
	EVT__TEXT_STORE(name)
#define EVT__STORE_SEQUENCE(type, name, expr, length)			\
	memcpy(evt__p, &evt__n_##name, 4);				\
	if (evt__n_##name)	/* an empty one may be NULL */		\
		memcpy(evt__p + 4, evt__s_##name, evt__n_##name * sizeof(type)); \
	evt__p += 4 + evt__n_##name * sizeof(type);

/* Writes one record of event ev for the slots in word, from fields: in
 * C on x86-64 into the thread's window when it takes it (bits/window.h),
 * else through libevtrace. */
#ifdef EVT__WINDOW
#define EVT__WRITE(ev, word, ...)					\
	do {								\
		EVT__EACH(LOCAL, __VA_ARGS__)				\
		uint32_t evt__size = 0 EVT__EACH(SIZE, __VA_ARGS__);	\
		struct evt__writer evt__w;				\
		struct evt__window *evt__win =				\
			evt__window_take((ev)->inline_id, (word));	\
		uint8_t *evt__p = 0;					\
		uint64_t evt__ts = 0;					\
									\
		if (evt__win) {						\
			evt__p = evt__window_begin(evt__win, (word),	\
					4 + evt__size, (ev)->inline_id, &evt__ts); \
			if (!evt__p) {					\
				evt__window_leave(evt__win);		\
				evt__win = 0;				\
			}						\
		}							\
		if (!evt__p)						\
			evt__p = evt__event_reserve((ev), (word), evt__size, \
						    &evt__w);		\
		if (evt__p) {						\
			EVT__EACH(STORE, __VA_ARGS__)			\
			if (evt__win) {					\
				evt__window_end(evt__win, evt__p, evt__ts); \
				evt__window_leave(evt__win);		\
			} else {					\
				evt__event_commit(&evt__w, evt__size);	\
			}						\
		}							\
	} while (0)
#else
#define EVT__WRITE(ev, word, ...)					\
	do {								\
		EVT__EACH(LOCAL, __VA_ARGS__)				\
		uint32_t evt__size = 0 EVT__EACH(SIZE, __VA_ARGS__);	\
		struct evt__writer evt__w;				\
		uint8_t *evt__p = evt__event_reserve((ev), (word), evt__size, \
							&evt__w);	\
		if (evt__p) {						\
			EVT__EACH(STORE, __VA_ARGS__)			\
			evt__event_commit(&evt__w, evt__size);		\
		}							\
	} while (0)
#endif

/* What every event definition declares: descriptions, checks, object. */
#define EVT__DEFINE_EVENT(id, provider_str, name_str, stable, raw_ptr,	\
			  probe_fn, ...)				\
	EVT__EACH(CHECK, __VA_ARGS__)					\
	struct evt__names_##id { EVT__EACH(NAMES, __VA_ARGS__) };	\
	static const struct evt_event_field evt__fields_##id[]		\
	__attribute__((unused)) = { EVT__EACH(DESC, __VA_ARGS__) };	\
	extern const uint32_t evt__flags_##id				\
		__attribute__((weak, visibility("hidden")));		\
	__attribute__((weak, visibility("hidden")))			\
	struct evt_event evt__event_##id = {				\
		&evt__site_unregistered, sizeof(struct evt_event),	\
		(stable), provider_str, name_str, evt__fields_##id,	\
		sizeof(evt__fields_##id) / sizeof(struct evt_event_field), \
		&evt__flags_##id, (raw_ptr), (probe_fn), EVT__NULL,	\
		EVT__NULL, EVT__NULL,					\
		sizeof(struct evt_event_field), 0,			\
	};								\
	static struct evt_event *evt__event_ptr_##id			\
	__attribute__((section("evt_events"), used)) = &evt__event_##id;

#define EVT__MEMBER(P, decl) decl;
#define EVT__UNPAREN(x) EVT__EXPAND x

/**
 * EVT_EVENT() - define the typed event <provider>/<name> and its call,
 * trace_<provider>_<name>(proto).
 * @provider: a C identifier, the first part of the event's path.
 * @name:     a C identifier, the second part.
 * @proto:    EVT_PROTO(parameter declarations), at least one.
 * @args:     EVT_ARGS(the parameter names, in order).
 * @fields:   EVT_FIELDS(evt_integer(...), ...): what is recorded.
 */
#define EVT_EVENT(provider, name, proto, args, fields)			\
	struct evt__args_##provider##_##name {				\
		EVT__FOREACH(EVT__MEMBER, _, EVT__UNPAREN(proto))	\
	};								\
	EVT__DEFINE_EVENT(provider##_##name, #provider, #name, 0, EVT__NULL, \
			  EVT__NULL, fields)				\
	__attribute__((weak, visibility("hidden"), noinline))		\
	void evt__write_##provider##_##name(EVT__UNPAREN(proto));	\
	__attribute__((weak, visibility("hidden"), noinline))		\
	void evt__write_##provider##_##name(EVT__UNPAREN(proto))	\
	{								\
		struct evt_event *evt__ev = &evt__event_##provider##_##name; \
		uint32_t evt__word = *evt__ev->enable;			\
									\
		if (evt__word & EVT__SLOT_BITS)				\
			EVT__WRITE(evt__ev, evt__word, fields);		\
		if (evt__word & ~EVT__SLOT_BITS) {			\
			struct evt__args_##provider##_##name evt__a =	\
				{ EVT__UNPAREN(args) };			\
			evt__event_views(evt__ev, &evt__a);		\
		}							\
	}								\
	static inline __attribute__((unused, always_inline))		\
	void trace_##provider##_##name(EVT__UNPAREN(proto))		\
	{								\
		EVT__GOTO_IF_ON(evt__event_##provider##_##name.enable, evt__on); \
		return;							\
	evt__on: EVT__COLD_LABEL;					\
		evt__write_##provider##_##name(EVT__UNPAREN(args));	\
	}

/**
 * EVT_STABLE_EVENT() - define stable/<name>, a view of the raw event
 * <provider>/<event> (defined before it in the same translation unit).
 * @fields: EVT_FIELDS(...), whose expressions read the raw event's
 *          arguments as args-><parameter name>.
 */
#define EVT_STABLE_EVENT(name, provider, event, fields)			\
	__attribute__((weak, visibility("hidden"), noinline))		\
	void evt__probe_stable_##name(const struct evt_event *evt__view, \
				      const void *evt__args);		\
	EVT__DEFINE_EVENT(stable_##name, "stable", #name, 1,		\
			  &evt__event_##provider##_##event,		\
			  evt__probe_stable_##name, fields)		\
	void evt__probe_stable_##name(const struct evt_event *evt__view, \
				      const void *evt__args)		\
	{								\
		const struct evt__args_##provider##_##event *args =	\
			EVT__AS(const struct evt__args_##provider##_##event *, \
				evt__args);				\
									\
		EVT__WRITE(&evt__event_stable_##name, *evt__view->enable, \
			   fields);					\
	}

/**
 * EVT_EVENT_FLAGS() - set flags (EVT_FL_*) on the event <provider>/<name>
 * defined before it; `stable` as provider for a stable event.
 */
#define EVT_EVENT_FLAGS(provider, name, value)				\
	__attribute__((weak, visibility("hidden")))			\
	EVT__DEFINE const uint32_t evt__flags_##provider##_##name = (value);

#ifdef __cplusplus
}
#endif

#endif
