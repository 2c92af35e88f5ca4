/*
 * packet_writer.c - a stream file written a packet at a time (see
 * packet_writer.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "layout.h"
#include "packet_writer.h"

#define PACKET_MAX_AGE_MS 1000

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int evt_packet_writer_init(struct evt_packet_writer *w, const char *name,
			   uint32_t stream_id, uint32_t packet_size,
			   uint32_t ctx_bytes)
{
	memset(w, 0, sizeof(*w));
	w->hs.ctx_bytes = ctx_bytes;
	snprintf(w->name, sizeof(w->name), "%s", name);
	w->stream_id = stream_id;
	w->fd = -1;
	w->size = packet_size;
	w->used = sizeof(struct evt_packet_header);
	w->pkt = malloc(packet_size);
	return w->pkt ? 0 : -1;
}

void evt_packet_writer_free(struct evt_packet_writer *w)
{
	if (w->fd >= 0)
		close(w->fd);
	free(w->pkt);
	w->fd = -1;
	w->pkt = NULL;
}

bool evt_packet_writer_fits(const struct evt_packet_writer *w, size_t n)
{
	return sizeof(struct evt_packet_header) + EVT_HDR_MAX_BYTES + w->hs.ctx_bytes +
	       n <= w->size;
}

/* Writes the packet being filled, or, when it is empty and records were
 * lost since the last one, a packet that only says so. */
static int write_packet(struct evt_packet_writer *w,
			const struct evt_trace_dir *out, char *err,
			size_t err_size)
{
	struct evt_packet_header h;
	size_t done = 0;

	if (!w->nrecords && w->lost == w->lost_written)
		return 0;
	if (w->fd < 0 && out->fd >= 0 &&
	    (w->fd = evt_trace_dir_create(out, 0, w->name, err, err_size)) < 0)
		return -1;
	evt_packet_header_open(&h, w->stream_id, w->seq,
			       w->nrecords ? w->first_ts : w->last_ts, w->used,
			       w->lost, w->events, w->pid, w->tid, w->comm);
	evt_packet_header_close(&h, w->last_ts, w->used);
	memcpy(w->pkt, &h, sizeof(h));
	while (w->fd >= 0 && done < w->used) {
		ssize_t n = write(w->fd, w->pkt + done, w->used - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			evt_trace_dir_error(out, 0, w->name, n < 0 ? errno : ENOSPC,
					    err, err_size);
			return -1;
		}
		done += (size_t)n;
	}
	if (w->relay)
		evt_relay_out_packet(w->relay, &w->relay_out, w->name, &h, w->pkt,
				     (uint32_t)w->used, false, NULL, NULL);
	w->packets++;
	w->bytes += w->used;
	w->events += w->nrecords;
	w->seq++;
	w->lost_written = w->lost;
	w->nrecords = 0;
	w->used = sizeof(h);
	return 0;
}

uint8_t *evt_packet_writer_reserve(struct evt_packet_writer *w,
				   const struct evt_trace_dir *out, size_t n,
				   uint32_t id, uint64_t ts, uint32_t cpu,
				   char *err, size_t err_size)
{
	uint8_t *at;

	if (w->used + EVT_HDR_MAX_BYTES + w->hs.ctx_bytes + n > w->size &&
	    write_packet(w, out, err, err_size))
		return NULL;
	if (ts > w->last_ts)
		w->last_ts = ts;
	if (!w->nrecords) {
		w->first_ts = w->last_ts;
		w->opened_ms = now_ms();
		evt_hdr_reset(&w->hs);
	}
	at = w->pkt + w->used;
	at += evt_hdr_put(at, &w->hs, id, w->last_ts, cpu);
	w->used = (size_t)(at - w->pkt) + n;
	w->nrecords++;
	return at;
}

int evt_packet_writer_lose(struct evt_packet_writer *w,
			   const struct evt_trace_dir *out, uint64_t n, char *err,
			   size_t err_size)
{
	if (w->nrecords && write_packet(w, out, err, err_size))
		return -1;
	w->lost += n;
	return 0;
}

int evt_packet_writer_flush(struct evt_packet_writer *w,
			    const struct evt_trace_dir *out, bool final,
			    char *err, size_t err_size)
{
	if (!final && (!w->nrecords || now_ms() - w->opened_ms < PACKET_MAX_AGE_MS))
		return 0;
	return write_packet(w, out, err, err_size);
}
