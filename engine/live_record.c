/*
 * live_record.c - a trace directory written from live records (see
 * live_record.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "event_ids.h"
#include "layout.h"
#include "live_record.h"
#include "record.h"

#define PACKET_MAX_AGE_MS 1000

struct thread_stream {
	uint32_t pid, tid;
	char comm[16];
	int fd;
	uint8_t *pkt;
	size_t used;
	uint64_t first_ts, last_ts;
	int64_t opened_ms;
	uint64_t seq, lost, lost_written, nrecords, events;
};

struct evt_live_record {
	struct evt_trace_dir out;
	struct evt_trace_index ix;
	bool dirty;
	uint32_t packet_size;
	struct id_map { uint32_t global, local; } *ids;	/* by global */
	uint32_t nids;
	struct thread_stream *s;
	unsigned ns;
	uint64_t events, lost;
};

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int evt_live_record_open(const char *dir, const struct evt_clock_calibration *clock,
			 uint32_t packet_size, struct evt_live_record **out,
			 char *err, size_t err_size)
{
	struct evt_live_record *w = calloc(1, sizeof(*w));

	*out = NULL;
	if (!w || !(w->ix.streams = calloc(1, sizeof(*w->ix.streams)))) {
		free(w);
		return snprintf(err, err_size, "out of memory"), -1;
	}
	if (evt_trace_dir_open(&w->out, dir, err, err_size)) {
		free(w->ix.streams);
		free(w);
		return -1;
	}
	w->ix.clock = *clock;
	w->ix.nstreams = 1;	/* class 0: every thread's records */
	snprintf(w->ix.streams[0].comm, sizeof(w->ix.streams[0].comm), "?");
	w->packet_size = packet_size;
	w->dirty = true;
	*out = w;
	return 0;
}

const struct evt_trace_dir *evt_live_record_dir(const struct evt_live_record *w)
{
	return &w->out;
}

struct evt_trace_index *evt_live_record_index(struct evt_live_record *w)
{
	return &w->ix;
}

void evt_live_record_changed(struct evt_live_record *w)
{
	w->dirty = true;
}

static int write_described(struct evt_live_record *w, char *err, size_t err_size)
{
	if (!w->dirty)
		return 0;
	if (evt_trace_dir_describe(&w->out, &w->ix, err, err_size))
		return -1;
	w->dirty = false;
	return 0;
}

/* Writes s's packet (or, empty, one that says what it lost since). */
static int flush_packet(struct evt_live_record *w, struct thread_stream *s,
			char *err, size_t err_size)
{
	struct evt_packet_header h = {
		.magic = EVT_PACKET_MAGIC, .stream_id = 0,
		.timestamp_begin = s->nrecords ? s->first_ts : s->last_ts,
		.timestamp_end = s->last_ts,
		.content_size = (uint64_t)s->used * 8,
		.packet_size = (uint64_t)s->used * 8,
		.packet_seq_num = s->seq, .events_discarded = s->lost,
		.first_event = s->events, .pid = s->pid, .tid = s->tid,
	};
	char name[64];

	if (!s->nrecords && s->lost == s->lost_written)
		return 0;
	if (write_described(w, err, err_size))
		return -1;
	snprintf(name, sizeof(name), "stream_live_%u_%u", s->pid, s->tid);
	if (s->fd < 0 && (s->fd = evt_trace_dir_create(&w->out, 0, name, err,
							 err_size)) < 0)
		return -1;
	memcpy(h.comm, s->comm, sizeof(h.comm));
	memcpy(s->pkt, &h, sizeof(h));
	for (size_t done = 0; done < s->used;) {
		ssize_t n = write(s->fd, s->pkt + done, s->used - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			evt_trace_dir_error(&w->out, 0, name, n < 0 ? errno : ENOSPC,
					    err, err_size);
			return -1;
		}
		done += (size_t)n;
	}
	s->events += s->nrecords;
	s->seq++;
	s->lost_written = s->lost;
	s->nrecords = 0;
	s->used = sizeof(h);
	return 0;
}

static struct thread_stream *stream_of(struct evt_live_record *w,
				       const struct evt_live_event *e)
{
	struct thread_stream *s;
	unsigned i;

	for (i = 0; i < w->ns; i++)
		if (w->s[i].pid == e->pid && w->s[i].tid == e->tid)
			return &w->s[i];
	s = realloc(w->s, (w->ns + 1) * sizeof(*s));
	if (!s)
		return NULL;
	w->s = s;
	s = &w->s[w->ns];
	memset(s, 0, sizeof(*s));
	if (!(s->pkt = malloc(w->packet_size)))
		return NULL;
	w->ns++;
	s->pid = e->pid;
	s->tid = e->tid;
	s->fd = -1;
	s->used = sizeof(struct evt_packet_header);
	if (w->ns == 1) {	/* the class is named after its first */
		w->ix.streams[0].pid = e->pid;
		snprintf(w->ix.streams[0].comm, sizeof(w->ix.streams[0].comm),
			 "%s", e->comm);
	}
	return s;
}

/* The writer's id for the record's event, described when new; or -1. */
static long local_id(struct evt_live_record *w, const struct evt_live_event *e)
{
	struct evt_event_desc *d;
	struct id_map *m;
	char why[300];
	uint32_t i;

	for (i = 0; i < w->nids; i++)
		if (w->ids[i].global == e->id)
			return w->ids[i].local;
	if (w->nids > UINT16_MAX || e->id == EVT_NO_ID)
		return -1;
	m = realloc(w->ids, (w->nids + 1) * sizeof(*m));
	d = realloc(w->ix.events, (w->ix.nevents + 1) * sizeof(*d));
	if (m)
		w->ids = m;
	if (d)
		w->ix.events = d;
	if (!m || !d)
		return -1;
	d = &w->ix.events[w->ix.nevents];
	memset(d, 0, sizeof(*d));
	d->sid = 0;
	d->id = w->nids;
	d->path = strdup(e->path);
	d->format = strdup(e->format);
	if (!d->path || !d->format ||
	    evt_event_layout_load(&d->layout, e->layout->kind, e->format,
				  e->layout->types, e->layout->nargs, why, sizeof(why))) {
		free(d->path);
		free(d->format);
		return -1;
	}
	w->ix.nevents++;
	w->ids[w->nids] = (struct id_map){ e->id, w->nids };
	w->dirty = true;
	return w->nids++;
}

int evt_live_record_add(struct evt_live_record *w, const struct evt_live_event *e,
			char *err, size_t err_size)
{
	struct thread_stream *s = stream_of(w, e);
	size_t n = EVT_RECORD_HEADER_BYTES + e->payload_size;
	uint16_t id;
	long local;

	if (!s)
		return snprintf(err, err_size, "out of memory"), -1;
	memcpy(s->comm, e->comm, sizeof(s->comm));
	if (!e->path) {		/* lost after what came before */
		if (s->nrecords && flush_packet(w, s, err, err_size))
			return -1;
		s->lost += e->lost;
		w->lost += e->lost;
		return 0;
	}
	local = local_id(w, e);
	if (local < 0 || sizeof(struct evt_packet_header) + n > w->packet_size) {
		s->lost++;	/* not to be described, or too big */
		w->lost++;
		return 0;
	}
	if (s->used + n > w->packet_size && flush_packet(w, s, err, err_size))
		return -1;
	if (!s->nrecords) {
		s->first_ts = e->timestamp;
		s->opened_ms = now_ms();
	}
	s->last_ts = e->timestamp > s->last_ts ? e->timestamp : s->last_ts;
	id = (uint16_t)local;
	memcpy(s->pkt + s->used, &id, 2);
	memcpy(s->pkt + s->used + 2, &s->last_ts, 8);
	memcpy(s->pkt + s->used + 10, &e->cpu, 2);
	memcpy(s->pkt + s->used + EVT_RECORD_HEADER_BYTES, e->payload, e->payload_size);
	s->used += n;
	s->nrecords++;
	w->events++;
	return 0;
}

int evt_live_record_flush(struct evt_live_record *w, bool final, char *err,
			  size_t err_size)
{
	int64_t now = now_ms();
	unsigned i;

	if (final && evt_clock_refine(&w->ix.clock) == 0)
		w->dirty = true;
	if (write_described(w, err, err_size))
		return -1;
	for (i = 0; i < w->ns; i++)
		if ((final || (w->s[i].nrecords &&
			       now - w->s[i].opened_ms >= PACKET_MAX_AGE_MS)) &&
		    flush_packet(w, &w->s[i], err, err_size))
			return -1;
	return 0;
}

void evt_live_record_counts(const struct evt_live_record *w, uint64_t *events,
			    uint64_t *lost)
{
	*events = w->events;
	*lost = w->lost;
}

void evt_live_record_close(struct evt_live_record *w)
{
	unsigned i;

	if (!w)
		return;
	for (i = 0; i < w->ns; i++) {
		if (w->s[i].fd >= 0)
			close(w->s[i].fd);
		free(w->s[i].pkt);
	}
	free(w->s);
	free(w->ids);
	evt_trace_index_free(&w->ix);
	evt_trace_dir_close(&w->out);
	free(w);
}
