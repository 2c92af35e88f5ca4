/*
 * write.c - the enabled path: records into per-thread, per-slot buffers.
 *
 * A thread writes its own buffers only, so no lock and no atomic
 * read-modify-write is needed: a record is laid down, then published by a
 * release store of the buffer's commit offset (pairs with the engine's
 * acquire load before it copies).  Closing a packet stores its content
 * size, then release-stores produced.  In discard mode, a packet is reused
 * only after an acquire load of consumed shows the engine is done with it;
 * otherwise the event is dropped and counted, and the count goes into the
 * next packet's events_discarded.  In overwrite mode the oldest packet is
 * simply reused; the engine checks sequence numbers after copying.
 *
 * A write that interrupts another on the same thread (a signal handler) is
 * dropped and counted in nested_lost, the one counter updated atomically.
 * All buffer geometry comes from private memory; nothing read from the
 * control file is followed without a check.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "lost_record.h"
#include "record_header.h"
#include "runtime.h"
#include "invariant.h"

enum { TSLOT_NONE, TSLOT_HAVE, TSLOT_FAILED };

/* The writer's causes end with no_buffer; those after are the recorder's. */
_Static_assert(EVT_LOSS_NO_BUFFER == EVT_DROP_CAUSES, "every cause has a count");

struct tslot {
	uint8_t *packet;		/* the open packet */
	uint32_t off;			/* in it */
	uint32_t limit;			/* its bytes reserved (its size, but in
					 * the buffer's first pass); 0 while
					 * none is open */
	uint8_t *base;			/* the buffer's first packet */
	struct evt_ctl_tbuf *desc;
	uint32_t packet_size;
	uint32_t packet_count;
	uint32_t mode;
	uint32_t slot_gen;
	uint32_t state;
	uint32_t idx;			/* packet index of seq */
	uint64_t seq;
	uint64_t written;
	uint64_t lost;			/* mirrored in desc->lost at each drop */
	struct evt_hdr_state hs;	/* the open packet's last record */
	struct evt__tbuf_priv *priv;	/* the buffer's, in private memory */
	uint64_t gave_up_at;		/* consumed + 1 when a wait for the
					 * recorder last ran out, else 0 */
	/* What it dropped since its last packet opened, by site and
	 * cause, for the next one's evtrace/lost records (layout.h);
	 * NULL when the entry's page could not be had. */
	struct evt_ctl_drops *drops;
	bool drops_pending;
	bool guest;			/* a guest collection's: its new
					 * buffers count against its share */
	uint8_t fail_cause;		/* TSLOT_FAILED: why, for its drops */
};

struct evt__thread {
	uint32_t fork_gen;
	uint32_t tid;
	char comm[16];
	uint64_t last_ts;		/* keeps a thread's timestamps ordered */
	struct tslot slot[EVT_NSLOTS];
	/* Counts a signal handler could not add while this thread was
	 * getting counters: added by it when it has them. */
	volatile uint32_t acquiring;
	bool sigmask_seen;		/* sigmask_usual: see in_signal_handler() */
	uint64_t sigmask_usual;
	uint32_t npending;
	struct { uint32_t id, slot; } pending[16];
	/* Events with a rate limit it met lately: how many it wrote in
	 * the second, and the limit as read then. */
	struct rate_use {
		uint32_t id;
		uint32_t second;	/* CLOCK_MONOTONIC + 1; 0: none */
		uint32_t rate;
		uint32_t used;
	} rates[32];
	/* The last write a rate held back, and in which of its seconds
	 * (rate_suppress); a span begin so held makes the thread capped
	 * (BUSY_CAPPED) for capped_depth more span ends, until the second
	 * after capped_second at most. */
	bool rate_held;
	uint32_t rate_held_second;
	uint32_t capped_depth, capped_second;
};

/*
 * The thread's busy word (its window's, which its sites' own writes set
 * too: bits/window.h): 1 while it writes a record, and BUSY_CAPPED
 * for a thread inside a span whose begin a rate cap held back:
 * its events, nested spans included, are held back with it (rate limit,
 * each against its site) until that span's end, so that no child is
 * left without its parent; or, should the span never end (a begin on an
 * error path that skips the end), until the second after the cap's is
 * over.
 */
#define BUSY_CAPPED 2u

_Static_assert(sizeof(struct evt__thread) <= 4096, "thread state fits a page");

static __thread struct evt__thread *tls_thread
	__attribute__((tls_model("initial-exec")));

EVT_API __thread struct evt__window evt__window_1
	__attribute__((tls_model("initial-exec")));

#define BUSY (evt__window_1.busy)

/* What the sites' code writes (bits/window.h) is what this file does. */
_Static_assert(EVT__WINDOW_ID_BITS == EVT_HDR_ID_BITS &&
	       EVT__WINDOW_TS_SPAN == EVT_HDR_TS_SPAN &&
	       EVT__WINDOW_MARK_BYTES == EVT_COMMIT_MARK_BYTES,
	       "the window's header is the compact one");
_Static_assert(sizeof(struct evt__window) == 80 &&
	       offsetof(struct evt__window, ts) == 48 &&
	       offsetof(struct evt__window, word) == 56 &&
	       offsetof(struct evt__window, busy) == 72,
	       "the window's layout 1");

/*
 * The thread's window (bits/window.h): slot s's open packet, lent
 * to the thread's sites after a record there, so that they write the
 * next ones themselves.  It is lent only where a site writes as
 * write_begin() would: with the TSC and rseq's CPU, after a record whose
 * time is the thread's latest.  Every write here first folds what the
 * sites wrote into the slot's state, and whatever changes the slot's
 * packet, buffer or room takes the window back (window_drop) first.
 */
static inline void window_fold(struct evt__thread *t)
{
	struct evt__window *w = &evt__window_1;

	/* (none written since lent: the state holds, and the path of the
	 * thread's other writes, all through here, stays short) */
	if (w->records) {
		struct tslot *ts = &t->slot[__builtin_ctz(w->word)];

		evt_invariant(w->packet == ts->packet &&
			      w->pos >= ts->packet + ts->off &&
			      w->pos <= ts->packet + ts->limit - EVT_COMMIT_MARK_BYTES);
		ts->off = (uint32_t)(w->pos - ts->packet);
		ts->hs.ts = w->ts;
		if (w->ts > t->last_ts)
			t->last_ts = w->ts;
		ts->written += w->records;
		w->records = 0;
	}
}

/* (after window_fold(): nothing left unfolded) */
static inline void window_drop(unsigned s)
{
	if (evt__window_1.word == 1u << s)
		evt__window_1.word = 0;
}

/* After a record in slot s's open packet. */
static inline void window_lend(struct evt__thread *t, unsigned s)
{
	struct evt__window *w = &evt__window_1;
	struct tslot *ts = &t->slot[s];
	ptrdiff_t cpu_off = evt__proc.rseq_cpu_off;

	w->pos = ts->packet + ts->off;
	w->ts = ts->hs.ts;
	w->cpu = ts->hs.cpu;
	if (__builtin_expect(w->word == 1u << s, 1))
		return;		/* the same packet: the rest holds */
	w->word = 0;
	if (!cpu_off || ts->hs.ts != t->last_ts)
		return;
	w->end = ts->packet + ts->limit - EVT_COMMIT_MARK_BYTES;
	w->packet = ts->packet;
	w->commit = &ts->desc->commit;
	w->gen = &evt__proc.slots[s].gen;
	w->gen_seen = ts->slot_gen;
	w->cpu_id = (const volatile int32_t *)((char *)__builtin_thread_pointer() +
					       cpu_off);
	w->records = 0;
	w->word = 1u << s;
}

uint32_t evt__record_max_bytes(const uint8_t *types, uint32_t nargs)
{
	uint32_t i, n = EVT_HDR_MAX_BYTES;

	for (i = 0; i < nargs; i++)
		n += types[i] == EVT_ARG_STRING ? EVT_STRING_MAX_BYTES :
		     (uint32_t)evt_arg_type_size(types[i]);
	return n;
}

static void thread_reset(struct evt__thread *t)
{
	evt__window_1.word = 0;
	evt__window_1.records = 0;
	memset(t->slot, 0, sizeof(t->slot));
	memset(t->rates, 0, sizeof(t->rates));
	t->sigmask_seen = false;
	t->fork_gen = evt__proc.fork_gen;
	t->tid = gettid();
	prctl(PR_GET_NAME, t->comm);
}

/*
 * Thread states come from a pool of pages mapped once, handed out and
 * back by an atomic bitmap (a signal handler may be the first to trace
 * in a thread), so that a thread's state is a page an exited thread
 * warmed: a fresh page cost a new thread's first event a page fault,
 * 20 us on some virtual machines, and the mmap before it.  Beyond the
 * pool, a page of its own.
 */
#define STATE_POOL 256

static uint8_t *state_pool;
static uint64_t state_used[STATE_POOL / 64];

static struct evt__thread *state_get(void)
{
	uint8_t *pool = __atomic_load_n(&state_pool, __ATOMIC_ACQUIRE), *mine;
	unsigned w;

	if (!pool) {
		mine = mmap(NULL, STATE_POOL * 4096, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (mine != MAP_FAILED) {
			if (__atomic_compare_exchange_n(&state_pool, &pool, mine, 0,
							__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
				pool = mine;
			else
				munmap(mine, STATE_POOL * 4096);
		}
	}
	for (w = 0; pool && w < STATE_POOL / 64; w++) {
		uint64_t cur = __atomic_load_n(&state_used[w], __ATOMIC_RELAXED);

		while (~cur) {
			unsigned b = (unsigned)__builtin_ctzll(~cur);

			if (__atomic_compare_exchange_n(&state_used[w], &cur,
							cur | 1ull << b, 0,
							__ATOMIC_ACQUIRE,
							__ATOMIC_RELAXED))
				return (struct evt__thread *)(pool + (w * 64 + b) * 4096);
		}
	}
	mine = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	return mine == MAP_FAILED ? NULL : (struct evt__thread *)mine;
}

static void state_put(struct evt__thread *t)
{
	uint8_t *pool = __atomic_load_n(&state_pool, __ATOMIC_ACQUIRE);
	size_t i = (size_t)((uint8_t *)t - pool) / 4096;

	if (pool && (uint8_t *)t >= pool && i < STATE_POOL)
		/* Pairs with state_get()'s acquire: we are done with it. */
		__atomic_fetch_and(&state_used[i / 64], ~(1ull << (i % 64)),
				   __ATOMIC_RELEASE);
	else
		munmap(t, 4096);
}

static void spare_buffer(uint32_t size, uint32_t count, bool guest);

/* Whether slot s is a guest collection's (layout.h). */
static bool guest_slot(unsigned s)
{
	return __atomic_load_n(&evt__proc.slots[s].number, __ATOMIC_RELAXED) >=
	       EVT_GUEST_NUMBER_FIRST;
}

/* The slots' drop entries (layout.h) may be written: made the file's at
 * the process's start. */
static bool slot_drops_ready;

/* Makes the pages of n bytes at addr in the control file the file's
 * (written to later without a fault that could be a SIGBUS). */
static bool populate(void *addr, size_t n)
{
	uintptr_t page = (uintptr_t)addr & ~(uintptr_t)4095;
	size_t len = ((uintptr_t)addr + n - page + 4095) & ~(size_t)4095;
	int saved = errno;
	bool ok = madvise((void *)page, len, MADV_POPULATE_WRITE) == 0 ||
		  (errno == EINVAL &&
		   fallocate(evt__proc.fd, 0, (off_t)(page - (uintptr_t)evt__proc.base),
			     (off_t)len) == 0);

	errno = saved;
	return ok;
}

/*
 * The pool and a few warm pages of it, at start-up rather than at the
 * first events of the first threads.  And for a recording that covers
 * the process from its start (its rules adopted at start: `record --
 * CMD`), a buffer of its geometry ready, so that the first thread's
 * first event takes it instead of making the process's first buffer
 * (20-40 us here).  Not for the default collection, which most processes
 * never write to.
 */
void evt__write_init(void)
{
	struct evt__thread *t[4];
	unsigned i;

	for (i = 0; i < 4; i++)
		if ((t[i] = state_get()))
			memset(t[i], 0, sizeof(*t[i]));
	for (i = 0; i < 4; i++)
		if (t[i])
			state_put(t[i]);
	if (populate(&evt__proc.drops[EVT_DROPS_OF_SLOT(EVT_MAX_TBUFS, 0)],
		     EVT_NSLOTS * sizeof(struct evt_ctl_drops)))
		__atomic_store_n(&slot_drops_ready, true, __ATOMIC_RELEASE);
	for (i = 1; i < EVT_NSLOTS; i++) {
		const struct evt_ctl_slot *slot = &evt__proc.slots[i];

		if (evt__proc.rules[i] && slot->state == EVT_SLOT_ACTIVE &&
		    slot->mode <= EVT_MODE_OVERWRITE &&
		    !evt_buffer_config_check(slot->packet_size, slot->packet_count,
					     NULL, 0))
			spare_buffer(slot->packet_size, slot->packet_count,
				     guest_slot(i));
	}
}

__attribute__((cold, noinline)) static struct evt__thread *thread_create(void)
{
	struct evt__thread *t = tls_thread;

	/* A handler's record that interrupts a write (this very function's
	 * included) is dropped: no second state. */
	if (BUSY)
		return NULL;
	if (!t) {
		t = state_get();
		if (!t)
			return NULL;
		memset(t, 0, sizeof(*t));
	}
	/* A signal handler tracing before this is done drops its event. */
	BUSY = 1;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	if (tls_thread != t) {
		tls_thread = t;
		pthread_setspecific(evt__proc.thread_key, t);
	}
	thread_reset(t);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	BUSY = 0;
	return t;
}

static inline struct evt__thread *thread_get(void)
{
	struct evt__thread *t = tls_thread;

	if (__builtin_expect(t != NULL && t->fork_gen == evt__proc.fork_gen, 1))
		return t;
	return thread_create();
}

void evt__write_forked(void)
{
	/* The window's packet is the parent's, in a mapping the child
	 * shares until it has a file of its own. */
	evt__window_1.word = 0;
	evt__window_1.records = 0;
	if (BUSY == BUSY_CAPPED)
		BUSY = 0;
}

void evt__write_fork_child(void)
{
	if (tls_thread)
		thread_reset(tls_thread);
}

/* Hands a buffer back: the engine drains what is left, then frees it. */
static void tslot_release(struct tslot *ts)
{
	/* Pairs with the engine's acquire: all of the buffer is final. */
	__atomic_store_n(&ts->desc->state, EVT_TBUF_EXITED, __ATOMIC_RELEASE);
}


void evt__thread_exit(void *arg)
{
	struct evt__thread *t = arg;
	unsigned s;

	/* (a later record of the thread, in another key's destructor, goes
	 * through a new state) */
	evt__window_1.word = 0;
	evt__window_1.records = 0;
	if (t->fork_gen == evt__proc.fork_gen)
		for (s = 0; s < EVT_NSLOTS; s++)
			if (t->slot[s].state == TSLOT_HAVE) {
				tslot_release(&t->slot[s]);
				/* (its own goes back only once drained) */
				if (t->slot[s].mode != EVT_MODE_COUNT)
					spare_buffer(t->slot[s].packet_size,
						     t->slot[s].packet_count,
						     t->slot[s].guest);
			}
	tls_thread = NULL;
	state_put(t);
}

/* Hands out size bytes of a counter bounded by limit, never past it. */
static int take(uint64_t *counter, uint64_t size, uint64_t limit,
		uint64_t *start)
{
	uint64_t cur = __atomic_load_n(counter, __ATOMIC_RELAXED);

	do {
		if (cur + size > limit)
			return -1;
	} while (!__atomic_compare_exchange_n(counter, &cur, cur + size, 1,
					      __ATOMIC_RELAXED, __ATOMIC_RELAXED));
	*start = cur;
	return 0;
}

/* A free buffer of this geometry, claimed (made OWNED) with claim, or -1.
 * The engine sets FREE once it drained an exited buffer; spare_buffer()
 * makes one FREE ahead. */
static int find_free(uint32_t size, uint32_t count, bool claim)
{
	uint32_t i, n = __atomic_load_n(&evt__proc.ntbufs, __ATOMIC_ACQUIRE);

	for (i = 0; i < n && i < EVT_MAX_TBUFS; i++) {
		struct evt__tbuf_priv *p = &evt__proc.tbuf_priv[i];
		uint32_t expected = EVT_TBUF_FREE;

		if (!__atomic_load_n(&p->ready, __ATOMIC_ACQUIRE) ||
		    p->packet_size != size || p->packet_count != count)
			continue;
		if (!claim ? __atomic_load_n(&evt__proc.tbufs[i].state,
					     __ATOMIC_RELAXED) == EVT_TBUF_FREE :
		    __atomic_compare_exchange_n(&evt__proc.tbufs[i].state,
						&expected, EVT_TBUF_OWNED, 0,
						__ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
			return (int)i;
	}
	return -1;
}

/*
 * Raises the header's count of claimed descriptors to at least n, so that
 * readers need not scan the rest.  A few tries: the word is shared, and an
 * engine that keeps changing it only makes its own reads longer.
 */
static void publish_tbufs_used(uint32_t n)
{
	uint32_t cur = __atomic_load_n(&evt__proc.hdr->tbufs_used, __ATOMIC_RELAXED);
	int tries;

	for (tries = 0; tries < 8 && cur < n; tries++)
		if (__atomic_compare_exchange_n(&evt__proc.hdr->tbufs_used, &cur, n,
						0, __ATOMIC_RELEASE, __ATOMIC_RELAXED))
			break;
}

/*
 * A buffer's pages are made the file's and mapped in a step at a time as
 * the writer first reaches them, not all at its first event (a thread's
 * first event paid for a whole megabyte) nor one page fault at a time
 * in the middle of records: MADV_POPULATE_WRITE where the kernel has it
 * (5.14), fallocate otherwise.  Either fails, rather than a later write
 * raising SIGBUS, when tmpfs is full.
 */
#define RESERVE_FIRST 4096u		/* at a buffer's first event */
#define RESERVE_STEP (64u << 10)	/* each time after */

/* Reserves bytes up to upto from the buffer's start.  0, or -1. */
static int reserve_bytes(struct evt__tbuf_priv *p, uint64_t upto)
{
	uint64_t from = p->offset + p->reserved, len;
	uintptr_t start, end;
	int saved = errno, ret = 0;

	if (upto <= p->reserved)
		return 0;
	len = upto - p->reserved;
	/* Whole pages: the arena need not start on one, and populating a
	 * page a neighbouring buffer shares changes nothing in it. */
	start = (uintptr_t)(evt__proc.base + from) & ~(uintptr_t)4095;
	end = ((uintptr_t)(evt__proc.base + from + len) + 4095) & ~(uintptr_t)4095;
	if (madvise((void *)start, end - start, MADV_POPULATE_WRITE) &&
	    (errno != EINVAL || fallocate(evt__proc.fd, 0, (off_t)from, (off_t)len)))
		ret = -1;
	else
		p->reserved = upto;
	errno = saved;
	return ret;
}

/* Makes the page of buffer idx's struct evt_ctl_drops the file's, unless
 * a buffer sharing it did.  (The flags of a page's buffers are read by the
 * threads that take its other buffers, meanwhile: atomic both ways.) */
static void drops_page(uint32_t idx)
{
	const uint32_t per_page = 4096 / sizeof(struct evt_ctl_drops);
	uint32_t first = idx - idx % per_page, i;

	for (i = first; i < first + per_page && i < EVT_MAX_TBUFS; i++)
		if (i != idx && __atomic_load_n(&evt__proc.tbuf_priv[i].drops_ready,
						__ATOMIC_ACQUIRE)) {
			__atomic_store_n(&evt__proc.tbuf_priv[idx].drops_ready, true,
					 __ATOMIC_RELEASE);
			return;
		}
	if (populate(&evt__proc.drops[idx], sizeof(evt__proc.drops[idx])))
		__atomic_store_n(&evt__proc.tbuf_priv[idx].drops_ready, true,
				 __ATOMIC_RELEASE);
}

/*
 * A drop of event id in slot s by a thread with no buffer of it: counted
 * in the slot's nobuf_lost, and against the site in the slot's drop
 * entry, which threads share (an entry is claimed atomically, so two
 * threads may each claim one for a site: the recorder adds them up).
 */
__attribute__((cold, noinline))
static void slot_drop(unsigned s, uint32_t id, uint32_t cause)
{
	struct evt_ctl_drops *d = &evt__proc.drops[EVT_DROPS_OF_SLOT(EVT_MAX_TBUFS, s)];
	uint32_t i, n;

	__atomic_fetch_add(&evt__proc.slots[s].nobuf_lost, 1, __ATOMIC_RELAXED);
	if (!__atomic_load_n(&slot_drops_ready, __ATOMIC_ACQUIRE) ||
	    !cause || cause > EVT_DROP_CAUSES)
		return;
	n = __atomic_load_n(&d->nsites, __ATOMIC_ACQUIRE);
	for (i = 0; i < n && i < EVT_DROP_SITES; i++)
		if (__atomic_load_n(&d->site[i].id, __ATOMIC_RELAXED) == id &&
		    __atomic_load_n(&d->site[i].cause, __ATOMIC_RELAXED) == cause) {
			__atomic_fetch_add(&d->site[i].count, 1, __ATOMIC_RELAXED);
			return;
		}
	/* (full: never claimed again, so that the count cannot wrap round
	 * onto the entries in use) */
	i = n < EVT_DROP_SITES ? __atomic_fetch_add(&d->nsites, 1, __ATOMIC_ACQ_REL) :
	    EVT_DROP_SITES;
	if (i < EVT_DROP_SITES) {
		__atomic_store_n(&d->site[i].id, id, __ATOMIC_RELAXED);
		__atomic_store_n(&d->site[i].cause, cause, __ATOMIC_RELAXED);
		__atomic_fetch_add(&d->site[i].count, 1, __ATOMIC_RELEASE);
	} else {
		__atomic_fetch_add(&d->other[cause - 1], 1, __ATOMIC_RELAXED);
	}
}

/* A new buffer's descriptor index; -1 past the memory bound (for a
 * guest collection's buffer, past its share too) or the descriptor
 * table, -2 when the file system had no room for it. */
static int allocate(uint32_t size, uint32_t count, bool guest)
{
	uint64_t idx, off, unused;
	struct evt__tbuf_priv *p;
	uint32_t n32;

	/* (the share's bytes stay counted when the arena then refuses:
	 * bounded, as the arena's own) */
	if ((guest && take(&evt__proc.guest_arena_used, (uint64_t)size * count,
			   EVT_GUEST_ARENA_BYTES, &unused)) ||
	    take(&evt__proc.arena_used, (uint64_t)size * count,
		 EVT_ARENA_BYTES, &off))
		return -1;
	n32 = __atomic_fetch_add(&evt__proc.ntbufs, 1, __ATOMIC_ACQ_REL);
	idx = n32;
	if (idx >= EVT_MAX_TBUFS)
		return -1;	/* the arena bytes stay taken: bounded anyway */
	p = &evt__proc.tbuf_priv[idx];
	p->offset = evt__proc.arena_off + off;
	p->packet_size = size;
	p->packet_count = count;
	/* Its first page now, the rest as the writer reaches it: on a full
	 * tmpfs this fails, and the thread's events are dropped and
	 * counted, instead of a SIGBUS at a write.  (The descriptor slot
	 * stays taken: bounded.) */
	p->reserved = 0;
	if (reserve_bytes(p, (uint64_t)size * count < RESERVE_FIRST ?
			  (uint64_t)size * count : RESERVE_FIRST))
		return -2;
	drops_page((uint32_t)idx);
	/* Owned before it is ready: find_free() of another thread must not
	 * see it ready and still FREE. */
	__atomic_store_n(&evt__proc.tbufs[idx].state, EVT_TBUF_OWNED,
			 __ATOMIC_RELAXED);
	/* Pairs with find_free()'s acquire of ready. */
	__atomic_store_n(&p->ready, 1, __ATOMIC_RELEASE);
	publish_tbufs_used(n32 + 1);
	__atomic_store_n(&evt__proc.hdr->arena_used,
			 __atomic_load_n(&evt__proc.arena_used, __ATOMIC_RELAXED),
			 __ATOMIC_RELAXED);
	return (int)idx;
}

/*
 * Keeps a free buffer of this geometry ready, its first page mapped, for
 * the next thread's first event to take instead of making one (which
 * costs it a page mapped, 6 us on some virtual machines): made on cold
 * paths, a thread's exit and its second packet.  One at a time.
 */
static void spare_buffer(uint32_t size, uint32_t count, bool guest)
{
	int idx;

	if (find_free(size, count, false) >= 0)
		return;
	idx = allocate(size, count, guest);
	if (idx >= 0)	/* pairs with find_free()'s acquire */
		__atomic_store_n(&evt__proc.tbufs[idx].state, EVT_TBUF_FREE,
				 __ATOMIC_RELEASE);
}

/* Makes descriptor idx thread t's buffer (or counters) of slot s. */
static void take_desc(struct evt__thread *t, struct tslot *ts, int idx,
		      unsigned s, uint32_t gen, uint32_t size, uint32_t count,
		      uint32_t mode)
{
	struct evt_ctl_tbuf *d = &evt__proc.tbufs[idx];

	d->tid = t->tid;
	d->slot = s;
	d->slot_gen = gen;
	d->offset = evt__proc.tbuf_priv[idx].offset;
	d->packet_size = size;
	d->packet_count = count;
	d->produced = 0;
	d->consumed = 0;
	d->commit = 0;
	d->lost = 0;
	d->nested_lost = 0;
	memcpy(d->comm, t->comm, sizeof(d->comm));
	/* Pairs with the engine's acquire of epoch: the fields above are new. */
	__atomic_store_n(&d->epoch, d->epoch + 1, __ATOMIC_RELEASE);
	ts->base = evt__proc.base + evt__proc.tbuf_priv[idx].offset;
	ts->priv = &evt__proc.tbuf_priv[idx];
	ts->guest = guest_slot(s);
	ts->drops = NULL;
	if (__atomic_load_n(&ts->priv->drops_ready, __ATOMIC_ACQUIRE)) {
		/* (nothing of a thread before) */
		ts->drops = &evt__proc.drops[idx];
		memset(ts->drops, 0, sizeof(*ts->drops));
	}
	ts->desc = d;
	ts->packet_size = size;
	ts->packet_count = count;
	ts->mode = mode;
	/* A signal handler counts only into a slot it sees HAVE. */
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	ts->state = TSLOT_HAVE;
}

/* Gets thread t a buffer for slot s, per the slot's current settings. */
__attribute__((cold, noinline))
static int tslot_acquire(struct evt__thread *t, unsigned s)
{
	struct evt_ctl_slot *slot = &evt__proc.slots[s];
	struct tslot *ts = &t->slot[s];
	uint32_t state = __atomic_load_n(&slot->state, __ATOMIC_ACQUIRE);
	/* The seqlock's reader (slot_owner.h evt_slot_write): gen, then
	 * the settings, each with acquire (each pairs with the writer's
	 * release store of it, and keeps the second look at gen after
	 * it), then gen again. */
	uint32_t gen = __atomic_load_n(&slot->gen, __ATOMIC_ACQUIRE);
	uint32_t size = __atomic_load_n(&slot->packet_size, __ATOMIC_ACQUIRE);
	uint32_t count = __atomic_load_n(&slot->packet_count, __ATOMIC_ACQUIRE);
	uint32_t mode = __atomic_load_n(&slot->mode, __ATOMIC_ACQUIRE);
	bool guest = __atomic_load_n(&slot->number, __ATOMIC_ACQUIRE) >=
		     EVT_GUEST_NUMBER_FIRST;
	int idx;

	window_drop(s);
	if (ts->state == TSLOT_HAVE)		/* the slot changed owner */
		tslot_release(ts);
	memset(ts, 0, sizeof(*ts));
	ts->slot_gen = gen;
	ts->state = TSLOT_FAILED;
	ts->fail_cause = EVT_LOSS_NO_BUFFER;
	/* An engine rewriting the descriptor makes gen odd meanwhile: an
	 * odd gen, or one that moved, means fields half-written, and a
	 * later write asks again (it sees another gen). */
	if (state != EVT_SLOT_ACTIVE || mode > EVT_MODE_OVERWRITE || (gen & 1) ||
	    gen != __atomic_load_n(&slot->gen, __ATOMIC_RELAXED) ||
	    evt_buffer_config_check(size, count, NULL, 0))
		return -1;
	idx = find_free(size, count, true);
	if (idx < 0)
		idx = allocate(size, count, guest);
	if (idx < 0) {
		if (idx == -2)
			ts->fail_cause = EVT_LOSS_NO_SPACE;
		return -1;
	}
	take_desc(t, ts, idx, s, gen, size, count, mode);
	return 0;
}

/*
 * Gets thread t counters for counting slot s covering event id: an array
 * of whole chunks, as many as the process has events (or id needs), at
 * most one per event.  One it outgrew goes back for the engine to add up.
 */
__attribute__((cold, noinline))
static int counters_get(struct evt__thread *t, unsigned s, uint32_t id,
			uint32_t gen)
{
	struct tslot *ts = &t->slot[s];
	uint32_t n = __atomic_load_n(&evt__proc.nevents, __ATOMIC_RELAXED);
	uint64_t bytes;
	int idx;

	if (n < id + 1)
		n = id + 1;
	bytes = ((uint64_t)n * 8 + EVT_COUNTERS_CHUNK - 1) & ~(uint64_t)(EVT_COUNTERS_CHUNK - 1);
	if (bytes > (uint64_t)EVT_MAX_EVENTS * 8)
		bytes = (uint64_t)EVT_MAX_EVENTS * 8;
	window_drop(s);
	if (ts->state == TSLOT_HAVE)
		tslot_release(ts);
	/* A signal handler counts only into a slot it sees HAVE: not while
	 * the fields change. */
	ts->state = TSLOT_NONE;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	memset(ts, 0, sizeof(*ts));
	ts->slot_gen = gen;
	ts->state = TSLOT_FAILED;
	if (id >= bytes / 8)
		return -1;
	idx = find_free((uint32_t)bytes, 1, true);
	if (idx >= 0)	/* a thread's before: start from zero */
		memset(evt__proc.base + evt__proc.tbuf_priv[idx].offset, 0, bytes);
	else
		idx = allocate((uint32_t)bytes, 1, guest_slot(s));
	if (idx < 0)
		return -1;
	take_desc(t, ts, idx, s, gen, (uint32_t)bytes, 1, EVT_MODE_COUNT);
	return 0;
}

static inline void counter_add(uint64_t *c);

/* Adds what signal handlers left pending; what finds no counters is
 * counted as lost.  Entries stay put until the count is reset, and a
 * handler only appends, so none is missed or added twice. */
static void add_pending(struct evt__thread *t)
{
	uint32_t done = 0, n;

	do {
		n = __atomic_load_n(&t->npending, __ATOMIC_RELAXED);
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		for (; done < n; done++) {
			uint32_t id, s;
			struct tslot *ts;

			uint32_t gen;

			if (done >= sizeof(t->pending) / sizeof(t->pending[0]))
				continue;	/* counted as lost when appended */
			id = t->pending[done].id;
			s = t->pending[done].slot;
			ts = &t->slot[s];
			gen = __atomic_load_n(&evt__proc.slots[s].gen, __ATOMIC_ACQUIRE);
			if (!(ts->state == TSLOT_HAVE && ts->mode == EVT_MODE_COUNT &&
			      ts->slot_gen == gen && id < ts->packet_size / 8) &&
			    !(gen & 1) &&
			    __atomic_load_n(&evt__proc.slots[s].mode,
					    __ATOMIC_RELAXED) == EVT_MODE_COUNT)
				counters_get(t, s, id, gen);	/* another slot's */
			if (ts->state == TSLOT_HAVE && ts->mode == EVT_MODE_COUNT &&
			    id < ts->packet_size / 8)
				counter_add((uint64_t *)ts->base + id);
			else
				__atomic_fetch_add(&evt__proc.slots[s].nobuf_lost, 1,
						   __ATOMIC_RELAXED);
		}
	} while (!__atomic_compare_exchange_n(&t->npending, &n, 0, 0,
					      __ATOMIC_RELAXED, __ATOMIC_RELAXED));
}

static int counters_acquire(struct evt__thread *t, unsigned s, uint32_t id,
			    uint32_t gen)
{
	int ret;

	t->acquiring = 1;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	ret = counters_get(t, s, id, gen);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	add_pending(t);
	t->acquiring = 0;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	/* One that came between the last look and now. */
	if (__atomic_load_n(&t->npending, __ATOMIC_RELAXED))
		add_pending(t);
	return ret;
}

/* One instruction a signal handler cannot come in the middle of: only
 * this thread adds to its counters, so no lock prefix is needed. */
static inline void counter_add(uint64_t *c)
{
#if defined(__x86_64__)
	__asm__ volatile("addq $1, %0" : "+m"(*c));
#else
	__atomic_fetch_add(c, 1, __ATOMIC_RELAXED);
#endif
}

/*
 * In a write that interrupted another on this thread: counts event id in
 * the counting slots of mask whose counters are ready and cover it (an
 * add the interrupted code cannot be in the middle of), and returns the
 * other slots.
 */
static uint32_t count_nested(struct evt__thread *t, uint32_t id, uint32_t mask)
{
	uint32_t rest = mask, m;

	for (m = mask; m; m &= m - 1) {
		unsigned s = (unsigned)__builtin_ctz(m);
		struct tslot *ts = &t->slot[s];

		uint32_t gen = __atomic_load_n(&evt__proc.slots[s].gen,
					       __ATOMIC_ACQUIRE), i;

		if (ts->state == TSLOT_HAVE && ts->mode == EVT_MODE_COUNT &&
		    ts->slot_gen == gen && id < ts->packet_size / 8) {
			counter_add((uint64_t *)ts->base + id);
			rest &= ~(1u << s);
		} else if (t->acquiring) {
			/* It is getting counters: it adds this one after. */
			i = __atomic_fetch_add(&t->npending, 1, __ATOMIC_RELAXED);
			if (i < sizeof(t->pending) / sizeof(t->pending[0])) {
				t->pending[i].id = id;
				t->pending[i].slot = s;
			} else {
				__atomic_fetch_add(&evt__proc.slots[s].nobuf_lost, 1,
						   __ATOMIC_RELAXED);
			}
			rest &= ~(1u << s);
		} else if (__atomic_load_n(&evt__proc.slots[s].mode,
					   __ATOMIC_RELAXED) == EVT_MODE_COUNT &&
			   __atomic_load_n(&evt__proc.slots[s].state,
					   __ATOMIC_ACQUIRE) == EVT_SLOT_ACTIVE &&
			   !(gen & 1)) {
			/* The interrupted code is not getting counters: this
			 * handler may (no lock, no allocation but the arena). */
			if (counters_acquire(t, s, id, gen) == 0)
				counter_add((uint64_t *)ts->base + id);
			else
				__atomic_fetch_add(&evt__proc.slots[s].nobuf_lost, 1,
						   __ATOMIC_RELAXED);
			rest &= ~(1u << s);
		}
	}
	return rest;
}

/*
 * Counts event id in the counting slots of mask and returns the others.
 * A counting slot whose counters cannot be had (the memory bound) counts
 * the event as lost.
 */
static uint32_t count_slots(struct evt__thread *t, uint32_t id, uint32_t mask)
{
	uint32_t rest = mask, m;

	for (m = mask; m; m &= m - 1) {
		unsigned s = (unsigned)__builtin_ctz(m);
		struct tslot *ts = &t->slot[s];
		uint32_t gen = __atomic_load_n(&evt__proc.slots[s].gen, __ATOMIC_ACQUIRE);

		if (ts->state != TSLOT_HAVE || ts->slot_gen != gen) {
			struct evt_ctl_slot *slot = &evt__proc.slots[s];

			if (__atomic_load_n(&slot->mode, __ATOMIC_RELAXED) != EVT_MODE_COUNT)
				continue;	/* a recording slot: slot_reserve() */
			if (__atomic_load_n(&slot->state, __ATOMIC_ACQUIRE) != EVT_SLOT_ACTIVE ||
			    (gen & 1) || (ts->state == TSLOT_FAILED && ts->slot_gen == gen &&
					  ts->mode == EVT_MODE_COUNT) ||
			    counters_acquire(t, s, id, gen)) {
				ts->mode = EVT_MODE_COUNT;	/* failed, for this gen */
				rest &= ~(1u << s);
				__atomic_fetch_add(&slot->nobuf_lost, 1, __ATOMIC_RELAXED);
				continue;
			}
		}
		if (ts->mode != EVT_MODE_COUNT)
			continue;
		rest &= ~(1u << s);
		if (__builtin_expect(id >= ts->packet_size / 8, 0) &&
		    counters_acquire(t, s, id, gen)) {
			ts->mode = EVT_MODE_COUNT;
			__atomic_fetch_add(&evt__proc.slots[s].nobuf_lost, 1,
					   __ATOMIC_RELAXED);
			continue;
		}
		counter_add((uint64_t *)ts->base + id);
	}
	return rest;
}

static inline struct evt_packet_header *packet_at(struct tslot *ts)
{
	return (struct evt_packet_header *)(ts->base +
					    (size_t)ts->idx * ts->packet_size);
}

/*
 * The engine that owns a slot may sleep until woken (futex on the slot's
 * waiting word) instead of polling: a buffer half full wakes it.  One
 * system call per sleep at most, which never blocks; errno is kept.
 */
__attribute__((cold, noinline))
static void wake_engine(uint32_t *waiting)
{
	int saved = errno;

	if (__atomic_exchange_n(waiting, 0, __ATOMIC_RELAXED))
		syscall(SYS_futex, waiting, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
	errno = saved;
}

/*
 * Whether the thread runs a signal handler, as far as its signal mask
 * tells: a handler runs with its own signal blocked (unless installed
 * with SA_NODEFER), so a mask with a signal the thread's usual one lacks
 * is taken for one.  The usual mask is the least the thread was seen
 * with here.  (A thread that blocks signals for a while in its own code
 * is taken for a handler then too, and does not wait.)
 */
static bool in_signal_handler(struct evt__thread *t)
{
	uint64_t mask = 0;

	if (syscall(SYS_rt_sigprocmask, SIG_BLOCK, NULL, &mask, sizeof(mask)))
		return false;
	if (!t->sigmask_seen) {
		t->sigmask_seen = true;
		t->sigmask_usual = mask;
		return false;
	}
	t->sigmask_usual &= mask;
	return (mask & ~t->sigmask_usual) != 0;
}

/*
 * A full buffer of a slot whose recorder asks writers to wait: waits for
 * it to give a packet back, asleep on the low half of consumed (it wakes
 * us when it stores consumed and sees writer_waits), looking again every
 * millisecond whatever it does: block_us at most, or, with EVT_BLOCK_INF,
 * as long as the slot's heartbeat moves (layout.h).  0 when there is
 * room; -1 when the wait ran out; -2 when it did not wait (a signal
 * handler's write under EVT_BLOCK_INF, which must not hold its thread
 * for as long as a recorder takes).  A recorder that gave nothing back
 * in a whole wait is not waited for again until it does: one that died
 * costs the thread one wait, not one per event.  A write nested in
 * another never gets here (dropped).
 */
__attribute__((cold, noinline))
static int wait_for_room(struct evt__thread *t, struct tslot *ts,
			 uint32_t block_us, struct evt_ctl_slot *sl)
{
	struct evt_ctl_tbuf *d = ts->desc;
	uint64_t consumed = __atomic_load_n(&d->consumed, __ATOMIC_ACQUIRE);
	bool inf = block_us == EVT_BLOCK_INF;
	uint32_t beat = __atomic_load_n(&sl->heartbeat, __ATOMIC_RELAXED);
	uint32_t gen = __atomic_load_n(&sl->gen, __ATOMIC_RELAXED);
	int64_t limit_ns, waited_ns, beat_ns = 0;
	struct timespec start, now, left;
	int saved = errno, ret = -1;

	if (ts->gave_up_at == consumed + 1)
		return -1;
	if (inf && in_signal_handler(t)) {
		errno = saved;
		return -2;
	}
	limit_ns = inf ? (int64_t)EVT_BLOCK_STALL_MS * 1000000 :
		   (int64_t)(block_us < EVT_BLOCK_MAX_US ? block_us : EVT_BLOCK_MAX_US) * 1000;
	clock_gettime(CLOCK_MONOTONIC, &start);
	__atomic_store_n(&d->writer_waits, 1, __ATOMIC_SEQ_CST);
	wake_engine(&sl->waiting);
	for (;;) {
		/* Pairs with the recorder's store of consumed. */
		consumed = __atomic_load_n(&d->consumed, __ATOMIC_SEQ_CST);
		if (ts->seq - consumed < ts->packet_count) {
			ret = 0;
			break;
		}
		clock_gettime(CLOCK_MONOTONIC, &now);
		waited_ns = (now.tv_sec - start.tv_sec) * 1000000000LL +
			    (now.tv_nsec - start.tv_nsec);
		if (inf) {
			uint32_t b = __atomic_load_n(&sl->heartbeat, __ATOMIC_RELAXED);

			/* The engine went, or another took the slot. */
			if (__atomic_load_n(&sl->gen, __ATOMIC_RELAXED) != gen ||
			    __atomic_load_n(&sl->state, __ATOMIC_RELAXED) !=
			    EVT_SLOT_ACTIVE)
				break;
			if (b != beat) {
				beat = b;
				beat_ns = waited_ns;
			}
			if (waited_ns - beat_ns >= limit_ns)
				break;
		} else if (waited_ns >= limit_ns) {
			break;
		}
		left.tv_sec = 0;
		left.tv_nsec = inf || limit_ns - waited_ns >= 1000000 ? 1000000 :
			       limit_ns - waited_ns;
		syscall(SYS_futex, (uint32_t *)&d->consumed, FUTEX_WAIT,
			(uint32_t)consumed, &left, NULL, 0);
	}
	__atomic_store_n(&d->writer_waits, 0, __ATOMIC_RELAXED);
	ts->gave_up_at = ret ? consumed + 1 : 0;
	errno = saved;
	return ret;
}

/* Bytes of packet ts->idx reserved, at most its size. */
static inline uint32_t packet_room(const struct tslot *ts)
{
	uint64_t start = (uint64_t)ts->idx * ts->packet_size;
	uint64_t r = ts->priv->reserved;

	if (r <= start)
		return 0;
	return r - start >= ts->packet_size ? ts->packet_size : (uint32_t)(r - start);
}

/* Reserves need bytes of packet ts->idx from its start at least, a step
 * more where the buffer has them.  0, or -1: the event is dropped. */
__attribute__((cold, noinline))
static int reserve_more(struct tslot *ts, uint32_t need)
{
	uint64_t upto = (uint64_t)ts->idx * ts->packet_size + need;
	uint64_t end = (uint64_t)ts->packet_count * ts->packet_size;

	if (upto < ts->priv->reserved + RESERVE_STEP)
		upto = ts->priv->reserved + RESERVE_STEP;
	return reserve_bytes(ts->priv, upto < end ? upto : end);
}

/*
 * Drops event id from the buffer for cause: counted in the buffer's lost
 * count (the next packet's header has it) and against the site in the
 * buffer's struct evt_ctl_drops, which the next packet names in its
 * evtrace/lost records (lost_record.h).
 */
__attribute__((cold, noinline))
static void note_drop(struct tslot *ts, uint32_t id, uint32_t cause)
{
	struct evt_ctl_drops *d = ts->drops;
	uint32_t i, n;

	ts->lost++;
	ts->desc->lost = ts->lost;
	if (!d)
		return;
	ts->drops_pending = true;
	n = d->nsites < EVT_DROP_SITES ? d->nsites : EVT_DROP_SITES;
	for (i = 0; i < n; i++)
		if (d->site[i].id == id && d->site[i].cause == cause) {
			d->site[i].count++;
			return;
		}
	if (n < EVT_DROP_SITES) {
		d->site[n] = (struct evt_ctl_drop){ .id = id, .cause = cause,
						    .count = 1 };
		d->nsites = n + 1;
	} else {
		d->other[cause - 1]++;
	}
}

/* The bytes the pending evtrace/lost records take, a CPU record first. */
static uint32_t drops_bytes(const struct evt_ctl_drops *d)
{
	uint32_t n = d->nsites < EVT_DROP_SITES ? d->nsites : EVT_DROP_SITES, c;

	for (c = 0; c < EVT_DROP_CAUSES; c++)
		n += d->other[c] != 0;
	return EVT_CPU_RECORD_BYTES +
	       n * (EVT_HDR_EXTENDED_BYTES + EVT_LOST_PAYLOAD_BYTES);
}

static void put_drop(struct tslot *ts, uint32_t site, uint32_t cause,
		     uint64_t count, uint64_t now, uint32_t cpu)
{
	struct evt_lost_entry e = { .site = site, .cause = (uint8_t)cause,
				    .count = count };
	uint8_t *p = ts->packet + ts->off;
	unsigned n = evt_hdr_put(p, &ts->hs, EVT_LOST_EVENT_ID, now, cpu);

	evt_lost_payload_put(p + n, &e);
	ts->off += n + EVT_LOST_PAYLOAD_BYTES;
}

/*
 * The packet just opened names what the buffer dropped since the last one
 * (its header counts it), before its first record, of bytes.  Where both
 * do not fit (a record near the smallest packet's size), the drops stay
 * counted but unnamed.
 */
__attribute__((cold, noinline))
static void put_drops(struct tslot *ts, uint32_t bytes, uint64_t now,
		      uint32_t cpu)
{
	struct evt_ctl_drops *d = ts->drops;
	uint32_t i, c, n = d->nsites < EVT_DROP_SITES ? d->nsites : EVT_DROP_SITES;

	if (ts->off + drops_bytes(d) + bytes <= ts->limit) {
		for (i = 0; i < n; i++)
			put_drop(ts, d->site[i].id, d->site[i].cause,
				 d->site[i].count, now, cpu);
		for (c = 0; c < EVT_DROP_CAUSES; c++)
			if (d->other[c])
				put_drop(ts, EVT_LOST_SITE_OTHER, c + 1,
					 d->other[c], now, cpu);
	}
	d->nsites = 0;
	memset(d->other, 0, sizeof(d->other));
	ts->drops_pending = false;
}

/* Drops event id for want of room in the file system. */
__attribute__((cold, noinline))
static uint8_t *no_space(struct tslot *ts, uint32_t id)
{
	note_drop(ts, id, EVT_LOSS_NO_SPACE);
	return NULL;
}

/* Closes the open packet, if any, and opens the next for a record of
 * event id of at most bytes; NULL, counted, when the buffer is full or the
 * file system. */
__attribute__((noinline))
static uint8_t *next_packet(struct evt__thread *t, struct tslot *ts,
			    unsigned s, uint32_t id, uint32_t bytes,
			    uint64_t now, uint32_t cpu)
{
	struct evt_packet_header *h;
	uint32_t need;

	window_drop(s);
	if (ts->limit) {
		/* Every record it holds is inside it. */
		evt_invariant(ts->off <= ts->limit && ts->limit <= ts->packet_size);
		h = (struct evt_packet_header *)ts->packet;
		/* The thread's latest timestamp: no earlier than this packet's
		 * last record, no later than the next packet's first. */
		evt_packet_header_close(h, t->last_ts, ts->off);
		ts->seq++;
		ts->idx = ts->idx + 1 == ts->packet_count ? 0 : ts->idx + 1;
		ts->off = ts->limit = 0;
		/* No open packet until the next one is: an engine that reads
		 * produced, commit, produced again sees 0 or the new one's. */
		__atomic_store_n(&ts->desc->commit, 0, __ATOMIC_RELEASE);
		/* Pairs with the engine's acquire of produced. */
		__atomic_store_n(&ts->desc->produced, ts->seq, __ATOMIC_RELEASE);
	}
	if (ts->mode == EVT_MODE_DISCARD) {
		/* Pairs with the engine's release of consumed; a wild value
		 * only makes the buffer look full. */
		uint64_t consumed = __atomic_load_n(&ts->desc->consumed,
						    __ATOMIC_ACQUIRE);
		uint64_t used = ts->seq - consumed;

		if (used >= ts->packet_count / 2 &&
		    __atomic_load_n(&evt__proc.slots[s].waiting, __ATOMIC_RELAXED))
			wake_engine(&evt__proc.slots[s].waiting);
		if (used >= ts->packet_count) {
			uint32_t block_us = __atomic_load_n(&evt__proc.slots[s].block_us,
							    __ATOMIC_RELAXED);

			int waited = block_us ? wait_for_room(t, ts, block_us,
							      &evt__proc.slots[s]) : -2;

			if (waited) {
				note_drop(ts, id, waited == -1 ? EVT_LOSS_BLOCK_TIMEOUT :
						  EVT_LOSS_FULL);
				if (s != 0)
					evt__orphan_check(s, now);
				return NULL;
			}
		}
	}
	need = sizeof(*h) + EVT_HDR_MAX_BYTES + EVT_COMMIT_MARK_BYTES +
	       (ts->drops_pending ? drops_bytes(ts->drops) : 0);
	if (__builtin_expect(packet_room(ts) < need, 0) && reserve_more(ts, need))
		return no_space(ts, id);
	h = packet_at(ts);
	evt_packet_header_open(h, 0, ts->seq, now, ts->packet_size,
			       ts->lost + __atomic_load_n(&ts->desc->nested_lost,
							  __ATOMIC_RELAXED),
			       ts->written, evt__proc.pid, t->tid, t->comm);
	ts->packet = (uint8_t *)h;
	ts->off = sizeof(*h);
	evt_hdr_reset(&ts->hs);
	ts->limit = packet_room(ts);
	evt_invariant(ts->limit >= need && ts->idx < ts->packet_count);
	if (__builtin_expect(ts->drops_pending, 0))
		put_drops(ts, bytes, now, cpu);
	evt_commit_mark_clear(ts->packet + ts->off);
	__atomic_store_n(&ts->desc->commit, ts->off, __ATOMIC_RELEASE);
	if (ts->seq == 1)	/* the thread writes on: the next one's buffer */
		spare_buffer(ts->packet_size, ts->packet_count, ts->guest);
	return (uint8_t *)h + ts->off;
}

/*
 * Copies s with its NUL; a string longer than the bound is cut and ends in
 * "...".  Short strings, the usual case, are moved with two overlapping
 * loads and stores instead of a memcpy call or a byte loop; nothing past
 * the NUL is read.
 */
static inline uint8_t *copy_string(uint8_t *p, const char *s)
{
	size_t n = strnlen(s, EVT_STRING_MAX_BYTES), len = n + 1;

	if (__builtin_expect(n >= EVT_STRING_MAX_BYTES, 0)) {
		memcpy(p, s, EVT_STRING_MAX_BYTES - 4);
		memcpy(p + EVT_STRING_MAX_BYTES - 4, "...", 4);
		return p + EVT_STRING_MAX_BYTES;
	}
	/* (the sites' own copy, bits/window.h: no rep movsq) */
	evt__copy_bytes(p, s, (uint32_t)len);
	return p + len;
}

/*
 * A string under a precision: at most precision bytes of s are read
 * (printf reads no further, and the buffer may have no NUL).  A negative
 * precision is none; NULL is "(null)" where that fits, else "", as glibc
 * prints it.
 */
__attribute__((noinline))
static uint8_t *copy_string_limited(uint8_t *p, const char *s, int32_t precision)
{
	size_t n;

	if (precision < 0 || precision >= EVT_STRING_MAX_BYTES)
		return copy_string(p, s ? s : "(null)");
	if (!s)
		s = precision < 6 ? "" : "(null)";
	n = strnlen(s, (size_t)precision);
	memcpy(p, s, n);
	p[n] = '\0';
	return p + n + 1;
}

/* Stores the arguments of a printk site; returns their bytes. */
static uint32_t encode(uint8_t *dst, const struct evt__site_rt *rt, va_list *ap)
{
	uint8_t *p = dst;
	uint32_t i;
	int32_t precision = -1;	/* a '*' precision precedes its string */

	for (i = 0; i < rt->nargs; i++) {
		switch (rt->types[i]) {
		case EVT_ARG_I8: case EVT_ARG_U8:
			*p++ = (uint8_t)va_arg(*ap, int);
			break;
		case EVT_ARG_I16: case EVT_ARG_U16: {
			uint16_t v = (uint16_t)va_arg(*ap, int);
			memcpy(p, &v, 2);
			p += 2;
			break;
		}
		case EVT_ARG_I32: case EVT_ARG_U32: {
			uint32_t v = va_arg(*ap, unsigned);
			memcpy(p, &v, 4);
			p += 4;
			break;
		}
		case EVT__ARG_PRECISION:
			precision = va_arg(*ap, int);
			memcpy(p, &precision, 4);
			p += 4;
			break;
		case EVT_ARG_I64: case EVT_ARG_U64: {
			uint64_t v = va_arg(*ap, unsigned long long);
			memcpy(p, &v, 8);
			p += 8;
			break;
		}
		case EVT_ARG_DOUBLE: {
			double v = va_arg(*ap, double);
			memcpy(p, &v, 8);
			p += 8;
			break;
		}
		case EVT_ARG_PTR: {
			uint64_t v = (uintptr_t)va_arg(*ap, void *);
			memcpy(p, &v, 8);
			p += 8;
			break;
		}
		case EVT_ARG_STRING: {
			const char *s = va_arg(*ap, const char *);

			p = copy_string(p, s ? s : "(null)");
			break;
		}
		case EVT__ARG_STRING_LIMITED:
			p = copy_string_limited(p, va_arg(*ap, const char *),
						rt->str_limit[i] == EVT__STR_STAR_LIMIT ?
						precision : rt->str_limit[i]);
			break;
		}
	}
	return (uint32_t)(p - dst);
}

/* Event id dropped in the slots of mask: by a write nested in another
 * (counted in the buffer it could not write), or for want of a buffer
 * (counted against the site, for the cause the thread's slot says). */
__attribute__((cold, noinline))
static uint8_t *drop_all(struct evt__thread *t, uint32_t mask, int nested,
			 uint32_t id)
{
	unsigned s;

	for (s = 0; s < EVT_NSLOTS; s++) {
		if (!(mask & (1u << s)))
			continue;
		if (t && nested && t->slot[s].state == TSLOT_HAVE)
			__atomic_fetch_add(&t->slot[s].desc->nested_lost, 1,
					   __ATOMIC_RELAXED);
		else if (nested)	/* a handler: no shared entry */
			__atomic_fetch_add(&evt__proc.slots[s].nobuf_lost, 1,
					   __ATOMIC_RELAXED);
		else
			slot_drop(s, id, t && t->slot[s].state == TSLOT_FAILED ?
				  t->slot[s].fail_cause : EVT_LOSS_NO_BUFFER);
	}
	return NULL;
}

/* Whether slot s must take a buffer: it has none, or one of an earlier
 * configuration of the slot; *failed when a take failed in this one
 * already (then its events are dropped until the slot changes). */
static inline bool tslot_needs_buffer(const struct tslot *ts, unsigned s,
				      bool *failed)
{
	uint32_t gen = __atomic_load_n(&evt__proc.slots[s].gen, __ATOMIC_RELAXED);

	*failed = ts->state == TSLOT_FAILED && ts->slot_gen == gen;
	return ts->state != TSLOT_HAVE || ts->slot_gen != gen;
}

/*
 * Where a record of bytes goes in slot s's buffer when the slot needs a
 * buffer, a new packet or is found reconfigured; NULL, counted, if none.
 */
__attribute__((noinline))
static uint8_t *slot_reserve_slow(struct evt__thread *t, unsigned s, uint32_t id,
				  uint32_t bytes, uint64_t now, uint32_t cpu)
{
	struct tslot *ts = &t->slot[s];
	bool failed;

	if (tslot_needs_buffer(ts, s, &failed) && (failed || tslot_acquire(t, s))) {
		drop_all(t, 1u << s, 0, id);
		return NULL;
	}
	if (ts->off + bytes <= ts->limit)
		return ts->packet + ts->off;
	/* The buffer's first pass: the open packet's next pages. */
	if (ts->limit && ts->limit < ts->packet_size &&
	    ts->off + bytes <= ts->packet_size) {
		window_drop(s);
		if (reserve_more(ts, ts->off + bytes) == 0) {
			ts->limit = packet_room(ts);
			return ts->packet + ts->off;
		}
		return no_space(ts, id);
	}
	return next_packet(t, ts, s, id, bytes, now, cpu);
}

/* The usual case inline: the open packet of the slot's current buffer has
 * room (limit is 0 while no packet is open, and no buffer means none). */
static inline uint8_t *slot_reserve(struct evt__thread *t, unsigned s,
				    uint32_t id, uint32_t bytes, uint64_t now,
				    uint32_t cpu)
{
	struct tslot *ts = &t->slot[s];

	bytes += EVT_COMMIT_MARK_BYTES;
	if (__builtin_expect(ts->off + bytes <= ts->limit &&
			     ts->slot_gen == __atomic_load_n(&evt__proc.slots[s].gen,
							     __ATOMIC_RELAXED), 1))
		return ts->packet + ts->off;
	return slot_reserve_slow(t, s, id, bytes, now, cpu);
}

static inline void slot_publish(struct tslot *ts, uint32_t len)
{
	evt_invariant(ts->off + len + EVT_COMMIT_MARK_BYTES <= ts->limit);
	ts->off += len;
	evt_commit_mark_clear(ts->packet + ts->off);
	ts->written++;
	/* Pairs with the engine's acquire of commit. */
	__atomic_store_n(&ts->desc->commit, ts->off, __ATOMIC_RELEASE);
}

/* The record's timestamp, never before the thread's previous one. */
static inline uint64_t ordered(struct evt__thread *t, uint64_t now)
{
	if (__builtin_expect(now < t->last_ts, 0))
		now = t->last_ts;	/* rdtsc ran ahead of an earlier one */
	t->last_ts = now;
	return now;
}

/*
 * The writer keeps in w->slot the slot (low byte), the header's bytes and
 * the event id; in w->mask the slots still to copy the record to (they
 * need their own headers) and the CPU above them.
 */
#define WRITER_HLEN_SHIFT 8
#define WRITER_ID_SHIFT 16
#define WRITER_CPU_SHIFT 16
_Static_assert(EVT_MAX_EVENTS <= EVT_CPU_EVENT_ID && EVT_HDR_MAX_BYTES < 256,
	       "ids and header bytes fit the writer's fields");

static inline uint8_t *put_header(struct evt__writer *w, struct tslot *ts,
				  uint8_t *rec, uint32_t id, uint64_t now,
				  uint32_t cpu)
{
	unsigned n = evt_hdr_put(rec, &ts->hs, id, now, cpu);

	w->slot |= n << WRITER_HLEN_SHIFT | id << WRITER_ID_SHIFT;
	return rec + n;
}

/* The event whose enable word the site reads: a span's switch. */
static inline uint32_t word_id(const struct evt__site_rt *rt)
{
	return rt->head_rt ? rt->head_rt->id : rt->id;
}

/* Event id's rate limit as an engine set it (layout.h), read from the
 * file (its page may be a hole, which reads 0 without faulting in). */
static uint32_t read_rate(uint32_t id)
{
	uint32_t rate = 0;
	int saved = errno;

	if (id >= EVT_MAX_EVENTS || evt__proc.fd < 0 ||
	    pread(evt__proc.fd, &rate, sizeof(rate),
		  (off_t)(evt__proc.rates_off + (uint64_t)id * sizeof(rate))) !=
	    (ssize_t)sizeof(rate))
		rate = 0;
	errno = saved;
	return rate < EVT_RATE_MAX ? rate : EVT_RATE_MAX;
}

/* Whether the thread may write one more event id this second.  Its entry,
 * or the one used longest ago (whose event, met again, starts a second
 * afresh: more than 32 capped events in a thread may exceed their rates). */
__attribute__((noinline))
static bool rate_allows(struct evt__thread *t, uint32_t id)
{
	const unsigned n = sizeof(t->rates) / sizeof(t->rates[0]);
	struct rate_use *r = &t->rates[0];
	struct timespec now;
	uint32_t second;
	unsigned i;

	for (i = 0; i < n && t->rates[i].id != id; i++)
		if (t->rates[i].second < r->second)
			r = &t->rates[i];
	if (i < n && t->rates[i].second)
		r = &t->rates[i];
	/* The clock the trace's times map to: the coarse one lags it by up
	 * to a tick, which put a second's first events in the one before,
	 * and a trace showed twice the rate in a second. */
	clock_gettime(CLOCK_MONOTONIC, &now);
	second = (uint32_t)now.tv_sec + 1;
	if (r->id != id || r->second != second) {
		r->id = id;
		r->second = second;
		r->used = 0;
		r->rate = read_rate(id);	/* a change is taken each second */
	}
	if (!r->rate || r->used < r->rate) {
		r->used++;
		return true;
	}
	t->rate_held_second = second;
	return false;
}

/* An event over its rate: counted against its site in every slot of
 * mask that records, with the cause. */
__attribute__((cold, noinline))
static void rate_suppress(struct evt__thread *t, uint32_t id, uint32_t mask)
{
	t->rate_held = true;
	for (; mask; mask &= mask - 1) {
		unsigned s = (unsigned)__builtin_ctz(mask);
		struct tslot *ts = &t->slot[s];
		bool failed;

		if (tslot_needs_buffer(ts, s, &failed) && (failed || tslot_acquire(t, s))) {
			drop_all(t, 1u << s, 0, id);
			continue;
		}
		note_drop(ts, id, EVT_LOSS_RATE_LIMIT);
	}
}

/* A rate bit an engine left on a word no slot wants any more: taken away,
 * so that the site costs a compare and a branch again. */
__attribute__((cold, noinline))
static void rate_bit_stale(uint32_t id, uint32_t word)
{
	if (id < EVT_MAX_EVENTS && evt__proc.fd >= 0)
		__atomic_compare_exchange_n(&evt__proc.enable[id], &word,
					    word & ~EVT_RATE_BIT, 0,
					    __ATOMIC_RELAXED, __ATOMIC_RELAXED);
}

/* write_begin() for any mask, and for a slot that needs a buffer, a new
 * packet or a check; the thread is busy already.  mask is the enable
 * word as the site read it. */
static uint8_t *begin_slots(struct evt__thread *t, const struct evt__site_rt *rt,
			    uint32_t mask, uint32_t max_bytes,
			    struct evt__writer *w)
{
	uint32_t rated = mask & EVT_RATE_BIT;
	uint16_t cpu;
	uint64_t now;

	t->rate_held = false;
	if (__builtin_expect(rated != 0, 0) &&
	    !(mask & (EVT_SLOT_MASK | EVT_SLOT_MASK << EVT_VIEW_SHIFT)))
		rate_bit_stale(word_id(rt), mask);
	/* Counting first, and without reading the clock. */
	mask = count_slots(t, rt->id, mask & EVT_SLOT_MASK);
	if (mask && rated && !rate_allows(t, word_id(rt))) {
		rate_suppress(t, word_id(rt), mask);
		mask = 0;
	}
	if (!mask) {
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		BUSY = 0;
		return NULL;
	}
	/* A slot without its buffer takes it before the clock is read: a
	 * live reader hands events up to the time it began reading the
	 * buffers it saw, and a record stamped before its buffer could be
	 * seen (a thread's first, after system calls) came after them.  A
	 * buffer that cannot be had: slot_reserve drops, as before. */
	for (uint32_t m = mask; m; m &= m - 1) {
		unsigned s = (unsigned)__builtin_ctz(m);
		bool failed;

		if (tslot_needs_buffer(&t->slot[s], s, &failed) && !failed)
			(void)tslot_acquire(t, s);
	}
	now = ordered(t, evt_clock_now(evt__proc.clock_kind, &cpu));

	for (; mask; mask &= mask - 1) {
		unsigned s = (unsigned)__builtin_ctz(mask);
		uint8_t *rec = slot_reserve(t, s, rt->id, max_bytes, now, cpu);

		if (rec) {
			w->thread = t;
			w->record = rec;
			w->now = now;
			w->slot = s;
			w->mask = (mask & (mask - 1)) |
				  (uint32_t)cpu << WRITER_CPU_SHIFT;
			return put_header(w, &t->slot[s], rec, rt->id, now, cpu);
		}
	}
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	BUSY = 0;
	return NULL;
}

/*
 * The slow paths make system calls (a new thread's state, a buffer, a
 * clock without rseq) that may fail; the traced program's errno must come
 * out as it went in, since code like
 *	if (read(...) < 0) { trace_printk(...); perror("read"); }
 * is common.
 */
__attribute__((noinline))
static uint8_t *write_begin_slots(struct evt__thread *t,
				  const struct evt__site_rt *rt, uint32_t mask,
				  uint32_t max_bytes, struct evt__writer *w)
{
	int saved = errno;
	uint8_t *rec = begin_slots(t, rt, mask, max_bytes, w);

	errno = saved;
	return rec;
}

/* Whether a capped thread has been so for long enough: from its cap's
 * second to the end of the next (a second at least). */
static bool capped_over(const struct evt__thread *t)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (uint32_t)now.tv_sec + 1 - t->capped_second > 1;
}

/* Event id of a capped thread, held back in the slots of mask that
 * record (counted in those that count), as its rate would. */
static void capped_hold(struct evt__thread *t, uint32_t id, uint32_t mask)
{
	BUSY = 1;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	mask = count_slots(t, id, mask & EVT_SLOT_MASK);
	if (mask)
		rate_suppress(t, id, mask);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	BUSY = BUSY_CAPPED;
}

/* write_begin() for a thread without its state yet, or busy. */
__attribute__((noinline))
static uint8_t *write_begin_thread(const struct evt__site_rt *rt, uint32_t mask,
				   uint32_t max_bytes, struct evt__writer *w)
{
	int saved = errno;
	struct evt__thread *t;
	uint8_t *rec;

	/* Cleared under the lock by the thread that makes the file; the
	 * others look again there. */
	if (__builtin_expect(__atomic_load_n(&evt__proc.detached, __ATOMIC_RELAXED), 0) &&
	    evt__process_attach_child()) {
		errno = saved;
		return NULL;
	}
	t = thread_get();
	if (t && BUSY == BUSY_CAPPED) {
		if (!capped_over(t)) {
			capped_hold(t, rt->id, mask);
			errno = saved;
			return NULL;
		}
		BUSY = 0;	/* (a span that never ended: no longer) */
	}
	if (!t || BUSY) {
		mask &= EVT_SLOT_MASK;
		if (t)
			mask = count_nested(t, rt->id, mask);
		/* (no thread state: not nested, nothing in a handler's way) */
		rec = mask ? drop_all(t, mask, t != NULL, rt->id) : NULL;
	} else {
		BUSY = 1;
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		window_fold(t);
		rec = begin_slots(t, rt, mask, max_bytes, w);
	}
	errno = saved;
	return rec;
}

/*
 * Starts a record of at most max_bytes for the slots in mask (the enable
 * word as the site read it, rate bit included): its header
 * is written into the first slot that has room, and the payload goes
 * after it.  NULL when no slot takes it (counted); otherwise the thread is
 * busy until write_end().  The usual case, one slot whose open packet has
 * room, goes straight through here.
 */
static inline __attribute__((always_inline))
uint8_t *write_begin(const struct evt__site_rt *rt, uint32_t mask,
		     uint32_t max_bytes, struct evt__writer *w)
{
	struct evt__thread *t = tls_thread;
	struct tslot *ts;
	ptrdiff_t cpu_off;
	uint32_t lo, hi;
	int32_t cpu;
	unsigned s;

	if (__builtin_expect(!t || t->fork_gen != evt__proc.fork_gen || BUSY, 0))
		return write_begin_thread(rt, mask, max_bytes, w);
	BUSY = 1;
	/* From here a signal handler's write is dropped: the room checked
	 * below stays ours.  Every other case leaves by a tail call, so that
	 * this path saves few registers (two, with gcc 12). */
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	window_fold(t);
	cpu_off = evt__proc.rseq_cpu_off;
	/* One slot and nothing else (no view, no rate) goes on here. */
	if (__builtin_expect((mask & (mask - 1)) || !(mask & EVT_SLOT_MASK) ||
			     !cpu_off, 0))
		return write_begin_slots(t, rt, mask, max_bytes, w);
	s = (unsigned)__builtin_ctz(mask);
	ts = &t->slot[s];
	if (__builtin_expect(ts->off + max_bytes + EVT_COMMIT_MARK_BYTES > ts->limit ||
			     ts->slot_gen != __atomic_load_n(&evt__proc.slots[s].gen,
							     __ATOMIC_RELAXED), 0))
		return write_begin_slots(t, rt, mask, max_bytes, w);
	/* evt_clock_now() inline, without reading glibc's rseq variables
	 * through the GOT on every event. */
	cpu = __atomic_load_n((const int32_t *)
			      ((char *)__builtin_thread_pointer() + cpu_off),
			      __ATOMIC_RELAXED);
	if (__builtin_expect(cpu < 0, 0))
		return write_begin_slots(t, rt, mask, max_bytes, w);
	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	w->thread = t;
	w->slot = s;
	w->mask = 0;
	return put_header(w, ts, ts->packet + ts->off, rt->id,
			  ordered(t, ((uint64_t)hi << 32) | lo), (uint32_t)cpu & 0xffff);
}

/* Copies the payload of the record just published to the other slots of
 * w->mask, each record with a header of its slot's packet. */
__attribute__((noinline))
static void copy_to_slots(struct evt__writer *w, uint32_t hlen, uint32_t size)
{
	struct evt__thread *t = w->thread;
	uint32_t cpu = w->mask >> WRITER_CPU_SHIFT, mask;
	uint32_t id = w->slot >> WRITER_ID_SHIFT;

	for (mask = w->mask & EVT_SLOT_MASK; mask; mask &= mask - 1) {
		unsigned s = (unsigned)__builtin_ctz(mask);
		struct tslot *ts = &t->slot[s];
		uint8_t *rec = slot_reserve(t, s, id, EVT_HDR_MAX_BYTES + size,
					    w->now, cpu);

		if (rec) {
			unsigned n = evt_hdr_put(rec, &ts->hs, id, w->now, cpu);

			memcpy(rec + n, w->record + hlen, size);
			slot_publish(ts, n + size);
		}
	}
}

/* Publishes the record of a payload of size bytes, and copies it to the
 * other slots. */
static inline void write_end(struct evt__writer *w, uint32_t size)
{
	struct evt__thread *t = w->thread;
	uint32_t hlen = (w->slot >> WRITER_HLEN_SHIFT) & 0xff;

	slot_publish(&t->slot[w->slot & 0xff], hlen + size);
	if (__builtin_expect((w->mask & EVT_SLOT_MASK) != 0, 0))
		copy_to_slots(w, hlen, size);
	window_lend(t, w->slot & 0xff);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	BUSY = 0;
}

static void emit(const struct evt__site_rt *rt, uint32_t mask, va_list *ap)
{
	struct evt__writer w;
	uint8_t *p = write_begin(rt, mask, rt->max_record_bytes, &w);

	if (p)
		write_end(&w, encode(p, rt, ap));
}

/* evt__event_reserve() of an event not registered yet. */
__attribute__((noinline))
static uint8_t *event_reserve_lazy(struct evt_event *ev, uint32_t size,
				   struct evt__writer *w)
{
	uint32_t word;

	evt__event_register_lazy(ev);
	if (!ev->runtime)
		return NULL;
	word = *ev->enable;
	if (!(word & EVT_SLOT_MASK))
		return NULL;
	return write_begin(ev->runtime, word & (EVT_SLOT_MASK | EVT_RATE_BIT),
			   size + EVT_HDR_MAX_BYTES, w);
}

EVT_API uint8_t *evt__event_reserve(struct evt_event *ev, uint32_t word,
				    uint32_t size, struct evt__writer *w)
{
	const struct evt__site_rt *rt = ev->runtime;

	/* Without a runtime, word was the "unregistered" marker. */
	if (__builtin_expect(!rt, 0))
		return event_reserve_lazy(ev, size, w);
	if (!(word & EVT_SLOT_MASK))
		return NULL;
	return write_begin(rt, word & (EVT_SLOT_MASK | EVT_RATE_BIT),
			   size + EVT_HDR_MAX_BYTES, w);
}

EVT_API void evt__event_commit(struct evt__writer *w, uint32_t size)
{
	write_end(w, size);
}

EVT_API void evt__event_views(const struct evt_event *raw, const void *args)
{
	const struct evt_event *v;

	/* Pairs with the release that links a view at registration. */
	for (v = __atomic_load_n(&raw->views, __ATOMIC_ACQUIRE); v; v = v->next_view)
		if (*v->enable & EVT_SLOT_MASK)
			v->probe(v, args);
}

/* The slots that want the site's record now (0: none), and in *rt its
 * runtime, the site registered first if nobody did. */
static inline uint32_t site_mask(struct evt_site *site,
				 const struct evt__site_rt **rt)
{
	uint32_t mask;

	*rt = site->runtime;
	if (__builtin_expect(!*rt, 0)) {
		evt__site_register_lazy(site);
		if (!(*rt = site->runtime))
			return 0;
	}
	mask = *site->enable;
	if (!mask)	/* came by a flag left on: it goes off */
		evt__site_flag_settle(site, (*rt)->id);
	return mask;
}

EVT_API void evt__printk(struct evt_site *site, const char *format, ...)
{
	const struct evt__site_rt *rt;
	uint32_t mask = site_mask(site, &rt);
	va_list ap;

	if (!mask)
		return;
	va_start(ap, format);	/* the format itself is known already */
	emit(rt, mask, &ap);
	va_end(ap);
}

static void emit_args(const struct evt__site_rt *rt, uint32_t mask, ...)
{
	va_list ap;

	va_start(ap, mask);
	emit(rt, mask, &ap);
	va_end(ap);
}

/* Refuses %n, the one conversion that would write through an argument. */
static int has_percent_n(const char *f)
{
	while ((f = strchr(f, '%'))) {
		f++;
		if (*f == '%') {
			f++;
			continue;
		}
		f += strspn(f, "-+ #0'0123456789.*$hlqjztL");
		if (*f == 'n')
			return 1;
	}
	return 0;
}

EVT_API void evt__ftrace_printk(const char *literal, const char *format, ...)
{
	uint32_t mask = *evt__ftrace_enable;
	char text[EVT_STRING_MAX_BYTES];
	va_list ap;
	int n, saved;

	(void)literal;	/* the same string as format, made a literal */
	if (!mask || (evt__proc.fd < 0 && !evt__proc.detached))
		return;
	if (has_percent_n(format)) {
		evt__debug("ftrace_printk: %%n refused in \"%s\"", format);
		return;
	}
	saved = errno;
	va_start(ap, format);
	n = vsnprintf(text, sizeof(text), format, ap);
	va_end(ap);
	errno = saved;
	if (n >= (int)sizeof(text))
		memcpy(text + sizeof(text) - 4, "...", 4);
	emit_args(&evt__proc.ftrace_rt, mask, n < 0 ? "" : text);
}

/* ---- spans and counters (span.h, register_span.c) ---- */

/*
 * A span begin or end (phase) of a capped thread: held back, nested ones
 * counted, the thread records again after the capped span's own end.
 * False when the capped second is over (the thread records again).
 */
__attribute__((noinline))
static bool capped_span(struct evt__thread *t, const struct evt__site_rt *rt,
			uint32_t mask, uint32_t phase)
{
	if (capped_over(t)) {
		BUSY = 0;
		return false;
	}
	t->capped_depth += phase == EVT_SPAN_BEGIN ? 1 : -1;
	capped_hold(t, word_id(rt), mask);
	if (!t->capped_depth) {
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		BUSY = 0;
	}
	return true;
}

/* A span begin its rate held back: the thread is capped until its end. */
static void capped_begin(struct evt__thread *t)
{
	t->capped_depth = 1;
	t->capped_second = t->rate_held_second;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	BUSY = BUSY_CAPPED;
}

/* A record of the fixed head of n bytes at head, then, with ap, the
 * arguments of the site's format (a begin's: the rider's layout, else the
 * switch's head-only one).  phase: a span's (EVT_SPAN_BEGIN or _END),
 * else 0. */
static inline void emit_span(struct evt_site *site, const void *head, uint32_t n,
			     va_list *ap, uint32_t phase)
{
	const struct evt__site_rt *rt;
	uint32_t mask = site_mask(site, &rt);
	struct evt__thread *t;
	struct evt__writer w;
	uint8_t *p;

	if (!mask)
		return;
	if (phase) {
		t = tls_thread;
		if (__builtin_expect(t && BUSY == BUSY_CAPPED, 0) &&
		    capped_span(t, rt, mask, phase))
			return;
		/* An end whose begin was written is written: a cap counts
		 * spans, and leaves none without its end. */
		if (phase == EVT_SPAN_END)
			mask &= ~EVT_RATE_BIT;
	}
	if (!ap)
		rt = rt->head_rt;
	p = write_begin(rt, mask, ap ? rt->max_record_bytes : EVT_HDR_MAX_BYTES + n, &w);
	if (p) {
		memcpy(p, head, n);
		write_end(&w, n + (ap ? encode(p + n, rt, ap) : 0));
	} else if (phase == EVT_SPAN_BEGIN && (mask & EVT_RATE_BIT) &&
		   (t = tls_thread) && t->rate_held && !BUSY) {
		capped_begin(t);
	}
}

EVT_API void evt__span(struct evt_site *site, uint32_t phase)
{
	uint8_t head = (uint8_t)phase;

	emit_span(site, &head, 1, NULL, phase);
}

EVT_API void evt__async(struct evt_site *site, uint32_t phase, uint64_t id)
{
	uint8_t head[9];

	head[0] = (uint8_t)phase;
	memcpy(head + 1, &id, 8);
	emit_span(site, head, sizeof(head), NULL, 0);
}

EVT_API void evt__counter(struct evt_site *site, int64_t value)
{
	emit_span(site, &value, 8, NULL, 0);
}

EVT_API void evt__counter_real(struct evt_site *site, double value)
{
	emit_span(site, &value, 8, NULL, 0);
}

EVT_API void evt__span_args(struct evt_site *site, const char *format, ...)
{
	uint8_t head = EVT_SPAN_BEGIN;
	va_list ap;

	va_start(ap, format);	/* the format itself is known already */
	emit_span(site, &head, 1, &ap, EVT_SPAN_BEGIN);
	va_end(ap);
}

EVT_API void evt__async_args(struct evt_site *site, uint64_t id,
			     const char *format, ...)
{
	uint8_t head[9];
	va_list ap;

	head[0] = EVT_SPAN_BEGIN;
	memcpy(head + 1, &id, 8);
	va_start(ap, format);
	emit_span(site, head, sizeof(head), &ap, 0);
	va_end(ap);
}
