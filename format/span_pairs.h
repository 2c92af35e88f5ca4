/*
 * span_pairs.h - pair the begins and ends of spans into slices, as a
 * trace is read in time order: shared by every reader that shows spans
 * (report's summaries, query, convert).
 *
 * Spans nest per thread: an end closes the innermost open span of its
 * name on its thread; spans opened inside it and still open are closed as
 * "no_end".  Async spans pair by name and id across threads and
 * processes.  Nothing is paired on a guess:
 *
 *   complete    begin and end seen
 *   no_end      its end never came: an enclosing span of its thread
 *               ended first, events were lost on its thread while it was
 *               open, or (async) its name and id began again
 *   open        still open when the trace ends
 *   no_begin    an end whose begin is not in the trace (the span began
 *               before recording did, or its begin was lost)
 *   after_loss  async: paired, but events were lost somewhere while it
 *               was open, so the end may be another span's of the same
 *               name and id
 */
#ifndef EVT_FORMAT_SPAN_PAIRS_H
#define EVT_FORMAT_SPAN_PAIRS_H

#include <stdbool.h>
#include <stdint.h>

#include <evtrace/consumer.h>

#include "trace_reader.h"

enum evt_slice_state {
	EVT_SLICE_COMPLETE,
	EVT_SLICE_NO_END,
	EVT_SLICE_OPEN,
	EVT_SLICE_NO_BEGIN,
	EVT_SLICE_AFTER_LOSS,
};

/* "complete", "no_end", ... */
const char *evt_slice_state_name(enum evt_slice_state s);

/* A point of a slice: when, and where (the thread that wrote it). */
struct evt_slice_point {
	bool seen;
	uint64_t timestamp;		/* trace clock */
	int64_t monotonic_ns;
	int64_t realtime_ns;
	uint32_t pid, tid;
	const char *comm;
	uint64_t within;		/* async: the id of the innermost span
					 * open on its thread then, or 0 (a
					 * span's own: parent_id says it) */
};

struct evt_slice {
	uint64_t id;			/* 1, 2, ... in order of begin (a
					 * no_begin slice: of its end) */
	uint64_t parent_id;		/* the enclosing span's, or 0 */
	uint32_t depth;			/* of nesting on its thread; async: 0 */
	bool async;
	uint64_t async_id;
	const char *name;		/* after span/ or async/ */
	const char *path;		/* the event's */
	const char *args;		/* the begin's message, or NULL */
	/* The begin's arguments, typed (its head, phase and async id, left
	 * out), as evt_record_fields() gives them; NULL, 0 without, or
	 * unless evt_span_pairs_keep_fields() asked for them. */
	const struct evt_field *fields;
	unsigned nfields;
	enum evt_slice_state state;
	/* The last id given while it was open: a span's descendants are
	 * the spans of its thread with ids from id + 1 to this. */
	uint64_t inner_id_max;
	struct evt_slice_point begin, end;	/* end.seen: complete,
						 * after_loss, no_begin */
	bool marked;			/* a live reader's own mark on an open
					 * slice (evt_span_pairs_each_open),
					 * kept until it closes */
};

/* Called for each slice when it is closed (in order of closing); the
 * slice and its strings last until the callback returns.  Non-zero
 * stops: evt_span_pairs_feed() returns it. */
typedef int (*evt_slice_cb)(const struct evt_slice *s, void *ctx);

struct evt_span_pairs;

struct evt_span_pairs *evt_span_pairs_new(evt_slice_cb cb, void *ctx);
/* Takes the next item of a trace: spans' begins and ends, and losses;
 * other items are ignored.  0, the callback's non-zero return, or -1
 * when out of memory. */
int evt_span_pairs_feed(struct evt_span_pairs *p, const struct evt_trace_item *it);

/* What evt_span_pairs_feed() takes of an item, for a reader of live
 * records (the flight recorder's triggers) that has no trace item. */
struct evt_span_input {
	bool lost;			/* events lost on pid/tid; nothing
					 * below but the point is read */
	const char *path, *format;
	const struct evt_event_layout *layout;
	const uint8_t *payload;
	size_t payload_size;
	const char *text;		/* the rendered message, or NULL */
	uint64_t timestamp;
	int64_t monotonic_ns, realtime_ns;
	uint32_t pid, tid;
	const char *comm;
};
int evt_span_pairs_feed_input(struct evt_span_pairs *p, const struct evt_span_input *in);

/* Follows at most max_open slices open at once (0, the default: no
 * bound), so that a program that begins spans it never ends cannot take
 * a live reader's memory; a begin past it is counted, not followed (its
 * end then shows as no_begin). */
void evt_span_pairs_bound(struct evt_span_pairs *p, uint64_t max_open);
/* Has each slice keep its begin's arguments typed (evt_slice.fields):
 * a copy of the begin's record while its span is open.  Off unless set. */
void evt_span_pairs_keep_fields(struct evt_span_pairs *p);
uint64_t evt_span_pairs_unfollowed(const struct evt_span_pairs *p);

/* Calls fn for each slice open now (no end seen yet), in no order. */
void evt_span_pairs_each_open(struct evt_span_pairs *p,
			      void (*fn)(struct evt_slice *s, void *ctx), void *ctx);

/* The slices still open, as "open", in order of begin. */
int evt_span_pairs_finish(struct evt_span_pairs *p);
void evt_span_pairs_free(struct evt_span_pairs *p);

#endif
