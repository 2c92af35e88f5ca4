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
#include "packet_writer.h"
#include "record.h"
#include "trace_names.h"

struct evt_live_record {
	struct evt_trace_dir out;
	struct evt_trace_index ix;
	bool dirty;
	uint32_t packet_size;
	struct id_map { uint32_t global, local; } *ids;	/* by global */
	uint32_t nids;
	struct evt_packet_writer *s;	/* one per thread */
	unsigned ns;
	uint64_t events, lost;
};

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

static struct evt_packet_writer *stream_of(struct evt_live_record *w,
					   const struct evt_live_event *e)
{
	struct evt_packet_writer *s;
	char name[64];
	unsigned i;

	for (i = 0; i < w->ns; i++)
		if (w->s[i].pid == e->pid && w->s[i].tid == e->tid)
			return &w->s[i];
	s = realloc(w->s, (w->ns + 1) * sizeof(*s));
	if (!s)
		return NULL;
	w->s = s;
	s = &w->s[w->ns];
	snprintf(name, sizeof(name), EVT_TRACE_STREAM_PREFIX "live_%u_%u", e->pid, e->tid);
	if (evt_packet_writer_init(s, name, 0, w->packet_size, 0)) {
		evt_packet_writer_free(s);
		return NULL;
	}
	w->ns++;
	s->pid = e->pid;
	s->tid = e->tid;
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
	struct evt_packet_writer *s = stream_of(w, e);
	size_t n = e->payload_size;
	uint8_t *at;
	long local;

	if (!s)
		return snprintf(err, err_size, "out of memory"), -1;
	memcpy(s->comm, e->comm, sizeof(s->comm));
	if (!e->path) {		/* lost after what came before */
		w->lost += e->lost;
		return evt_packet_writer_lose(s, &w->out, e->lost, err, err_size);
	}
	local = local_id(w, e);
	if (local < 0 || !evt_packet_writer_fits(s, n)) {
		w->lost++;	/* not to be described, or too big */
		return evt_packet_writer_lose(s, &w->out, 1, err, err_size);
	}
	/* Its packets need the index that describes the event. */
	if (write_described(w, err, err_size))
		return -1;
	at = evt_packet_writer_reserve(s, &w->out, n, (uint32_t)local, e->timestamp,
				       e->cpu, err, err_size);
	if (!at)
		return -1;
	memcpy(at, e->payload, e->payload_size);
	w->events++;
	return 0;
}

int evt_live_record_flush(struct evt_live_record *w, bool final, char *err,
			  size_t err_size)
{
	unsigned i;

	if (final) {	/* the clock over the whole recording; not cut short */
		evt_clock_refine(&w->ix.clock);
		w->ix.complete = true;
		w->dirty = true;
	}
	if (write_described(w, err, err_size))
		return -1;
	for (i = 0; i < w->ns; i++)
		if (evt_packet_writer_flush(&w->s[i], &w->out, final, err, err_size))
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
	for (i = 0; i < w->ns; i++)
		evt_packet_writer_free(&w->s[i]);
	free(w->s);
	free(w->ids);
	evt_trace_index_free(&w->ix);
	evt_trace_dir_close(&w->out);
	free(w);
}
