/*
 * convert_chrome.c - convert --to chrome-json: the Trace Event format that
 * Perfetto UI, chrome://tracing and Speedscope open: a track per thread,
 * named comm-tid and grouped by process, each event an instant on it with
 * its message and fields as args, each loss a marker; spans as slices on
 * their thread's track, async spans on tracks of their own, counters on
 * their process's counter tracks.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "convert.h"
#include "key_map.h"
#include "span_kind.h"
#include "span_pairs.h"

struct chrome {
	FILE *f;
	struct key_map named;		/* pid << 32 | tid; a process as tid 0 */
	struct report_filter *filter;
	struct evt_span_pairs *pairs;
	bool started, any, out_of_memory;
	int64_t start_ns;
};

static void separator(struct chrome *c)
{
	fputs(c->any ? ",\n" : "\n", c->f);
	c->any = true;
}

static void metadata(struct chrome *c, const char *what, uint32_t pid,
		     uint32_t tid, const char *name)
{
	separator(c);
	fprintf(c->f, "{\"name\":\"%s\",\"ph\":\"M\",\"pid\":%" PRIu32
		",\"tid\":%" PRIu32 ",\"args\":{\"name\":", what, pid, tid);
	report_json_string(c->f, name, strlen(name));
	fputs("}}", c->f);
}

/* The metadata that names a process and a thread, once each. */
static int name_track(struct chrome *c, const struct evt_trace_item *it)
{
	char name[64];
	int fresh;

	if (!key_map_add(&c->named, (uint64_t)it->pid << 32, &fresh))
		return -1;
	if (fresh) {
		snprintf(name, sizeof(name), "%s (%u)", it->comm, it->pid);
		metadata(c, "process_name", it->pid, it->pid, name);
	}
	if (!key_map_add(&c->named, (uint64_t)it->pid << 32 | it->tid, &fresh))
		return -1;
	if (fresh) {
		snprintf(name, sizeof(name), "%s-%u", it->comm, it->tid);
		metadata(c, "thread_name", it->pid, it->tid, name);
	}
	return 0;
}

/* "key":US.FFF, a valid JSON number also for a time before the first
 * item's (a corrupt timestamp). */
static void put_us(FILE *f, const char *key, int64_t ns)
{
	uint64_t mag = ns < 0 ? -(uint64_t)ns : (uint64_t)ns;

	fprintf(f, "\"%s\":%s%" PRIu64 ".%03u", key, ns < 0 ? "-" : "",
		mag / 1000, (unsigned)(mag % 1000));
}

static void put_ts(FILE *f, int64_t ns)
{
	put_us(f, "ts", ns);
}

/* A counter's value on its process's counter track. */
static void counter(struct chrome *c, const struct evt_trace_item *it)
{
	struct evt_span_head h;
	const char *name = strchr(it->event->path, '/') + 1;
	char v[64];

	if (evt_span_head_read(&it->event->layout, it->payload, it->payload_size, &h))
		return;
	separator(c);
	fputs("{\"name\":", c->f);
	report_json_string(c->f, name, strlen(name));
	fputs(",\"cat\":\"counter\",\"ph\":\"C\",", c->f);
	put_ts(c->f, it->monotonic_ns - c->start_ns);
	if (h.real)	/* JSON has no NaN or infinity: null */
		snprintf(v, sizeof(v), h.real_value == h.real_value &&
			 h.real_value - h.real_value == 0 ? "%.17g" : "null",
			 h.real_value);
	else
		snprintf(v, sizeof(v), "%" PRId64, h.int_value);
	fprintf(c->f, ",\"pid\":%" PRIu32 ",\"tid\":%" PRIu32
		",\"args\":{\"value\":%s}}", it->pid, it->tid, v);
}

/* A span as a complete event (X), one that never ended as a begin (B),
 * an async span as a begin and maybe an end (b, e); an end without its
 * begin starts at the trace's start.  The state says which. */
static int slice(const struct evt_slice *s, void *ctx)
{
	struct chrome *c = ctx;
	const struct evt_slice_point *at = s->begin.seen ? &s->begin : &s->end;
	int64_t from = s->begin.seen ? s->begin.monotonic_ns - c->start_ns : 0;
	int pass, passes = s->async && s->end.seen ? 2 : 1;

	for (pass = 0; pass < passes; pass++) {
		const struct evt_slice_point *pt = pass ? &s->end : at;

		separator(c);
		fputs("{\"name\":", c->f);
		report_json_string(c->f, s->name, strlen(s->name));
		fprintf(c->f, ",\"cat\":\"%s\",\"ph\":\"%s\",",
			s->async ? "async" : "span",
			s->async ? (pass ? "e" : "b") : s->end.seen ? "X" : "B");
		put_ts(c->f, pass ? s->end.monotonic_ns - c->start_ns : from);
		if (!s->async && s->end.seen) {
			fputc(',', c->f);
			put_us(c->f, "dur", s->end.monotonic_ns - c->start_ns - from);
		}
		if (s->async)
			fprintf(c->f, ",\"id\":\"0x%" PRIx64 "\"", s->async_id);
		fprintf(c->f, ",\"pid\":%" PRIu32 ",\"tid\":%" PRIu32
			",\"args\":{\"state\":\"%s\"", pt->pid, pt->tid,
			evt_slice_state_name(s->state));
		if (s->args && !pass) {
			fputs(",\"message\":", c->f);
			report_json_string(c->f, s->args, strlen(s->args));
		}
		fputs("}}", c->f);
	}
	return 0;
}

static int add(const struct evt_trace_item *it, void *ctx)
{
	struct chrome *c = ctx;
	int64_t ns;
	size_t n;

	if (it->kind == EVT_ITEM_ERROR) {
		fprintf(stderr, "evtrace: convert: %s\n", it->message);
		return 0;
	}
	if (c->filter && !report_filter_wanted(c->filter, it))
		return 0;
	if (!c->started) {	/* times count from the first item kept */
		c->started = true;
		c->start_ns = it->monotonic_ns;
	}
	if (name_track(c, it))
		return c->out_of_memory = true, 1;
	ns = it->monotonic_ns - c->start_ns;
	if (it->kind == EVT_ITEM_EVENT && it->event->layout.kind == EVT_KIND_COUNTER) {
		counter(c, it);
		return 0;
	}
	if (evt_span_pairs_feed(c->pairs, it))
		return c->out_of_memory = true, 1;
	if (it->kind == EVT_ITEM_EVENT && evt_kind_is_span(it->event->layout.kind))
		return 0;	/* shown as slices */
	separator(c);
	fputs("{\"name\":", c->f);
	if (it->kind == EVT_ITEM_LOST) {
		fputs("\"lost events\",\"cat\":\"evtrace\",\"ph\":\"i\",\"s\":\"t\",", c->f);
		put_ts(c->f, ns);
		fprintf(c->f, ",\"pid\":%" PRIu32 ",\"tid\":%" PRIu32
			",\"args\":{\"lost\":%" PRIu64 ",\"sites\":", it->pid,
			it->tid, it->lost);
		report_json_loss_sites(c->f, it);
		fputs("}}", c->f);
		return 0;
	}
	report_json_string(c->f, it->event->path, strlen(it->event->path));
	n = strcspn(it->event->path, "/");
	fputs(",\"cat\":", c->f);
	report_json_string(c->f, it->event->path, n);
	fputs(",\"ph\":\"i\",\"s\":\"t\",", c->f);
	put_ts(c->f, ns);
	fprintf(c->f, ",\"pid\":%" PRIu32 ",\"tid\":%" PRIu32
		",\"args\":{\"cpu\":%u,\"message\":", it->pid, it->tid, it->cpu);
	n = it->text_len && it->text[it->text_len - 1] == '\n' ? it->text_len - 1 :
	    it->text_len;
	report_json_string(c->f, it->text, n);
	fputs(",\"fields\":", c->f);
	report_json_fields(c->f, it);
	fputs("}}", c->f);
	return 0;
}

int convert_chrome(FILE *f, const struct convert_input *in,
		   struct report_filter *filter, struct evt_trace_stats *st,
		   char *err, size_t err_size)
{
	struct chrome c = { .f = f, .filter = filter };
	int ret = -1;

	c.pairs = evt_span_pairs_new(slice, &c);
	if (!c.pairs) {
		snprintf(err, err_size, "out of memory");
		goto out;
	}
	fputs("{\"displayTimeUnit\":\"ns\",\"otherData\":{\"source\":\"evtrace\"},"
	      "\"traceEvents\":[", f);
	if (evt_trace_read_set(in->dirs, in->n, in->offsets_ns, add, &c, st, err,
			       err_size))
		goto out;
	if (evt_span_pairs_finish(c.pairs))
		c.out_of_memory = true;
	if (c.out_of_memory) {
		snprintf(err, err_size, "out of memory");
		goto out;
	}
	fputs("\n]}\n", f);
	ret = 0;
out:
	key_map_free(&c.named);
	evt_span_pairs_free(c.pairs);
	return ret;
}
