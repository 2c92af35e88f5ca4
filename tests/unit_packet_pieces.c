/* An open packet cut into pieces (engine/drain/packet_pieces.c): each piece
 * holds only what the pieces before did not, decodes on its own to the
 * records' exact times, CPUs and values, and is numbered on; an open
 * packet whose records do not read is not cut. */
#include "packet_pieces.h"
#include "unit.h"

static struct evt_event_layout layout;
static int unknown_id = -1;

static const struct evt_event_layout *layout_of(void *ctx, uint16_t id)
{
	(void)ctx;
	return id == unknown_id ? NULL : &layout;
}

struct rec { uint64_t ts; uint32_t cpu, value; };

/* The packet: header, then records of "v %u" (ids 1 and 2). */
static uint8_t pkt[4096];
static uint32_t ends[8];	/* where each record ends */
static const struct rec recs[] = {
	{ 1000, 3, 10 }, { 1010, 3, 11 }, { 1500, 5, 12 },
	{ 1 << 30, 5, 13 }, { (1ull << 30) + 7, 3, 14 },
};
#define NRECS (sizeof(recs) / sizeof(recs[0]))

static void write_packet(struct evt_packet_header *h)
{
	struct evt_hdr_state st = { 0 };
	uint32_t off = sizeof(*h);
	unsigned k;

	memset(h, 0, sizeof(*h));
	h->magic = EVT_PACKET_MAGIC;
	h->timestamp_begin = 900;
	h->timestamp_end = (1ull << 30) + 50;
	h->packet_seq_num = 7;
	h->first_event = 100;
	evt_hdr_reset(&st);
	for (k = 0; k < NRECS; k++) {
		off += evt_hdr_put(pkt + off, &st, 1 + k % 2, recs[k].ts,
				   recs[k].cpu);
		memcpy(pkt + off, &recs[k].value, 4);
		off += 4;
		ends[k] = off;
	}
	memcpy(pkt, h, sizeof(*h));
}

/* Decodes piece pc as a reader would (fresh state at its start) and
 * checks it holds records [from, to) of recs. */
static void check_piece(const struct evt_piece *pc, unsigned from, unsigned to)
{
	uint8_t buf[4096];
	struct evt_hdr_state st = { 0 };
	uint32_t len = pc->head_len - sizeof(struct evt_packet_header);
	uint32_t off = 0;
	unsigned k = from;

	memcpy(buf, pc->head + sizeof(struct evt_packet_header), len);
	memcpy(buf + len, pc->body, pc->body_len);
	len += pc->body_len;
	evt_hdr_reset(&st);
	while (off < len) {
		struct evt_record r;
		uint32_t v;

		if (evt_record_header(buf + off, len - off, &st, &r) ||
		    evt_record_payload(&r, &layout, len - off)) {
			CHECK(!"a piece's records read");
			return;
		}
		memcpy(&v, r.payload, 4);
		CHECK(k < to);
		if (k < to)
			CHECK(r.timestamp == recs[k].ts && r.cpu == recs[k].cpu &&
			      v == recs[k].value);
		k++;
		off += r.header_bytes + (uint32_t)r.payload_size;
	}
	CHECK(k == to);
}

static struct evt_packet_header piece_header(const struct evt_piece *pc)
{
	struct evt_packet_header h;

	memcpy(&h, pc->head, sizeof(h));
	return h;
}

int main(void)
{
	static const uint8_t types[1] = { EVT_ARG_U32 };
	struct evt_packet_header h, ph;
	struct evt_pieces p = { 0 };
	struct evt_piece pc;
	char why[128];

	CHECK(evt_event_layout_load(&layout, EVT_KIND_PRINTK, "v %u", types, 1,
				    why, sizeof(why)) == 0);
	write_packet(&h);

	/* First flush, two records committed: a packet from the start. */
	CHECK(evt_pieces_cut(&p, &h, pkt, ends[1], true, layout_of, NULL, &pc) == 1);
	ph = piece_header(&pc);
	CHECK(pc.head_len == sizeof(h) && pc.events == 2);
	CHECK(ph.packet_seq_num == 0 && ph.first_event == 100 &&
	      ph.timestamp_begin == 900 && ph.timestamp_end == recs[1].ts);
	CHECK(ph.content_size == (uint64_t)ends[1] * 8 &&
	      ph.packet_size == ph.content_size);
	check_piece(&pc, 0, 2);
	evt_pieces_done(&p, &pc);
	/* Nothing committed since: nothing to write. */
	CHECK(evt_pieces_cut(&p, &h, pkt, ends[1], true, layout_of, NULL, &pc) == 0);

	/* A record whose layout is unknown: not cut, nothing lost. */
	unknown_id = 2;
	CHECK(evt_pieces_cut(&p, &h, pkt, ends[3], true, layout_of, NULL, &pc) == 0);
	unknown_id = -1;

	/* Second flush: records 3 and 4, after a CPU record that gives the
	 * whole time and CPU of record 2; the next packet number. */
	CHECK(evt_pieces_cut(&p, &h, pkt, ends[3], true, layout_of, NULL, &pc) == 1);
	ph = piece_header(&pc);
	CHECK(pc.head_len > sizeof(h) && pc.events == 2);
	CHECK(ph.packet_seq_num == 1 && ph.first_event == 102 &&
	      ph.timestamp_begin == recs[1].ts && ph.timestamp_end == recs[3].ts);
	CHECK(ph.content_size == (uint64_t)(pc.head_len + pc.body_len) * 8);
	check_piece(&pc, 2, 4);
	CHECK(evt_piece_records(&pc, layout_of, NULL, NULL, NULL) == 2);
	evt_pieces_done(&p, &pc);

	/* The packet closed: only its last record goes, with the writer's
	 * end time. */
	CHECK(evt_pieces_cut(&p, &h, pkt, ends[4], false, layout_of, NULL, &pc) == 1);
	ph = piece_header(&pc);
	CHECK(ph.packet_seq_num == 2 && ph.first_event == 104 &&
	      ph.timestamp_begin == recs[3].ts && ph.timestamp_end == h.timestamp_end);
	check_piece(&pc, 4, 5);
	evt_pieces_done(&p, &pc);

	/* The next packet of the writer starts afresh. */
	h.packet_seq_num = 8;
	memcpy(pkt, &h, sizeof(h));
	CHECK(evt_pieces_cut(&p, &h, pkt, ends[4], false, layout_of, NULL, &pc) == 1);
	CHECK(pc.head_len == sizeof(h) && piece_header(&pc).packet_seq_num == 3);
	check_piece(&pc, 0, 5);

	/* Forgotten (a piece refused by a relay): the packet goes whole. */
	h.packet_seq_num = 9;
	memcpy(pkt, &h, sizeof(h));
	CHECK(evt_pieces_cut(&p, &h, pkt, ends[1], true, layout_of, NULL, &pc) == 1);
	evt_pieces_done(&p, &pc);
	evt_pieces_forget(&p);
	CHECK(evt_pieces_cut(&p, &h, pkt, ends[4], false, layout_of, NULL, &pc) == 1);
	CHECK(pc.head_len == sizeof(h));
	check_piece(&pc, 0, 5);

	evt_event_layout_free(&layout);
	UNIT_DONE();
}
