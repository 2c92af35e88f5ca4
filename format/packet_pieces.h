/*
 * packet_pieces.h - a thread's open packet written out in pieces that are
 * never taken back, for the trace directory and for a relay alike.
 *
 * The recorder flushes the committed part of an open packet (at most every
 * 500 ms) so that what a slow writer wrote reaches the trace within a
 * second.  Each flush writes only what the flushes before did not, as a
 * CTF packet of its own: the first from the packet's start, each later one
 * opened by a CPU record that gives the whole time and CPU of the record
 * before it, so that its compact headers read right.  A reader of a
 * running recording therefore never sees a file shrink.  The packets of a
 * stream are numbered on in packet_seq_num, pieces included.
 */
#ifndef EVT_ENGINE_PACKET_PIECES_H
#define EVT_ENGINE_PACKET_PIECES_H

#include <stdbool.h>
#include <stdint.h>

#include "layout.h"
#include "record.h"

struct evt_pieces {
	uint64_t seq;			/* next packet_seq_num out */
	uint64_t part_seq;		/* the open packet's, as its writer
					 * numbered it */
	uint32_t part_upto;		/* bytes of it out; 0: none */
	uint64_t part_events;		/* records of it out */
	struct evt_hdr_state part_st;	/* after the last record out */
};

/* What to write: head (the header, then a CPU record in a later piece),
 * then body (the records, as the writer wrote them). */
struct evt_piece {
	uint8_t head[sizeof(struct evt_packet_header) + EVT_CPU_RECORD_BYTES];
	uint32_t head_len;
	const uint8_t *body;
	uint32_t body_len;
	uint32_t upto;			/* where body ends in the packet */
	bool partial;
	uint64_t writer_seq;
	uint64_t events;		/* records in body (partial only) */
	struct evt_hdr_state start;	/* before body's first record */
	struct evt_hdr_state end;	/* after its last (partial only) */
};

/* The layout of event id in the stream's class, or NULL. */
typedef const struct evt_event_layout *(*evt_layout_fn)(void *ctx,
						       uint16_t id);

/*
 * Cuts what of a packet is not out yet.  h is its header as the trace is
 * to have it (stream id and events_discarded set; sizes, packet_seq_num,
 * and in a later piece timestamp_begin and first_event are set here), pkt
 * the packet as its writer wrote it, its records from sizeof(*h) to
 * content.  partial: the open packet, content its commit (its records
 * must read with layout: a partial piece ends at its last record).
 * Returns 1 with *pc to be written, or 0: nothing to write (all of it
 * out, or an open packet whose records do not read yet).
 */
int evt_pieces_cut(const struct evt_pieces *p, const struct evt_packet_header *h,
		   const uint8_t *pkt, uint32_t content, bool partial,
		   evt_layout_fn layout, void *ctx, struct evt_piece *pc);
/* *pc, cut from p, was written. */
void evt_pieces_done(struct evt_pieces *p, const struct evt_piece *pc);
/* *pc, cut from p, will never be written: what remains of its packet goes
 * whole, or not at all. */
void evt_pieces_forget(struct evt_pieces *p);
/* The records in pc's body (counted by layout; those before a record that
 * does not read), each event's id given to each (NULL: none). */
uint64_t evt_piece_records(const struct evt_piece *pc, evt_layout_fn layout,
			   void *ctx, void (*each)(void *each_ctx, uint16_t id),
			   void *each_ctx);

#endif
