/*
 * kernel_record.c - kernel tracepoints written as CTF streams of a trace,
 * one per CPU (see kernel_record.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kernel_record.h"
#include "kernel_sampler.h"
#include "layout.h"
#include "record.h"

#define PACKET_MAX_AGE_MS 1000	/* a packet is written out by then */

struct cpu_stream {
	int out_fd;		/* its stream file, once it has a packet */
	uint8_t *pkt;		/* the packet being filled */
	size_t used;		/* bytes of it, header included */
	uint64_t first_ts;	/* of the packet being filled */
	uint64_t last_ts;
	int64_t opened_ms;
	uint64_t seq;
	uint64_t lost;		/* what the ring lost so far */
	uint64_t lost_written;	/* in the header of the last packet out */
	uint64_t nrecords;	/* in the packet being filled */
	uint64_t events;	/* records in packets written */
};

struct evt_kernel_record {
	struct evt_kernel_sampler *sampler;
	bool owns_sampler;
	struct cpu_stream *streams;	/* one per ring */
	unsigned nstreams;
	uint32_t packet_size;
	uint8_t *payload;		/* room for the largest payload */
	size_t payload_cap;
	const struct evt_trace_dir *out;	/* during a drain */
	char *err;
	size_t err_size;
	bool described;
	struct evt_kernel_record_stats stats;
};

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int write_all(int fd, const uint8_t *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Writes the packet being filled, or, when it is empty and events were
 * lost since the last one, a packet that only says so. */
static int flush_packet(struct evt_kernel_record *k, unsigned ring)
{
	struct cpu_stream *s = &k->streams[ring];
	struct evt_packet_header h = {
		.magic = EVT_PACKET_MAGIC, .stream_id = EVT_KERNEL_STREAM_ID,
		.packet_seq_num = s->seq, .events_discarded = s->lost,
		.first_event = s->events,
		.content_size = (uint64_t)s->used * 8,
		.packet_size = (uint64_t)s->used * 8,
	};
	char name[64];

	if (!s->nrecords && s->lost == s->lost_written)
		return 0;
	snprintf(name, sizeof(name), "stream_kernel_cpu%d",
		 evt_kernel_sampler_ring_cpu(k->sampler, ring));
	if (s->out_fd < 0) {
		s->out_fd = evt_trace_dir_create(k->out, 0, name, k->err, k->err_size);
		if (s->out_fd < 0)
			return -1;
	}
	h.timestamp_begin = s->nrecords ? s->first_ts : s->last_ts;
	h.timestamp_end = s->last_ts;
	snprintf(h.comm, sizeof(h.comm), "kernel");
	memcpy(s->pkt, &h, sizeof(h));
	if (write_all(s->out_fd, s->pkt, s->used)) {
		evt_trace_dir_error(k->out, 0, name, errno, k->err, k->err_size);
		return -1;
	}
	k->stats.packets++;
	k->stats.bytes += s->used;
	s->events += s->nrecords;
	s->seq++;
	s->lost_written = s->lost;
	s->used = sizeof(h);
	s->nrecords = 0;
	return 0;
}

static int count_lost(struct evt_kernel_record *k, struct cpu_stream *s,
		      uint64_t n)
{
	s->lost += n;
	k->stats.lost += n;
	return 0;
}

/* The sink's: a sample into its CPU's packet. */
static int add_sample(void *ctx, const struct evt_kernel_sample *ks)
{
	struct evt_kernel_record *k = ctx;
	struct cpu_stream *s = &k->streams[ks->ring];
	const struct evt_kernel_event *e = evt_kernel_sampler_event(k->sampler,
								     ks->event);
	size_t max = evt_kernel_payload_max(e, ks->raw_size), n;
	struct evt_kernel_context kc = { .pid = ks->pid, .tid = ks->tid };
	uint16_t id = (uint16_t)ks->event, cpu = (uint16_t)ks->cpu;
	long got;

	if (max > k->payload_cap) {
		uint8_t *grown = realloc(k->payload, max);

		if (!grown)
			return count_lost(k, s, 1);
		k->payload = grown;
		k->payload_cap = max;
	}
	got = evt_kernel_payload(e, ks->raw, ks->raw_size, k->payload);
	if (got < 0)
		return count_lost(k, s, 1);	/* not what its format said */
	n = EVT_RECORD_HEADER_BYTES + sizeof(kc) + (size_t)got;
	if (sizeof(struct evt_packet_header) + n > k->packet_size)
		return count_lost(k, s, 1);	/* no packet holds it */
	if (s->used + n > k->packet_size && flush_packet(k, ks->ring))
		return -1;
	snprintf(kc.comm, sizeof(kc.comm), "%s", ks->comm);
	if (!s->nrecords) {
		s->first_ts = ks->time;
		s->opened_ms = now_ms();
	}
	s->last_ts = ks->time;
	memcpy(s->pkt + s->used, &id, 2);
	memcpy(s->pkt + s->used + 2, &ks->time, 8);
	memcpy(s->pkt + s->used + 10, &cpu, 2);
	memcpy(s->pkt + s->used + 12, &kc, sizeof(kc));
	memcpy(s->pkt + s->used + 12 + sizeof(kc), k->payload, (size_t)got);
	s->used += n;
	s->nrecords++;
	k->stats.events++;
	return 0;
}

/* The sink's: a loss, after the records before it, which go out first so
 * that it is counted where it happened. */
static int add_lost(void *ctx, unsigned ring, uint64_t n, uint64_t time,
		    int64_t monotonic_ns)
{
	(void)time;
	(void)monotonic_ns;
	struct evt_kernel_record *k = ctx;

	if (k->streams[ring].nrecords && flush_packet(k, ring))
		return -1;
	return count_lost(k, &k->streams[ring], n);
}

void evt_kernel_record_sink(struct evt_kernel_record *k,
			    const struct evt_trace_dir *out, char *err,
			    size_t err_size, struct evt_kernel_sink *sink)
{
	k->out = out;
	k->err = err;
	k->err_size = err_size;
	*sink = (struct evt_kernel_sink){ add_sample, add_lost, k };
}

int evt_kernel_record_flush(struct evt_kernel_record *k, bool final)
{
	int64_t now = now_ms();
	unsigned i;

	for (i = 0; i < k->nstreams; i++) {
		struct cpu_stream *s = &k->streams[i];

		if ((final || (s->nrecords && now - s->opened_ms >= PACKET_MAX_AGE_MS)) &&
		    flush_packet(k, i))
			return -1;
	}
	return 0;
}

long evt_kernel_record_drain(struct evt_kernel_record *k,
			     const struct evt_trace_dir *out, bool final,
			     char *err, size_t err_size)
{
	struct evt_kernel_sink sink;
	long n;

	evt_kernel_record_sink(k, out, err, err_size, &sink);
	n = evt_kernel_sampler_drain(k->sampler, final, &sink, err, err_size);
	if (n < 0 || evt_kernel_record_flush(k, final))
		return -1;
	return n;
}

int evt_kernel_record_task(struct evt_kernel_record *k, pid_t tid,
			   bool on_exec, char *err, size_t err_size)
{
	return evt_kernel_sampler_task(k->sampler, tid, on_exec, err, err_size);
}

int evt_kernel_record_all_cpus(struct evt_kernel_record *k, char *err,
			       size_t err_size)
{
	return evt_kernel_sampler_all_cpus(k->sampler, err, err_size);
}

int evt_kernel_record_create(const char *const *patterns, unsigned npatterns,
			     const struct evt_clock_calibration *clock,
			     uint32_t packet_size, uint32_t ring_kib,
			     struct evt_kernel_record **out, char *err,
			     size_t err_size)
{
	struct evt_kernel_sampler *sampler;

	*out = NULL;
	if (evt_kernel_sampler_create(patterns, npatterns, clock, ring_kib,
				      &sampler, err, err_size))
		return -1;
	if (!sampler)
		return 0;
	if (evt_kernel_record_on(sampler, packet_size, out, err, err_size)) {
		evt_kernel_sampler_destroy(sampler);
		return -1;
	}
	(*out)->owns_sampler = true;
	return 0;
}

int evt_kernel_record_on(struct evt_kernel_sampler *sampler,
			 uint32_t packet_size, struct evt_kernel_record **out,
			 char *err, size_t err_size)
{
	struct evt_kernel_record *k = calloc(1, sizeof(*k));
	unsigned i;

	*out = NULL;
	if (!k)
		return snprintf(err, err_size, "out of memory"), -1;
	k->sampler = sampler;
	k->packet_size = packet_size;
	k->nstreams = evt_kernel_sampler_nrings(sampler);
	k->streams = calloc(k->nstreams, sizeof(*k->streams));
	for (i = 0; k->streams && i < k->nstreams; i++) {
		k->streams[i].out_fd = -1;
		k->streams[i].used = sizeof(struct evt_packet_header);
	}
	for (i = 0; k->streams && i < k->nstreams; i++)
		if (!(k->streams[i].pkt = malloc(packet_size)))
			break;
	if (!k->streams || i < k->nstreams) {
		evt_kernel_record_destroy(k);
		return snprintf(err, err_size, "out of memory"), -1;
	}
	*out = k;
	return 0;
}

int evt_kernel_record_describe(struct evt_kernel_record *k,
			       struct evt_trace_index *ix)
{
	unsigned i, nev = evt_kernel_sampler_nevents(k->sampler);
	struct evt_stream_class *sc;
	struct evt_event_desc *grown;
	char why[300];

	if (k->described)
		return 0;
	sc = realloc(ix->streams, (ix->nstreams + 1) * sizeof(*sc));
	if (!sc)
		return -1;
	ix->streams = sc;
	grown = realloc(ix->events, (ix->nevents + nev) * sizeof(*grown));
	if (!grown)
		return -1;
	ix->events = grown;
	for (i = 0; i < nev; i++) {
		const struct evt_kernel_event *ke = evt_kernel_sampler_event(k->sampler, i);
		struct evt_event_desc *e = &ix->events[ix->nevents];

		memset(e, 0, sizeof(*e));
		e->sid = EVT_KERNEL_STREAM_ID;
		e->id = i;
		e->path = strdup(ke->path);
		e->format = evt_event_format_text(&ke->format);
		if (!e->path || !e->format ||
		    evt_event_layout_load(&e->layout, EVT_KIND_KERNEL, e->format,
					  NULL, 0, why, sizeof(why))) {
			free(e->path);
			free(e->format);
			return -1;
		}
		ix->nevents++;
	}
	sc = &ix->streams[ix->nstreams++];
	memset(sc, 0, sizeof(*sc));
	sc->sid = EVT_KERNEL_STREAM_ID;
	sc->kernel = true;
	snprintf(sc->comm, sizeof(sc->comm), "kernel");
	k->described = true;
	return 1;
}

void evt_kernel_record_stats(const struct evt_kernel_record *k,
			     struct evt_kernel_record_stats *s)
{
	*s = k ? k->stats : (struct evt_kernel_record_stats){ 0 };
}

void evt_kernel_record_destroy(struct evt_kernel_record *k)
{
	unsigned i;

	if (!k)
		return;
	for (i = 0; k->streams && i < k->nstreams; i++) {
		if (k->streams[i].out_fd >= 0)
			close(k->streams[i].out_fd);
		free(k->streams[i].pkt);
	}
	free(k->streams);
	free(k->payload);
	if (k->owns_sampler)
		evt_kernel_sampler_destroy(k->sampler);
	free(k);
}
