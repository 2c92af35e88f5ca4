/*
 * packet_writer.h - one CTF stream file of a trace, written a packet at a
 * time from records the engine lays out itself (kernel samples, records a
 * live stream decoded), where the collection copies whole packets from
 * shared memory instead.  A packet goes out when the next record does not
 * fit, at a loss (so that the loss is counted after the records before
 * it), when it is a second old, or at the end; its size is what it holds.
 * Times never go back within the stream.
 */
#ifndef EVT_ENGINE_PACKET_WRITER_H
#define EVT_ENGINE_PACKET_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "record_header.h"
#include "relay_out.h"
#include "trace_dir.h"

struct evt_packet_writer {
	char name[64];		/* its file in the trace directory */
	uint32_t stream_id, pid, tid;	/* for the packet headers */
	char comm[16];
	int fd;			/* -1 until its first packet */
	uint8_t *pkt;		/* the packet being filled */
	uint32_t size;		/* the most a packet holds */
	size_t used;		/* bytes of it, header included */
	uint64_t first_ts, last_ts;
	struct evt_hdr_state hs;	/* the packet's last record */
	int64_t opened_ms;
	uint64_t seq, nrecords;	/* records in the packet being filled */
	uint64_t events;	/* records in packets written */
	uint64_t lost, lost_written;
	uint64_t packets, bytes;	/* written */
	/* Each packet to this relay too, or only (out's fd -1: no
	 * trace directory). */
	struct evt_relay *relay;
	struct evt_relay_out relay_out;
};

/* ctx_bytes: the context each record has after its header (kernel
 * streams).  0, or -1 when out of memory. */
int evt_packet_writer_init(struct evt_packet_writer *w, const char *name,
			   uint32_t stream_id, uint32_t packet_size,
			   uint32_t ctx_bytes);
void evt_packet_writer_free(struct evt_packet_writer *w);
/* Whether a record whose header is followed by n bytes fits in a packet
 * at all. */
bool evt_packet_writer_fits(const struct evt_packet_writer *w, size_t n);
/*
 * A record of event id at time ts on cpu followed by n bytes (that fit),
 * after writing out the packet if it is full: its header is laid down, its
 * time being w->last_ts (ts, or the stream's last if that is later), and
 * the n bytes go where this points; or NULL with err set.
 */
uint8_t *evt_packet_writer_reserve(struct evt_packet_writer *w,
				   const struct evt_trace_dir *out, size_t n,
				   uint32_t id, uint64_t ts, uint32_t cpu,
				   char *err, size_t err_size);
/* n records lost here.  0, or -1 with err set. */
int evt_packet_writer_lose(struct evt_packet_writer *w,
			   const struct evt_trace_dir *out, uint64_t n, char *err,
			   size_t err_size);
/* Writes out the packet (all of it with final, else if a second old).
 * 0, or -1 with err set. */
int evt_packet_writer_flush(struct evt_packet_writer *w,
			    const struct evt_trace_dir *out, bool final,
			    char *err, size_t err_size);

#endif
