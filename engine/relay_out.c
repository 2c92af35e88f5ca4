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

static void fresh_state(struct evt_hdr_state *st)
{
	memset(st, 0, sizeof(*st));
	st->cpu = EVT_HDR_NO_CPU;
}

/* Reads the records in [from, to) after st: 0, st past them and *n
 * counted, or -1 when they do not read. */
static int walk(const uint8_t *pkt, uint32_t from, uint32_t to,
		struct evt_hdr_state *st, uint64_t *n,
		evt_relay_layout_fn layout, void *ctx)
{
	while (from < to) {
		const struct evt_event_layout *l;
		struct evt_record rec;

		if (evt_record_header(pkt + from, to - from, st, &rec) ||
		    !(l = layout(ctx, rec.id)) ||
		    evt_record_payload(&rec, l, to - from))
			return -1;
		from += rec.header_bytes + (uint32_t)rec.payload_size;
		(*n)++;
	}
	return from == to ? 0 : -1;
}

void evt_relay_out_packet(struct evt_relay *r, struct evt_relay_out *o,
			  const char *name, const struct evt_packet_header *h,
			  const uint8_t *pkt, uint32_t content, bool partial,
			  evt_relay_layout_fn layout, void *ctx)
{
	uint8_t head[sizeof(struct evt_packet_header) + EVT_CPU_RECORD_BYTES];
	struct evt_packet_header hh = *h;
	struct evt_relay_packet_info info;
	struct evt_hdr_state st, end;
	uint32_t from = sizeof(hh);
	unsigned cpu_len = 0;
	uint64_t n = 0;

	if (o->part_upto && o->part_seq == h->packet_seq_num) {
		from = o->part_upto;
		st = o->part_st;
	} else {
		o->part_upto = 0;
		o->part_events = 0;
		fresh_state(&st);
	}
	if (content <= from && (partial || from > sizeof(hh))) {
		if (!partial)
			o->part_upto = 0;	/* all of it went in pieces */
		return;
	}
	end = st;
	if (partial && walk(pkt, from, content, &end, &n, layout, ctx))
		return;		/* it goes whole, later */
	if (from > sizeof(hh)) {
		struct evt_hdr_state cpu_st = st;

		cpu_len = evt_hdr_put_cpu(head + sizeof(hh), &cpu_st, st.ts,
					  st.cpu);
		hh.timestamp_begin = st.ts;
		hh.first_event = h->first_event + o->part_events;
	}
	if (partial)
		hh.timestamp_end = end.ts;
	hh.content_size = hh.packet_size =
		(uint64_t)(sizeof(hh) + cpu_len + content - from) * 8;
	hh.packet_seq_num = o->seq;
	hh.events_discarded = h->events_discarded + o->lost;
	memcpy(head, &hh, sizeof(hh));
	info.timestamp_begin = hh.timestamp_begin;
	info.timestamp_end = hh.timestamp_end;
	info.events_discarded = hh.events_discarded;
	info.stream_class = hh.stream_id;
	info.packet_seq = hh.packet_seq_num;
	if (!o->id)
		o->id = evt_relay_stream(r, name) + 1;
	if (!o->id ||
	    evt_relay_packet(r, o->id - 1, head, sizeof(hh) + cpu_len, pkt + from,
			     content - from, &info)) {
		if (partial)
			return;		/* it goes whole, later */
		/* Lost: its records count in the stream's next packet. */
		end = st;
		walk(pkt, from, content, &end, &n, layout, ctx);
		o->lost += n;
		o->part_upto = 0;
		return;
	}
	o->seq++;
	o->lost_told = o->lost;
	o->last = *h;
	if (partial) {
		o->part_seq = h->packet_seq_num;
		o->part_upto = content;
		o->part_st = end;
		o->part_events += n;
	} else {
		o->part_upto = 0;
	}
}

void evt_relay_out_end(struct evt_relay *r, struct evt_relay_out *o)
{
	if (o->id && o->lost > o->lost_told) {
		struct evt_packet_header h = o->last;

		h.timestamp_begin = h.timestamp_end;
		h.packet_seq_num = UINT64_MAX;	/* a packet of its own */
		o->part_upto = 0;
		evt_relay_out_packet(r, o, "", &h, (const uint8_t *)&h, sizeof(h),
				     false, NULL, NULL);
	}
	evt_relay_out_init(o);	/* the relay's stream idles to the end */
}

void evt_relay_out_metadata(struct evt_relay *r, const struct evt_trace_index *ix,
			    const char *hostname, uint32_t *streams,
			    uint32_t *events)
{
	bool first = *streams == UINT32_MAX;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	if (!first && *streams == ix->nstreams && *events == ix->nevents)
		return;
	if (!(f = open_memstream(&text, &len)))
		return;
	evt_ctf_metadata_write_part(f, ix, first ? hostname : NULL,
				    first ? 0 : *streams, first ? 0 : *events);
	if (fclose(f) == 0) {
		evt_relay_metadata(r, text, len);
		*streams = ix->nstreams;
		*events = ix->nevents;
	}
	free(text);
}
