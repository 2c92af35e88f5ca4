/*
 * window_contents.c - what a window holds (window_contents.h).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "trace_reader.h"
#include "window_contents.h"

struct look {
	struct window_contents *wc;
	const struct window_firing *want;
};

static bool is_firing(const struct window_firing *w, const struct evt_trace_item *it)
{
	if (it->tid != w->tid || strcmp(it->event->path, w->path))
		return false;
	if (w->ts)
		return it->timestamp == w->ts;
	return llabs(it->monotonic_ns - w->ns) <= 1000;
}

static void add_pid(struct window_contents *wc, uint32_t pid)
{
	unsigned i;

	for (i = 0; i < wc->npids; i++)
		if (wc->pids[i] == pid)
			return;
	if (wc->npids < WINDOW_PIDS_MAX)
		wc->pids[wc->npids++] = pid;
	else
		wc->more_pids = true;
}

/* Whether tid had an event before; it has now (false when out of
 * memory: counted as a first). */
static bool seen_before(struct window_contents *wc, uint32_t tid, bool add)
{
	size_t i;

	for (i = 0; i < wc->ntids; i++)
		if (wc->tids[i] == tid)
			return true;
	if (!add)
		return false;
	if (wc->ntids == wc->captids) {
		size_t cap = wc->captids ? 2 * wc->captids : 16;
		uint32_t *grown = realloc(wc->tids, cap * sizeof(*grown));

		if (!grown)
			return false;
		wc->tids = grown;
		wc->captids = cap;
	}
	wc->tids[wc->ntids++] = tid;
	return false;
}

static int on_item(const struct evt_trace_item *it, void *ctx)
{
	struct look *l = ctx;
	struct window_contents *wc = l->wc;
	bool firing_thread = l->want && it->tid == l->want->tid;

	if (it->kind == EVT_ITEM_LOST) {
		if (seen_before(wc, it->tid, false)) {
			wc->lost_inside += it->lost;
		} else {
			wc->lost_before += it->lost;
			if (firing_thread)
				wc->firing_thread_lost_before += it->lost;
		}
		return 0;
	}
	if (it->kind != EVT_ITEM_EVENT)
		return 0;
	if (!wc->events++)
		wc->from_ns = it->monotonic_ns;
	wc->to_ns = it->monotonic_ns;
	seen_before(wc, it->tid, true);
	add_pid(wc, it->pid);
	if (firing_thread && !wc->firing_thread_events++)
		wc->firing_thread_from_ns = it->monotonic_ns;
	if (l->want && !wc->held && is_firing(l->want, it))
		wc->held = true;
	return 0;
}

int window_contents_read(const char *dir, const struct window_firing *want,
			 struct window_contents *wc, char *err, size_t err_size)
{
	struct look l = { wc, want };
	struct evt_trace_stats st;

	memset(wc, 0, sizeof(*wc));
	return evt_trace_read(dir, on_item, &l, &st, err, err_size);
}

void window_contents_free(struct window_contents *wc)
{
	free(wc->tids);
	wc->tids = NULL;
	wc->ntids = wc->captids = 0;
}

void window_contents_why_not(char *buf, size_t size, const struct window_contents *wc,
			     const struct window_firing *want)
{
	if (!wc->firing_thread_events)
		snprintf(buf, size, "it holds no event of thread %u (%" PRIu64
			 " of its events were overwritten or lost before it)",
			 want->tid, wc->firing_thread_lost_before);
	else if (want->ns < wc->firing_thread_from_ns)
		snprintf(buf, size, "overwritten before the window was taken (thread "
			 "%u's first event in it is %.6f s after the firing; %" PRIu64
			 " of its events went before it)", want->tid,
			 (double)(wc->firing_thread_from_ns - want->ns) / 1e9,
			 wc->firing_thread_lost_before);
	else
		snprintf(buf, size, "lost inside the window (%" PRIu64 " events "
			 "lost there)", wc->lost_inside);
}

void window_contents_print(FILE *out, const struct window_contents *wc,
			   const struct window_firing *want)
{
	char why[200];
	unsigned i;

	if (want) {
		if (wc->held)
			fprintf(out, "firing_event: held\n");
		else {
			window_contents_why_not(why, sizeof(why), wc, want);
			fprintf(out, "firing_event: not held: %s\n", why);
		}
	}
	fprintf(out, "from_ns: %" PRId64 "\nto_ns: %" PRId64 "\nevents: %" PRIu64
		"\nlost_before: %" PRIu64 "\nlost_inside: %" PRIu64 "\nprocesses:",
		wc->from_ns, wc->to_ns, wc->events, wc->lost_before, wc->lost_inside);
	for (i = 0; i < wc->npids; i++)
		fprintf(out, "%s%u", i ? "," : " ", wc->pids[i]);
	fprintf(out, "%s\n", wc->more_pids ? ",..." : "");
}
