/*
 * relay.h - a recording streamed to lttng-relayd, live.
 *
 * The recorder hands over the metadata as it grows and each packet as it
 * drains it; a thread of its own sends them (relay_proto.h), so that the
 * network never holds up the drain, and so never a traced program.  What
 * waits for the network is bounded (max_queued bytes): a packet that does
 * not fit is refused, and the caller counts its events as lost in the
 * stream's next packet.  A packet leaves the queue only once the relay has
 * written it (its answer to DATA_PENDING, asked every 64 packets and when
 * all is sent): its answer to the packet's index says only that it has
 * the index, and a relay killed then loses what its data thread had not
 * written yet.  At the end, the session closes once the relay wrote
 * everything, or 2 s after all was sent (its streams closed after their
 * last packets, which it honours once it has them).
 *
 * When the connection fails (refused, reset, garbage in a reply, or no
 * progress for EVT_RELAY_TIMEOUT_MS), the thread tries again, 1 s later
 * and then less and less often (8 s at most), and resumes in a new relay
 * session: the metadata sent again from its start, the streams added
 * again, the queued packets after them.  The relay stores the recording
 * after each reconnection as a trace of its own.
 */
#ifndef EVT_ENGINE_RELAY_H
#define EVT_ENGINE_RELAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "relay_address.h"

#define EVT_RELAY_TIMEOUT_MS	5000
#define EVT_RELAY_QUEUE_BYTES	(64u << 20)
/* How often live readers are to look for more (told to the relay). */
#define EVT_RELAY_LIVE_TIMER_US	(500 * 1000)



/* What the relay's index says of a packet (relay_proto.h). */
struct evt_relay_packet_info {
	uint64_t timestamp_begin, timestamp_end;
	uint64_t events_discarded;
	uint32_t stream_class;
	uint64_t packet_seq;
	bool loss_only;			/* it only names a loss (a few hundred
					 * bytes): taken even when full */
};

struct evt_relay_stats {
	uint64_t packets, bytes;	/* taken by the relay */
	uint64_t refused;		/* packets the queue had no room for */
	uint32_t connections;		/* sessions made on a relay */
	uint64_t unsent;		/* packets still queued (when it ended) */
};

struct evt_relay;

/*
 * Resolves the host and starts the sending thread, which connects at
 * once.  0, or -1 with err set (a host that does not resolve, a bad port,
 * no memory).  A relay that cannot be reached yet is no error: the
 * thread says so and tries again.
 */
int evt_relay_start(const struct evt_relay_opts *o, struct evt_relay **out,
		    char *err, size_t err_size);
/* Whether len bytes more fit in the queue now. */
bool evt_relay_has_room(struct evt_relay *r, size_t len);
/* Appends TSDL text to the metadata. */
void evt_relay_metadata(struct evt_relay *r, const char *text, size_t len);
/* A new stream, by the name of its file; its number, or -1 (no memory).
 * Streams stay open, idle when done with, to the session's end (a live
 * reader leaves a session when one of its streams closes). */
int evt_relay_stream(struct evt_relay *r, const char *name);
/*
 * Queues a packet of stream s, given as its header and its records,
 * copied.  0, or -1 when refused (no room: the caller counts its events
 * as lost).  A header without records, or one followed by records that
 * only name a loss (info->loss_only), is taken even when the queue is
 * full: it carries the count of what was refused.
 */
int evt_relay_packet(struct evt_relay *r, int s, const void *head,
		     size_t head_len, const void *body, size_t body_len,
		     const struct evt_relay_packet_info *info);
/*
 * Every record before clock value ts that the caller will queue is
 * queued: the relay may tell live readers that the streams which sent
 * nothing since the last call are idle up to ts.
 */
void evt_relay_horizon(struct evt_relay *r, uint64_t ts);
/* A message the thread has for the user (copied to out), or false. */
bool evt_relay_message(struct evt_relay *r, char *out, size_t out_size);
/* What it did so far, unsent being what is queued now. */
void evt_relay_progress(struct evt_relay *r, struct evt_relay_stats *out);
/*
 * Sends what is queued (for wait_ms at most; when not connected, after
 * one more try), ends the relay session and stops the thread; fills
 * stats and reports what the thread still had to say.  r is freed.
 */
void evt_relay_finish(struct evt_relay *r, int wait_ms,
		      struct evt_relay_stats *stats);

#endif
