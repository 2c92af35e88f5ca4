/*
 * collection_drain.c - the drain: packets copied out of thread buffers into
 * stream files and to a relay, open packets flushed in pieces, losses
 * written where they happened, pages allocated ahead of writers.
 */
#include "collection_local.h"
#include "ring.h"
#include "trace_names.h"
#include "invariant.h"

/* Appends a packet, given as a header and a body, to buffer i's stream. */
static int out_write(struct evt_collection *c, struct tracked *t, uint32_t i,
		     struct out_stream *st, const void *head, size_t head_len,
		     const void *body, size_t body_len)
{
	struct iovec iov[2] = {
		{ (void *)head, head_len },
		{ (void *)body, body_len },
	};
	struct iovec *v = iov;
	int nv = body_len ? 2 : 1, saved;

	if (st->fd < 0) {
		/* Named by the serial too: a file name in the run directory
		 * may come back for another process; and by the class, which
		 * the process may change.  (The relay's streams too.) */
		if (i == t->ctl->h.max_tbufs)
			snprintf(st->name, sizeof(st->name),
				 EVT_TRACE_STREAM_PREFIX "%.*s_%u_%u_unbuffered",
				 (int)strcspn(t->name, "."), t->name, t->serial,
				 t->cls);
		else
			snprintf(st->name, sizeof(st->name),
				 EVT_TRACE_STREAM_PREFIX "%.*s_%u_%u_%u_%u",
				 (int)strcspn(t->name, "."), t->name, t->serial,
				 t->cls, i, st->epoch);
		if (!local(c)) {
			st->size += head_len + body_len;
			return 0;
		}
		st->fd = evt_trace_dir_create(&c->out, 0, st->name, c->err,
					      sizeof(c->err));
		if (st->fd < 0)
			return -1;
	}
	while (nv) {
		ssize_t n = writev(st->fd, v, nv);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			/* No torn packet: what was written of it goes. */
			saved = errno;
			evt_trace_dir_error(&c->out, 0, st->name, saved, c->err,
					    sizeof(c->err));
			if (ftruncate(st->fd, st->size) == 0)
				lseek(st->fd, st->size, SEEK_SET);
			errno = saved;
			return -1;
		}
		while (nv && (size_t)n >= v->iov_len) {
			n -= v->iov_len;
			v++;
			nv--;
		}
		if (nv) {
			v->iov_base = (uint8_t *)v->iov_base + n;
			v->iov_len -= n;
		}
	}
	st->size += head_len + body_len;
	/* A stream file is whole packets, appended: its size is ours. */
	evt_invariant(lseek(st->fd, 0, SEEK_CUR) == st->size);
	return 0;
}
/*
 * The records of a packet just acquired may be of events the process
 * registered after this pass indexed it (a library dlopen'd meanwhile):
 * they were registered before the records were written, so the registry
 * read now has them.  They get their ids and their class (the process may
 * move to another one) and are described before the packet goes out.
 */
static int index_new_events(struct evt_collection *c, struct tracked *t)
{
	char why[PATH_MAX + 200];

	if (!evt_ctl_registry_grew(t->ctl) && t->ctl->nevents == t->nindexed)
		return 0;	/* the usual case: one load */
	if (evt_ctl_refresh(t->ctl, why, sizeof(why)))
		evt_report("%s", why);
	if (t->ctl->nevents == t->nindexed)
		return 0;
	if (evt__coll_index_events(c, t))
		return snprintf(c->err, sizeof(c->err), "out of memory"), -1;
	return evt__coll_flush_index(c, c->err, sizeof(c->err));
}
/*
 * Writes packet p (read and checked by the ring reader): the header from
 * a patched copy, the records straight from shared memory, which the
 * writer does not touch until the packet is handed back.  An open packet
 * is closed in the copy.  flush: the open packet, of which only what no
 * flush wrote before goes, as a packet of its own (packet_pieces.h).  (A
 * process that truncates its file makes write() fail with EFAULT, not the
 * engine crash.)  1 when written, 0 when skipped, -1 on error.
 */
struct refusal {
	struct evt_collection *c;
	const struct tracked *t;
};

/* An event of a packet the relay's queue refused, for the summary. */
static void relay_refused(void *ctx, uint16_t id)
{
	const struct refusal *r = ctx;
	const struct evt_lost_entry e = { id, EVT_LOSS_RELAY_FULL, 1 };

	evt__coll_tally_one(r->c, r->t, &e);
}

/* The packet (or what of it the relay has not) to the relay, if any. */
static void relay_packet(struct evt_collection *c, const struct tracked *t,
			 struct out_stream *st, const struct evt_packet_header *h,
			 const uint8_t *pkt, uint32_t content, bool flush)
{
	struct layout_ctx x = { c, t->cls };
	struct refusal r = { c, t };

	if (!c->relay)
		return;
	st->relay.refused_cb = relay_refused;
	st->relay.refused_ctx = &r;
	evt_relay_out_packet(c->relay, &st->relay, st->name, h, pkt, content,
			     flush, evt__coll_layout_of, &x);
	st->relay.refused_cb = NULL;
}

static int copy_packet(struct evt_collection *c, struct tracked *t, uint32_t i,
		       struct out_stream *st, const struct evt_ring_packet *p,
		       bool flush)
{
	struct layout_ctx x = { c, t->cls };
	struct evt_packet_header h = p->h, out;
	const uint8_t *pkt = p->data;
	uint32_t content = p->end;
	struct evt_piece pc;
	uint16_t cpu;
	off_t before;

	if (t->ctl->shrank)
		return 0;	/* read as zeroes: evt__coll_drain() reports it */
	if (index_new_events(c, t))
		return -1;
	x.cls = t->cls;		/* (it may have moved, to new files) */
	before = st->size;
	if (p->open) {	/* close it in the copy */
		h.content_size = (uint64_t)content * 8;
		h.timestamp_end = evt_clock_now(c->clock_kind, &cpu);
	}
	if (content == sizeof(h) && h.events_discarded == 0)
		return 0;	/* nothing in it */
	h.stream_id = t->cls;
	h.events_discarded += st->extra_lost;
	if (h.events_discarded > st->last_discarded)
		evt__coll_tally_lost(c, t, pkt, content);
	if (c->o.guard_percent && !p->open)
		evt__coll_guard_packet(c, t, &h, pkt, content);
	st->last_discarded = h.events_discarded;
	h.events_discarded -= st->lost_base;
	if (!evt_pieces_cut(&st->pieces, &h, pkt, content, flush,
			    evt__coll_layout_of, &x, &pc)) {
		if (!flush)
			evt_pieces_forget(&st->pieces);	/* all of it went */
		/* The relay may still miss a piece its queue refused. */
		relay_packet(c, t, st, &h, pkt, content, flush);
		return 0;
	}
	memcpy(&out, pc.head, sizeof(out));
	st->last_ts = out.timestamp_end;
	if (out_write(c, t, i, st, pc.head, pc.head_len, pc.body,
		      pc.body_len)) {
		if (errno != EFAULT)
			return -1;
		t->ctl->shrank = 1;	/* the kernel met the truncation */
		return 0;
	}
	if (t->ctl->shrank) {	/* it shrank while copied: zeroes went out */
		if (ftruncate(st->fd, before) == 0)
			lseek(st->fd, before, SEEK_SET);
		st->size = before;
		return 0;
	}
	evt_pieces_done(&st->pieces, &pc);
	relay_packet(c, t, st, &h, pkt, content, flush);
	c->stats.packets++;
	c->stats.bytes += pc.head_len + pc.body_len;
	/* The packet before this one held the events between their first
	 * counts (a writer's count, checked: never counted backwards). */
	if (st->first_event != UINT64_MAX && out.first_event > st->first_event)
		c->stats.events_at_least += out.first_event - st->first_event;
	st->first_event = out.first_event;
	return 1;
}
/* A packet of the engine's own (a header, perhaps lost records), for the
 * relay too: len bytes at h. */
static void relay_own_packet(struct evt_collection *c, struct out_stream *st,
			      const struct evt_packet_header *h, uint32_t len)
{
	if (c->relay) {
		evt_pieces_forget(&st->relay.pieces);	/* a packet of its own */
		evt_relay_out_packet(c->relay, &st->relay, st->name, h,
				     (const uint8_t *)h, len, false,
				     NULL, NULL);
	}
}
/* The most evtrace/lost records a buffer's drop entry gives. */
#define DROPS_MAX (EVT_DROP_SITES + EVT_DROP_CAUSES)

/*
 * The evtrace/lost records naming what buffer i dropped that no packet of
 * its writer named (lost_record.h), at most lost events in all, at p;
 * their bytes, after a CPU record.  0 when there is nothing to name.
 */
static uint32_t name_drops(struct evt_collection *c, struct tracked *t,
			   uint32_t i, uint64_t lost, uint64_t ts, uint8_t *p)
{
	struct evt_ctl_drops d;
	struct evt_hdr_state hs = { .ctx_bytes = 0 };
	struct evt_lost_entry e[DROPS_MAX];
	uint32_t n = 0, k, len;

	if (evt_ctl_drops_read(t->ctl, i, &d))
		return 0;
	for (k = 0; k < d.nsites && k < EVT_DROP_SITES; k++)
		e[n++] = (struct evt_lost_entry){ d.site[k].id,
						  (uint8_t)d.site[k].cause,
						  d.site[k].count };
	for (k = 0; k < EVT_DROP_CAUSES; k++)
		if (d.other[k])
			e[n++] = (struct evt_lost_entry){ EVT_LOST_SITE_OTHER,
							  (uint8_t)(k + 1),
							  d.other[k] };
	evt_hdr_reset(&hs);
	len = evt_hdr_put_cpu(p, &hs, ts, 0);
	for (k = 0; k < n; k++) {
		/* A racing or scribbled entry names no more than was lost. */
		if (!e[k].count || e[k].count > lost || !e[k].cause ||
		    e[k].cause >= EVT_LOSS_CAUSES)
			continue;
		lost -= e[k].count;
		len += evt_hdr_put(p + len, &hs, EVT_LOST_EVENT_ID, ts, 0);
		evt_lost_payload_put(p + len, &e[k]);
		len += EVT_LOST_PAYLOAD_BYTES;
		evt__coll_tally_one(c, t, &e[k]);
	}
	return len > EVT_CPU_RECORD_BYTES ? len : 0;
}

/* A packet carrying the final lost count, with the sites of the loss no
 * packet named. */
static int write_lost_packet(struct evt_collection *c, struct tracked *t,
			     uint32_t i, struct out_stream *st,
			     const struct evt_ctl_tbuf *d, uint64_t total)
{
	uint8_t pkt[sizeof(struct evt_packet_header) + EVT_CPU_RECORD_BYTES +
		    DROPS_MAX * (EVT_HDR_EXTENDED_BYTES + EVT_LOST_PAYLOAD_BYTES)];
	struct evt_packet_header h;
	uint32_t len = sizeof(h);

	len += name_drops(c, t, i, total - st->last_discarded, st->last_ts,
			  pkt + sizeof(h));
	evt_packet_header_open(&h, t->cls, st->pieces.seq, st->last_ts,
			       len, total - st->lost_base, 0,
			       t->ctl->h.pid, d->tid, d->comm);
	evt_packet_header_close(&h, st->last_ts, len);
	memcpy(pkt, &h, sizeof(h));
	st->last_discarded = total;
	if (out_write(c, t, i, st, pkt, len, NULL, 0))
		return -1;
	st->pieces.seq++;
	relay_own_packet(c, st, (const struct evt_packet_header *)pkt, len);
	return 0;
}
/*
 * Events a process dropped because it could not get a buffer for this
 * slot (memory bound reached, or no room in the run directory) belong to
 * no thread: they go into a stream of their own, one packet naming the
 * sites and causes the slot's drop entry holds, so that every reader
 * counts them.
 */
static int write_unbuffered_lost(struct evt_collection *c, struct tracked *t)
{
	uint64_t n = __atomic_load_n(&t->ctl->slots[t->slot].nobuf_lost,
				     __ATOMIC_RELAXED);
	uint8_t pkt[sizeof(struct evt_packet_header) + EVT_CPU_RECORD_BYTES +
		    DROPS_MAX * (EVT_HDR_EXTENDED_BYTES + EVT_LOST_PAYLOAD_BYTES)];
	struct out_stream st = { .fd = -1, .epoch = 0 };
	struct evt_packet_header h;
	uint32_t len = sizeof(h);
	uint64_t now;
	uint16_t cpu;
	int ret;

	if (!n)
		return 0;
	now = evt_clock_now(c->clock_kind, &cpu);
	len += name_drops(c, t, EVT_DROPS_OF_SLOT(t->ctl->h.max_tbufs, t->slot),
			  n, now, pkt + sizeof(h));
	evt_packet_header_open(&h, t->cls, 0, now, len, n, 0,
			       t->ctl->h.pid, t->ctl->h.pid, t->ctl->h.comm);
	evt_packet_header_close(&h, now, len);
	memcpy(pkt, &h, sizeof(h));
	ret = out_write(c, t, t->ctl->h.max_tbufs, &st, pkt, len, NULL, 0);
	if (st.fd >= 0)
		close(st.fd);
	if (!ret && c->relay) {
		relay_own_packet(c, &st, (const struct evt_packet_header *)pkt, len);
		evt_relay_out_end(c->relay, &st.relay);
	}
	c->stats.lost_unbuffered += n;
	return ret;
}
/*
 * Discard mode: the open packet written as far as it was committed, at
 * most every FLUSH_MS, so that what a slow writer wrote reaches the trace
 * directory within a second (report works on a running recording; a
 * killed recorder loses the last second at most).  The writer never
 * touches what is below commit, nor reuses a packet not consumed.
 */
#define FLUSH_MS 500

/* A flush opens a stream file early: only with fds to spare, for the
 * processes still to be taken on (the lowest free fd well below the
 * limit). */
static bool fds_to_spare(const struct evt_collection *c)
{
	struct rlimit rl;
	int probe = fcntl(c->rd.fd, F_DUPFD_CLOEXEC, 0);

	if (probe < 0)
		return false;
	close(probe);
	return getrlimit(RLIMIT_NOFILE, &rl) == 0 &&
	       (rl.rlim_cur == RLIM_INFINITY || (rlim_t)probe + 32 < rl.rlim_cur);
}
/* A buffer given up on: said once, read no further. */
static void broken(struct tracked *t, uint32_t i, struct out_stream *st,
		   uint64_t seq, const char *why)
{
	evt_ring_report(t->ctl, i, seq, why);
	st->finished = true;
}
static int flush_open_packet(struct evt_collection *c, struct tracked *t,
			     uint32_t i, struct out_stream *st,
			     const struct evt_ring *r, uint64_t produced)
{
	int64_t now = now_ms();
	struct evt_ring_packet p;
	const char *why;

	if (now - st->flushed_ms < FLUSH_MS)
		return 0;
	st->flushed_ms = now;
	if (st->fd < 0 && !fds_to_spare(c))
		return 0;	/* its file waits for its first whole packet */
	switch (evt_ring_packet(r, produced, produced, &p, &why)) {
	case EVT_RING_BROKEN:
		broken(t, i, st, produced, why);
		return 0;
	case EVT_RING_PACKET:
		if (p.end > sizeof(p.h))
			return copy_packet(c, t, i, st, &p, true) < 0 ? -1 : 0;
		return 0;
	default:
		return 0;	/* nothing, or whole soon */
	}
}
/* A buffer read to its end: its final lost count out, its file closed. */
static int end_stream(struct evt_collection *c, struct tracked *t, uint32_t i,
		      struct out_stream *st, const struct evt_ring *r)
{
	uint64_t total_lost = evt_ring_lost(r) + st->extra_lost;

	if (total_lost > st->last_discarded &&
	    write_lost_packet(c, t, i, st, r->d, total_lost))
		return -1;
	c->stats.lost += st->last_discarded;
	c->stats.overwritten += st->extra_lost;
	st->finished = true;
	if (st->fd >= 0) {
		close(st->fd);
		st->fd = -1;
	}
	if (c->relay)
		evt_relay_out_end(c->relay, &st->relay);
	return 0;
}
/*
 * Packets from seq up to produced out, the open one too when take_open;
 * the closed ones handed back when hand_back.  What came before seq and
 * no longer is in an overwriting buffer counts as lost.  0 or -1.
 */
static int copy_packets(struct evt_collection *c, struct tracked *t, uint32_t i,
			struct out_stream *st, struct evt_ring *r,
			uint64_t produced, bool take_open, bool hand_back)
{
	struct evt_ring_packet p;
	const char *why;
	uint64_t seq;

	for (seq = st->next_seq; seq < produced && !st->finished; seq++) {
		/* Each packet once, in order. */
		evt_invariant(seq == st->next_seq);
		if (evt_ring_packet(r, seq, produced, &p, &why) == EVT_RING_BROKEN) {
			broken(t, i, st, seq, why);
			return 0;
		}
		if (copy_packet(c, t, i, st, &p, false) < 0)
			return -1;
		st->next_seq = seq + 1;
		if (hand_back)
			evt_ring_hand_back(r, st->next_seq);
	}
	if (!take_open || st->finished)
		return 0;
	switch (evt_ring_packet(r, produced, produced, &p, &why)) {
	case EVT_RING_BROKEN:
		evt_ring_report(t->ctl, i, produced, why);
		return 0;
	case EVT_RING_PACKET:
		if (t->dead)
			evt__coll_died_writing(c, t, r, &p);
		if (p.end <= sizeof(p.h))
			return 0;
		if (copy_packet(c, t, i, st, &p, false) < 0)
			return -1;
		st->next_seq = produced + 1;
		return 0;
	default:
		return 0;
	}
}
/* Overwrite mode: packets the writer reused before they were read are
 * lost, as many events as the oldest one left says came before it. */
static void skip_overwritten(struct out_stream *st, const struct evt_ring *r,
			     uint64_t produced)
{
	uint64_t first = evt_ring_oldest(r, produced);
	struct evt_ring_packet p;
	const char *why;

	if (first <= st->next_seq)
		return;
	if (first < produced &&
	    evt_ring_packet(r, first, produced, &p, &why) == EVT_RING_PACKET)
		st->extra_lost = p.h.first_event;
	st->next_seq = first;
}
/* A snapshot --before: packets that ended before since are left out (not
 * lost: outside the window asked for). */
static void skip_older(struct out_stream *st, const struct evt_ring *r,
		       uint64_t produced, uint64_t since)
{
	struct evt_ring_packet p;
	const char *why;

	while (st->next_seq < produced &&
	       evt_ring_packet(r, st->next_seq, produced, &p, &why) == EVT_RING_PACKET &&
	       p.h.timestamp_end < since)
		st->next_seq++;
}
/*
 * Snapshot (overwrite mode, the recording running on): buffer i copied
 * whole out of shared memory first (evt_ring_snapshot), then written from
 * the copy: the packets its writer did not reach during the copy, oldest
 * first (those before counted as overwritten, as a recording's end counts
 * them), and the open packet up to its commit.  Nothing in the control
 * file is written.
 */
static int snapshot_tbuf(struct evt_collection *c, struct tracked *t,
			 uint32_t i, struct out_stream *st, struct evt_ring *r)
{
	uint8_t *copy = st->frozen;
	uint64_t produced;
	int ret;

	if (copy) {	/* copied with the others, at the start */
		st->frozen = NULL;
		r->packets = copy;
		r->frozen = true;
		r->frozen_produced = st->frozen_produced;
		r->frozen_reused = st->frozen_reused;
		r->frozen_commit = st->frozen_commit;
	} else if ((copy = malloc((size_t)r->size * r->count))) {
		evt_ring_snapshot(r, copy);
	} else {
		return 0;	/* this buffer is left out */
	}
	produced = evt_ring_produced(r);
	st->next_seq = 0;
	skip_overwritten(st, r, produced);
	if (c->since_value)
		skip_older(st, r, produced, c->since_value);
	ret = copy_packets(c, t, i, st, r, produced, true, false);
	free(copy);
	if (ret < 0 || end_stream(c, t, i, st, r))
		return -1;
	return 0;
}
/*
 * A writer's first pass through its buffer pays a page fault for each
 * page, and more when the fault must also allocate the page (3-4 us
 * against 1.7 on some virtual machines).  The recorder allocates the
 * pages ALLOCATE_AHEAD bytes ahead of the writer's packet, off its path,
 * so that the writer's own faults only map them; from the writer's second
 * packet on, so that the many threads that write a few events do not
 * each get a whole buffer.  Pages the writer has not reached yet may so
 * be allocated early, ALLOCATE_AHEAD at most per buffer; they are charged
 * to the recorder's memory cgroup.  The file is never made longer (a
 * process may have shrunk it).
 */
#define ALLOCATE_AHEAD (2u << 20)

static void allocate_ahead(struct evt_collection *c, struct tracked *t,
			   struct out_stream *st, const uint8_t *packets,
			   uint32_t size, uint32_t count, uint64_t produced)
{
	uint64_t total = (uint64_t)size * count, want;

	if (st->allocated >= total || c->o.snapshot || produced == 0)
		return;
	want = produced >= count ? total :
	       (produced + 1) * (uint64_t)size + ALLOCATE_AHEAD;
	if (want > total)
		want = total;
	if (want <= st->allocated)
		return;
	fallocate(t->ctl->fd, FALLOC_FL_KEEP_SIZE,
		  (off_t)(packets - t->ctl->base) + (off_t)st->allocated,
		  (off_t)(want - st->allocated));
	st->allocated = want;	/* failed: the writer's faults allocate */
	c->allocations++;
}
/* st anew for a buffer's epoch (a new thread's, or the first look). */
static void stream_epoch(struct evt_collection *c, struct out_stream *st,
			 uint32_t epoch)
{
	if (st->epoch == epoch)
		return;
	if (st->epoch && st->fd >= 0)
		close(st->fd);
	if (c->relay)
		evt_relay_out_end(c->relay, &st->relay);
	free(st->frozen);	/* (of another epoch: not this buffer's now) */
	memset(st, 0, sizeof(*st));
	st->fd = -1;
	st->epoch = epoch;
	st->first_event = UINT64_MAX;
}

/* Snapshots copy at most this much at once before writing. */
#define FREEZE_MAX_BYTES (256u << 20)

void evt__coll_freeze(struct evt_collection *c)
{
	uint64_t taken = 0;
	unsigned k;
	uint32_t i, n;

	for (k = 0; k < c->ntracked; k++) {
		struct tracked *t = &c->tracked[k];

		n = t->done || !t->ctl ? 0 : evt_ctl_tbufs_used(t->ctl);
		for (i = 0; i < n && !t->ctl->shrank; i++) {
			struct out_stream *st = &t->streams[i];
			struct evt_ring r;
			size_t bytes;

			if (!evt_ring_open(&r, t->ctl, i, t->slot, &t->slot_gen, false))
				continue;
			stream_epoch(c, st, r.epoch);
			if (st->finished || st->frozen || !evt_ring_map(&r, t->ctl))
				continue;
			bytes = (size_t)r.size * r.count;
			if (taken + bytes > FREEZE_MAX_BYTES || !(st->frozen = malloc(bytes)))
				return;	/* the rest: copied as written */
			taken += bytes;
			evt_ring_snapshot(&r, st->frozen);
			st->frozen_produced = r.frozen_produced;
			st->frozen_reused = r.frozen_reused;
			st->frozen_commit = r.frozen_commit;
		}
	}
}

/* Drains buffer i of t; final: take the open packet too.  0 or -1. */
static int drain_tbuf(struct evt_collection *c, struct tracked *t, uint32_t i,
		      bool final)
{
	struct out_stream *st = &t->streams[i];
	struct evt_ring r;
	uint64_t produced;

	if (!evt_ring_open(&r, t->ctl, i, t->slot, &t->slot_gen,
			   !t->dead && !c->o.snapshot))
		return 0;
	stream_epoch(c, st, r.epoch);
	if (st->finished)
		return 0;
	if (!evt_ring_map(&r, t->ctl)) {
		broken(t, i, st, UINT64_MAX, "geometry out of bounds");
		return 0;
	}
	if (c->o.snapshot)
		return final ? snapshot_tbuf(c, t, i, st, &r) : 0;
	final = final || (r.exited && !c->o.hold_exited) || t->dead;
	produced = evt_ring_produced(&r);
	if (!final)
		allocate_ahead(c, t, st, r.packets, r.size, r.count, produced);
	if (c->o.mode == EVT_MODE_OVERWRITE) {
		if (!final)
			return 0;
		skip_overwritten(st, &r, produced);
	} else if (produced < st->next_seq || produced - st->next_seq > r.count) {
		broken(t, i, st, UINT64_MAX, "impossible produced count");
		return 0;
	}
	if (c->o.mode == EVT_MODE_DISCARD && produced - st->next_seq >= r.count / 4)
		evt__coll_step_off_writer(c, (int)t->ctl->h.pid, (int)r.d->tid);
	if (copy_packets(c, t, i, st, &r, produced, final,
			 c->o.mode == EVT_MODE_DISCARD))
		return -1;
	if (!final && !st->finished && c->o.mode == EVT_MODE_DISCARD)
		return flush_open_packet(c, t, i, st, &r, produced);
	if (!final || st->finished)
		return 0;
	if (end_stream(c, t, i, st, &r))
		return -1;
	if (r.exited && !t->dead)
		/* Its thread is gone and its data out: the process may reuse it. */
		evt_ring_free(&r);
	return 0;
}
/* Whether a dead process's control file is kept a while yet (windows of
 * the recording may still read it). */
static bool held(const struct evt_collection *c, const struct tracked *t)
{
	return c->o.hold_exited && !c->finishing &&
	       now_ms() - t->done_ms < (int64_t)c->o.hold_dead_ms;
}

/*
 * The trace cannot be written (a full disk, its directory removed): the
 * recording stops where its output is whole.  Its events are switched off
 * and its slot freed in every process, which run on untraced; no process
 * joins it any more.  Returns -1 with the error (c->err) in err.
 */
int evt__coll_output_failed(struct evt_collection *c, char *err, size_t err_size)
{
	unsigned k;
	uint32_t id;

	if (!c->failed) {
		c->failed = true;
		evt__coll_tally_unwritten(c, EVT_LOSS_WRITE_ERROR);
		evt_kernel_record_destroy(c->kernel);	/* its events stop */
		c->kernel = NULL;
		unlinkat(c->rd.fd, c->rules_name, 0);
		c->rules_name[0] = '\0';
		for (k = 0; k < c->ntracked; k++) {
			struct tracked *t = &c->tracked[k];

			if (!t->ctl)
				continue;
			for (id = 0; id < t->ctl->nevents; id++)
				evt_ctl_set_enable(t->ctl, id, t->slot, false);
			if (!t->ctl->shrank)
				__atomic_store_n(&t->ctl->slots[t->slot].state,
						 EVT_SLOT_FREE, __ATOMIC_RELEASE);
			t->dead = t->dead || !evt_ctl_alive(t->ctl);
			evt__coll_release(c, t);
		}
	}
	snprintf(err, err_size, "%s", c->err);
	return -1;
}
/*
 * Tells the relay's live readers how far every stream is known: whatever
 * was committed before the last flush of each open packet went out, and
 * a flush comes every FLUSH_MS; RELAY_SLACK_MS more covers a writer
 * between its clock and its commit.
 */
#define RELAY_SLACK_MS 200

static void relay_horizon(struct evt_collection *c, uint64_t pass_start,
			  int64_t now)
{
	/* Kernel packets go out a second old at most (packet_writer.c). */
	uint64_t back = (uint64_t)((c->kernel ? 1000 : FLUSH_MS) + RELAY_SLACK_MS) *
			c->ix.clock.freq_hz / 1000;

	c->relay_horizon_ms = now;
	if (pass_start > back)
		evt_relay_horizon(c->relay, pass_start - back);
}
int evt__coll_drain(struct evt_collection *c, bool final, char *err,
		 size_t err_size)
{
	uint64_t before = c->stats.packets + c->released + c->stats.processes +
			  c->allocations;
	int64_t now = now_ms();
	uint64_t pass_start = 0;
	unsigned k;
	uint32_t i, n;
	uint16_t cpu;

	if (c->relay)
		pass_start = evt_clock_now(c->clock_kind, &cpu);

	/* Events first: no packet goes out before the metadata that
	 * describes its stream and events is on disk. */
	for (k = 0; k < c->ntracked; k++) {
		struct tracked *t = &c->tracked[k];
		char why[PATH_MAX + 200];

		if (t->done)
			continue;
		/* Liveness costs a flock: not every round. */
		if (!t->dead && (final || now - t->alive_checked_ms >= ALIVE_CHECK_MS)) {
			t->alive_checked_ms = now;
			if (!evt_ctl_alive(t->ctl))
				t->dead = true;
		}
		if (evt_ctl_refresh(t->ctl, why, sizeof(why)))
			evt_report("%s", why);
		if (evt__coll_index_events(c, t)) {
			snprintf(err, err_size, "out of memory");
			return -1;
		}
		if (!c->finishing && !c->failed && !c->o.snapshot)
			evt__coll_apply_selection(c, t);
	}
	if (evt__coll_flush_index(c, c->err, sizeof(c->err)))
		return evt__coll_output_failed(c, err, err_size);
	for (k = 0; k < c->ntracked; k++) {
		struct tracked *t = &c->tracked[k];

		if (t->done) {
			if (t->ctl && t->dead && !held(c, t))	/* held a while */
				evt__coll_release(c, t);
			continue;
		}
		n = evt_ctl_tbufs_used(t->ctl);
		for (i = 0; i < n && !t->ctl->shrank; i++)
			if (c->o.mode == EVT_MODE_COUNT)
				evt__coll_count_tbuf(c, t, i, final);
			else if (drain_tbuf(c, t, i, final))
				return evt__coll_output_failed(c, err, err_size);
		if (t->ctl->shrank) {
			evt__coll_unfollowed(c, t->ctl->h.pid, t->ctl->path,
				   "the control file shrank under the recorder");
			t->done = true;
		} else if ((t->dead || final) && c->o.mode == EVT_MODE_COUNT) {
			t->done = true;
			c->stats.lost_unbuffered += __atomic_load_n(
				&t->ctl->slots[t->slot].nobuf_lost, __ATOMIC_RELAXED);
		} else if (t->dead || final) {
			t->done = true;
			t->done_ms = now_ms();
			if (write_unbuffered_lost(c, t))
				return evt__coll_output_failed(c, err, err_size);
		}
		if (t->done && (t->ctl->shrank || (t->dead && !held(c, t))))
			evt__coll_release(c, t);
	}
	if (c->kernel) {
		long got = evt_kernel_record_drain(c->kernel, &c->out, final,
						   c->err, sizeof(c->err));

		if (got < 0)
			return evt__coll_output_failed(c, err, err_size);
		before -= got > 0;
	}
	if (c->relay && !final && now - c->relay_horizon_ms >= FLUSH_MS)
		relay_horizon(c, pass_start, now);
	return (int)(c->stats.packets + c->released + c->stats.processes +
		     c->allocations - before);
}
