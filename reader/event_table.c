/*
 * event_table.c - events as columns (see event_table.h).
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "event_table_local.h"
#include "layout.h"

const char *evt_event_kind_word(unsigned kind)
{
	switch (kind) {
	case EVT_KIND_PRINTK:
		return "printk";
	case EVT_KIND_FTRACE:
		return "ftrace";
	case EVT_KIND_TYPED:
		return "typed";
	case EVT_KIND_STABLE:
		return "stable";
	case EVT_KIND_KERNEL:
		return "kernel";
	case EVT_KIND_SPAN:
		return "span";
	case EVT_KIND_ASYNC:
		return "async";
	case EVT_KIND_COUNTER:
		return "counter";
	}
	return "unknown";
}

/*
 * A column's memory: mapped, so that it grows by mremap() without a copy
 * (a realloc's copy and the first touch of its new pages were a fifth of
 * a query's time), in huge pages where the kernel gives them.
 */
static void *column_grow(void *p, size_t old_bytes, size_t bytes)
{
	void *q = old_bytes ? mremap(p, old_bytes, bytes, MREMAP_MAYMOVE) :
		  mmap(NULL, bytes, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	if (q == MAP_FAILED)
		return NULL;
	madvise(q, bytes, MADV_HUGEPAGE);
	return q;
}

static void column_free(void *p, size_t bytes)
{
	if (p)
		munmap(p, bytes);
}

struct evt_event_table *evt_event_table_new(void)
{
	struct evt_event_table *t = calloc(1, sizeof(*t));

	if (t)
		t->ts_sorted = true;
	return t;
}

void evt_event_table_free(struct evt_event_table *t)
{
	unsigned i;

	if (!t)
		return;
	for (i = 0; i < t->nsets; i++)
		evt_trace_set_close(t->sets[i]);
	free(t->sets);
	free(t->sources);
	free(t->threads);
	column_free(t->ts, t->cap * sizeof(*t->ts));
	column_free(t->source, t->cap * sizeof(*t->source));
	column_free(t->thread, t->cap * sizeof(*t->thread));
	column_free(t->cpu, t->cap * sizeof(*t->cpu));
	column_free(t->payload, t->cap * sizeof(*t->payload));
	column_free(t->payload_size, t->cap * sizeof(*t->payload_size));
	free(t->by_name);
	free(t->rank_end);
	free(t->rank_source);
	free(t);
}

int evt_event_table_take_set(struct evt_event_table *t, struct evt_trace_set *s)
{
	struct evt_trace_set **grown = realloc(t->sets, (t->nsets + 1) * sizeof(*grown));

	if (!grown) {
		evt_trace_set_close(s);
		return -1;
	}
	t->sets = grown;
	t->sets[t->nsets] = s;
	return (int)t->nsets++;
}

/* Room for one more of n in *p (of cap, elements of size bytes). */
static int grow(void **p, uint32_t n, uint32_t *cap, size_t size)
{
	void *grown;
	uint32_t want;

	if (n < *cap)
		return 0;
	want = *cap ? 2 * *cap : 64;
	if (want <= n || !(grown = realloc(*p, (size_t)want * size)))
		return -1;
	*p = grown;
	*cap = want;
	return 0;
}

int64_t evt_event_table_source(struct evt_event_table *t, unsigned set,
			       unsigned reader, const struct evt_event_desc *e,
			       int64_t site_id, uint32_t trace_id)
{
	if (grow((void **)&t->sources, t->nsources, &t->cap_sources,
		 sizeof(*t->sources)))
		return -1;
	t->sources[t->nsources] = (struct evt_event_source){
		.event = e, .set = set, .reader = reader, .site_id = site_id,
		.trace_id = trace_id, .name_len = (int)strlen(e->path),
	};
	return t->nsources++;
}

int64_t evt_event_table_thread(struct evt_event_table *t, uint32_t pid,
			       uint32_t tid)
{
	if (grow((void **)&t->threads, t->nthreads, &t->cap_threads,
		 sizeof(*t->threads)))
		return -1;
	t->threads[t->nthreads] = (struct evt_event_thread){ pid, tid };
	return t->nthreads++;
}

/* Each column to cap rows: 0, or -1 (the columns as they were) when
 * there is no room. */
static int grow_rows(struct evt_event_table *t, size_t cap)
{
	struct { void **p; size_t size; } col[] = {
		{ (void **)&t->ts, sizeof(*t->ts) },
		{ (void **)&t->source, sizeof(*t->source) },
		{ (void **)&t->thread, sizeof(*t->thread) },
		{ (void **)&t->cpu, sizeof(*t->cpu) },
		{ (void **)&t->payload, sizeof(*t->payload) },
		{ (void **)&t->payload_size, sizeof(*t->payload_size) },
	};
	unsigned i, n = sizeof(col) / sizeof(col[0]);
	void *grown[sizeof(col) / sizeof(col[0])];

	for (i = 0; i < n; i++) {
		grown[i] = column_grow(*col[i].p, t->cap * col[i].size,
				       cap * col[i].size);
		if (!grown[i]) {
			/* (back to their old size: a shrink stays in place) */
			while (i--)
				*col[i].p = t->cap ? mremap(grown[i], cap * col[i].size,
							    t->cap * col[i].size, 0) :
					 (munmap(grown[i], cap * col[i].size), NULL);
			return -1;
		}
	}
	for (i = 0; i < n; i++)
		*col[i].p = grown[i];
	t->cap = cap;
	return 0;
}

int evt_event_table_add(struct evt_event_table *t, uint32_t source,
			uint32_t thread, int64_t ts, uint16_t cpu,
			const uint8_t *payload, size_t payload_size)
{
	size_t i = t->n;

	if (i == t->cap && grow_rows(t, t->cap ? 2 * t->cap : 1 << 20))
		return -1;
	if (i && ts < t->ts[i - 1])
		t->ts_sorted = false;
	t->ts[i] = ts;
	t->source[i] = source;
	t->thread[i] = thread;
	t->cpu[i] = cpu;
	t->payload[i] = payload;
	t->payload_size[i] = (uint32_t)payload_size;
	t->n++;
	return 0;
}

size_t evt_event_table_rows(const struct evt_event_table *t)
{
	return t->n;
}

void evt_event_table_columns(const struct evt_event_table *t,
			     struct evt_event_columns *out)
{
	*out = (struct evt_event_columns){
		.n = t->n, .ts = t->ts, .source = t->source, .thread = t->thread,
		.cpu = t->cpu, .nsources = t->nsources, .nthreads = t->nthreads,
	};
}

void evt_event_table_source_info(const struct evt_event_table *t, uint32_t s,
				 const char **name, const char **kind,
				 int64_t *site_id, uint32_t *trace_id)
{
	const struct evt_event_source *src = &t->sources[s];

	*name = src->event->path;
	*kind = evt_event_kind_word(src->event->layout.kind);
	*site_id = src->site_id;
	*trace_id = src->trace_id;
}

void evt_event_table_thread_info(const struct evt_event_table *t, uint32_t i,
				 uint32_t *pid, uint32_t *tid)
{
	*pid = t->threads[i].pid;
	*tid = t->threads[i].tid;
}

static const struct evt_event_source *sort_sources;

static int by_path(const void *a, const void *b)
{
	const struct evt_event_source *x = &sort_sources[*(const uint32_t *)a];
	const struct evt_event_source *y = &sort_sources[*(const uint32_t *)b];

	return strcmp(x->event->path, y->event->path);
}

int evt_event_table_order_by_name(struct evt_event_table *t)
{
	uint32_t *order = malloc((t->nsources + 1) * sizeof(*order));
	size_t *start = calloc(t->nsources + 1, sizeof(*start)), i;
	uint32_t s, rank = 0;

	t->by_name = t->n ? malloc(t->n * sizeof(*t->by_name)) : NULL;
	t->rank_source = malloc((t->nsources + 1) * sizeof(*t->rank_source));
	if (!order || !start || (t->n && !t->by_name) || !t->rank_source) {
		free(order);
		free(start);
		free(t->by_name);
		free(t->rank_source);
		t->by_name = NULL;
		t->rank_source = NULL;
		return -1;
	}
	/* Sources by name (names as SQLite's BINARY collation orders them:
	 * bytes), equal names one rank; then rows by rank, a counting
	 * sort that keeps the ids' order within one. */
	for (s = 0; s < t->nsources; s++)
		order[s] = s;
	sort_sources = t->sources;
	qsort(order, t->nsources, sizeof(*order), by_path);
	for (s = 0; s < t->nsources; s++) {
		if (s && by_path(&order[s - 1], &order[s]))
			rank++;
		t->sources[order[s]].name_rank = rank;
		t->rank_source[rank] = order[s];
	}
	t->nranks = t->nsources ? rank + 1 : 0;
	for (i = 0; i < t->n; i++)
		start[t->sources[t->source[i]].name_rank + 1]++;
	for (s = 0; s < t->nsources; s++)
		start[s + 1] += start[s];
	for (i = 0; i < t->n; i++)
		t->by_name[start[t->sources[t->source[i]].name_rank]++] = (uint32_t)i;
	/* (each rank's start has moved to its end) */
	t->rank_end = start;
	free(order);
	return 0;
}

void evt_event_table_name_rows(const struct evt_event_table *t, const char *name,
			       size_t *from, size_t *to)
{
	uint32_t lo = 0, hi = t->nranks;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		int c = strcmp(name, t->sources[t->rank_source[mid]].event->path);

		if (!c) {
			*from = mid ? t->rank_end[mid - 1] : 0;
			*to = t->rank_end[mid];
			return;
		}
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	*from = *to = 0;
}
