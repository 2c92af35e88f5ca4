/*
 * live_stream.c - live reader of a collection slot (see live_stream.h).
 *
 * Buffers are read record by record through the ring reader
 * (engine/control/ring.c, which states the protocol): a closed packet up
 * to its content size, the open one up to its commit; a packet is handed
 * back once closed and read to its end.  Every value from shared memory is
 * bounds-checked.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "live.h"
#include "live_kernel.h"
#include "report.h"
#include "ctl_file.h"
#include "caps.h"
#include "live_stream.h"
#include "record.h"
#include "rules.h"
#include "rules_files.h"
#include "pattern.h"
#include "policy.h"
#include "event_ids.h"
#include "id_registry.h"
#include "requests.h"
#include "ring.h"
#include "selection.h"
#include "slot_owner.h"
#include "slots.h"
#include "tree.h"

struct cursor {
	uint32_t epoch;
	/* packet, offset in it (0: not inside it yet), lost count told:
	 * what the default slot's next reader goes on from */
	struct evt_ring_place at;
	uint64_t last_ts;	/* of the last record or packet read */
	struct evt_hdr_state hs;	/* the packet's records read so far */
	uint32_t skip_to;	/* records before it were read by another */
	bool resumed;		/* off is another reader's: hs unknown */
	char comm[17];
	bool broken;
};

struct watched {
	struct evt_ctl *ctl;
	uint32_t slot;		/* ours in the process (0: the default) */
	uint32_t slot_gen;	/* of our slot when we took it up */
	struct cursor *cursors;
	uint32_t enabled_upto;	/* events the selection was applied to */
	uint32_t applied_gen;	/* of the selection, when applied to all */
	uint32_t *gids;		/* by local id, [ids_upto] */
	uint32_t ids_upto;	/* events given their global ids */
	bool dead;
};

/* An event read, its text and payload copied into the stream's bytes
 * (offsets: the bytes move as they grow; NONE: not copied). */
struct pending {
	struct evt_live_event e;
	size_t text_at, payload_at;
	const struct evt_ctl *ctl;	/* whose buffer it came from (the
					 * kernel's: NULL) */
	size_t seq;			/* pushed after seq others */
};
#define NONE SIZE_MAX

struct evt_live_stream {
	struct evt_rundir rd;
	int pid;
	struct evt_selection sel;	/* what our own slot wants */
	struct evt_event_ids ids;
	struct evt_caps caps;	/* the rate caps it set (caps.h) */
	unsigned number;	/* 0: the default collection; else our own's
				 * number in the run directory */
	uint64_t id;		/* our collection's, in slot descriptors */
	uint32_t block_us;	/* what its writers wait for it */
	uint32_t heartbeat;	/* EVT_BLOCK_INF: bumped at each poll */
	int lock_fd;
	char rules_name[64];	/* published for processes started later */
	char full[1280];	/* why a process was not taken: its slots */
	char (*passed)[64];	/* control files not ours, not to open again */
	unsigned npassed;
	struct evt_clock_calibration clock;
	int64_t clock_refined_ns;	/* evt_clock_refine_every() */
	struct watched *w;
	unsigned nw;
	struct pending *pend;
	size_t npend, cap;
	unsigned sources;	/* buffers the pending events came from */
	uint8_t *bytes;		/* the pending events' copies, one poll's */
	size_t nbytes, capbytes;
	bool no_text;		/* evt_live_stream_want_text(false) */
	struct evt_live_kernel *kernel;	/* its kernel/ events, or NULL */
	struct stat rules_seen;		/* default.rules when last read */
	bool handing;			/* in a poll's callbacks */
	const struct evt_ctl *reading;	/* whose buffers are read now */
	bool round_full;		/* POLL_EVENTS_MAX taken this poll */
	unsigned first;			/* the process read first: in turn */
	struct died {			/* records the dead had begun */
		int pid, tid;
		char path[160];		/* (a copy: its process goes) */
	} *died;
	unsigned ndied;
};

/*
 * Events one poll takes from the buffers at most.  A poll follows a
 * writer along its open packet, so that a program in a burst kept it
 * reading, and holding what it read, for as long as the burst lasted
 * (gigabytes in an error storm); past this the rest waits in the buffers
 * for the next poll, and the processes are read first in turn, so that
 * a busy one does not leave the others' buffers to fill.
 */
#define POLL_EVENTS_MAX 65536

/*
 * A stream of every process publishes its rules (scope all), one of a
 * command rules that the command's processes find in their environment:
 * a process started later takes up its slot and switches its events on
 * itself, from its first event on.
 */
static int publish(struct evt_live_stream *s, char *err, size_t err_size)
{
	const struct evt_rules_head head = {
		.number = s->number, .collection_id = s->id,
		.scope = s->pid == EVT_LIVE_COMMAND ? EVT_SCOPE_TREE : EVT_SCOPE_ALL,
		.mode = EVT_MODE_DISCARD, .packet_size = EVT_PACKET_DEFAULT_BYTES,
		.packet_count = EVT_PACKETS_DEFAULT, .block_us = s->block_us,
	};

	snprintf(s->rules_name, sizeof(s->rules_name), "collection-%llu.rules",
		 (unsigned long long)s->id);
	if (evt_selection_publish(&s->rd, s->rules_name, &head, &s->sel, err,
				  err_size)) {
		s->rules_name[0] = '\0';
		return -1;
	}
	return 0;
}

int evt_live_stream_create(const char *rundir, int pid, const char *what,
			   uint32_t block_us, struct evt_live_stream **out,
			   char *err, size_t err_size)
{
	struct evt_live_stream *s = calloc(1, sizeof(*s));

	*out = NULL;
	if (!s)
		return snprintf(err, err_size, "out of memory"), -1;
	s->rd.fd = s->lock_fd = -1;
	s->pid = pid;
	s->block_us = block_us;
	if (evt_rundir_open(&s->rd, rundir,
			    EVT_RUNDIR_CREATE | EVT_RUNDIR_ROOT_ENTERS, err, err_size))
		goto out_free;
	evt_rundir_sweep(&s->rd);
	s->ids.registry = evt_id_registry_open(&s->rd);
	if (what) {
		int number;

		if (getrandom(&s->id, sizeof(s->id), 0) != sizeof(s->id) || !s->id)
			s->id = ((uint64_t)getpid() << 32) ^ (uint64_t)time(NULL);
		number = evt_slot_claim(&s->rd, s->id, what, &s->lock_fd, err,
					err_size);
		if (number < 0)
			goto out_free;
		s->number = (unsigned)number;
		if (pid <= 0 && publish(s, err, err_size))
			goto out_free;
	} else {
		s->lock_fd = evt_rundir_slot_lock(&s->rd, 0, err, err_size);
		if (s->lock_fd < 0)
			goto out_free;
		if (evt_slot_lock_take(s->lock_fd)) {
			snprintf(err, err_size, "%s: another stream without -e is "
				 "reading the default collection; give -e PATTERN "
				 "for a stream of its own", s->rd.path);
			goto out_free;
		}
	}
	if (evt_clock_calibrate(evt_clock_detect(), &s->clock)) {
		snprintf(err, err_size, "cannot calibrate the trace clock");
		goto out_free;
	}
	*out = s;
	return 0;
out_free:
	if (s->lock_fd >= 0)
		close(s->lock_fd);
	if (s->rules_name[0])
		unlinkat(s->rd.fd, s->rules_name, 0);
	evt_rundir_close(&s->rd);
	evt_selection_free(&s->sel);
	evt_event_ids_free(&s->ids);
	free(s);
	return -1;
}

const struct evt_clock_calibration *evt_live_stream_clock(const struct evt_live_stream *s)
{
	return &s->clock;
}

const char *evt_live_stream_rules_name(const struct evt_live_stream *s)
{
	return s->rules_name;
}

static bool watching(const char *name, void *ctx)
{
	const struct evt_live_stream *s = ctx;
	unsigned i;

	for (i = 0; i < s->nw; i++)
		if (!strcmp(s->w[i].ctl->name, name))
			return true;
	for (i = 0; i < s->npassed; i++)
		if (!strcmp(s->passed[i], name))
			return true;
	return false;
}

static void pass(struct evt_live_stream *s, const char *name)
{
	char (*grown)[64] = realloc(s->passed, (s->npassed + 1) * sizeof(*grown));

	if (!grown)
		return;
	s->passed = grown;
	snprintf(s->passed[s->npassed++], sizeof(*grown), "%s", name);
}

/* A control file that could not be opened was said once: passed over. */
static void refused(const char *name, void *ctx)
{
	pass(ctx, name);
}

/*
 * Our slot in the process, or -1 not to read it: 0 for the default
 * collection (any of pid's processes, or every one); for our own, the
 * slot a fork copied, or one we take now in a process in scope.
 */
static int take(struct evt_live_stream *s, struct evt_ctl *c)
{
	int slot;

	if (!s->number)
		return 0;
	slot = evt_slot_find(c, s->id);
	if (slot > 0)
		return slot;
	if ((s->pid && (int)c->h.pid != s->pid) || !evt_ctl_alive(c))
		return -1;
	slot = evt_slot_take(&s->rd, c, s->id, "streamed", s->full,
			     sizeof(s->full));
	if (slot < 0) {
		if (!s->pid)	/* (else the caller's error) */
			evt_report("stream: %s", s->full);
		return -1;
	}
	evt_slot_attach(c, (unsigned)slot, s->number, s->id, s->block_us,
			EVT_MODE_DISCARD, EVT_PACKET_DEFAULT_BYTES,
			EVT_PACKETS_DEFAULT);
	return slot;
}

/* Opens the processes not watched yet; the watched ones are not touched. */
static void discover(struct evt_live_stream *s)
{
	struct evt_ctl **ctls;
	int n, i;

	/* Our own collection also takes the children a process forks. */
	/* A process of our own collection that has exited is read too:
	 * what it wrote before we found it is ours. */
	n = evt_rundir_open_watched(&s->rd, s->number ? 0 : s->pid, s->number != 0,
				    watching, refused, s, &ctls);
	for (i = 0; i < n; i++) {
		struct watched *grown;
		int slot = ctls[i]->h.clock_kind != s->clock.kind ? -1 :
			   take(s, ctls[i]);

		if (slot < 0) {
			pass(s, ctls[i]->name);
			evt_ctl_close(ctls[i]);
			continue;
		}
		if (!(grown = realloc(s->w, (s->nw + 1) * sizeof(*s->w)))) {
			evt_ctl_close(ctls[i]);
			continue;
		}
		s->w = grown;
		memset(&s->w[s->nw], 0, sizeof(s->w[s->nw]));
		s->w[s->nw].ctl = ctls[i];
		s->w[s->nw].slot = (uint32_t)slot;
		s->w[s->nw].slot_gen = ctls[i]->slots[slot].gen;
		s->w[s->nw].cursors = calloc(ctls[i]->h.max_tbufs + 1,
					     sizeof(struct cursor));
		if (!s->w[s->nw].cursors) {
			evt_ctl_close(ctls[i]);
			continue;
		}
		s->nw++;
	}
	if (n >= 0)
		free(ctls);	/* the array; its entries are kept or closed */
}

/* n bytes at p (and a NUL after them with nul) copied into s->bytes: at
 * the offset returned, or NONE without memory. */
static size_t keep(struct evt_live_stream *s, const void *p, size_t n, bool nul)
{
	size_t at = s->nbytes, need = at + n + nul;

	if (need > s->capbytes) {
		size_t cap = s->capbytes ? 2 * s->capbytes : 65536;
		uint8_t *grown;

		while (cap < need)
			cap *= 2;
		if (!(grown = realloc(s->bytes, cap)))
			return NONE;
		s->bytes = grown;
		s->capbytes = cap;
	}
	memcpy(s->bytes + at, p, n);
	if (nul)
		s->bytes[at + n] = '\0';
	s->nbytes = need;
	return at;
}

static void push(struct evt_live_stream *s, const struct evt_live_event *e)
{
	struct pending *p;

	if (s->npend == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 256;
		struct pending *grown = realloc(s->pend, cap * sizeof(*grown));

		if (!grown)
			return;
		s->pend = grown;
		s->cap = cap;
	}
	p = &s->pend[s->npend];
	p->seq = s->npend;
	p->e = *e;
	p->ctl = s->reading;
	p->text_at = e->text ? keep(s, e->text, e->text_len, true) : NONE;
	p->payload_at = e->payload_size ? keep(s, e->payload, e->payload_size,
					       false) : NONE;
	if (p->payload_at == NONE)
		p->e.payload_size = 0;
	s->npend++;
}

static void push_kernel(const struct evt_live_event *e, void *ctx)
{
	push(ctx, e);
}

/* What the kernel's rings hold, to be handed at the next poll with what
 * the buffers hold then, before its events change (a remove does not
 * take back what came before it).  Not from a callback of a poll, whose
 * events are being handed. */
static void kernel_before_change(struct evt_live_stream *s)
{
	if (!s->handing)
		s->sources += evt_live_kernel_drain(s->kernel, push_kernel, s);
}

/* Gives up on a buffer that makes no sense, and says so once. */
static void broken(const struct evt_ctl *c, uint32_t i, struct cursor *cur,
		   const char *why)
{
	evt_ring_report(c, i, cur->at.seq, why);
	cur->broken = true;
}

/*
 * A new reader of a buffer starts where the last one left it, or at the
 * first packet not yet handed back: never again at what an earlier stream
 * printed.
 */
static void resume(const struct evt_ring *r, struct cursor *cur)
{
	evt_ring_resume(r, &cur->at);	/* its off checked against the packet */
	cur->resumed = cur->at.off != 0;
}

/*
 * At the end of what the thread wrote: drops since the last packet it
 * opened (a full buffer, a thread that stopped writing or exited) are
 * told now, not only in the header of a packet that may never come.
 */
static void report_drops(struct evt_live_stream *s, const struct evt_ctl *c,
			 const struct evt_ring *r, struct cursor *cur)
{
	const struct evt_ctl_tbuf *d = r->d;
	uint64_t dropped = evt_ring_lost(r);
	struct evt_live_event e = { .pid = c->h.pid };

	if (dropped <= cur->at.discarded)
		return;
	e.tid = __atomic_load_n(&d->tid, __ATOMIC_RELAXED);
	e.timestamp = cur->last_ts;
	e.monotonic_ns = evt_clock_to_monotonic_ns(&s->clock, cur->last_ts);
	e.lost = dropped - cur->at.discarded;
	if (cur->comm[0])
		memcpy(e.comm, cur->comm, sizeof(e.comm));
	else
		memcpy(e.comm, d->comm, 16);
	push(s, &e);
	cur->at.discarded = dropped;
}

static bool learn_ids(struct evt_live_stream *s, struct watched *w);

/* What the thread of the dead process c's open packet p was writing,
 * kept for evt_live_stream_died_writing(). */
static void died_writing(struct evt_live_stream *s, const struct evt_ctl *c,
			 const struct evt_ring *r, const struct evt_ring_packet *p)
{
	struct died *d;
	uint16_t id;

	if (!evt_ring_died_writing(c, r, p, &id) || id >= c->nevents ||
	    !(d = realloc(s->died, (s->ndied + 1) * sizeof(*d))))
		return;
	s->died = d;
	d = &s->died[s->ndied++];
	d->pid = (int)c->h.pid;
	d->tid = (int)p->h.tid;
	snprintf(d->path, sizeof(d->path), "%s", c->events[id].path);
}

/* Reads buffer i of w from its cursor up to what is committed. */
static void read_tbuf(struct evt_live_stream *s, struct watched *w, uint32_t i)
{
	struct evt_ctl *c = w->ctl;
	struct cursor *cur = &w->cursors[i];
	struct evt_ring ring;
	struct evt_ring_packet p;
	struct evt_packet_header h;
	uint64_t produced;
	const uint8_t *pkt;
	uint32_t end;
	const char *why;
	char text[EVT_RENDER_MAX_BYTES];

	/* The default collection has no generations to tell apart. */
	if (!evt_ring_open(&ring, c, i, w->slot, s->number ? &w->slot_gen : NULL,
			   !w->dead))
		return;
	if (cur->epoch != ring.epoch) {
		memset(cur, 0, sizeof(*cur));
		cur->epoch = ring.epoch;
		if (!s->number)	/* ours are new: nobody read them before */
			resume(&ring, cur);
	}
	if (cur->broken)
		return;
	if (!evt_ring_map(&ring, c)) {
		broken(c, i, cur, "geometry out of bounds");
		return;
	}
	for (;;) {
		produced = evt_ring_produced(&ring);
		if (cur->at.seq > produced) {
			broken(c, i, cur, "impossible produced count");
			return;
		}
		switch (evt_ring_packet(&ring, cur->at.seq, produced, &p, &why)) {
		case EVT_RING_BROKEN:
			broken(c, i, cur, why);
			return;
		case EVT_RING_MOVED:
			continue;
		case EVT_RING_EMPTY:
			report_drops(s, c, &ring, cur);
			return;		/* nothing committed yet */
		case EVT_RING_PACKET:
			break;
		}
		h = p.h;
		pkt = p.data;
		end = p.end;
		if (cur->at.off == 0 || !cur->comm[0]) {	/* (resumed inside it) */
			memcpy(cur->comm, h.comm, 16);
			cur->comm[16] = '\0';
		}
		if (cur->at.off == 0) {
			cur->last_ts = h.timestamp_begin;
			if (h.events_discarded > cur->at.discarded) {
				struct evt_live_event e = {
					.monotonic_ns = evt_clock_to_monotonic_ns(&s->clock,
										  h.timestamp_begin),
					.timestamp = h.timestamp_begin,
					.pid = h.pid, .tid = h.tid,
					.lost = h.events_discarded - cur->at.discarded,
				};
				memcpy(e.comm, cur->comm, sizeof(e.comm));
				push(s, &e);
				cur->at.discarded = h.events_discarded;
			}
			cur->at.off = sizeof(h);
			cur->skip_to = 0;
			evt_hdr_reset(&cur->hs);
		} else if (cur->resumed) {
			/* Compact headers read on from the packet's start. */
			cur->skip_to = cur->at.off;
			cur->at.off = sizeof(h);
			cur->resumed = false;
			evt_hdr_reset(&cur->hs);
		}
		while (cur->at.off < end) {
			struct evt_record r;
			const struct evt_ctl_event *ev;

			if (s->npend >= POLL_EVENTS_MAX) {
				s->round_full = true;	/* on from here next poll */
				return;
			}
			if (evt_record_header(pkt + cur->at.off, end - cur->at.off,
					      &cur->hs, &r)) {
				broken(c, i, cur, "truncated record");
				return;
			}
			if (r.id == EVT_LOST_EVENT_ID) {
				/* Sites of a loss pushed above: not an event. */
				struct evt_lost_entry le;

				if (evt_record_lost(&r, end - cur->at.off, &le)) {
					broken(c, i, cur, "bad evtrace/lost record");
					return;
				}
				cur->at.off += r.header_bytes + r.payload_size;
				continue;
			}
			if (r.id >= c->nevents)	/* registered since: read it */
				evt_ctl_refresh(c, text, sizeof(text));
			/* (a process writes what its parent had on before
			 * our selection reaches it: a forked child) */
			if (r.id >= w->ids_upto && s->number)
				learn_ids(s, w);
			if (r.id >= c->nevents ||
			    evt_record_payload(&r, &c->events[r.id].layout,
					       end - cur->at.off)) {
				broken(c, i, cur, "record of an unknown event or past its packet");
				return;
			}
			ev = &c->events[r.id];
			int len = cur->at.off < cur->skip_to ? -1 : s->no_text ? 0 :
				  evt_record_render(&r, &ev->layout, ev->format,
						    text, sizeof(text));

			if (len >= 0) {
				struct evt_live_event e = {
					.monotonic_ns = evt_clock_to_monotonic_ns(&s->clock,
										  r.timestamp),
					.timestamp = r.timestamp,
					.pid = h.pid, .tid = h.tid, .cpu = r.cpu,
					.path = ev->path,
					.text = s->no_text ? NULL : text,
					.text_len = (size_t)len,
					.id = s->number && r.id < w->ids_upto ?
					      evt_event_ids_public(&s->ids, w->gids[r.id]) :
					      EVT_NO_ID,
					.format = ev->format, .func = ev->func,
					.layout = &ev->layout,
					.payload = r.payload,
					.payload_size = r.payload_size,
				};
				memcpy(e.comm, cur->comm, sizeof(e.comm));
				push(s, &e);
			}
			cur->at.off += r.header_bytes + r.payload_size;
			cur->last_ts = r.timestamp;
		}
		if (p.open) {
			report_drops(s, c, &ring, cur);
			if (w->dead && cur->at.off == end)
				died_writing(s, c, &ring, &p);
			/* The open packet: more may come, unless its thread
			 * is gone; then, read to the end, the buffer goes
			 * back to the process for another thread. */
			if (ring.exited && !w->dead &&
			    evt_ring_packet(&ring, produced, produced, &p, &why) ==
			    EVT_RING_PACKET && cur->at.off >= p.end)
				evt_ring_free(&ring);
			return;
		}
		cur->at.seq++;
		cur->at.off = 0;
		evt_ring_hand_back(&ring, cur->at.seq);
	}
}

size_t evt_live_stream_died_writing(const struct evt_live_stream *s, int pid,
				    char *buf, size_t size)
{
	size_t len = 0;
	unsigned k;

	if (size)
		buf[0] = '\0';
	for (k = 0; k < s->ndied && size; k++)
		if (s->died[k].pid == pid)
			len = evt_ring_say_died_writing(buf, size, len, s->died[k].tid,
							s->died[k].path);
	return len;
}

static int by_time(const void *a, const void *b)
{
	const struct pending *x = a, *y = b;

	/* Ties in push order: a thread's events, and the drops told after
	 * the last of them, stay in the order it wrote them (a drop put
	 * before that event, a span's begin whose end it dropped, left the
	 * span open past any trigger's threshold). */
	if (x->e.monotonic_ns != y->e.monotonic_ns)
		return x->e.monotonic_ns < y->e.monotonic_ns ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/*
 * Lets go of a process: our slot freed in it, its control file removed
 * once it is dead and no other collection is active in it (a process
 * removes its own otherwise).
 */
static void release(struct evt_live_stream *s, struct watched *w)
{
	struct evt_ctl *c = w->ctl;
	unsigned k;
	bool others = false;

	if (s->number && !c->shrank) {
		evt_slot_detach(c, w->slot);
		for (k = 1; k < EVT_NSLOTS; k++)
			others |= __atomic_load_n(&c->slots[k].state,
						  __ATOMIC_ACQUIRE) != EVT_SLOT_FREE;
		if (w->dead && !others &&
		    evt_ctl_file_remove_dead(s->rd.fd, c->name, c->fd))
			w->dead = false;	/* gone: nothing to pass over */
	}
	if (w->dead)
		pass(s, c->name);
	free(w->cursors);
	free(w->gids);
	evt_ctl_close(c);
}

/* The global ids of w's events registered since the last look; false
 * when there is no memory for them. */
static bool learn_ids(struct evt_live_stream *s, struct watched *w)
{
	struct evt_ctl *c = w->ctl;
	uint32_t i;

	if (c->nevents > w->ids_upto) {
		uint32_t *grown = realloc(w->gids, c->nevents * sizeof(*grown));

		if (!grown)
			return false;
		w->gids = grown;
		for (i = w->ids_upto; i < c->nevents; i++)
			w->gids[i] = evt_event_ids_get(&s->ids, &c->events[i]);
		w->ids_upto = c->nevents;
	}
	return true;
}

/*
 * Our slot's bits in w: the selection, applied to the events registered
 * since, or to all of them again when the selection changed.
 */
static void apply(struct evt_live_stream *s, struct watched *w)
{
	struct evt_ctl *c = w->ctl;
	uint32_t i, from = w->enabled_upto;

	if (!learn_ids(s, w))
		return;
	if (w->applied_gen != s->sel.gen) {
		from = 0;
		w->applied_gen = s->sel.gen;
	}
	for (i = from; i < c->nevents && !c->shrank; i++) {
		bool want = evt_selection_wants(&s->sel,
						evt_event_ids_public(&s->ids, w->gids[i]),
						c->events[i].path, c->events[i].func,
						c->events[i].format) &&
			    evt_policy_may_record(&c->events[i]);

		if (want != evt_ctl_enabled(c, c->events[i].id, w->slot))
			evt_ctl_set_enable(c, c->events[i].id, w->slot, want);
	}
	w->enabled_upto = c->nevents;
	if (w->slot)
		evt_ctl_slot_set_applied(c, w->slot, c->nevents);
}

static int answer(void *ctx, bool enable, const char *pattern, char *err,
		  size_t err_size);

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/*
 * The events from pend[from] on are kept for the next poll, their bytes
 * moved to the start.  With kernel events, a poll hands over only what
 * came before it started looking: a kernel event drained after the
 * buffers were read may be later than a record committed since, or
 * written by a process found since, which the next poll will read.
 */
static void hold(struct evt_live_stream *s, size_t from)
{
	size_t n, need = 0, at = 0;
	uint8_t *bytes;

	if (from == s->npend) {
		s->npend = s->nbytes = 0;
		return;
	}
	for (n = from; n < s->npend; n++)
		need += (s->pend[n].text_at == NONE ? 0 : s->pend[n].e.text_len + 1) +
			(s->pend[n].payload_at == NONE ? 0 : s->pend[n].e.payload_size);
	bytes = malloc(need ? need : 1);
	for (n = from; bytes && n < s->npend; n++) {
		struct pending *p = &s->pend[n];

		if (p->text_at != NONE) {
			memcpy(bytes + at, s->bytes + p->text_at, p->e.text_len + 1);
			p->text_at = at;
			at += p->e.text_len + 1;
		}
		if (p->payload_at != NONE) {
			memcpy(bytes + at, s->bytes + p->payload_at, p->e.payload_size);
			p->payload_at = at;
			at += p->e.payload_size;
		}
	}
	if (bytes) {	/* else they stay where they are */
		free(s->bytes);
		s->bytes = bytes;
		s->capbytes = s->nbytes = need;
	}
	memmove(s->pend, s->pend + from, (s->npend - from) * sizeof(*s->pend));
	s->npend -= from;
	s->sources = 2;		/* what comes next is sorted among them */
}

/* Whether an event held for the next poll came from c's buffers. */
static bool holds_from(const struct evt_live_stream *s, const struct evt_ctl *c)
{
	size_t n;

	for (n = 0; n < s->npend; n++)
		if (s->pend[n].ctl == c)
			return true;
	return false;
}

/* The default collection: the kernel events `enable` switched on, read
 * again whenever default.rules changed (it is replaced, never written in
 * place). */
static void default_kernel(struct evt_live_stream *s)
{
	struct evt_rules *r;
	struct stat st = { 0 };
	char err[PATH_MAX + 300];

	if (fstatat(s->rd.fd, "default.rules", &st, AT_SYMLINK_NOFOLLOW))
		memset(&st, 0, sizeof(st));
	if (st.st_ino == s->rules_seen.st_ino && st.st_size == s->rules_seen.st_size &&
	    st.st_mtim.tv_sec == s->rules_seen.st_mtim.tv_sec &&
	    st.st_mtim.tv_nsec == s->rules_seen.st_mtim.tv_nsec)
		return;
	s->rules_seen = st;
	if (!(r = malloc(sizeof(*r))))
		return;
	if (evt_default_rules_kernel(&s->rd, s->pid, r, err, sizeof(err)))
		evt_report("stream: %s", err);
	else if ((r->npatterns || s->kernel) &&
		 (s->kernel || (s->kernel = evt_live_kernel_new(s->pid, &s->clock))) &&
		 (kernel_before_change(s),
		  evt_live_kernel_want_rules(s->kernel, r, err, sizeof(err))))
		evt_report("stream: the kernel events evtrace enable switched on: %s",
			   err);
	free(r);
}

/* How often a stream measures its clock's rate again. */
#define CLOCK_REFINE_NS (100 * 1000 * 1000)

int evt_live_stream_poll(struct evt_live_stream *s, evt_live_cb cb, void *ctx)
{
	int64_t started, upto;
	unsigned k, alive = 0;
	uint32_t i, j, nbufs;
	size_t n;
	char err[PATH_MAX + 200];

	/* Before the buffers are read: what they hold maps by it. */
	evt_clock_refine_every(&s->clock, &s->clock_refined_ns, CLOCK_REFINE_NS);
	/* The time before new processes are looked for: a process found
	 * later (a child forked while this stream was preempted here) wrote
	 * nothing before it, and its kernel events after it wait for it. */
	started = now_ns();
	discover(s);
	if (s->number)
		evt_requests_serve(&s->rd, s->number, answer, s);
	else if (s->pid >= 0)
		default_kernel(s);
	upto = evt_live_kernel_any(s->kernel) ? started : INT64_MAX;
	s->heartbeat++;
	s->round_full = false;
	s->first = s->nw ? (s->first + 1) % s->nw : 0;
	for (unsigned turn = 0; turn < s->nw; turn++) {
		struct watched *w = &s->w[(s->first + turn) % s->nw];

		if (w->dead)
			continue;
		/* Writers that wait as long as we live see us live. */
		if (s->block_us == EVT_BLOCK_INF && !w->ctl->shrank)
			__atomic_store_n(&w->ctl->slots[w->slot].heartbeat,
					 s->heartbeat, __ATOMIC_RELAXED);
		if (w->ctl->shrank) {
			evt_report("stream: %s: the control file shrank "
				"under the stream; pid %u is no longer read",
				w->ctl->path, w->ctl->h.pid);
			w->dead = true;
			continue;
		}
		if (!evt_ctl_alive(w->ctl))
			w->dead = true;
		else
			alive++;
		evt_ctl_refresh(w->ctl, err, sizeof(err));
		if (s->number)
			apply(s, w);
		nbufs = evt_ctl_tbufs_used(w->ctl);
		for (j = 0; j < nbufs && !s->round_full; j++) {
			size_t before = s->npend;

			i = (j + s->first) % nbufs;	/* (in turn too) */
			s->reading = w->ctl;
			read_tbuf(s, w, i);
			s->reading = NULL;
			s->sources += s->npend > before;
			if (!s->number && w->cursors[i].epoch &&
			    !w->cursors[i].broken && !w->ctl->shrank)
				evt_ring_leave(&w->ctl->tbufs[i], w->cursors[i].epoch,
					       &w->cursors[i].at);
		}
		/* A dead one not read to its end: again next poll. */
		if (s->round_full && w->dead) {
			w->dead = false;
			alive++;
		}
	}
	/* The kernel's after the buffers': all it has up to their last. */
	s->sources += evt_live_kernel_drain(s->kernel, push_kernel, s);
	/* Each buffer's events are in order: one buffer's need no sort. */
	if (s->sources > 1)
		qsort(s->pend, s->npend, sizeof(*s->pend), by_time);
	s->sources = 0;
	s->handing = true;
	for (n = 0; n < s->npend; n++) {
		struct pending *p = &s->pend[n];

		if (p->e.monotonic_ns > upto && alive)
			break;
		p->e.text = p->text_at == NONE ? NULL : (const char *)s->bytes + p->text_at;
		p->e.payload = p->payload_at == NONE ? NULL : s->bytes + p->payload_at;
		cb(&p->e, ctx);
	}
	s->handing = false;
	hold(s, n);
	evt_live_kernel_release(s->kernel);
	/* The dead were read to their end above: let go of them, so that
	 * a long stream keeps no file or mapping of theirs (once no event
	 * held refers to their paths and formats). */
	for (k = 0; k < s->nw; k++)
		if (s->w[k].dead && !holds_from(s, s->w[k].ctl)) {
			release(s, &s->w[k]);
			s->w[k--] = s->w[--s->nw];
		}
	return (int)alive;
}

bool evt_live_stream_more(const struct evt_live_stream *s)
{
	return s->round_full;
}

void evt_live_stream_want_text(struct evt_live_stream *s, bool want)
{
	s->no_text = !want;
}

void evt_live_stream_destroy(struct evt_live_stream *s)
{
	unsigned k;

	if (!s)
		return;
	/* No process takes up the slot after this (nor after the lock
	 * goes: a process checks it). */
	if (s->rules_name[0])
		unlinkat(s->rd.fd, s->rules_name, 0);
	/* The caps it set end with it, where no one changed them since. */
	for (k = 0; k < s->nw; k++)
		if (!s->w[k].dead)
			evt_caps_lift(&s->caps, s->w[k].ctl);
	evt_caps_end(&s->rd, s->number, &s->caps);
	for (k = 0; k < s->nw; k++)
		release(s, &s->w[k]);
	free(s->w);
	free(s->passed);
	free(s->pend);
	free(s->died);
	free(s->bytes);
	evt_live_kernel_free(s->kernel);
	evt_selection_free(&s->sel);
	evt_event_ids_free(&s->ids);
	close(s->lock_fd);
	evt_rundir_close(&s->rd);
	free(s);
}

/* The selection changed: processes started later follow it too. */
static int changed(struct evt_live_stream *s, char *err, size_t err_size)
{
	unsigned k;

	for (k = 0; k < s->nw; k++)
		if (!s->w[k].dead)
			apply(s, &s->w[k]);
	if (s->pid <= 0 && s->number)
		return publish(s, err, err_size);
	return 0;
}

/* Events of the processes watched now that the selection wants. */
static int wanted_now(const struct evt_live_stream *s)
{
	unsigned k, n = 0;
	uint32_t i;

	for (k = 0; k < s->nw; k++)
		for (i = 0; i < s->w[k].enabled_upto; i++)
			n += evt_selection_wants(&s->sel,
						 evt_event_ids_public(&s->ids, s->w[k].gids[i]),
						 s->w[k].ctl->events[i].path,
						 s->w[k].ctl->events[i].func,
						 s->w[k].ctl->events[i].format) &&
			     evt_policy_may_record(&s->w[k].ctl->events[i]);
	return (int)n;
}

int evt_live_stream_set_rate(struct evt_live_stream *s, const char *pattern,
			     uint32_t rate, char *err, size_t err_size)
{
	unsigned k, n = 0;
	int e;

	discover(s);
	for (k = 0; k < s->nw; k++) {
		if (s->w[k].dead)
			continue;
		n += evt_tree_set_rate(s->w[k].ctl, pattern, rate,
				       s->number ? &s->caps : NULL, &e);
		if (e)
			return snprintf(err, err_size, "%s: %s", s->w[k].ctl->path,
					strerror(e)), -1;
	}
	if (s->number)
		evt_caps_publish(&s->rd, s->number, &s->caps);
	return (int)n;
}

int evt_live_stream_select(struct evt_live_stream *s, bool add,
			   const char *pattern, uint32_t id, char *err,
			   size_t err_size)
{
	if (!s->number)
		return snprintf(err, err_size, "the default collection's events "
				"are switched with evtrace enable"), -1;
	if (pattern && evt_is_kernel_path(pattern)) {
		if (!s->kernel && !(s->kernel = evt_live_kernel_new(s->pid, &s->clock)))
			return snprintf(err, err_size, "out of memory"), -1;
		kernel_before_change(s);
		return evt_live_kernel_select(s->kernel, add, pattern, err, err_size);
	}
	discover(s);
	if (evt_selection_change(&s->sel, add, pattern, id, err, err_size))
		return -1;
	if (changed(s, err, err_size))
		return -1;
	return add ? wanted_now(s) : 0;
}

int evt_live_stream_events(struct evt_live_stream *s,
			   void (*cb)(uint32_t id, const char *path,
				      const char *format, void *ctx),
			   void *ctx)
{
	char why[PATH_MAX + 200];
	unsigned k;

	discover(s);
	for (k = 0; k < s->nw && s->number; k++)
		if (!s->w[k].dead && !s->w[k].ctl->shrank) {
			evt_ctl_refresh(s->w[k].ctl, why, sizeof(why));
			apply(s, &s->w[k]);	/* gives ids */
		}
	return evt_event_ids_each(&s->ids, cb, ctx) +
	       evt_live_kernel_events(s->kernel, cb, ctx);
}

int evt_live_stream_watched(struct evt_live_stream *s)
{
	discover(s);
	return (int)s->nw;
}

const char *evt_live_stream_full(const struct evt_live_stream *s)
{
	return s->full[0] ? s->full : NULL;
}

/* `evtrace enable/disable --collection N` (requests.h). */
static int answer(void *ctx, bool enable, const char *pattern, char *err,
		  size_t err_size)
{
	struct evt_live_stream *s = ctx;

	if (!enable && !evt_is_kernel_path(pattern) &&
	    !evt_selection_has_pattern(&s->sel, pattern))
		return evt_selection_not_there(&s->sel, s->number, pattern, err,
					       err_size);
	return evt_live_stream_select(s, enable, pattern, 0, err, err_size);
}
