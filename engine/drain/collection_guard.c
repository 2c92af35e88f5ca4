/*
 * collection_guard.c - record --guard PERCENT: a site that takes more
 * than PERCENT of a thread's buffer within a second is capped, in its
 * process, at the rate that would have kept it to that share (the rate
 * limits of layout.h), and the recording's summary says so.  The bytes
 * are counted per thread and site from the records of each whole packet
 * the recorder copies (a flight recorder copies none until it ends: no
 * guard there).
 */
#include "collection_local.h"

struct guard_use {
	uint32_t pid, tid, id;
	uint32_t second;	/* CLOCK_MONOTONIC second + 1; 0: free */
	uint64_t bytes, records;
};

static uint64_t key_hash(uint32_t pid, uint32_t tid, uint32_t id)
{
	uint64_t k = ((uint64_t)pid << 40) ^ ((uint64_t)tid << 16) ^ id;

	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdULL;
	return k ^ (k >> 33);
}

static struct guard_use *use_of(struct evt_collection *c, uint32_t pid,
				uint32_t tid, uint32_t id)
{
	struct guard *g = &c->guard;
	size_t i, mask;

	if ((g->n + 1) * 2 > g->cap) {
		size_t cap = g->cap ? g->cap * 2 : 256, k;
		struct guard_use *t = calloc(cap, sizeof(*t));

		if (!t)
			return NULL;
		for (k = 0; k < g->cap; k++) {
			struct guard_use *u = &g->uses[k];

			if (!u->second)
				continue;
			for (i = key_hash(u->pid, u->tid, u->id) & (cap - 1); t[i].second;
			     i = (i + 1) & (cap - 1))
				;
			t[i] = *u;
		}
		free(g->uses);
		g->uses = t;
		g->cap = cap;
	}
	mask = g->cap - 1;
	for (i = key_hash(pid, tid, id) & mask; g->uses[i].second; i = (i + 1) & mask)
		if (g->uses[i].pid == pid && g->uses[i].tid == tid && g->uses[i].id == id)
			return &g->uses[i];
	g->uses[i] = (struct guard_use){ pid, tid, id, 0, 0, 0 };
	g->n++;
	return &g->uses[i];
}

static bool capped(const struct evt_collection *c, uint32_t pid, uint32_t id)
{
	unsigned k;

	for (k = 0; k < c->guard.ncapped; k++)
		if (c->guard.capped[k].pid == pid && c->guard.capped[k].id == id)
			return true;
	return false;
}

/* Site id of process t took share percent of a thread's buffer in a
 * second, rate events a second would have kept it to the limit. */
static void cap(struct evt_collection *c, struct tracked *t, uint32_t id,
		uint32_t rate, unsigned share)
{
	struct guard_cap *more = realloc(c->guard.capped,
					 (c->guard.ncapped + 1) * sizeof(*more));

	if (!more || evt_ctl_set_rate(t->ctl, id, rate)) {
		if (more)
			c->guard.capped = more;
		return;
	}
	c->guard.capped = more;
	evt_caps_note(&c->caps, t->ctl->h.pid, id, rate, EVT_CAP_GUARD);
	evt_caps_publish(&c->rd, c->number, &c->caps);
	more[c->guard.ncapped++] = (struct guard_cap){
		.pid = t->ctl->h.pid, .id = id, .rate = rate, .share = share,
		.gid = id < t->nindexed ? t->gids[id] : EVT_NO_ID,
	};
}

void evt__coll_guard_packet(struct evt_collection *c, struct tracked *t,
			    const struct evt_packet_header *h, const uint8_t *pkt,
			    uint32_t content)
{
	uint64_t buffer = (uint64_t)c->o.packet_size * c->o.packet_count;
	uint64_t limit = buffer * c->o.guard_percent / 100;
	struct layout_ctx x = { c, t->cls };
	uint32_t off = sizeof(*h), pid = t->ctl->h.pid;
	struct evt_hdr_state hs = { .ctx_bytes = 0 };

	evt_hdr_reset(&hs);
	while (off < content) {
		const struct evt_event_layout *l;
		struct evt_lost_entry le;
		struct guard_use *u;
		struct evt_record r;
		uint32_t second;

		if (evt_record_header(pkt + off, content - off, &hs, &r))
			return;
		if (r.id == EVT_LOST_EVENT_ID) {
			if (evt_record_lost(&r, content - off, &le))
				return;
		} else if (!(l = evt__coll_layout_of(&x, r.id)) ||
			   evt_record_payload(&r, l, content - off)) {
			return;
		}
		off += r.header_bytes + (uint32_t)r.payload_size;
		if (r.id == EVT_LOST_EVENT_ID || capped(c, pid, r.id))
			continue;
		u = use_of(c, pid, h->tid, r.id);
		if (!u)
			return;
		second = (uint32_t)(evt_clock_to_monotonic_ns(&c->ix.clock, r.timestamp) /
				    1000000000) + 1;
		if (u->second != second) {
			u->second = second;
			u->bytes = u->records = 0;
		}
		u->bytes += r.header_bytes + r.payload_size;
		u->records++;
		if (u->bytes > limit)
			cap(c, t, r.id, (uint32_t)(limit / (u->bytes / u->records) ?
						   limit / (u->bytes / u->records) : 1),
			    (unsigned)(u->bytes * 100 / buffer));
	}
}

void evt_collection_guarded(struct evt_collection *c, evt_guard_cb cb, void *ctx)
{
	unsigned k;

	for (k = 0; k < c->guard.ncapped; k++) {
		const struct guard_cap *g = &c->guard.capped[k];
		const struct evt_global_event *e = g->gid == EVT_NO_ID ? NULL :
			evt_event_ids_at(&c->ids, g->gid);

		cb(e ? e->path : "?", g->pid, g->rate, g->share, ctx);
	}
}

void evt__coll_guard_lift(struct evt_collection *c)
{
	unsigned i;

	for (i = 0; i < c->ntracked; i++)
		if (c->tracked[i].ctl)
			evt_caps_lift(&c->caps, c->tracked[i].ctl);
	evt_caps_end(&c->rd, c->number, &c->caps);
}
