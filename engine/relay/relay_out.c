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

void evt_relay_out_packet(struct evt_relay *r, struct evt_relay_out *o,
			  const char *name, const struct evt_packet_header *h,
			  const uint8_t *pkt, uint32_t content, bool partial,
			  evt_layout_fn layout, void *ctx)
{
	struct evt_relay_packet_info info;
	struct evt_packet_header hh;
	struct evt_piece pc;

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
		/* Lost: its records count in the stream's next packet. */
		o->lost += evt_piece_records(&pc, layout, ctx);
		evt_pieces_forget(&o->pieces);
		return;
	}
	evt_pieces_done(&o->pieces, &pc);
	o->lost_told = o->lost;
	o->last = *h;
}

void evt_relay_out_end(struct evt_relay *r, struct evt_relay_out *o)
{
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
