/*
 * relay_out.h - a recording's packets and metadata as a relay gets them.
 *
 * A local trace takes back the flushed part of an open packet before it
 * writes the packet again (collection.c); what went over the network
 * cannot be taken back.  So the open packet goes to the relay in pieces,
 * each a CTF packet of its own: the first from the packet's start, each
 * later one from where the one before ended, opened by a CPU record that
 * gives the whole time and CPU of the record before it (so its compact
 * headers read right).  Pieces are numbered on in packet_seq_num, and the
 * events of packets the relay's queue refused are added to the
 * events_discarded of the stream's next packet.
 */
#ifndef EVT_ENGINE_RELAY_OUT_H
#define EVT_ENGINE_RELAY_OUT_H

#include <stdbool.h>
#include <stdint.h>

#include "layout.h"
#include "record.h"
#include "relay.h"
#include "trace_index.h"

struct evt_relay_out {
	int id;				/* the relay's stream + 1; 0 before use
					 * (all zero: a fresh state) */
	uint64_t seq;			/* next packet_seq_num */
	uint64_t lost;			/* events refused, added on */
	uint64_t lost_told;		/* of them, in a packet queued */
	struct evt_packet_header last;	/* the last packet's, as given */
	/* The open packet, partly sent. */
	uint64_t part_seq;		/* its writer's packet_seq_num */
	uint32_t part_upto;		/* bytes sent of it; 0: none */
	uint64_t part_events;		/* records sent of it */
	struct evt_hdr_state part_st;	/* after the last record sent */
};

/* The layout of event id of the stream's class, or NULL. */
typedef const struct evt_event_layout *(*evt_relay_layout_fn)(void *ctx,
							     uint16_t id);

void evt_relay_out_init(struct evt_relay_out *o);
/*
 * Queues a packet of the stream named name for the relay: h is its header
 * as the trace has it (its sizes are set here), pkt the packet as the
 * writer wrote it, records from sizeof(*h) to content.  partial: an open
 * packet, content its commit; only what was not sent of it goes, and only
 * when its records read (layout).
 */
void evt_relay_out_packet(struct evt_relay *r, struct evt_relay_out *o,
			  const char *name, const struct evt_packet_header *h,
			  const uint8_t *pkt, uint32_t content, bool partial,
			  evt_relay_layout_fn layout, void *ctx);
/* The stream is done with: events refused since its last packet go in a
 * header-only one; the next packet starts another stream. */
void evt_relay_out_end(struct evt_relay *r, struct evt_relay_out *o);
/* Appends the metadata of what ix has that *streams and *events did not
 * count yet (all of it, with the trace's declarations, the first time:
 * *streams == *events == UINT32_MAX), and counts it. */
void evt_relay_out_metadata(struct evt_relay *r, const struct evt_trace_index *ix,
			    const char *hostname, uint32_t *streams,
			    uint32_t *events);

#endif
