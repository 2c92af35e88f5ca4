/*
 * relay_out.h - a recording's packets and metadata as a relay gets them.
 *
 * An open packet goes in pieces (packet_pieces.h), numbered with the
 * relay stream's own packet_seq_num; the events of packets the relay's
 * queue refused are added to the events_discarded of the stream's next
 * packet, and named by site (cause relay_full, lost_record.h) in a
 * packet of their own before it.
 */
#ifndef EVT_ENGINE_RELAY_OUT_H
#define EVT_ENGINE_RELAY_OUT_H

#include <stdbool.h>
#include <stdint.h>

#include "layout.h"
#include "lost_record.h"
#include "packet_pieces.h"
#include "record.h"
#include "relay.h"
#include "trace_index.h"

#define EVT_RELAY_OUT_SITES 8

struct evt_relay_out {
	int id;				/* the relay's stream + 1; 0 before use
					 * (all zero: a fresh state) */
	uint64_t lost;			/* events refused, added on */
	uint64_t lost_told;		/* of them, in a packet queued */
	struct evt_packet_header last;	/* the last packet's, as given */
	struct evt_pieces pieces;
	/* The sites of the events refused and not named yet (the last
	 * entry: other sites). */
	struct evt_lost_entry named[EVT_RELAY_OUT_SITES];
	unsigned nnamed;
	/* Told of each event refused (its local id), when set: the
	 * recording's summary counts them too. */
	void (*refused_cb)(void *ctx, uint16_t id);
	void *refused_ctx;
};

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
			  evt_layout_fn layout, void *ctx);
/* The stream is done with: events refused since its last packet go in a
 * header-only one; the next packet starts another stream. */
void evt_relay_out_end(struct evt_relay *r, struct evt_relay_out *o);
/* Appends the metadata of what ix has that *sent did not count yet (all
 * of it, with the trace's declarations, the first time: sent->streams ==
 * UINT32_MAX), and counts it. */
void evt_relay_out_metadata(struct evt_relay *r, const struct evt_trace_index *ix,
			    const char *hostname, struct evt_index_marks *sent);

#endif
