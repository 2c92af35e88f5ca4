/*
 * kernel_record.c - kernel tracepoints written as CTF streams of a trace,
 * one per CPU (see kernel_record.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "kernel_record.h"
#include "kernel_sampler.h"
#include "layout.h"
#include "packet_writer.h"
#include "record.h"
#include "report.h"
#include "trace_names.h"

struct evt_kernel_record {
	struct evt_kernel_sampler *sampler;
	bool owns_sampler;
	struct evt_packet_writer *streams;	/* one per ring */
	unsigned nstreams;
	uint8_t *payload;		/* room for the largest payload */
	size_t payload_cap;
	const struct evt_trace_dir *out;	/* during a drain */
	char *err;
	size_t err_size;
	bool described;
	uint64_t events, lost;
	evt_kernel_seen_cb seen;
	void *seen_ctx;
};

static int count_lost(struct evt_kernel_record *k, unsigned ring, uint64_t n)
{
	k->lost += n;
	return evt_packet_writer_lose(&k->streams[ring], k->out, n, k->err,
				      k->err_size);
}

/* The sink's: a sample into its CPU's packet. */
static int add_sample(void *ctx, const struct evt_kernel_sample *ks)
{
	struct evt_kernel_record *k = ctx;
	struct evt_packet_writer *s = &k->streams[ks->ring];
	const struct evt_kernel_event *e = evt_kernel_sampler_event(k->sampler,
								     ks->event);
	size_t max = evt_kernel_payload_max(e, ks->raw_size), n;
	struct evt_kernel_context kc = { .pid = ks->pid, .tid = ks->tid };
	uint8_t *at;
	long got;

	if (max > k->payload_cap) {
		uint8_t *grown = realloc(k->payload, max);

		if (!grown)
			return count_lost(k, ks->ring, 1);
		k->payload = grown;
		k->payload_cap = max;
	}
	got = evt_kernel_payload(e, ks->raw, ks->raw_size, k->payload);
	if (got < 0)
		return count_lost(k, ks->ring, 1);	/* not what its format said */
	n = sizeof(kc) + (size_t)got;
	if (!evt_packet_writer_fits(s, n))
		return count_lost(k, ks->ring, 1);
	at = evt_packet_writer_reserve(s, k->out, n, ks->event, ks->time, ks->cpu,
				       k->err, k->err_size);
	if (!at)
		return -1;
	snprintf(kc.comm, sizeof(kc.comm), "%s", ks->comm);
	memcpy(at, &kc, sizeof(kc));
	memcpy(at + sizeof(kc), k->payload, (size_t)got);
	k->events++;
	if (k->seen)
		k->seen(k->seen_ctx, ks->event, ks->monotonic_ns, ks->pid, ks->tid,
			k->payload, (size_t)got);
	return 0;
}

void evt_kernel_record_watch(struct evt_kernel_record *k, evt_kernel_seen_cb cb,
			     void *ctx)
{
	k->seen = cb;
	k->seen_ctx = ctx;
}

/* The sink's: a loss, after the records before it. */
static int add_lost(void *ctx, unsigned ring, uint64_t n, uint64_t time,
		    int64_t monotonic_ns)
{
	(void)time;
	(void)monotonic_ns;
	return count_lost(ctx, ring, n);
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

void evt_kernel_record_relay(struct evt_kernel_record *k, struct evt_relay *r)
{
	unsigned i;

	for (i = 0; i < k->nstreams; i++)
		k->streams[i].relay = r;
}

int evt_kernel_record_flush(struct evt_kernel_record *k, bool final)
{
	unsigned i;

	for (i = 0; i < k->nstreams; i++) {
		if (evt_packet_writer_flush(&k->streams[i], k->out, final, k->err,
					    k->err_size))
			return -1;
		if (final && k->streams[i].relay)
			evt_relay_out_end(k->streams[i].relay,
					  &k->streams[i].relay_out);
	}
	return 0;
}

int evt_kernel_record_write_open(struct evt_kernel_record *k)
{
	unsigned i;

	for (i = 0; i < k->nstreams; i++)
		if (k->streams[i].nrecords &&
		    evt_packet_writer_flush(&k->streams[i], k->out, true, k->err,
					    k->err_size))
			return -1;
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

int evt_kernel_record_process(struct evt_kernel_record *k, pid_t pid,
			      char *err, size_t err_size)
{
	return evt_kernel_sampler_process(k->sampler, pid, err, err_size);
}

int evt_kernel_record_all_cpus(struct evt_kernel_record *k, char *err,
			       size_t err_size)
{
	return evt_kernel_sampler_all_cpus(k->sampler, err, err_size);
}

int evt_kernel_record_create(const char *const *patterns, unsigned npatterns,
			     const char *const *usdt_files, unsigned nusdt_files,
			     const struct evt_clock_calibration *clock,
			     uint32_t packet_size, uint32_t ring_kib,
			     unsigned memory_bytes, struct evt_kernel_record **out,
			     char *err, size_t err_size)
{
	struct evt_kernel_sampler *sampler;
	char why[512];

	*out = NULL;
	if (evt_kernel_sampler_create_probes(patterns, npatterns, usdt_files,
					     nusdt_files, clock, ring_kib, &sampler,
					     err, err_size))
		return -1;
	if (!sampler)
		return 0;
	if (memory_bytes &&
	    evt_kernel_sampler_capture(sampler, memory_bytes, why, sizeof(why)) < 0)
		evt_report("kernel/syscalls/: the memory their arguments point to "
			   "is not recorded, only its addresses (%s)", why);
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
	k->nstreams = evt_kernel_sampler_nrings(sampler);
	k->streams = calloc(k->nstreams, sizeof(*k->streams));
	for (i = 0; k->streams && i < k->nstreams; i++)
		k->streams[i].fd = -1;	/* each free()able from here */
	for (i = 0; k->streams && i < k->nstreams; i++) {
		char name[64];

		if (evt_kernel_sampler_ring_cpu(sampler, i) < 0)
			snprintf(name, sizeof(name), EVT_TRACE_KERNEL_PREFIX "syscalls");
		else
			snprintf(name, sizeof(name), EVT_TRACE_KERNEL_PREFIX "cpu%d",
				 evt_kernel_sampler_ring_cpu(sampler, i));
		if (evt_packet_writer_init(&k->streams[i], name, EVT_KERNEL_STREAM_ID,
					   packet_size, sizeof(struct evt_kernel_context)))
			break;
		snprintf(k->streams[i].comm, sizeof(k->streams[i].comm), "kernel");
	}
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
	struct utsname u;
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
		/* How the kernel prints it, for report, query and trace. */
		e->kernel_format = ke->tracefs_format ? strdup(ke->tracefs_format) : NULL;
		if (!e->path || !e->format || (ke->tracefs_format && !e->kernel_format) ||
		    evt_event_layout_load(&e->layout, EVT_KIND_KERNEL, e->format,
					  NULL, 0, why, sizeof(why))) {
			free(e->path);
			free(e->format);
			free(e->kernel_format);
			return -1;
		}
		ix->nevents++;
	}
	sc = &ix->streams[ix->nstreams++];
	memset(sc, 0, sizeof(*sc));
	sc->sid = EVT_KERNEL_STREAM_ID;
	sc->kernel = true;
	/* Which kernel, for readers that interpret its fields by release
	 * (a task state's bits) or machine (system call numbers). */
	if (uname(&u) == 0) {
		snprintf(ix->kernel_release, sizeof(ix->kernel_release), "%s", u.release);
		snprintf(ix->kernel_machine, sizeof(ix->kernel_machine), "%s", u.machine);
	}
	snprintf(sc->comm, sizeof(sc->comm), "kernel");
	k->described = true;
	return 1;
}

void evt_kernel_record_stats(const struct evt_kernel_record *k,
			     struct evt_kernel_record_stats *s)
{
	unsigned i;

	*s = (struct evt_kernel_record_stats){ 0 };
	if (!k)
		return;
	s->events = k->events;
	s->lost = k->lost;
	for (i = 0; i < k->nstreams; i++) {
		s->packets += k->streams[i].packets;
		s->bytes += k->streams[i].bytes;
	}
}

void evt_kernel_record_destroy(struct evt_kernel_record *k)
{
	unsigned i;

	if (!k)
		return;
	for (i = 0; k->streams && i < k->nstreams; i++)
		evt_packet_writer_free(&k->streams[i]);
	free(k->streams);
	free(k->payload);
	if (k->owns_sampler)
		evt_kernel_sampler_destroy(k->sampler);
	free(k);
}
