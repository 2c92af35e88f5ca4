/*
 * collection_count.c - counting collections: per-thread counters added up.
 */
#include "collection_local.h"
#include "span_kind.h"

/* Adds thread buffer d's counters into sums, by global id. */
static void add_counters(const struct tracked *t, const struct evt_ctl_tbuf *d,
			 uint64_t *sums)
{
	uint32_t n, L;
	const uint64_t *v = evt_ctl_tbuf_counters(t->ctl, d, &n);

	if (!v)
		return;		/* out of bounds: nothing to trust */
	if (n > t->nindexed)
		n = t->nindexed;	/* not registered: not ours to count */
	for (L = 0; L < n && !t->ctl->shrank; L++) {
		uint64_t x = __atomic_load_n(&v[L], __ATOMIC_RELAXED);

		if (x)
			sums[t->gids[L]] += x;
	}
}
/*
 * Counting: a thread's counters are added up for good once its thread let
 * go of them (and given back to the process), or its process is gone, or
 * the count ends; until then they are read where they are.
 */
void evt__coll_count_tbuf(struct evt_collection *c, struct tracked *t, uint32_t i,
		       bool final)
{
	struct evt_ctl_tbuf *d = &t->ctl->tbufs[i];
	uint32_t state = __atomic_load_n(&d->state, __ATOMIC_ACQUIRE);
	uint32_t was = EVT_TBUF_EXITED;

	if ((state != EVT_TBUF_OWNED && state != EVT_TBUF_EXITED) ||
	    d->slot != t->slot)
		return;
	if (d->slot_gen == t->slot_gen &&
	    (state == EVT_TBUF_EXITED || t->dead || final))
		add_counters(t, d, c->totals);
	else if (state != EVT_TBUF_EXITED)
		return;
	if (state == EVT_TBUF_EXITED && !t->dead)
		__atomic_compare_exchange_n(&d->state, &was, EVT_TBUF_FREE, 0,
					    __ATOMIC_RELEASE, __ATOMIC_RELAXED);
}
int evt_collection_counts(struct evt_collection *c, evt_count_cb cb, void *ctx)
{
	uint64_t *sums = calloc(c->ntotals ? c->ntotals : 1, sizeof(*sums));
	uint32_t g, i, *order;
	unsigned k;

	order = calloc(c->ntotals ? c->ntotals : 1, sizeof(*order));
	if (!sums || !order) {
		free(sums);
		free(order);
		return -1;
	}
	if (c->ntotals)
		memcpy(sums, c->totals, c->ntotals * sizeof(*sums));
	for (k = 0; k < c->ntracked; k++) {
		struct tracked *t = &c->tracked[k];
		uint32_t n;

		if (t->done || !t->ctl)
			continue;
		n = evt_ctl_tbufs_used(t->ctl);
		for (i = 0; i < n && !t->ctl->shrank; i++) {
			const struct evt_ctl_tbuf *d = &t->ctl->tbufs[i];

			if (__atomic_load_n(&d->state, __ATOMIC_ACQUIRE) == EVT_TBUF_OWNED &&
			    d->slot == t->slot && d->slot_gen == t->slot_gen)
				add_counters(t, d, sums);
		}
	}
	for (g = 0; g < c->ntotals; g++)
		order[g] = g;
	/* By path: the order of ls.  Few events; an insertion sort. */
	for (g = 1; g < c->ntotals; g++)
		for (i = g; i > 0 && strverscmp(c->ids.events[order[i - 1]].path,
					    c->ids.events[order[i]].path) > 0; i--) {
			uint32_t x = order[i];

			order[i] = order[i - 1];
			order[i - 1] = x;
		}
	for (g = 0; g < c->ntotals; g++) {
		const struct evt_global_event *e = &c->ids.events[order[g]];
		uint64_t sum = sums[order[g]];

		/* A span's riders are counted with their switch (layout.h). */
		while (g + 1 < c->ntotals && evt_kind_is_span(e->kind) &&
		       c->ids.events[order[g + 1]].kind == e->kind &&
		       !strcmp(c->ids.events[order[g + 1]].path, e->path))
			sum += sums[order[++g]];
		if (evt_selection_wants(&c->sel, e->public_id, e->path, e->func,
					e->format))
			cb(e->public_id, e->path, sum, ctx);
	}
	free(sums);
	free(order);
	return 0;
}
