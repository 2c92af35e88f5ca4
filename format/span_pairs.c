/*
 * span_pairs.c - pair span begins and ends into slices (see span_pairs.h).
 */
#include <stdlib.h>
#include <string.h>

#include "layout.h"
#include "record.h"
#include "record_fields.h"
#include "span_kind.h"
#include "span_pairs.h"

#define BUCKETS 4096u

struct open {
	struct evt_slice s;
	char *path;			/* owned copies: the trace's index */
	char *args;			/* goes before finish() runs */
	uint8_t *payload;		/* the begin's, when it has args: */
	struct evt_field *fields;	/* its fields point into it, */
	char *names;			/* and their names here */
	char *comm;
	bool loss_seen;			/* async: a loss while it was open */
	struct open *next;		/* in its async bucket */
};

struct thread {
	uint32_t pid, tid;
	struct open **stack;
	uint32_t depth, cap;
	struct thread *next;
};

struct evt_span_pairs {
	evt_slice_cb cb;
	void *ctx;
	uint64_t next_id;
	struct thread *threads[BUCKETS];
	struct open *async[BUCKETS];
	uint64_t sync_open, async_open;
	uint64_t max_open;		/* 0: no bound */
	uint64_t unfollowed;		/* begins past max_open */
	bool keep_fields;
};

const char *evt_slice_state_name(enum evt_slice_state s)
{
	switch (s) {
	case EVT_SLICE_COMPLETE: return "complete";
	case EVT_SLICE_NO_END: return "no_end";
	case EVT_SLICE_OPEN: return "open";
	case EVT_SLICE_NO_BEGIN: return "no_begin";
	case EVT_SLICE_AFTER_LOSS: return "after_loss";
	}
	return "?";
}

struct evt_span_pairs *evt_span_pairs_new(evt_slice_cb cb, void *ctx)
{
	struct evt_span_pairs *p = calloc(1, sizeof(*p));

	if (p) {
		p->cb = cb;
		p->ctx = ctx;
		p->next_id = 1;
	}
	return p;
}

static uint32_t hash64(uint64_t x)
{
	return (uint32_t)((x * 0x9e3779b97f4a7c15ull) >> 40) % BUCKETS;
}

static uint32_t hash_key(const char *path, uint64_t id)
{
	uint64_t h = 1469598103934665603ull;

	while (*path)
		h = (h ^ (uint8_t)*path++) * 1099511628211ull;
	return hash64(h ^ id);
}

static struct thread *thread_of(struct evt_span_pairs *p, uint32_t pid,
				uint32_t tid, bool add)
{
	uint32_t b = hash64((uint64_t)pid << 32 | tid);
	struct thread *t;

	for (t = p->threads[b]; t; t = t->next)
		if (t->pid == pid && t->tid == tid)
			return t;
	if (!add || !(t = calloc(1, sizeof(*t))))
		return NULL;
	t->pid = pid;
	t->tid = tid;
	t->next = p->threads[b];
	p->threads[b] = t;
	return t;
}

static void point(struct evt_slice_point *pt, const struct evt_span_input *it)
{
	pt->seen = true;
	pt->timestamp = it->timestamp;
	pt->monotonic_ns = it->monotonic_ns;
	pt->realtime_ns = it->realtime_ns;
	pt->pid = it->pid;
	pt->tid = it->tid;
	pt->comm = it->comm;
}

/* The message of a begin: its rendered text after "begin...: ". */
static const char *args_of(const struct evt_span_input *it)
{
	const char *colon;

	if (!it->text || !*it->format)
		return NULL;
	colon = strstr(it->text, ": ");
	return colon ? colon + 2 : NULL;
}

static void open_free(struct open *o);

/* The begin's arguments, typed, kept with its open span: decoded now,
 * while the reader's layout of the event is at hand (it may be gone by
 * the end), from a copy of the payload.  0, or -1 when out of memory. */
static int keep_fields(struct open *o, const struct evt_span_input *it)
{
	struct evt_field all[EVT_FIELDS_MAX];
	evt_arg_name names[EVT_PRINTK_MAX_ARGS];
	size_t bytes = 0, at = 0;
	int n, i;
	unsigned k = 0;

	if (!(o->payload = malloc(it->payload_size)))
		return -1;
	memcpy(o->payload, it->payload, it->payload_size);
	n = evt_record_fields(it->layout, o->payload, it->payload_size, all, names);
	for (i = 0; i < n; i++)
		if (strcmp(all[i].name, "phase") && strcmp(all[i].name, "id"))
			bytes += strlen(all[i].name) + 1;
	if (!bytes)
		return 0;
	o->fields = malloc((size_t)n * sizeof(*o->fields));
	o->names = malloc(bytes);
	if (!o->fields || !o->names)
		return -1;
	for (i = 0; i < n; i++) {
		size_t len = strlen(all[i].name) + 1;

		if (!strcmp(all[i].name, "phase") || !strcmp(all[i].name, "id"))
			continue;	/* (the span's head) */
		memcpy(o->names + at, all[i].name, len);
		o->fields[k] = all[i];
		o->fields[k].name = o->names + at;
		o->fields[k].label = NULL;	/* (the layout's) */
		at += len;
		k++;
	}
	o->s.fields = o->fields;
	o->s.nfields = k;
	return 0;
}

static struct open *open_new(struct evt_span_pairs *p,
			     const struct evt_span_input *it, bool async,
			     uint64_t async_id)
{
	struct open *o = calloc(1, sizeof(*o));
	const char *args = args_of(it);

	if (!o)
		return NULL;
	o->path = strdup(it->path);
	o->comm = strdup(it->comm ? it->comm : "");
	o->args = args ? strdup(args) : NULL;
	if (!o->path || !o->comm || (args && !o->args) ||
	    (args && p->keep_fields && it->layout && it->payload_size &&
	     keep_fields(o, it))) {
		open_free(o);
		return NULL;
	}
	o->s.id = p->next_id++;
	o->s.async = async;
	o->s.async_id = async_id;
	o->s.path = o->path;
	o->s.name = strchr(o->path, '/') ? strchr(o->path, '/') + 1 : o->path;
	o->s.args = o->args;
	point(&o->s.begin, it);
	o->s.begin.comm = o->comm;
	return o;
}

static void open_free(struct open *o)
{
	free(o->path);
	free(o->args);
	free(o->payload);
	free(o->fields);
	free(o->names);
	free(o->comm);
	free(o);
}

/* The innermost open span of t, taken off its stack. */
static struct open *pop(struct evt_span_pairs *p, struct thread *t)
{
	p->sync_open--;
	return t->stack[--t->depth];
}

/* The id of the innermost span open on the thread of it, or 0. */
static uint64_t innermost(struct evt_span_pairs *p, const struct evt_span_input *it)
{
	struct thread *t = thread_of(p, it->pid, it->tid, false);

	return t && t->depth ? t->stack[t->depth - 1]->s.id : 0;
}

/* Hands o to the callback as it stands, then frees it. */
static int close_slice(struct evt_span_pairs *p, struct open *o,
		       enum evt_slice_state state)
{
	int ret;

	o->s.state = state;
	o->s.inner_id_max = p->next_id - 1;
	ret = p->cb(&o->s, p->ctx);
	open_free(o);
	return ret;
}

/* An end with no begin: a slice of its own, closed at once. */
static int lone_end(struct evt_span_pairs *p, const struct evt_span_input *it,
		    bool async, uint64_t async_id, uint32_t depth, uint64_t parent)
{
	struct open *o = open_new(p, it, async, async_id);

	if (!o)
		return -1;
	o->s.begin.seen = false;
	o->s.depth = depth;
	o->s.parent_id = parent;
	point(&o->s.end, it);
	if (async)
		o->s.end.within = innermost(p, it);
	return close_slice(p, o, EVT_SLICE_NO_BEGIN);
}

static int span_begin(struct evt_span_pairs *p, const struct evt_span_input *it)
{
	struct thread *t = thread_of(p, it->pid, it->tid, true);
	struct open *o;

	if (!t)
		return -1;
	if (t->depth == t->cap) {
		uint32_t cap = t->cap ? 2 * t->cap : 8;
		struct open **grown = realloc(t->stack, cap * sizeof(*grown));

		if (!grown)
			return -1;
		t->stack = grown;
		t->cap = cap;
	}
	if (!(o = open_new(p, it, false, 0)))
		return -1;
	o->s.depth = t->depth;
	o->s.parent_id = t->depth ? t->stack[t->depth - 1]->s.id : 0;
	t->stack[t->depth++] = o;
	p->sync_open++;
	return 0;
}

static int span_end(struct evt_span_pairs *p, const struct evt_span_input *it)
{
	struct thread *t = thread_of(p, it->pid, it->tid, false);
	uint32_t d;
	int ret;

	for (d = t ? t->depth : 0; d > 0; d--)
		if (!strcmp(t->stack[d - 1]->path, it->path))
			break;
	if (d == 0)
		return lone_end(p, it, false, 0, t ? t->depth : 0,
				t && t->depth ? t->stack[t->depth - 1]->s.id : 0);
	/* What opened inside it and is still open never ended. */
	while (t->depth > d)
		if ((ret = close_slice(p, pop(p, t), EVT_SLICE_NO_END)))
			return ret;
	point(&t->stack[d - 1]->s.end, it);
	return close_slice(p, pop(p, t), EVT_SLICE_COMPLETE);
}

static struct open **async_find(struct evt_span_pairs *p, const char *path,
				uint64_t id)
{
	struct open **o;

	for (o = &p->async[hash_key(path, id)]; *o; o = &(*o)->next)
		if ((*o)->s.async_id == id && !strcmp((*o)->path, path))
			return o;
	return NULL;
}

static int async_point(struct evt_span_pairs *p, const struct evt_span_input *it,
		       uint8_t phase, uint64_t id)
{
	struct open **found = async_find(p, it->path, id), *o;
	int ret;

	if (found) {
		o = *found;
		*found = o->next;
		p->async_open--;
		if (phase == EVT_SPAN_BEGIN) {
			/* Begun again: the first one's end never came. */
			if ((ret = close_slice(p, o, EVT_SLICE_NO_END)))
				return ret;
		} else {
			point(&o->s.end, it);
			o->s.end.within = innermost(p, it);
			return close_slice(p, o, o->loss_seen ? EVT_SLICE_AFTER_LOSS :
					   EVT_SLICE_COMPLETE);
		}
	} else if (phase == EVT_SPAN_END) {
		return lone_end(p, it, true, id, 0, 0);
	}
	if (!(o = open_new(p, it, true, id)))
		return -1;
	o->s.begin.within = innermost(p, it);
	found = &p->async[hash_key(o->path, id)];
	o->next = *found;
	*found = o;
	p->async_open++;
	return 0;
}

/* Events lost on a thread: its open spans may have lost their ends, and
 * every open async span may have. */
static int lost(struct evt_span_pairs *p, const struct evt_span_input *it)
{
	struct thread *t = thread_of(p, it->pid, it->tid, false);
	uint32_t b;
	struct open *o;
	int ret;

	while (t && t->depth)
		if ((ret = close_slice(p, pop(p, t), EVT_SLICE_NO_END)))
			return ret;
	for (b = 0; p->async_open && b < BUCKETS; b++)
		for (o = p->async[b]; o; o = o->next)
			o->loss_seen = true;
	return 0;
}

int evt_span_pairs_feed_input(struct evt_span_pairs *p, const struct evt_span_input *in)
{
	const struct evt_event_layout *l = in->layout;
	struct evt_span_head h;

	if (in->lost)
		return lost(p, in);
	if ((l->kind != EVT_KIND_SPAN && l->kind != EVT_KIND_ASYNC) ||
	    evt_span_head_read(l, in->payload, in->payload_size, &h))
		return 0;
	if (h.phase != EVT_SPAN_BEGIN && h.phase != EVT_SPAN_END)
		return 0;
	if (h.phase == EVT_SPAN_BEGIN && p->max_open &&
	    p->sync_open + p->async_open >= p->max_open) {
		p->unfollowed++;
		return 0;
	}
	if (l->kind == EVT_KIND_ASYNC)
		return async_point(p, in, h.phase, h.id);
	return h.phase == EVT_SPAN_BEGIN ? span_begin(p, in) : span_end(p, in);
}

int evt_span_pairs_feed(struct evt_span_pairs *p, const struct evt_trace_item *it)
{
	struct evt_span_input in;

	/* (most items: nothing to pair, and nothing to copy for it) */
	if (it->kind == EVT_ITEM_EVENT && it->event->layout.kind != EVT_KIND_SPAN &&
	    it->event->layout.kind != EVT_KIND_ASYNC)
		return 0;
	in = (struct evt_span_input){
		.lost = it->kind == EVT_ITEM_LOST,
		.timestamp = it->timestamp, .monotonic_ns = it->monotonic_ns,
		.realtime_ns = it->realtime_ns, .pid = it->pid, .tid = it->tid,
		.comm = it->comm, .text = it->text,
	};

	if (it->kind == EVT_ITEM_EVENT) {
		in.path = it->event->path;
		in.format = it->event->format;
		in.layout = &it->event->layout;
		in.payload = it->payload;
		in.payload_size = it->payload_size;
	} else if (it->kind != EVT_ITEM_LOST) {
		return 0;
	}
	return evt_span_pairs_feed_input(p, &in);
}

void evt_span_pairs_keep_fields(struct evt_span_pairs *p)
{
	p->keep_fields = true;
}

void evt_span_pairs_bound(struct evt_span_pairs *p, uint64_t max_open)
{
	p->max_open = max_open;
}

uint64_t evt_span_pairs_unfollowed(const struct evt_span_pairs *p)
{
	return p->unfollowed;
}

void evt_span_pairs_each_open(struct evt_span_pairs *p,
			      void (*fn)(struct evt_slice *s, void *ctx), void *ctx)
{
	struct thread *t;
	struct open *o;
	uint32_t b, d;

	for (b = 0; p->sync_open + p->async_open && b < BUCKETS; b++) {
		for (t = p->threads[b]; t; t = t->next)
			for (d = 0; d < t->depth; d++)
				fn(&t->stack[d]->s, ctx);
		for (o = p->async[b]; o; o = o->next)
			fn(&o->s, ctx);
	}
}

static int by_id(const void *a, const void *b)
{
	const struct open *x = *(struct open *const *)a, *y = *(struct open *const *)b;

	return x->s.id < y->s.id ? -1 : x->s.id > y->s.id;
}

/* Appends o to the array *all of *n (room for *cap); -1: no memory. */
static int push(struct open ***all, size_t *n, size_t *cap, struct open *o)
{
	if (*n == *cap) {
		size_t more = *cap ? 2 * *cap : 64;
		struct open **g = realloc(*all, more * sizeof(*g));

		if (!g)
			return -1;
		*all = g;
		*cap = more;
	}
	(*all)[(*n)++] = o;
	return 0;
}

int evt_span_pairs_finish(struct evt_span_pairs *p)
{
	struct open **all = NULL, *o;
	size_t n = 0, cap = 0, i;
	struct thread *t;
	uint32_t b, d;
	int ret = 0;

	for (b = 0; b < BUCKETS; b++) {
		for (t = p->threads[b]; t; t = t->next)
			for (d = 0; d < t->depth; d++)
				if (push(&all, &n, &cap, t->stack[d]))
					goto oom;
		for (o = p->async[b]; o; o = o->next)
			if (push(&all, &n, &cap, o))
				goto oom;
	}
	for (b = 0; b < BUCKETS; b++) {
		for (t = p->threads[b]; t; t = t->next)
			t->depth = 0;
		p->async[b] = NULL;
	}
	p->sync_open = p->async_open = 0;
	if (n)
		qsort(all, n, sizeof(*all), by_id);
	for (i = 0; i < n; i++) {
		if (ret)	/* stopped: the rest go unseen */
			open_free(all[i]);
		else
			ret = close_slice(p, all[i], EVT_SLICE_OPEN);
	}
	free(all);
	return ret;
oom:
	free(all);
	return -1;
}

void evt_span_pairs_free(struct evt_span_pairs *p)
{
	struct thread *t, *tn;
	struct open *o, *on;
	uint32_t b, d;

	if (!p)
		return;
	for (b = 0; b < BUCKETS; b++) {
		for (t = p->threads[b]; t; t = tn) {
			tn = t->next;
			for (d = 0; d < t->depth; d++)
				open_free(t->stack[d]);
			free(t->stack);
			free(t);
		}
		for (o = p->async[b]; o; o = on) {
			on = o->next;
			open_free(o);
		}
	}
	free(p);
}
