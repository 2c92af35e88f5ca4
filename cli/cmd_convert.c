/*
 * cmd_convert.c - evtrace convert: a trace in another tool's format.  For
 * now chrome-json, the Trace Event format that Perfetto UI,
 * chrome://tracing and Speedscope open: a track per thread, named
 * comm-tid and grouped by process, each event an instant on it with its
 * message and fields as args, each loss a marker; spans as slices on
 * their thread's track, async spans on tracks of their own, counters on
 * their process's counter tracks.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "report_output.h"
#include "span_kind.h"
#include "span_pairs.h"

/* Threads and processes named so far: open addressing on pid:tid, a
 * process as tid 0. */
struct named {
	uint64_t *keys;		/* key + 1; 0 is free */
	size_t n, cap;
};

/* Whether key was new (then it is added); -1 when out of memory. */
static int first_time(struct named *s, uint64_t key)
{
	size_t i;

	if ((s->n + 1) * 2 > s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 64, j;
		uint64_t *t = calloc(cap, sizeof(*t));

		if (!t)
			return -1;
		for (j = 0; j < s->cap; j++) {
			if (!s->keys[j])
				continue;
			for (i = (s->keys[j] * 0x9e3779b97f4a7c15ULL) >> 40 & (cap - 1);
			     t[i]; i = (i + 1) & (cap - 1))
				;
			t[i] = s->keys[j];
		}
		free(s->keys);
		s->keys = t;
		s->cap = cap;
	}
	for (i = ((key + 1) * 0x9e3779b97f4a7c15ULL) >> 40 & (s->cap - 1); s->keys[i];
	     i = (i + 1) & (s->cap - 1))
		if (s->keys[i] == key + 1)
			return 0;
	s->keys[i] = key + 1;
	s->n++;
	return 1;
}

struct chrome {
	FILE *f;
	struct named named;
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
	int fresh = first_time(&c->named, (uint64_t)it->pid << 32);

	if (fresh < 0)
		return -1;
	if (fresh) {
		snprintf(name, sizeof(name), "%s (%u)", it->comm, it->pid);
		metadata(c, "process_name", it->pid, it->pid, name);
	}
	fresh = first_time(&c->named, (uint64_t)it->pid << 32 | it->tid);
	if (fresh < 0)
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
	if (!c->started) {
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
			",\"args\":{\"lost\":%" PRIu64 "}}", it->pid, it->tid, it->lost);
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

int cmd_convert(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "to", required_argument, NULL, 't' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct chrome c = { 0 };
	struct evt_trace_stats st;
	const char *dir = "trace", *out = NULL, *to = NULL;
	char err[PATH_MAX + 300];
	bool whole = false;	/* FILE written to its end */
	struct stat st_out;
	int opt, ret = 1;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "t:o:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 't':
			to = optarg;
			break;
		case 'o':
			out = optarg;
			break;
		case 'h':
			return cli_help("convert");
		default:
			return cli_usage("convert");
		}
	}
	if (!to) {
		cli_error("convert", "--to FORMAT is needed (chrome-json)");
		return cli_usage("convert");
	}
	if (strcmp(to, "chrome-json"))
		return cli_error("convert", "--to %s: not a format evtrace converts "
				 "to (chrome-json)", to);
	if (argc - optind > 1) {
		cli_error("convert", "one trace directory expected, not %d",
			  argc - optind);
		return cli_usage("convert");
	}
	if (optind < argc)
		dir = argv[optind];
	c.f = out && strcmp(out, "-") ? fopen(out, "we") : stdout;
	if (!c.f)
		return cli_error("convert", "%s: %s", out, strerror(errno));
	c.pairs = evt_span_pairs_new(slice, &c);
	if (!c.pairs) {
		cli_error("convert", "out of memory");
		goto out;
	}
	fputs("{\"displayTimeUnit\":\"ns\",\"otherData\":{\"source\":\"evtrace\"},"
	      "\"traceEvents\":[", c.f);
	if (evt_trace_read(dir, add, &c, &st, err, sizeof(err))) {
		cli_error("convert", "%s", err);
		goto out;
	}
	if (evt_span_pairs_finish(c.pairs))
		c.out_of_memory = true;
	if (c.out_of_memory) {
		cli_error("convert", "out of memory");
		goto out;
	}
	fputs("\n]}\n", c.f);
	if (fflush(c.f) || ferror(c.f)) {
		cli_error("convert", "%s: %s", out ? out : "standard output",
			  strerror(errno));
		goto out;
	}
	whole = true;
	fprintf(stderr, "evtrace: convert: %" PRIu64 " event%s, %" PRIu64
		" lost, %u stream%s%s%s\n", st.events, cli_plural(st.events), st.lost,
		st.streams, cli_plural(st.streams), out ? " into " : "", out ? out : "");
	ret = st.errors ? 1 : 0;
out:
	if (c.f && c.f != stdout && fclose(c.f) && !ret)
		ret = cli_error("convert", "%s: %s", out, strerror(errno));
	free(c.named.keys);
	evt_span_pairs_free(c.pairs);
	/* No half file left looking whole; never a device or a FIFO. */
	if (!whole && out && strcmp(out, "-") && c.f && !stat(out, &st_out) &&
	    S_ISREG(st_out.st_mode))
		unlink(out);
	return ret;
}
