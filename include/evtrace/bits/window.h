/*
 * window.h - the thread's window: where a C site writes its own record.
 * Internal to <evtrace/evtrace.h>.
 *
 * After a thread's record goes through libevtrace into a buffer of one
 * recording, libevtrace lends the thread that buffer's open packet: its
 * struct evt__window says where the next record goes, how far it may
 * go, and which enable word, generation and CPU it holds for.  A
 * trace_printk() site whose arguments' types its format reads as they
 * are, or a typed event's call (libevtrace says which in their
 * inline_id), whose enable word is that word, then writes the record
 * itself, without a call: the header of one word (the event id and the
 * time's low bits, as libevtrace writes it), the payload, the zero word
 * after it, and the buffer's commit, as libevtrace publishes it.
 * Anything else, such as a full packet, another CPU, a time too far from
 * the last record's, a second recording or a rate, goes through
 * libevtrace, which folds what the sites wrote into its own state first.
 *
 * The window's busy word is the thread's: a signal handler's record that
 * interrupts one in progress, inline or in libevtrace, is dropped and
 * counted as nested, as before.
 *
 * The window and the header it writes are layout 1, fixed for as long
 * as a library exports evt__window_1: a library that writes records
 * otherwise lends no window of this layout (its word stays 0), and sites
 * compiled against this header then call.  Define EVT_NO_INLINE_WRITER
 * before including <evtrace/evtrace.h> for sites that always call.
 */
#ifndef EVTRACE_BITS_WINDOW_H
#define EVTRACE_BITS_WINDOW_H

#if defined(__x86_64__) && !defined(__cplusplus)
#ifndef EVT_NO_INLINE_WRITER
#define EVT__WINDOW 1	/* sites write into it: event.h's too */
#endif

/* Layout 1: 80 bytes, written by libevtrace and by the thread's sites. */
struct evt__window {
	uint8_t *pos;			/* where the next record goes */
	uint8_t *end;			/* no record ends past it (the zero
					 * word after it has its room) */
	uint8_t *packet;		/* the open packet */
	volatile uint32_t *commit;	/* the buffer's commit: pos - packet */
	const volatile uint32_t *gen;	/* the recording's generation ... */
	const volatile int32_t *cpu_id;	/* the thread's CPU (rseq) */
	uint64_t ts;			/* the last record's TSC */
	uint32_t word;			/* the enable word it serves; 0: none */
	uint32_t gen_seen;		/* ... as it was when lent */
	uint32_t cpu;			/* the CPU of the last record */
	uint32_t records;		/* written since lent */
	volatile uint32_t busy;		/* the thread is writing a record */
	uint32_t reserved;
};

/* Weak: a program built with these headers runs with an earlier
 * libevtrace, which has none (its inline_id stay 0, and the window is
 * never touched). */
#ifdef EVT_BUILDING_LIBRARY
EVT_API extern __thread struct evt__window evt__window_1
	__attribute__((tls_model("initial-exec")));
#else
extern __thread struct evt__window evt__window_1
	__attribute__((weak, tls_model("initial-exec")));
#endif

#define EVT__WINDOW_ID_BITS	11		/* record_header.h */
#define EVT__WINDOW_TS_SPAN	(1ull << 21)
#define EVT__WINDOW_MARK_BYTES	4
/* A string's bytes that no window can hold: the record goes by the call. */
#define EVT__WINDOW_TOO_BIG	(1u << 20)

/* A string's bytes in the record, its NUL included, when the site may
 * write it: not NULL, shorter than EVT_STRING_MAX_BYTES and, in an array
 * the compiler knows, ended inside it. */
static inline __attribute__((always_inline)) uint32_t
evt__window_str_bytes(const char *s)
{
	size_t n = 0, limit = __builtin_object_size(s, 1);

	if (!s)
		return EVT__WINDOW_TOO_BIG;
	if (limit > EVT_STRING_MAX_BYTES)
		limit = EVT_STRING_MAX_BYTES;
#if defined(__has_builtin)
#if __has_builtin(__builtin_strnlen)
#define EVT__WINDOW_STRNLEN 1
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 11
	/* (gcc takes the bound of an array parameter, "char s[8]", for its
	 * object's size: the NUL comes first, as it would in libevtrace) */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstringop-overread"
#endif
	n = __builtin_strnlen(s, limit);
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 11
#pragma GCC diagnostic pop
#endif
#endif
#endif
#ifndef EVT__WINDOW_STRNLEN
	while (n < limit && s[n])
		n++;
#endif
	return n < limit ? (uint32_t)n + 1 : EVT__WINDOW_TOO_BIG;
}

/* Copies n bytes (256 at most): up to 16 by two overlapping moves, as
 * libevtrace does, and more by a call, n hidden from the compiler, which
 * for a length it knows to be small emits a rep movsq (30 ns of its
 * start-up on Intel). */
static inline __attribute__((always_inline)) void
evt__copy_bytes(uint8_t *p, const void *from, uint32_t n)
{
	const uint8_t *s = (const uint8_t *)from;
	uint64_t a, b;
	uint32_t c, d;

	if (n >= 8 && n <= 16) {
		__builtin_memcpy(&a, s, 8);
		__builtin_memcpy(&b, s + n - 8, 8);
		__builtin_memcpy(p, &a, 8);
		__builtin_memcpy(p + n - 8, &b, 8);
	} else if (n >= 4 && n < 8) {
		__builtin_memcpy(&c, s, 4);
		__builtin_memcpy(&d, s + n - 4, 4);
		__builtin_memcpy(p, &c, 4);
		__builtin_memcpy(p + n - 4, &d, 4);
	} else if (n < 4) {
		if (n) {
			p[0] = s[0];
			p[n - 1] = s[n - 1];
			if (n == 3)
				p[1] = s[1];
		}
	} else {
		__asm__("" : "+r"(n));
		__builtin_memcpy(p, s, n);
	}
}

/*
 * Where the payload of a record of at least size bytes (header included)
 * of the site whose inline_id is id1 goes, its header written (so that a
 * thread that dies before its end, reading a bad string, is said to have
 * been writing it: the header is the commit mark) and its time in *ts;
 * NULL when the window does not take it.  The thread is busy.
 */
static inline __attribute__((always_inline)) uint8_t *
evt__window_begin(struct evt__window *w, uint32_t word, uint32_t size,
		  uint32_t id1, uint64_t *ts)
{
	uint8_t *p = w->pos;
	uint32_t lo, hi, head;

	/* The TSC first, so that its latency overlaps the checks (a tick of
	 * W1's median); a thread that moved to another CPU before the check
	 * of it goes through libevtrace, and the TSC is one across CPUs. */
	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	/* The word again, the thread busy: a signal handler's write before
	 * it was may have lent the window for another recording. */
	if (word != w->word || *w->gen != w->gen_seen ||
	    (uint32_t)*w->cpu_id != w->cpu || size > (uintptr_t)(w->end - p))
		return 0;
	*ts = (uint64_t)hi << 32 | lo;
	/* (also a TSC behind the last record's: the call orders it) */
	if (*ts - w->ts >= EVT__WINDOW_TS_SPAN)
		return 0;
	head = (id1 - 1) | (uint32_t)*ts << EVT__WINDOW_ID_BITS;
	__builtin_memcpy(p, &head, 4);
	return p + 4;
}

/* Publishes the record begun at w->pos that ends at end, of time ts. */
static inline __attribute__((always_inline)) void
evt__window_end(struct evt__window *w, uint8_t *end, uint64_t ts)
{
	uint32_t zero = 0;

	__builtin_memcpy(end, &zero, EVT__WINDOW_MARK_BYTES);
	w->pos = end;
	w->ts = ts;
	w->records++;
	/* Pairs with the engine's acquire of commit, as libevtrace's. */
	__atomic_store_n(w->commit, (uint32_t)(end - w->packet), __ATOMIC_RELEASE);
}

/* A record begun that does not fit after all: its header, the commit
 * mark, goes back to 0. */
static inline __attribute__((always_inline)) void
evt__window_undo(struct evt__window *w)
{
	uint32_t zero = 0;

	__builtin_memcpy(w->pos, &zero, EVT__WINDOW_MARK_BYTES);
}

/* The thread's window, busy, when a record of the site or event whose
 * inline_id is id1, with enable word word, may go there; else NULL. */
static inline __attribute__((always_inline)) struct evt__window *
evt__window_take(uint32_t id1, uint32_t word)
{
	struct evt__window *w;

	/* (id1 first: with a library older than the window, it is 0, and
	 * evt__window_1, weak, is not there) */
	if (!id1 || !word)
		return 0;
	w = &evt__window_1;
	if (word != w->word || w->busy)
		return 0;
	w->busy = 1;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	return w;
}

/* The same as a call, and to a cold function, for the sites: so that the
 * compiler moves a site's whole enabled path out of its function's hot
 * code (.text.unlikely), as it does for a call of evt__printk().  Inline,
 * it left 250 bytes after each function's return, and W4's 10,000
 * disabled sites took 38% more time than none instead of 6%.  (The call
 * costs less than a cycle of W1's median, 11.5 ns either way.)  A typed
 * event's writer is a function of its own already. */
static __attribute__((noinline, cold, unused)) struct evt__window *
evt__window_enter(uint32_t id1, uint32_t word)
{
	return evt__window_take(id1, word);
}

static inline __attribute__((always_inline)) void
evt__window_leave(struct evt__window *w)
{
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	w->busy = 0;
}

/* A record of n bytes at head and nothing else (a span's begin or end
 * without arguments, an async span's, a counter's) of the site: written
 * into the thread's window when it takes it; 0 when it does not. */
static inline __attribute__((always_inline)) int
evt__window_head(struct evt_site *site, const void *head, uint32_t n)
{
	uint32_t word = *site->enable;
	struct evt__window *w = evt__window_enter(site->inline_id, word);
	uint64_t ts = 0;
	uint8_t *p;

	if (!w)
		return 0;
	p = evt__window_begin(w, word, 4 + n, site->inline_id, &ts);
	if (p) {
		__builtin_memcpy(p, head, n);
		evt__window_end(w, p + n, ts);
	}
	evt__window_leave(w);
	return p != 0;
}

/*
 * Each argument (and the format, the first, place P) is evaluated once,
 * into evt__aN (N its place from the last, EVT__FOREACH_N), with its
 * promoted type: the call, when the window does not take the record,
 * passes these.  An argument's code is EVT__ARGC_CODE's.
 */
/* The type x is passed as to a variadic function, but that a float
 * stays one: a narrower integer becomes an int, an array or a function
 * a pointer ("((void)0, x)": the comma operator's value is not an lvalue). */
#define EVT__PROMOTED(x) __typeof__(_Generic(((void)0, (x)),		\
	_Bool: 0, char: 0, signed char: 0, unsigned char: 0,		\
	short: 0, unsigned short: 0, default: ((void)0, (x))))
#define EVT__WINDOW_ARG(P, n, x)					\
	struct {							\
		union { EVT__PROMOTED(x) v; const char *s; } u;	\
		uint32_t len;						\
	} evt__a##n = { { (x) }, 0 };
#define EVT__WINDOW_CODE(n) EVT__ARGC_CODE(evt__a##n.u.v)
/* Whether the site's code can write the argument as libevtrace does
 * (a float, which the call makes a double, it cannot). */
#define EVT__WINDOW_ARG_OK(P, n, x)					\
	&& ((n) == (P) || EVT__WINDOW_CODE(n) == 's' ||			\
	    ((EVT__WINDOW_CODE(n) == 'i' || EVT__WINDOW_CODE(n) == 'u') && \
	     sizeof(evt__a##n.u.v) == 4) ||				\
	    ((EVT__WINDOW_CODE(n) == 'l' || EVT__WINDOW_CODE(n) == 'L' || \
	      EVT__WINDOW_CODE(n) == 'p' || EVT__WINDOW_CODE(n) == 'd') && \
	     sizeof(evt__a##n.u.v) == 8))
#define EVT__WINDOW_ARG_FIXED(P, n, x)					\
	+ ((n) == (P) || EVT__WINDOW_CODE(n) == 's' ? 0u :		\
	   (uint32_t)sizeof(evt__a##n.u.v))
#define EVT__WINDOW_ARG_STRING(P, n, x)					\
	+ ((n) == (P) || EVT__WINDOW_CODE(n) != 's' ? 0u :		\
	   (evt__a##n.len = evt__window_str_bytes(evt__a##n.u.s)))
#define EVT__WINDOW_ARG_PUT(P, n, x)					\
	if ((n) != (P)) {						\
		if (EVT__WINDOW_CODE(n) == 's') {			\
			evt__copy_bytes(evt__p, evt__a##n.u.s, evt__a##n.len); \
			evt__p += evt__a##n.len;			\
		} else {						\
			__builtin_memcpy(evt__p, &evt__a##n.u.v, sizeof(evt__a##n.u.v)); \
			evt__p += sizeof(evt__a##n.u.v);		\
		}							\
	}
#define EVT__WINDOW_ARG_NAME(P, n, x) evt__a##n.u.v,

#ifdef EVT__WINDOW
/* trace_printk()'s enabled path: the record written here when the
 * thread's window takes it, else by evt__printk(). */
#define EVT__PRINTK_ON(site, ...)					\
	do {								\
		EVT__FOREACH_N(EVT__WINDOW_ARG, EVT__NARGS(__VA_ARGS__), __VA_ARGS__) \
		struct evt__window *evt__w = 0;			\
		uint32_t evt__word = *(site).enable, evt__size;	\
		uint8_t *evt__p = 0;					\
		uint64_t evt__ts = 0;					\
									\
		if (1 EVT__FOREACH_N(EVT__WINDOW_ARG_OK, EVT__NARGS(__VA_ARGS__), \
				     __VA_ARGS__))			\
			evt__w = evt__window_enter((site).inline_id, evt__word); \
		if (evt__w) {						\
			evt__size = 4 EVT__FOREACH_N(EVT__WINDOW_ARG_FIXED, \
					EVT__NARGS(__VA_ARGS__), __VA_ARGS__); \
			evt__p = evt__window_begin(evt__w, evt__word,	\
					evt__size, (site).inline_id, &evt__ts); \
			if (evt__p) {					\
				evt__size += 0 EVT__FOREACH_N(EVT__WINDOW_ARG_STRING, \
					EVT__NARGS(__VA_ARGS__), __VA_ARGS__); \
				if (evt__size < EVT__WINDOW_TOO_BIG &&	\
				    evt__size <= (uintptr_t)(evt__w->end - evt__w->pos)) { \
					EVT__FOREACH_N(EVT__WINDOW_ARG_PUT, \
						EVT__NARGS(__VA_ARGS__), __VA_ARGS__) \
					evt__window_end(evt__w, evt__p, evt__ts); \
				} else {				\
					evt__window_undo(evt__w);	\
					evt__p = 0;			\
				}					\
			}						\
			evt__window_leave(evt__w);			\
		}							\
		if (!evt__p)						\
			evt__printk(&(site), EVT__FOREACH_N(EVT__WINDOW_ARG_NAME, \
					0, __VA_ARGS__) 0);		\
	} while (0)
#endif
#endif

#ifndef EVT__PRINTK_ON
#define EVT__PRINTK_ON(site, ...) evt__printk(&(site), __VA_ARGS__)
#endif

#endif
