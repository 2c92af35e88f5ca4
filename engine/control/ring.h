/*
 * ring.h - the one reader of a thread buffer (the ring lib/write.c
 * writes), used by every engine part that takes packets from a process:
 * the drain (engine/drain/) and live streams (engine/live/).
 *
 * ring.c states the protocol.  A reader keeps one struct evt_ring per
 * buffer it reads, opened again at every pass (evt_ring_open), and asks
 * for packets by number; what it does with them is its own.
 */
#ifndef EVT_ENGINE_RING_H
#define EVT_ENGINE_RING_H

#include <stdbool.h>
#include <stdint.h>

#include "ctl.h"
#include "layout.h"

struct evt_ring {
	struct evt_ctl_tbuf *d;
	const uint8_t *packets;	/* the buffer's, or a snapshot's copy */
	uint32_t size, count;	/* packet geometry, checked */
	uint32_t epoch;		/* of the thread that holds the buffer */
	bool exited;		/* its thread is gone */
	bool frozen;		/* a snapshot: produced and commit below */
	uint64_t frozen_produced;	/* closed before the copy */
	uint64_t frozen_reused;		/* ... and once it was taken */
	uint32_t frozen_commit;
};

/*
 * Whether buffer i of c is the reader's: held (or left by an exited
 * thread) for slot, and, when slot_gen is given, under that generation of
 * the slot.  A buffer an exited thread left under a former owner of the
 * slot nobody will read: with may_free it goes back to the process.  On
 * true, r's buffer, epoch and exited are set (not its geometry: see
 * evt_ring_map).
 */
bool evt_ring_open(struct evt_ring *r, struct evt_ctl *c, uint32_t i,
		   unsigned slot, const uint32_t *slot_gen, bool may_free);
/* r's packets, their size and count checked against c's arena; false
 * when out of bounds (the buffer cannot be read). */
bool evt_ring_map(struct evt_ring *r, const struct evt_ctl *c);

/* Packets closed so far, which is the number of the open one. */
uint64_t evt_ring_produced(const struct evt_ring *r);
/* The oldest packet still whole in an overwriting buffer. */
uint64_t evt_ring_oldest(const struct evt_ring *r, uint64_t produced);

enum evt_ring_got {
	EVT_RING_BROKEN = -1,	/* makes no sense: see why; read no further */
	EVT_RING_EMPTY = 0,	/* the open packet is not opened yet */
	EVT_RING_PACKET = 1,
	EVT_RING_MOVED = 2,	/* the open packet closed while read: ask
				 * for produced again */
};

struct evt_ring_packet {
	const uint8_t *data;		/* the packet, in the buffer */
	struct evt_packet_header h;	/* a checked copy of its header */
	uint32_t end;			/* bytes of whole records and header */
	bool open;			/* the writer may still add to it */
};

/*
 * Packet seq (at most produced, as evt_ring_produced gave it): a closed
 * packet up to its content size, the open one up to what is committed.
 * On EVT_RING_PACKET, p->end is between the header's size and the
 * packet's; the header's magic and number are checked.
 */
enum evt_ring_got evt_ring_packet(const struct evt_ring *r, uint64_t seq,
				  uint64_t produced, struct evt_ring_packet *p,
				  const char **why);
/* Packets before seq are read: the writer may reuse them (discard mode),
 * and one waiting for room is woken. */
void evt_ring_hand_back(struct evt_ring *r, uint64_t seq);
/* Events the writer dropped so far (a full buffer, nested writes). */
uint64_t evt_ring_lost(const struct evt_ring *r);
/* An exited thread's buffer read to its end goes back to the process. */
void evt_ring_free(struct evt_ring *r);
/*
 * Copies what the buffer holds into copy (room for size * count bytes:
 * every packet once it went round, else those up to the open one) and
 * reads on from the copy: produced and commit as they were when it was
 * taken.  A writer that closes a packet during the copy makes it copy
 * again, three times at most; then the open packet is left out (commit 0).
 */
void evt_ring_snapshot(struct evt_ring *r, uint8_t *copy);
/*
 * The place of the default slot's live reader, kept in the descriptor so
 * that the next reader goes on from it: a packet and, when off is not 0,
 * a byte offset in it (checked by the reader against the packet) and the
 * lost count it reported.
 */
struct evt_ring_place {
	uint64_t seq;
	uint32_t off;
	uint64_t discarded;
};
/* Where the last reader left r (of its epoch), or the first packet not
 * handed back. */
void evt_ring_resume(const struct evt_ring *r, struct evt_ring_place *at);
void evt_ring_leave(struct evt_ctl_tbuf *d, uint32_t epoch,
		    const struct evt_ring_place *at);
/*
 * The event id of the record the writer of c's open packet p had begun
 * and not committed (read from the commit mark, record_header.h, of a
 * library that keeps it): for a process found dead, what its thread was
 * writing when it died.  1 with *id, or 0: none.
 */
int evt_ring_died_writing(const struct evt_ctl *c, const struct evt_ring *r,
			  const struct evt_ring_packet *p, uint16_t *id);
/* Appends "thread T was writing PATH" to buf (len bytes of it so far,
 * then "; "): the new length, at most size - 1. */
size_t evt_ring_say_died_writing(char *buf, size_t size, size_t len, int tid,
				 const char *path);
/* Says that buffer i of c is given up on: at packet seq (UINT64_MAX:
 * none), for why. */
void evt_ring_report(const struct evt_ctl *c, uint32_t i, uint64_t seq,
		     const char *why);

#endif
