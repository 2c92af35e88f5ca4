/* Span pairing as a live reader feeds it (the flight recorder's
 * triggers): interleaved threads, losses, the bound on open slices,
 * marks on open slices, and what finish() closes; the spans an async
 * span begins and ends within, and the ids given while a span is open. */
#include "layout.h"
#include "span_pairs.h"
#include "unit.h"

static const struct evt_event_layout span_layout = { .kind = EVT_KIND_SPAN };
static const uint8_t begin_phase = EVT_SPAN_BEGIN, end_phase = EVT_SPAN_END;

#define CLOSED_MAX 16

struct closed {
	unsigned n;
	struct {
		enum evt_slice_state state;
		uint32_t tid, depth;
		int64_t begin_ns, end_ns;
		bool marked;
		uint64_t id, begin_within, end_within, inner_id_max;
	} s[CLOSED_MAX];
};

static int on_close(const struct evt_slice *s, void *ctx)
{
	struct closed *c = ctx;

	if (c->n < CLOSED_MAX) {
		c->s[c->n].state = s->state;
		c->s[c->n].tid = s->begin.seen ? s->begin.tid : s->end.tid;
		c->s[c->n].depth = s->depth;
		c->s[c->n].begin_ns = s->begin.seen ? s->begin.monotonic_ns : -1;
		c->s[c->n].end_ns = s->end.seen ? s->end.monotonic_ns : -1;
		c->s[c->n].marked = s->marked;
		c->s[c->n].id = s->id;
		c->s[c->n].begin_within = s->begin.within;
		c->s[c->n].end_within = s->end.within;
		c->s[c->n].inner_id_max = s->inner_id_max;
	}
	c->n++;
	return 0;
}

static void feed(struct evt_span_pairs *p, uint32_t tid, int64_t ns, bool begin)
{
	struct evt_span_input in = {
		.path = "span/req", .format = "", .layout = &span_layout,
		.payload = begin ? &begin_phase : &end_phase, .payload_size = 1,
		.monotonic_ns = ns, .pid = 1, .tid = tid, .comm = "t",
	};

	CHECK(evt_span_pairs_feed_input(p, &in) == 0);
}

static void lose(struct evt_span_pairs *p, uint32_t tid, int64_t ns)
{
	struct evt_span_input in = { .lost = true, .monotonic_ns = ns, .pid = 1, .tid = tid };

	CHECK(evt_span_pairs_feed_input(p, &in) == 0);
}

/* B's span ends between A's nested begins and ends: each of A's ends
 * closes A's innermost. */
static void interleaved_threads_pair_by_thread(void)
{
	struct closed c = { 0 };
	struct evt_span_pairs *p = evt_span_pairs_new(on_close, &c);

	feed(p, 2, 0, true);
	feed(p, 1, 10, true);
	feed(p, 1, 50, true);
	feed(p, 2, 60, false);
	feed(p, 1, 90, false);
	feed(p, 1, 130, false);
	CHECK(c.n == 3);
	CHECK(c.s[0].tid == 2 && c.s[0].begin_ns == 0 && c.s[0].end_ns == 60);
	CHECK(c.s[1].tid == 1 && c.s[1].depth == 1 && c.s[1].begin_ns == 50 &&
	      c.s[1].end_ns == 90 && c.s[1].state == EVT_SLICE_COMPLETE);
	CHECK(c.s[2].tid == 1 && c.s[2].depth == 0 && c.s[2].begin_ns == 10 &&
	      c.s[2].end_ns == 130 && c.s[2].state == EVT_SLICE_COMPLETE);
	evt_span_pairs_free(p);
}

/* A loss on a thread: its open spans' ends are unknown (no_end), the
 * other thread's stay open, and a later end there has no begin. */
static void a_loss_closes_its_threads_spans(void)
{
	struct closed c = { 0 };
	struct evt_span_pairs *p = evt_span_pairs_new(on_close, &c);

	feed(p, 1, 0, true);
	feed(p, 1, 5, true);
	feed(p, 2, 7, true);
	lose(p, 1, 20);
	CHECK(c.n == 2);
	CHECK(c.s[0].state == EVT_SLICE_NO_END && c.s[0].begin_ns == 5 && c.s[0].end_ns == -1);
	CHECK(c.s[1].state == EVT_SLICE_NO_END && c.s[1].begin_ns == 0);
	feed(p, 1, 30, false);
	CHECK(c.n == 3 && c.s[2].state == EVT_SLICE_NO_BEGIN && c.s[2].end_ns == 30);
	CHECK(evt_span_pairs_finish(p) == 0);
	CHECK(c.n == 4 && c.s[3].state == EVT_SLICE_OPEN && c.s[3].tid == 2);
	evt_span_pairs_free(p);
}

static void count_open(struct evt_slice *s, void *ctx)
{
	unsigned *n = ctx;

	if (s->begin.monotonic_ns == 3)
		s->marked = true;
	(*n)++;
}

/* At most two open: the third begin is counted, not followed, and its
 * end has no begin; a mark put on an open slice is there when it closes. */
static void bounded_and_marked(void)
{
	struct closed c = { 0 };
	struct evt_span_pairs *p = evt_span_pairs_new(on_close, &c);
	unsigned n = 0;

	evt_span_pairs_bound(p, 2);
	feed(p, 1, 1, true);
	feed(p, 2, 3, true);
	feed(p, 3, 4, true);
	CHECK(evt_span_pairs_unfollowed(p) == 1);
	evt_span_pairs_each_open(p, count_open, &n);
	CHECK(n == 2);
	feed(p, 3, 8, false);
	CHECK(c.n == 1 && c.s[0].state == EVT_SLICE_NO_BEGIN);
	feed(p, 2, 9, false);
	CHECK(c.n == 2 && c.s[1].marked && c.s[1].begin_ns == 3 && c.s[1].end_ns == 9);
	feed(p, 3, 10, true);	/* room again */
	CHECK(evt_span_pairs_unfollowed(p) == 1);
	n = 0;
	evt_span_pairs_each_open(p, count_open, &n);
	CHECK(n == 2);
	CHECK(evt_span_pairs_finish(p) == 0);
	CHECK(c.n == 4 && c.s[2].begin_ns == 1 && c.s[3].begin_ns == 10 && !c.s[3].marked);
	n = 0;
	evt_span_pairs_each_open(p, count_open, &n);
	CHECK(n == 0);
	evt_span_pairs_free(p);
}

static const struct evt_event_layout async_layout = { .kind = EVT_KIND_ASYNC };

static void feed_async(struct evt_span_pairs *p, uint32_t tid, int64_t ns, bool begin)
{
	uint8_t head[9] = { begin ? EVT_SPAN_BEGIN : EVT_SPAN_END, 7 };
	struct evt_span_input in = {
		.path = "async/job", .format = "", .layout = &async_layout,
		.payload = head, .payload_size = sizeof(head),
		.monotonic_ns = ns, .pid = 1, .tid = tid, .comm = "t",
	};

	CHECK(evt_span_pairs_feed_input(p, &in) == 0);
}

/* Thread 1: req (1) holding the begin of job 7 (2); thread 2: req (3)
 * holding req (4), within which the job ends; then thread 1's req (5),
 * begun after the first closed.  Each req's descendants are the ids
 * given while it was open. */
static void async_points_know_their_spans(void)
{
	struct closed c = { 0 };
	struct evt_span_pairs *p = evt_span_pairs_new(on_close, &c);

	feed(p, 1, 0, true);
	feed_async(p, 1, 1, true);
	feed(p, 2, 2, true);
	feed(p, 2, 3, true);
	feed_async(p, 2, 4, false);
	feed(p, 1, 5, false);
	feed(p, 2, 6, false);
	feed(p, 2, 7, false);
	feed(p, 1, 8, true);
	feed(p, 1, 9, false);
	CHECK(c.n == 5);
	CHECK(c.s[0].id == 2 && c.s[0].begin_within == 1 && c.s[0].end_within == 4);
	CHECK(c.s[1].id == 1 && c.s[1].inner_id_max == 4);
	CHECK(c.s[2].id == 4 && c.s[2].inner_id_max == 4);
	CHECK(c.s[3].id == 3 && c.s[3].inner_id_max == 4);
	CHECK(c.s[4].id == 5 && c.s[4].inner_id_max == 5);
	evt_span_pairs_free(p);
}

int main(void)
{
	async_points_know_their_spans();
	interleaved_threads_pair_by_thread();
	a_loss_closes_its_threads_spans();
	bounded_and_marked();
	UNIT_DONE();
}
