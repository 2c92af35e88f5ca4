/* libFuzzer harness for the span pairing (span_pairs.c): the bytes are a
 * trace's items in time order, three bytes each: which of four spans and
 * two async spans, begin or end, the thread (or the async id); a byte
 * 0xff is a loss on a thread.  Ends twice, ends without begins, ids
 * reused, losses anywhere: whatever comes, every begin is in exactly one
 * slice, no end in two, and each slice's state agrees with what it saw. */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "span_kind.h"
#include "span_pairs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct seen {
	uint64_t begins, ends, slices_begun, slices_ended, last_id;
};

#define CHECK(c) do { if (!(c)) { fprintf(stderr, "broken: %s\n", #c); abort(); } } while (0)

static int on_slice(const struct evt_slice *s, void *ctx)
{
	struct seen *n = ctx;

	CHECK(s->id > 0 && s->id <= n->begins + n->ends);
	CHECK(s->parent_id < s->id || s->async);
	switch (s->state) {
	case EVT_SLICE_COMPLETE:
	case EVT_SLICE_AFTER_LOSS:
		CHECK(s->begin.seen && s->end.seen);
		CHECK(s->begin.monotonic_ns <= s->end.monotonic_ns);
		CHECK(s->state == EVT_SLICE_COMPLETE || s->async);
		break;
	case EVT_SLICE_NO_END:
	case EVT_SLICE_OPEN:
		CHECK(s->begin.seen && !s->end.seen);
		break;
	case EVT_SLICE_NO_BEGIN:
		CHECK(!s->begin.seen && s->end.seen);
		break;
	default:
		CHECK(0);
	}
	CHECK(!s->async || (s->depth == 0 && s->parent_id == 0));
	n->slices_begun += s->begin.seen;
	n->slices_ended += s->end.seen;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const paths[6] = {
		"span/a", "span/b", "span/c", "span/d", "async/x", "async/y"
	};
	struct evt_event_desc descs[6];
	struct seen n = { 0 };
	struct evt_span_pairs *p = evt_span_pairs_new(on_slice, &n);
	char why[256];
	size_t i;
	int k;

	if (!p)
		return 0;
	memset(descs, 0, sizeof(descs));
	for (k = 0; k < 6; k++) {
		unsigned kind = k < 4 ? EVT_KIND_SPAN : EVT_KIND_ASYNC;
		uint8_t types[2];
		unsigned nt = evt_span_head(kind, false, types);

		descs[k].path = (char *)paths[k];
		descs[k].format = (char *)"";
		CHECK(!evt_event_layout_load(&descs[k].layout, kind, "", types, nt,
					     why, sizeof(why)));
	}
	for (i = 0; i + 3 <= size; i += 3) {
		struct evt_trace_item it = { 0 };
		uint8_t payload[9] = { 0 };
		unsigned which = data[i] % 6;

		it.monotonic_ns = it.realtime_ns = (int64_t)i;
		it.timestamp = i;
		it.pid = 1;
		it.tid = 1 + data[i + 2] % 3;
		it.comm = "fuzz";
		if (data[i] == 0xff) {
			it.kind = EVT_ITEM_LOST;
			it.lost = 1;
		} else {
			it.kind = EVT_ITEM_EVENT;
			it.event = &descs[which];
			payload[0] = data[i + 1] & 1 ? EVT_SPAN_END : EVT_SPAN_BEGIN;
			if (which >= 4)
				payload[1] = data[i + 2] % 4;	/* the id, little endian */
			it.payload = payload;
			it.payload_size = which >= 4 ? 9 : 1;
			if (payload[0] == EVT_SPAN_BEGIN)
				n.begins++;
			else
				n.ends++;
		}
		CHECK(evt_span_pairs_feed(p, &it) == 0);
	}
	CHECK(evt_span_pairs_finish(p) == 0);
	CHECK(n.slices_begun == n.begins);
	CHECK(n.slices_ended <= n.ends);
	evt_span_pairs_free(p);
	for (k = 0; k < 6; k++)
		evt_event_layout_free(&descs[k].layout);
	return 0;
}
