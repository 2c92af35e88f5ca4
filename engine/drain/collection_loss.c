/*
 * collection_loss.c - what a recording lost, by site and cause, as the
 * writers named it in the evtrace/lost records (lost_record.h) at the
 * start of each packet that follows a loss; read when such a packet is
 * copied, so that a recording's summary says it without reading the
 * trace again; and what the buffers held when the trace could not be
 * written, which no trace will say.
 */
#include "collection_local.h"
#include "ring.h"

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

			if (__atomic_load_n(&d->slot, __ATOMIC_RELAXED) == t->slot &&
			    __atomic_load_n(&d->state, __ATOMIC_ACQUIRE) != EVT_TBUF_FREE)
				n += __atomic_load_n(&d->lost, __ATOMIC_RELAXED) +
				     __atomic_load_n(&d->nested_lost, __ATOMIC_RELAXED);
		}
		n += __atomic_load_n(&t->ctl->slots[t->slot].nobuf_lost, __ATOMIC_RELAXED);
	}
	return n;
}

/* The records of buffer i not written yet (from the stream's next
 * packet, less what of an open one went out), by site: cause. */
static void tally_unwritten(struct evt_collection *c, struct tracked *t,
			    uint32_t i, uint8_t cause)
{
	struct out_stream *st = &t->streams[i];
	struct evt_ring r;
	struct evt_ring_packet p;
	uint64_t produced, seq;
	const char *why;

	if (!evt_ring_open(&r, t->ctl, i, t->slot, &t->slot_gen, false) ||
	    r.epoch != st->epoch || st->finished || !evt_ring_map(&r, t->ctl))
		return;
	produced = evt_ring_produced(&r);
	seq = st->next_seq;
	if (produced - seq > r.count)	/* overwritten: only the newest are */
		seq = produced - r.count + 1;
	for (; seq <= produced; seq++) {
		struct evt_hdr_state hs = { .ctx_bytes = 0 };
		uint32_t off = sizeof(struct evt_packet_header);

		if (evt_ring_packet(&r, seq, produced, &p, &why) != EVT_RING_PACKET)
			continue;
		evt_hdr_reset(&hs);
		while (off < p.end) {
			struct evt_record rec;
			const struct evt_event_layout *l;

			if (evt_record_header(p.data + off, p.end - off, &hs, &rec))
				break;
			if (rec.id != EVT_LOST_EVENT_ID) {
				if (rec.id >= t->ctl->nevents)
					break;
				l = &t->ctl->events[rec.id].layout;
				if (evt_record_payload(&rec, l, p.end - off))
					break;
				/* (already out: the flushed part of an open packet) */
				if (!(st->pieces.part_upto &&
				      st->pieces.part_seq == p.h.packet_seq_num &&
				      off < st->pieces.part_upto))
					evt__coll_tally_one(c, t, &(struct evt_lost_entry){
						rec.id, cause, 1 });
			}
			off += rec.header_bytes + (uint32_t)rec.payload_size;
		}
	}
}

void evt__coll_tally_unwritten(struct evt_collection *c, uint8_t cause)
{
	unsigned k;
	uint32_t i, n;

	for (k = 0; k < c->ntracked; k++) {
		struct tracked *t = &c->tracked[k];

		if (!t->ctl || t->ctl->shrank || !t->streams || t->done)
			continue;
		n = evt_ctl_tbufs_used(t->ctl);
		for (i = 0; i < n && i < t->ctl->h.max_tbufs; i++)
			if (t->streams[i].epoch)
				tally_unwritten(c, t, i, cause);
	}
}
