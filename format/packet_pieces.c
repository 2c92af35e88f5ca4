/*
 * packet_pieces.c - an open packet written out in pieces (packet_pieces.h).
 */
#include <string.h>

#include "packet_pieces.h"

/* Reads the records in [from, to) after st: 0, st past them and *n
 * counted (each event's id to each, when given), or -1 at the first that
 * does not read. */
static int walk(const uint8_t *pkt, uint32_t from, uint32_t to,
		struct evt_hdr_state *st, uint64_t *n, evt_layout_fn layout,
		void *ctx, void (*each)(void *each_ctx, uint16_t id),
		void *each_ctx)
{
	while (from < to) {
		const struct evt_event_layout *l;
		struct evt_lost_entry lost;
		struct evt_record rec;

		if (evt_record_header(pkt + from, to - from, st, &rec))
			return -1;
		if (rec.id == EVT_LOST_EVENT_ID) {	/* not an event */
			if (evt_record_lost(&rec, to - from, &lost))
				return -1;
		} else {
			if (!(l = layout(ctx, rec.id)) ||
			    evt_record_payload(&rec, l, to - from))
				return -1;
			(*n)++;
			if (each)
				each(each_ctx, rec.id);
		}
		from += rec.header_bytes + (uint32_t)rec.payload_size;
	}
	return from == to ? 0 : -1;
}

int evt_pieces_cut(const struct evt_pieces *p, const struct evt_packet_header *h,
		   const uint8_t *pkt, uint32_t content, bool partial,
		   evt_layout_fn layout, void *ctx, struct evt_piece *pc)
{
	struct evt_packet_header hh = *h;
	uint32_t from = sizeof(hh);
	unsigned cpu_len = 0;

	memset(pc, 0, sizeof(*pc));
	if (p->part_upto && p->part_seq == h->packet_seq_num) {
		from = p->part_upto;
		pc->start = p->part_st;
	} else {
		evt_hdr_reset(&pc->start);
	}
	if (content <= from && (partial || from > sizeof(hh)))
		return 0;	/* nothing new of it */
	pc->end = pc->start;
	if (partial && walk(pkt, from, content, &pc->end, &pc->events, layout,
			    ctx, NULL, NULL))
		return 0;	/* it goes whole, later */
	if (from > sizeof(hh)) {
		struct evt_hdr_state cpu_st = pc->start;

		cpu_len = evt_hdr_put_cpu(pc->head + sizeof(hh), &cpu_st,
					  pc->start.ts, pc->start.cpu);
		hh.timestamp_begin = pc->start.ts;
		hh.first_event = h->first_event + p->part_events;
	}
	if (partial)
		hh.timestamp_end = pc->end.ts;
	hh.content_size = hh.packet_size =
		(uint64_t)(sizeof(hh) + cpu_len + content - from) * 8;
	hh.packet_seq_num = p->seq;
	memcpy(pc->head, &hh, sizeof(hh));
	pc->head_len = (uint32_t)(sizeof(hh) + cpu_len);
	pc->body = pkt + from;
	pc->body_len = content - from;
	pc->upto = content;
	pc->partial = partial;
	pc->writer_seq = h->packet_seq_num;
	return 1;
}

void evt_pieces_done(struct evt_pieces *p, const struct evt_piece *pc)
{
	p->seq++;
	if (pc->partial) {
		if (p->part_upto && p->part_seq == pc->writer_seq) {
			p->part_events += pc->events;
		} else {
			p->part_seq = pc->writer_seq;
			p->part_events = pc->events;
		}
		p->part_upto = pc->upto;
		p->part_st = pc->end;
	} else {
		p->part_upto = 0;
	}
}

void evt_pieces_forget(struct evt_pieces *p)
{
	p->part_upto = 0;
}

uint64_t evt_piece_records(const struct evt_piece *pc, evt_layout_fn layout,
			   void *ctx, void (*each)(void *each_ctx, uint16_t id),
			   void *each_ctx)
{
	struct evt_hdr_state st = pc->start;
	uint64_t n = 0;

	walk(pc->body, 0, pc->body_len, &st, &n, layout, ctx, each, each_ctx);
	return n;
}
