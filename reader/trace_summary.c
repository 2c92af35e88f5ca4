/*
 * trace_summary.c - a trace's counts and span durations (trace_summary.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "span_pairs.h"
#include "trace_reader.h"
#include "trace_summary.h"

/* Events by their description: the reader's pointers, hashed. */
struct by_event {
	const struct evt_event_desc **event;
	size_t *key;
	size_t cap, n;
};

struct reading {
	struct evt_summary *s;
	struct by_event by;
	struct evt_span_pairs *pairs;
	bool failed;
};

static size_t add_key(struct evt_summary *s, const char *key, bool span)
{
	struct evt_summary_key *k;
	size_t i;

	for (i = 0; i < s->nkeys; i++)	/* (span names: few) */
		if (s->keys[i].span == span && !strcmp(s->keys[i].key, key))
			return i;
	if (s->nkeys == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 64;
		struct evt_summary_key *grown = realloc(s->keys, cap * sizeof(*grown));

		if (!grown)
			return SIZE_MAX;
		s->keys = grown;
		s->cap = cap;
	}
	k = &s->keys[s->nkeys];
	memset(k, 0, sizeof(*k));
	if (!(k->key = strdup(key)))
		return SIZE_MAX;
	k->span = span;
	return s->nkeys++;
}

static size_t slot_of(const struct by_event *by, const struct evt_event_desc *e)
{
	size_t h = ((uintptr_t)e >> 4) * 0x9e3779b97f4a7c15ull;

	for (h &= by->cap - 1; by->event[h] && by->event[h] != e; h = (h + 1) & (by->cap - 1))
		;
	return h;
}

static int grow(struct by_event *by)
{
	struct by_event bigger = { 0 };
	size_t i;

	bigger.cap = by->cap ? 2 * by->cap : 256;
	bigger.event = calloc(bigger.cap, sizeof(*bigger.event));
	bigger.key = calloc(bigger.cap, sizeof(*bigger.key));
	if (!bigger.event || !bigger.key) {
		free(bigger.event);
		free(bigger.key);
		return -1;
	}
	for (i = 0; i < by->cap; i++)
		if (by->event[i]) {
			size_t h = slot_of(&bigger, by->event[i]);

			bigger.event[h] = by->event[i];
			bigger.key[h] = by->key[i];
		}
	bigger.n = by->n;
	free(by->event);
	free(by->key);
	*by = bigger;
	return 0;
}

/* The key of event e, made at its first event. */
static size_t key_of(struct reading *r, const struct evt_event_desc *e)
{
	size_t h;

	if ((r->by.n + 1) * 2 > r->by.cap && grow(&r->by))
		return SIZE_MAX;
	h = slot_of(&r->by, e);
	if (!r->by.event[h]) {
		size_t k = add_key(r->s, e->path, false);

		if (k == SIZE_MAX)
			return SIZE_MAX;
		r->by.event[h] = e;
		r->by.key[h] = k;
		r->by.n++;
	}
	return r->by.key[h];
}

static int slice(const struct evt_slice *sl, void *ctx)
{
	struct reading *r = ctx;
	struct evt_summary_key *k;
	char name[512];
	size_t i;

	if (sl->state != EVT_SLICE_COMPLETE)
		return 0;
	snprintf(name, sizeof(name), "%s/%s", sl->async ? "async" : "span", sl->name);
	if ((i = add_key(r->s, name, true)) == SIZE_MAX)
		return r->failed = true, 1;
	k = &r->s->keys[i];
	if (k->count == k->cap) {
		size_t cap = k->cap ? 2 * k->cap : 64;
		uint64_t *grown = realloc(k->durations, cap * sizeof(*grown));

		if (!grown)
			return r->failed = true, 1;
		k->durations = grown;
		k->cap = cap;
	}
	k->durations[k->count++] = (uint64_t)(sl->end.monotonic_ns - sl->begin.monotonic_ns);
	return 0;
}

static int item(const struct evt_trace_item *it, void *ctx)
{
	struct reading *r = ctx;
	size_t k;

	if (it->kind == EVT_ITEM_EVENT) {
		if (!r->s->events)
			r->s->first_ns = it->monotonic_ns;
		r->s->last_ns = it->monotonic_ns;
		r->s->events++;
		/* (a span's begins and ends are its key's slices) */
		if (it->event->layout.kind != EVT_KIND_SPAN &&
		    it->event->layout.kind != EVT_KIND_ASYNC) {
			if ((k = key_of(r, it->event)) == SIZE_MAX)
				return r->failed = true, 1;
			r->s->keys[k].count++;
		}
	}
	if (evt_span_pairs_feed(r->pairs, it))
		return r->failed = true, 1;
	return 0;
}

static int cmp_key(const void *a, const void *b)
{
	const struct evt_summary_key *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	return c ? c : (int)x->span - (int)y->span;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

int evt_summary_read(const char *dir, struct evt_summary *s, char *err,
		     size_t err_size)
{
	struct reading r = { .s = s };
	struct evt_trace_stats st;
	size_t i;
	int ret;

	memset(s, 0, sizeof(*s));
	if (!(r.pairs = evt_span_pairs_new(slice, &r)))
		return snprintf(err, err_size, "out of memory"), -1;
	ret = evt_trace_read(dir, item, &r, &st, err, err_size);
	if (!ret && !r.failed && evt_span_pairs_finish(r.pairs))
		r.failed = true;
	evt_span_pairs_free(r.pairs);
	free(r.by.event);
	free(r.by.key);
	if (!ret && r.failed) {
		snprintf(err, err_size, "%s: out of memory", dir);
		ret = -1;
	}
	if (ret) {
		evt_summary_free(s);
		return -1;
	}
	s->lost = st.lost;
	s->errors = st.errors;
	for (i = 0; i < s->nkeys; i++)
		if (s->keys[i].span)
			qsort(s->keys[i].durations, s->keys[i].count,
			      sizeof(uint64_t), cmp_u64);
	qsort(s->keys, s->nkeys, sizeof(*s->keys), cmp_key);
	return 0;
}

const struct evt_summary_key *evt_summary_find(const struct evt_summary *s,
					       const char *key)
{
	size_t lo = 0, hi = s->nkeys;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(s->keys[mid].key, key);

		if (!c)
			return &s->keys[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

void evt_summary_free(struct evt_summary *s)
{
	size_t i;

	for (i = 0; i < s->nkeys; i++) {
		free(s->keys[i].key);
		free(s->keys[i].durations);
	}
	free(s->keys);
	memset(s, 0, sizeof(*s));
}
