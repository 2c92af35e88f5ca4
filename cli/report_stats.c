/*
 * report_stats.c - report --stats: per event, how many, how often, first
 * and last; per thread, its events and what it lost.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report_output.h"

struct event_count {
	char *path;
	uint64_t count;
	int64_t first_ns, last_ns;	/* CLOCK_MONOTONIC */
};

struct thread_count {
	uint32_t pid, tid;
	char comm[17];
	uint64_t events, lost;
};

struct report_stats {
	struct event_count *events;	/* open addressing on the path */
	size_t nevents, events_cap;
	struct thread_count *threads;	/* few: searched from the newest */
	size_t nthreads, threads_cap;
	int64_t first_ns, last_ns;
	bool any;
};

struct report_stats *report_stats_new(void)
{
	return calloc(1, sizeof(struct report_stats));
}

static uint64_t hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL;	/* FNV-1a */

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return h;
}

static int grow_events(struct report_stats *s)
{
	size_t cap = s->events_cap ? s->events_cap * 2 : 256, i;
	struct event_count *t = calloc(cap, sizeof(*t));

	if (!t)
		return -1;
	for (i = 0; i < s->events_cap; i++) {
		size_t j;

		if (!s->events[i].path)
			continue;
		for (j = hash(s->events[i].path) & (cap - 1); t[j].path;
		     j = (j + 1) & (cap - 1))
			;
		t[j] = s->events[i];
	}
	free(s->events);
	s->events = t;
	s->events_cap = cap;
	return 0;
}

static struct event_count *event_slot(struct report_stats *s, const char *path)
{
	size_t j;

	if ((s->nevents + 1) * 2 > s->events_cap && grow_events(s))
		return NULL;
	for (j = hash(path) & (s->events_cap - 1); s->events[j].path;
	     j = (j + 1) & (s->events_cap - 1))
		if (!strcmp(s->events[j].path, path))
			return &s->events[j];
	s->events[j].path = strdup(path);
	if (!s->events[j].path)
		return NULL;
	s->nevents++;
	return &s->events[j];
}

static struct thread_count *thread_slot(struct report_stats *s,
					const struct evt_trace_item *it)
{
	size_t i;

	for (i = s->nthreads; i-- > 0;)
		if (s->threads[i].pid == it->pid && s->threads[i].tid == it->tid)
			return &s->threads[i];
	if (s->nthreads == s->threads_cap) {
		size_t cap = s->threads_cap ? s->threads_cap * 2 : 16;
		struct thread_count *t = realloc(s->threads, cap * sizeof(*t));

		if (!t)
			return NULL;
		s->threads = t;
		s->threads_cap = cap;
	}
	memset(&s->threads[s->nthreads], 0, sizeof(s->threads[0]));
	s->threads[s->nthreads].pid = it->pid;
	s->threads[s->nthreads].tid = it->tid;
	snprintf(s->threads[s->nthreads].comm, sizeof(s->threads[0].comm), "%s",
		 it->comm);
	return &s->threads[s->nthreads++];
}

int report_stats_add(struct report_stats *s, const struct evt_trace_item *it)
{
	struct thread_count *t = thread_slot(s, it);
	struct event_count *e;

	if (!t)
		return -1;
	if (!s->any)
		s->first_ns = it->monotonic_ns;
	s->any = true;
	s->last_ns = it->monotonic_ns;
	if (it->kind == EVT_ITEM_LOST) {
		t->lost += it->lost;
		return 0;
	}
	e = event_slot(s, it->event->path);
	if (!e)
		return -1;
	if (!e->count++)
		e->first_ns = it->monotonic_ns;
	e->last_ns = it->monotonic_ns;
	t->events++;
	return 0;
}

static int by_count(const void *a, const void *b)
{
	const struct event_count *x = a, *y = b;

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return strcmp(x->path, y->path);
}

static int by_thread(const void *a, const void *b)
{
	const struct thread_count *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

void report_stats_print(FILE *f, const struct report_stats *s,
			enum report_clock c, int64_t start_monotonic_ns,
			int64_t realtime_offset_ns)
{
	double span = (double)(s->last_ns - s->first_ns) / 1e9;
	struct event_count *sorted;
	size_t i, n = 0;

	sorted = malloc((s->nevents ? s->nevents : 1) * sizeof(*sorted));
	if (!sorted) {
		fprintf(f, "# out of memory\n");
		return;
	}
	for (i = 0; i < s->events_cap; i++)
		if (s->events[i].path)
			sorted[n++] = s->events[i];
	qsort(sorted, n, sizeof(*sorted), by_count);
	fprintf(f, "# %-50s %10s %12s  %-20s %-20s\n", "event", "count",
		"rate/s", "first", "last");
	for (i = 0; i < n; i++) {
		char first[48], last[48], rate[32];

		report_time_text(first, sizeof(first), c, sorted[i].first_ns,
				 sorted[i].first_ns + realtime_offset_ns,
				 start_monotonic_ns);
		report_time_text(last, sizeof(last), c, sorted[i].last_ns,
				 sorted[i].last_ns + realtime_offset_ns,
				 start_monotonic_ns);
		if (span > 0)
			snprintf(rate, sizeof(rate), "%.1f", (double)sorted[i].count / span);
		else
			snprintf(rate, sizeof(rate), "-");
		fprintf(f, "  %-50s %10" PRIu64 " %12s  %-20s %-20s\n",
			sorted[i].path, sorted[i].count, rate, first, last);
	}
	free(sorted);
	if (s->nthreads)	/* s->threads may be NULL: qsort takes none */
		qsort(s->threads, s->nthreads, sizeof(*s->threads), by_thread);
	fprintf(f, "# %-24s %8s %12s %12s\n", "thread", "pid", "events", "lost");
	for (i = 0; i < s->nthreads; i++) {
		char name[48];

		snprintf(name, sizeof(name), "%s-%u", s->threads[i].comm,
			 s->threads[i].tid);
		fprintf(f, "  %-24s %8u %12" PRIu64 " %12" PRIu64 "\n", name,
			s->threads[i].pid, s->threads[i].events, s->threads[i].lost);
	}
}

void report_stats_free(struct report_stats *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->events_cap; i++)
		free(s->events[i].path);
	free(s->events);
	free(s->threads);
	free(s);
}
