/*
 * ring.c - the reader's side of a thread buffer (see ring.h).
 *
 * The protocol, both sides.  A buffer is packet_count packets of
 * packet_size bytes in the process's control file; one thread writes it
 * (lib/write.c), one reader at a time reads it (the engine that holds the
 * slot; the default slot's by its lock file).
 *
 * Writer, taking a buffer (take_desc): it claims the descriptor (state
 * FREE -> OWNED by compare-and-swap), sets tid, slot, slot_gen, the
 * geometry and offset, zeroes produced, consumed, commit and the losses,
 * then stores epoch + 1 with release.  It stores state EXITED with
 * release when its thread ends.
 *
 * Writer, per record: the record is written below the packet's limit,
 * the commit mark after it zeroed (since control-file minor 2), then
 * commit (bytes of whole records in the open packet, header included) is
 * stored with release.
 *
 * Writer, per packet: the open packet's header gets its end time and
 * content size; commit is stored 0, then produced + 1, both with release;
 * in discard mode it acquires consumed and, when produced - consumed has
 * reached packet_count, drops the event (lost + 1) or waits for the
 * reader (futex on consumed, writer_waits set, seq_cst); in overwrite mode
 * it reuses the oldest packet without looking.  It then writes the next
 * header and stores commit = the header's size with release.
 *
 * Reader (here):
 *   1. state, acquire: OWNED or EXITED, else nothing to read;
 *   2. epoch, acquire, pairs with the writer's release of epoch: slot,
 *      slot_gen, geometry and offset are the ones that thread stored;
 *      a new epoch is a new thread's data, from packet 0;
 *   3. produced, acquire, pairs with the writer's release of produced:
 *      every packet below it is closed, its header final;
 *   4. for the open packet, commit, acquire, pairs with the writer's
 *      release of commit: the bytes below it are whole records; produced
 *      read again, unchanged, says this commit is that packet's (the
 *      writer zeroes commit before it moves produced on); the header is
 *      read only after that;
 *   5. consumed, stored with seq_cst when the reader is done with packets
 *      below it (discard mode), pairs with the writer's acquire of
 *      consumed before it reuses one; then writer_waits is loaded with
 *      seq_cst, so that either the waiting writer sees the new consumed
 *      or the reader sees writer_waits and wakes it;
 *   6. the default slot's live reader leaves its place in read_seq,
 *      read_pos and read_discarded for the next one (evt_ring_leave);
 *      readers take turns by the slot's lock file, so relaxed stores do;
 *   7. an exited thread's buffer read to its end is stored FREE with
 *      release, and the process may give it to another thread.
 *
 * Everything read from the buffer is the process's and may be hostile:
 * each value is checked before use, and a buffer that makes no sense is
 * reported broken, never trusted.  The assert()s below are of the
 * reader's own invariants, which a hostile process cannot break.
 */
#include <assert.h>
#include <limits.h>
#include <stdio.h>
#include <linux/futex.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ctl_version.h"
#include "lost_record.h"
#include "record_header.h"
#include "report.h"
#include "rules.h"
#include "ring.h"

bool evt_ring_open(struct evt_ring *r, struct evt_ctl *c, uint32_t i,
		   unsigned slot, const uint32_t *slot_gen, bool may_free)
{
	struct evt_ctl_tbuf *d = &c->tbufs[i];
	uint32_t state = __atomic_load_n(&d->state, __ATOMIC_ACQUIRE);
	uint32_t was = EVT_TBUF_EXITED;

	if (state != EVT_TBUF_OWNED && state != EVT_TBUF_EXITED)
		return false;
	memset(r, 0, sizeof(*r));
	r->d = d;
	r->exited = state == EVT_TBUF_EXITED;
	/* Step 2: the fields below are that thread's. */
	r->epoch = __atomic_load_n(&d->epoch, __ATOMIC_ACQUIRE);
	if (d->slot != slot)
		return false;
	if (slot_gen && d->slot_gen != *slot_gen) {
		if (r->exited && may_free)
			__atomic_compare_exchange_n(&d->state, &was, EVT_TBUF_FREE,
						    0, __ATOMIC_RELEASE,
						    __ATOMIC_RELAXED);
		return false;
	}
	return true;
}

bool evt_ring_map(struct evt_ring *r, const struct evt_ctl *c)
{
	const struct evt_ctl_tbuf *d = r->d;
	uint32_t size = __atomic_load_n(&d->packet_size, __ATOMIC_RELAXED);
	uint32_t count = __atomic_load_n(&d->packet_count, __ATOMIC_RELAXED);
	uint64_t offset = __atomic_load_n(&d->offset, __ATOMIC_RELAXED);

	if (evt_buffer_config_check(size, count, NULL, 0) ||
	    offset < c->h.arena_off || offset - c->h.arena_off > c->h.arena_size ||
	    (uint64_t)size * count > c->h.arena_size - (offset - c->h.arena_off))
		return false;
	r->size = size;
	r->count = count;
	r->packets = c->base + offset;
	assert(r->size >= sizeof(struct evt_packet_header) && r->count >= 2);
	return true;
}

uint64_t evt_ring_produced(const struct evt_ring *r)
{
	if (r->frozen)
		return r->frozen_produced;
	/* Step 3. */
	return __atomic_load_n(&r->d->produced, __ATOMIC_ACQUIRE);
}

uint64_t evt_ring_oldest(const struct evt_ring *r, uint64_t produced)
{
	/* A snapshot's writer may have reused packets while they were copied. */
	if (r->frozen && r->frozen_reused > produced)
		produced = r->frozen_reused;
	return produced >= r->count - 1 ? produced - (r->count - 1) : 0;
}

/* The open packet's commit, and whether produced stayed put (step 4). */
static uint32_t open_commit(const struct evt_ring *r, uint64_t produced,
			    bool *moved)
{
	uint32_t commit;

	*moved = false;
	if (r->frozen)
		return r->frozen_commit;
	commit = __atomic_load_n(&r->d->commit, __ATOMIC_ACQUIRE);
	*moved = __atomic_load_n(&r->d->produced, __ATOMIC_ACQUIRE) != produced;
	return commit;
}

enum evt_ring_got evt_ring_packet(const struct evt_ring *r, uint64_t seq,
				  uint64_t produced, struct evt_ring_packet *p,
				  const char **why)
{
	uint64_t content;
	bool moved;

	assert(r->packets && seq <= produced);
	memset(p, 0, sizeof(*p));
	if (produced - seq > r->count) {
		*why = "impossible produced count";
		return EVT_RING_BROKEN;
	}
	p->data = r->packets + (seq % r->count) * r->size;
	p->open = seq == produced;
	if (p->open) {
		p->end = open_commit(r, produced, &moved);
		if (moved)
			return EVT_RING_MOVED;
		if (p->end == 0)
			return EVT_RING_EMPTY;	/* closed, the next not open */
		if (p->end < sizeof(p->h) || p->end > r->size) {
			*why = "commit out of bounds";
			return EVT_RING_BROKEN;
		}
	}
	memcpy(&p->h, p->data, sizeof(p->h));
	if (p->h.magic != EVT_PACKET_MAGIC || p->h.packet_seq_num != seq) {
		*why = "bad packet header";
		return EVT_RING_BROKEN;
	}
	if (!p->open) {
		content = p->h.content_size / 8;
		if (p->h.content_size % 8 || content < sizeof(p->h) ||
		    content > r->size) {
			*why = "content size out of bounds";
			return EVT_RING_BROKEN;
		}
		p->end = (uint32_t)content;
	}
	assert(p->end >= sizeof(p->h) && p->end <= r->size);
	return EVT_RING_PACKET;
}

void evt_ring_hand_back(struct evt_ring *r, uint64_t seq)
{
	assert(!r->frozen);	/* a snapshot writes nothing */
	/* Step 5. */
	__atomic_store_n(&r->d->consumed, seq, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&r->d->writer_waits, __ATOMIC_SEQ_CST))
		syscall(SYS_futex, (uint32_t *)&r->d->consumed, FUTEX_WAKE,
			INT_MAX, NULL, NULL, 0);	/* the low half, little endian */
}

uint64_t evt_ring_lost(const struct evt_ring *r)
{
	return __atomic_load_n(&r->d->lost, __ATOMIC_RELAXED) +
	       __atomic_load_n(&r->d->nested_lost, __ATOMIC_RELAXED);
}

void evt_ring_free(struct evt_ring *r)
{
	assert(r->exited && !r->frozen);
	/* Step 7. */
	__atomic_store_n(&r->d->state, EVT_TBUF_FREE, __ATOMIC_RELEASE);
}

void evt_ring_snapshot(struct evt_ring *r, uint8_t *copy)
{
	uint64_t produced = 0, after = 0, used;
	uint32_t commit = 0;
	int tries;

	assert(!r->frozen && r->packets);
	for (tries = 0; tries < 3; tries++) {
		produced = __atomic_load_n(&r->d->produced, __ATOMIC_ACQUIRE);
		commit = __atomic_load_n(&r->d->commit, __ATOMIC_ACQUIRE);
		/* A ring not yet round once holds nothing past its open
		 * packet, whose seq is produced; no reader goes there.  Its
		 * pages there were never written, and touching them would
		 * make them: tens of MiB a ring at a recording's first
		 * snapshot, which took 100 ms on a loaded machine. */
		used = produced < r->count ? produced + 1 : r->count;
		memcpy(copy, r->packets, (size_t)r->size * used);
		after = __atomic_load_n(&r->d->produced, __ATOMIC_ACQUIRE);
		if (after == produced)
			break;
	}
	r->packets = copy;
	r->frozen = true;
	r->frozen_produced = produced;
	r->frozen_reused = after;
	/* The open packet moved on while copied: left out, and so are the
	 * packets closed during the copy, which it may have torn. */
	r->frozen_commit = after == produced ? commit : 0;
}

void evt_ring_resume(const struct evt_ring *r, struct evt_ring_place *at)
{
	uint64_t consumed = __atomic_load_n(&r->d->consumed, __ATOMIC_ACQUIRE);
	uint64_t seq = __atomic_load_n(&r->d->read_seq, __ATOMIC_RELAXED);
	uint64_t pos = __atomic_load_n(&r->d->read_pos, __ATOMIC_RELAXED);

	memset(at, 0, sizeof(*at));
	at->seq = consumed;
	if (seq == consumed && pos >> 32 == r->epoch &&
	    (uint32_t)pos >= sizeof(struct evt_packet_header)) {
		at->off = (uint32_t)pos;
		at->discarded = __atomic_load_n(&r->d->read_discarded,
						__ATOMIC_RELAXED);
	}
}

/* Readers of the default slot take turns by its lock: relaxed will do. */
void evt_ring_leave(struct evt_ctl_tbuf *d, uint32_t epoch,
		    const struct evt_ring_place *at)
{
	__atomic_store_n(&d->read_seq, at->seq, __ATOMIC_RELAXED);
	__atomic_store_n(&d->read_pos, (uint64_t)epoch << 32 | at->off,
			 __ATOMIC_RELAXED);
	__atomic_store_n(&d->read_discarded, at->discarded, __ATOMIC_RELAXED);
}

void evt_ring_report(const struct evt_ctl *c, uint32_t i, uint64_t seq,
		     const char *why)
{
	if (seq == UINT64_MAX)
		evt_report("%s: buffer %u: %s; skipped", c->path, i, why);
	else
		evt_report("%s: buffer %u packet %llu: %s; rest of this buffer "
			   "skipped", c->path, i, (unsigned long long)seq, why);
}

int evt_ring_died_writing(const struct evt_ctl *c, const struct evt_ring *r,
			  const struct evt_ring_packet *p, uint16_t *id)
{
	if (!evt_ctl_has(&c->h, EVT_CTL_MINOR_COMMIT_MARK) || p->end > r->size ||
	    !evt_commit_mark_read(p->data + p->end, r->size - p->end, 0, id))
		return 0;
	return *id != EVT_LOST_EVENT_ID;
}

size_t evt_ring_say_died_writing(char *buf, size_t size, size_t len, int tid,
				 const char *path)
{
	int n;

	if (len + 1 >= size)
		return len;
	n = snprintf(buf + len, size - len, "%sthread %d was writing %s",
		     len ? "; " : "", tid, path);
	if (n < 0)
		return len;
	return len + (size_t)n < size ? len + (size_t)n : size - 1;
}
