/*
 * report_stats.c - report --stats: per event, how many, how often, first
 * and last; per thread, its events and what it lost; per site, what it
 * lost and why, as the writers named it.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "lost_record.h"
#include "report_output.h"

#define NOT_NAMED "(not named)"
#define OTHER_SITES "(other sites)"

struct event_count {
	char *path;
	uint64_t count;
	int64_t first_ns, last_ns;	/* CLOCK_MONOTONIC */
	uint64_t lost[EVT_LOSS_CAUSES];	/* by cause; [0]: not named */
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
		uint64_t named = 0;
		unsigned i;

		t->lost += it->lost;
		for (i = 0; i < it->nsites; i++) {
			e = event_slot(s, it->sites[i].event ?
				       it->sites[i].event->path : OTHER_SITES);
			if (!e)
				return -1;
			e->lost[it->sites[i].cause < EVT_LOSS_CAUSES ?
				it->sites[i].cause : 0] += it->sites[i].count;
			named += it->sites[i].count;
		}
		if (named < it->lost) {
			if (!(e = event_slot(s, NOT_NAMED)))
				return -1;
			e->lost[0] += it->lost - named;
		}
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

struct site_loss {
	const char *path;
	unsigned cause;
	uint64_t count;
};

static int by_loss(const void *a, const void *b)
{
	const struct site_loss *x = a, *y = b;

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return strcmp(x->path, y->path);
}

/* What each site lost for each cause, most first. */
static void print_site_losses(FILE *f, const struct report_stats *s)
{
	struct site_loss *v = NULL, *grown;
	size_t i, n = 0;
	unsigned c;

	for (i = 0; i < s->events_cap; i++)
		for (c = 0; s->events[i].path && c < EVT_LOSS_CAUSES; c++) {
			if (!s->events[i].lost[c])
				continue;
			grown = realloc(v, (n + 1) * sizeof(*v));
			if (!grown) {
				fprintf(f, "# out of memory\n");
				free(v);
				return;
			}
			v = grown;
			v[n++] = (struct site_loss){ s->events[i].path, c,
						     s->events[i].lost[c] };
		}
	if (!n)
		return;
	qsort(v, n, sizeof(*v), by_loss);
	fprintf(f, "# %-50s %-30s %12s\n", "lost by site", "cause", "lost");
	for (i = 0; i < n; i++)
		fprintf(f, "  %-50s %-30s %12" PRIu64 "\n", v[i].path,
			v[i].cause ? evt_loss_cause_name(v[i].cause) : "-",
			v[i].count);
	free(v);
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
		if (s->events[i].path && s->events[i].count)
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
	print_site_losses(f, s);
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
