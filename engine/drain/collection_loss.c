/*
 * collection_loss.c - what a recording lost, by site and cause, as the
 * writers named it in the evtrace/lost records (lost_record.h) at the
 * start of each packet that follows a loss; read when such a packet is
 * copied, so that a recording's summary says it without reading the
 * trace again.
 */
#include "collection_local.h"

static int tally(struct evt_collection *c, uint32_t gid, uint8_t cause,
		 uint64_t count)
{
	struct loss_tally *l;
	unsigned i;

	for (i = 0; i < c->nlosses; i++)
		if (c->losses[i].gid == gid && c->losses[i].cause == cause) {
			c->losses[i].count += count;
			return 0;
		}
	l = realloc(c->losses, (c->nlosses + 1) * sizeof(*l));
	if (!l)
		return -1;
	c->losses = l;
	c->losses[c->nlosses++] = (struct loss_tally){ gid, cause, count };
	return 0;
}

void evt__coll_tally_lost(struct evt_collection *c, const struct tracked *t,
			  const uint8_t *pkt, uint32_t content)
{
	uint32_t off = sizeof(struct evt_packet_header);
	struct evt_hdr_state hs = { .ctx_bytes = 0 };

	evt_hdr_reset(&hs);
	while (off < content) {
		struct evt_lost_entry e;
		struct evt_record r;

		if (evt_record_header(pkt + off, content - off, &hs, &r) ||
		    r.id != EVT_LOST_EVENT_ID ||
		    evt_record_lost(&r, content - off, &e))
			break;
		off += r.header_bytes + (uint32_t)r.payload_size;
		evt__coll_tally_one(c, t, &e);
	}
}

void evt__coll_tally_one(struct evt_collection *c, const struct tracked *t,
			 const struct evt_lost_entry *e)
{
	tally(c, e->site < t->nindexed ? t->gids[e->site] : EVT_NO_ID,
	      e->cause, e->count);
}

static int most_first(const void *a, const void *b)
{
	const struct loss_tally *x = a, *y = b;

	return x->count != y->count ? (x->count < y->count ? 1 : -1) :
	       (x->gid > y->gid) - (x->gid < y->gid);
}

void evt_collection_losses(struct evt_collection *c, evt_loss_cb cb, void *ctx)
{
	unsigned i;

	if (c->nlosses)
		qsort(c->losses, c->nlosses, sizeof(*c->losses), most_first);
	for (i = 0; i < c->nlosses; i++) {
		const struct evt_global_event *g = c->losses[i].gid == EVT_NO_ID ?
			NULL : evt_event_ids_at(&c->ids, c->losses[i].gid);

		cb(g ? g->path : NULL, c->losses[i].cause, c->losses[i].count, ctx);
	}
}

uint64_t evt_collection_lost_now(const struct evt_collection *c)
{
	uint64_t n = 0;
	unsigned k;
	uint32_t i, used;

	for (k = 0; k < c->ntracked; k++) {
		const struct tracked *t = &c->tracked[k];

		if (!t->ctl || t->ctl->shrank)
			continue;
		used = evt_ctl_tbufs_used(t->ctl);
		for (i = 0; i < used; i++) {
			const struct evt_ctl_tbuf *d = &t->ctl->tbufs[i];

			if (__atomic_load_n(&d->slot, __ATOMIC_RELAXED) == c->slot &&
			    __atomic_load_n(&d->state, __ATOMIC_ACQUIRE) != EVT_TBUF_FREE)
				n += __atomic_load_n(&d->lost, __ATOMIC_RELAXED) +
				     __atomic_load_n(&d->nested_lost, __ATOMIC_RELAXED);
		}
		n += __atomic_load_n(&t->ctl->slots[c->slot].nobuf_lost, __ATOMIC_RELAXED);
	}
	return n;
}
