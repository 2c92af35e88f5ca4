/*
 * record_header.h - a record's header, compact or extended (layout.h), as
 * the writers lay it down and the readers take it up.
 *
 * A compact header is one little-endian 32-bit word: the event id in its
 * low EVT_HDR_ID_BITS bits, the low EVT_HDR_TS_BITS bits of the
 * timestamp above them; it stands for a time less than
 * 2^EVT_HDR_TS_BITS clock units after the record before it in the packet.
 * Any other record is extended: an id field of EVT_HDR_EXTENDED (and 5
 * zero bits), then the id as uint16 and the whole timestamp as uint64.
 *
 * Records carry no CPU: a record of event EVT_CPU_EVENT_ID ("evtrace/cpu",
 * payload uint16 cpu_id, always extended) comes before the first record
 * of a packet and before each record written on another CPU than the one
 * before it.  So a packet starts with a whole timestamp and reads on its
 * own, and CTF readers see the CPU change as an event.  evtrace's readers
 * fold it into the header of the record after it.  In a stream whose
 * records have a context (kernel streams), a CPU record has it too, zeroed.
 *
 * CTF readers know the compact timestamp as an integer of 21 bits mapped
 * to the clock: they take a lower value than the last one as a wrap, which
 * is right when less than one wrap passed, the writer's condition.
 */
#ifndef EVT_FORMAT_RECORD_HEADER_H
#define EVT_FORMAT_RECORD_HEADER_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define EVT_HDR_ID_BITS		11
#define EVT_HDR_TS_BITS		21
#define EVT_HDR_EXTENDED	((1u << EVT_HDR_ID_BITS) - 1)
#define EVT_HDR_TS_SPAN		(1ull << EVT_HDR_TS_BITS)
#define EVT_HDR_COMPACT_BYTES	4
#define EVT_HDR_EXTENDED_BYTES	12
#define EVT_CPU_EVENT_ID	0xffffu
#define EVT_CPU_RECORD_BYTES	(EVT_HDR_EXTENDED_BYTES + 2)
/* The most a record's header and the CPU record before it take, in a
 * stream whose records have no context. */
#define EVT_HDR_MAX_BYTES	(EVT_CPU_RECORD_BYTES + EVT_HDR_EXTENDED_BYTES)
#define EVT_HDR_NO_CPU		0xffffffffu

/*
 * The commit mark (control-file minor EVT_CTL_MINOR_COMMIT_MARK on): a
 * writer keeps the EVT_COMMIT_MARK_BYTES after its open packet's last
 * committed record zero while it is not writing a record there, and
 * leaves them room in every packet.  So a process that died with a
 * non-zero word at a buffer's commit died writing the record that begins
 * there: readers name its event.  (A record's first word is 0 only for a
 * compact header of event 0 whose timestamp's low bits are all 0, one in
 * 2^21 of them: such a record goes unnamed.)
 */
#define EVT_COMMIT_MARK_BYTES	4

static inline void evt_commit_mark_clear(uint8_t *p)
{
	uint32_t zero = 0;

	memcpy(p, &zero, sizeof(zero));
}

/*
 * The event whose record a writer had begun at p (avail bytes to its
 * packet's end, ctx_bytes of context after each header), read from the
 * commit mark: 1 with *id, or 0 when none was begun (or not so that its
 * id can be read).
 */
static inline int evt_commit_mark_read(const uint8_t *p, size_t avail,
				       unsigned ctx_bytes, uint16_t *id)
{
	uint32_t word;

	if (avail < EVT_COMMIT_MARK_BYTES)
		return 0;
	memcpy(&word, p, sizeof(word));
	if (word == 0)
		return 0;
	if ((word & EVT_HDR_EXTENDED) != EVT_HDR_EXTENDED) {
		*id = (uint16_t)(word & EVT_HDR_EXTENDED);
		return 1;
	}
	memcpy(id, p + 2, 2);
	if (*id != EVT_CPU_EVENT_ID)
		return 1;
	if (avail < EVT_CPU_RECORD_BYTES + ctx_bytes)
		return 0;
	/* A CPU record before the record itself. */
	return evt_commit_mark_read(p + EVT_CPU_RECORD_BYTES + ctx_bytes,
				    avail - EVT_CPU_RECORD_BYTES - ctx_bytes,
				    ctx_bytes, id);
}

/* What a packet's next compact header is relative to: its last record. */
struct evt_hdr_state {
	uint64_t ts;
	uint32_t cpu;		/* EVT_HDR_NO_CPU: no record yet */
	uint32_t ctx_bytes;	/* context each record of the stream has
				 * after its header (a CPU record zeroes it) */
	uint32_t legacy;	/* readers: traces of index version 1, whose
				 * headers are all { uint16 id; uint64 ts;
				 * uint16 cpu; } (record.c) */
};

static inline void evt_hdr_reset(struct evt_hdr_state *st)
{
	st->ts = 0;
	st->cpu = EVT_HDR_NO_CPU;
}

static inline unsigned evt_hdr_put_extended(uint8_t *p, struct evt_hdr_state *st,
					    uint32_t id, uint64_t ts)
{
	uint16_t tag = EVT_HDR_EXTENDED, id16 = (uint16_t)id;

	memcpy(p, &tag, 2);
	memcpy(p + 2, &id16, 2);
	memcpy(p + 4, &ts, 8);
	st->ts = ts;
	return EVT_HDR_EXTENDED_BYTES;
}

static __attribute__((noinline, unused))
unsigned evt_hdr_put_cpu(uint8_t *p, struct evt_hdr_state *st,
				uint64_t ts, uint32_t cpu)
{
	uint16_t cpu16 = (uint16_t)cpu;

	evt_hdr_put_extended(p, st, EVT_CPU_EVENT_ID, ts);
	memset(p + EVT_HDR_EXTENDED_BYTES, 0, st->ctx_bytes);
	memcpy(p + EVT_HDR_EXTENDED_BYTES + st->ctx_bytes, &cpu16, 2);
	st->cpu = cpu16;
	return EVT_CPU_RECORD_BYTES + st->ctx_bytes;
}

/* Writes the header of a record (ts never before st's) at p, after a CPU
 * record if it needs one; the bytes written. */
static inline unsigned evt_hdr_put(uint8_t *p, struct evt_hdr_state *st,
				   uint32_t id, uint64_t ts, uint32_t cpu)
{
	unsigned n = 0;

	if (__builtin_expect(cpu != st->cpu, 0))
		n = evt_hdr_put_cpu(p, st, ts, cpu);
	if (__builtin_expect(id < EVT_HDR_EXTENDED && ts - st->ts < EVT_HDR_TS_SPAN, 1)) {
		uint32_t word = id | (uint32_t)ts << EVT_HDR_ID_BITS;

		memcpy(p + n, &word, 4);
		st->ts = ts;
		return n + EVT_HDR_COMPACT_BYTES;
	}
	return n + evt_hdr_put_extended(p + n, st, id, ts);
}

/*
 * Reads the header at p (avail bytes) after the records st has seen, CPU
 * records before it included: its id, time and CPU, and the bytes up to
 * its payload; 0, or -1 when truncated or compact before any CPU record.
 */
static inline int evt_hdr_get(const uint8_t *p, size_t avail,
			      struct evt_hdr_state *st, uint16_t *id,
			      uint64_t *ts, uint16_t *cpu, unsigned *bytes)
{
	unsigned n = 0;

	for (;;) {
		uint32_t word;
		uint16_t cpu16;

		if (avail - n < EVT_HDR_COMPACT_BYTES)
			return -1;
		memcpy(&word, p + n, 4);
		if ((word & EVT_HDR_EXTENDED) != EVT_HDR_EXTENDED) {
			uint64_t low = word >> EVT_HDR_ID_BITS, mask = EVT_HDR_TS_SPAN - 1;
			uint64_t t = (st->ts & ~mask) | low;

			if (st->cpu == EVT_HDR_NO_CPU)
				return -1;
			if (low < (st->ts & mask))
				t += EVT_HDR_TS_SPAN;
			st->ts = *ts = t;
			*id = (uint16_t)(word & EVT_HDR_EXTENDED);
			n += EVT_HDR_COMPACT_BYTES;
			break;
		}
		if (avail - n < EVT_HDR_EXTENDED_BYTES)
			return -1;
		memcpy(id, p + n + 2, 2);
		memcpy(ts, p + n + 4, 8);
		st->ts = *ts;
		n += EVT_HDR_EXTENDED_BYTES;
		if (*id != EVT_CPU_EVENT_ID) {
			if (st->cpu == EVT_HDR_NO_CPU)
				return -1;
			break;
		}
		if (avail - n < st->ctx_bytes + 2)
			return -1;
		memcpy(&cpu16, p + n + st->ctx_bytes, 2);
		st->cpu = cpu16;
		n += st->ctx_bytes + 2;
	}
	*cpu = (uint16_t)st->cpu;
	*bytes = n;
	return 0;
}

#endif
