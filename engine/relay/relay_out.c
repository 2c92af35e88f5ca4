/*
 * relay_out.c - a recording's packets and metadata as a relay gets them
 * (relay_out.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctf_metadata.h"
#include "relay_out.h"

void evt_relay_out_init(struct evt_relay_out *o)
{
	memset(o, 0, sizeof(*o));
}

/* An event of a packet the relay refused, counted against its site. */
static void refused(void *ctx, uint16_t id)
{
	struct evt_relay_out *o = ctx;
	const unsigned other = EVT_RELAY_OUT_SITES - 1;
	unsigned i;

	if (o->refused_cb)
		o->refused_cb(o->refused_ctx, id);
	for (i = 0; i < o->nnamed && i < other; i++)
		if (o->named[i].site == id) {
			o->named[i].count++;
			return;
		}
	if (o->nnamed < other) {
		o->named[o->nnamed++] = (struct evt_lost_entry){ id, EVT_LOSS_RELAY_FULL, 1 };
		return;
	}
	if (o->nnamed == other)
		o->named[o->nnamed++] = (struct evt_lost_entry){
			EVT_LOST_SITE_OTHER, EVT_LOSS_RELAY_FULL, 0 };
	o->named[other].count++;
}

/* Queues a packet that is all header and evtrace/lost records, with
 * what was refused added to its events_discarded: 0, or -1 when the
 * relay refused it. */
static int queue_loss(struct evt_relay *r, struct evt_relay_out *o,
		      const struct evt_packet_header *h, const uint8_t *pkt,
		      uint32_t len)
{
	struct evt_relay_packet_info info;
	struct evt_packet_header hh;
	struct evt_piece pc;

	if (!evt_pieces_cut(&o->pieces, h, pkt, len, false, NULL, NULL, &pc))
		return -1;
	memcpy(&hh, pc.head, sizeof(hh));
	hh.events_discarded += o->lost;
	memcpy(pc.head, &hh, sizeof(hh));
	info = (struct evt_relay_packet_info){
		.timestamp_begin = hh.timestamp_begin,
		.timestamp_end = hh.timestamp_end,
		.events_discarded = hh.events_discarded,
		.stream_class = hh.stream_id, .packet_seq = hh.packet_seq_num,
		.loss_only = true,
	};
	if (evt_relay_packet(r, o->id - 1, pc.head, pc.head_len, pc.body,
			     pc.body_len, &info))
		return -1;
	evt_pieces_done(&o->pieces, &pc);
	o->lost_told = o->lost;
	return 0;
}

/* The sites of what was refused, in a packet of their own before the
 * stream's next one (h), which count them as its header says. */
static void tell_named(struct evt_relay *r, struct evt_relay_out *o,
		       const struct evt_packet_header *h)
{
	uint8_t pkt[sizeof(struct evt_packet_header) + EVT_CPU_RECORD_BYTES +
		    EVT_RELAY_OUT_SITES * (EVT_HDR_EXTENDED_BYTES +
					   EVT_LOST_PAYLOAD_BYTES)];
	struct evt_hdr_state hs = { .ctx_bytes = 0 };
	struct evt_packet_header own = *h;
	uint32_t len = sizeof(own);
	unsigned i;

	evt_hdr_reset(&hs);
	len += evt_hdr_put_cpu(pkt + len, &hs, h->timestamp_begin, 0);
	for (i = 0; i < o->nnamed; i++) {
		len += evt_hdr_put(pkt + len, &hs, EVT_LOST_EVENT_ID,
				   h->timestamp_begin, 0);
		evt_lost_payload_put(pkt + len, &o->named[i]);
		len += EVT_LOST_PAYLOAD_BYTES;
	}
	own.timestamp_end = own.timestamp_begin;
	own.packet_seq_num = UINT64_MAX;	/* a packet of its own */
	memcpy(pkt, &own, sizeof(own));
	if (queue_loss(r, o, &own, pkt, len) == 0)
		o->nnamed = 0;	/* else they wait for the next packet */
}

void evt_relay_out_packet(struct evt_relay *r, struct evt_relay_out *o,
			  const char *name, const struct evt_packet_header *h,
			  const uint8_t *pkt, uint32_t content, bool partial,
			  evt_layout_fn layout, void *ctx)
{
	struct evt_relay_packet_info info = { .loss_only = false };
	struct evt_packet_header hh;
	struct evt_piece pc;

	/* Before a packet that starts (not a piece of one begun) and fits:
	 * a queue that stays full does not fill with one such packet after
	 * each it refused; the stream's end tells them anyway. */
	if (o->nnamed && o->id &&
	    !(o->pieces.part_upto && o->pieces.part_seq == h->packet_seq_num) &&
	    evt_relay_has_room(r, content + sizeof(o->named) * 2))
		tell_named(r, o, h);
	if (!evt_pieces_cut(&o->pieces, h, pkt, content, partial, layout, ctx,
			    &pc)) {
		if (!partial)
			evt_pieces_forget(&o->pieces);	/* all of it went */
		return;
	}
	memcpy(&hh, pc.head, sizeof(hh));
	hh.events_discarded += o->lost;
	memcpy(pc.head, &hh, sizeof(hh));
	info.timestamp_begin = hh.timestamp_begin;
	info.timestamp_end = hh.timestamp_end;
	info.events_discarded = hh.events_discarded;
	info.stream_class = hh.stream_id;
	info.packet_seq = hh.packet_seq_num;
	if (!o->id)
		o->id = evt_relay_stream(r, name) + 1;
	if (!o->id ||
	    evt_relay_packet(r, o->id - 1, pc.head, pc.head_len, pc.body,
			     pc.body_len, &info)) {
		if (partial)
			return;		/* it goes whole, later */
		/* Lost: its records count in the stream's next packet, and
		 * are named by site (not in kernel streams, whose records
		 * have a context: their sites are the events themselves). */
		o->lost += evt_piece_records(&pc, layout, ctx,
					     hh.stream_id == EVT_KERNEL_STREAM_ID ?
					     NULL : refused, o);
		evt_pieces_forget(&o->pieces);
		return;
	}
	evt_pieces_done(&o->pieces, &pc);
	o->lost_told = o->lost;
	o->last = *h;
}

void evt_relay_out_end(struct evt_relay *r, struct evt_relay_out *o)
{
	if (o->id && o->nnamed) {
		struct evt_packet_header h = o->last;

		h.timestamp_begin = h.timestamp_end;
		evt_pieces_forget(&o->pieces);
		tell_named(r, o, &h);
	}
	if (o->id && o->lost > o->lost_told) {
		struct evt_packet_header h = o->last;

		h.timestamp_begin = h.timestamp_end;
		h.packet_seq_num = UINT64_MAX;	/* a packet of its own */
		evt_pieces_forget(&o->pieces);
		evt_relay_out_packet(r, o, "", &h, (const uint8_t *)&h, sizeof(h),
				     false, NULL, NULL);
	}
	evt_relay_out_init(o);	/* the relay's stream idles to the end */
}

void evt_relay_out_metadata(struct evt_relay *r, const struct evt_trace_index *ix,
			    const char *hostname, struct evt_index_marks *sent)
{
	bool first = sent->streams == UINT32_MAX;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	if (!first && sent->streams == ix->nstreams && sent->events == ix->nevents &&
	    sent->snapshots == ix->nsnapshots)
		return;
	if (!(f = open_memstream(&text, &len)))
		return;
	evt_ctf_metadata_write_part(f, ix, first ? hostname : NULL,
				    first ? NULL : sent);
	if (fclose(f) == 0) {
		evt_relay_metadata(r, text, len);
		sent->streams = ix->nstreams;
		sent->events = ix->nevents;
		sent->snapshots = ix->nsnapshots;
	}
	free(text);
}
