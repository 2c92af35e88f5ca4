/*
 * trace_index.c - write and read <trace>/evtrace/index (see trace_index.h).
 * The reader trusts nothing: every line is checked, errors name the line.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "layout.h"
#include "quote.h"
#include "regular_file.h"
#include "trace_index.h"
#include "trace_names.h"

int evt_trace_index_add_snapshot(struct evt_trace_index *ix,
				 const struct evt_clock_snapshot *s)
{
	/* Room doubles at each power of two (a hostile index has them by
	 * the ten thousand: one more each time was quadratic). */
	if (!(ix->nsnapshots & (ix->nsnapshots - 1)) || ix->nsnapshots < 16) {
		uint32_t cap = ix->nsnapshots < 16 ? 16 : 2 * ix->nsnapshots;
		struct evt_clock_snapshot *grown;

		if (ix->nsnapshots >= 16 || !ix->snapshots) {
			grown = realloc(ix->snapshots, (size_t)cap * sizeof(*grown));
			if (!grown)
				return -1;
			ix->snapshots = grown;
		}
	}
	ix->snapshots[ix->nsnapshots++] = *s;
	return 0;
}

int evt_trace_index_write_part(FILE *f, const struct evt_trace_index *ix,
			       bool head, const struct evt_index_marks *from)
{
	static const struct evt_index_marks all;
	uint32_t i, j, version = EVT_TRACE_INDEX_VERSION;

	if (!from)
		from = &all;
	if (ix->container_pidns)
		version = EVT_TRACE_INDEX_CONTAINER_VERSION;
	for (i = 0; i < ix->nevents; i++)
		if (ix->events[i].kernel_format)
			version = EVT_TRACE_INDEX_KERNEL_FORMAT_VERSION;
	bool kernel_line;

	if (ix->version > version)
		version = ix->version;
	/* (a minor of 6: said only by a trace of kernel events) */
	kernel_line = ix->kernel_release[0] &&
		      version == EVT_TRACE_INDEX_KERNEL_FORMAT_VERSION;
	if (head) {
		fprintf(f, "evtrace-index %u", version);
		if (kernel_line)
			fprintf(f, ".%u", EVT_TRACE_INDEX_KERNEL_MINOR);
		fprintf(f, "\nclock %u %" PRIu64 " %" PRIu64 " %" PRId64
			" %" PRId64 "\n",
			ix->clock.kind, ix->clock.freq_hz,
			ix->clock.ref_value, ix->clock.ref_monotonic_ns,
			ix->clock.ref_realtime_ns);
		if (ix->host[0]) {
			fputs("host ", f);
			evt_quote(f, ix->host);
			fputc(' ', f);
			evt_quote(f, ix->boot_id);
			fputc('\n', f);
		}
		if (kernel_line) {
			fputs("kernel ", f);
			evt_quote(f, ix->kernel_release);
			fputc(' ', f);
			evt_quote(f, ix->kernel_machine);
			fputc('\n', f);
		}
		if (ix->container_pidns) {
			fprintf(f, "container %" PRIu64 " ", ix->container_pidns);
			evt_quote(f, ix->container_cgroup);
			fputc('\n', f);
		}
	}
	for (i = from->snapshots; i < ix->nsnapshots; i++)
		fprintf(f, "clock-snapshot %" PRIu64 " %" PRId64 " %" PRId64 "\n",
			ix->snapshots[i].value, ix->snapshots[i].monotonic_ns,
			ix->snapshots[i].realtime_ns);
	for (i = from->streams; i < ix->nstreams; i++) {
		if (ix->streams[i].kernel) {
			fprintf(f, "kernel-stream %u\n", ix->streams[i].sid);
			continue;
		}
		fprintf(f, "stream %u %u ", ix->streams[i].sid, ix->streams[i].pid);
		evt_quote(f, ix->streams[i].comm);
		fputc('\n', f);
		if (ix->streams[i].host_pid)
			fprintf(f, "host-pid %u %u\n", ix->streams[i].sid,
				ix->streams[i].host_pid);
	}
	for (i = from->events; i < ix->nevents; i++) {
		const struct evt_event_desc *e = &ix->events[i];

		fprintf(f, "event %u %u %u ", e->sid, e->id, e->layout.kind);
		for (j = 0; j < e->layout.nargs; j++)
			fprintf(f, "%s%u", j ? "," : "", e->layout.types[j]);
		fputs(e->layout.nargs ? " " : "- ", f);
		evt_quote(f, e->path);
		fputc(' ', f);
		evt_quote(f, e->format);
		fputc('\n', f);
		if (e->func) {
			fprintf(f, "function %u %u ", e->sid, e->id);
			evt_quote(f, e->func);
			fputc('\n', f);
		}
		if (e->kernel_format) {
			fprintf(f, "kernel-format %u %u ", e->sid, e->id);
			evt_quote(f, e->kernel_format);
			fputc('\n', f);
		}
	}
	if (ix->complete)
		fputs("complete\n", f);
	return ferror(f) ? -1 : 0;
}

int evt_trace_index_write(FILE *f, const struct evt_trace_index *ix)
{
	return evt_trace_index_write_part(f, ix, true, NULL);
}

void evt_trace_index_free(struct evt_trace_index *ix)
{
	uint32_t i;

	for (i = 0; i < ix->nevents; i++) {
		free(ix->events[i].path);
		free(ix->events[i].format);
		free(ix->events[i].func);
		free(ix->events[i].kernel_format);
		evt_event_layout_free(&ix->events[i].layout);
	}
	free(ix->events);
	free(ix->streams);
	free(ix->snapshots);
	memset(ix, 0, sizeof(*ix));
}

static int parse_types(const char **p, uint8_t *types, unsigned *nargs)
{
	const char *s = *p;

	if (*s == '-') {
		*p = s + 1;
		return 0;
	}
	for (;;) {
		char *end;
		unsigned long v = strtoul(s, &end, 10);

		if (end == s || v == 0 || v > EVT_ARG_TYPE_MAX ||
		    *nargs >= EVT_PRINTK_MAX_ARGS)
			return -1;
		types[(*nargs)++] = (uint8_t)v;
		s = end;
		if (*s != ',')
			break;
		s++;
	}
	*p = s;
	return 0;
}

static int add_event(struct evt_trace_index *ix, unsigned lineno, const char *line,
		     char *why, size_t why_size)
{
	struct evt_event_desc e = { 0 };
	char path[1100], format[70000], err[300];
	uint8_t types[EVT_PRINTK_MAX_ARGS];
	unsigned sid, id, kind, nargs = 0;
	const char *p;
	int n = 0;
	void *grown;

	if (sscanf(line, "event %u %u %u %n", &sid, &id, &kind, &n) != 3 || !n)
		return snprintf(why, why_size, "malformed event line"), -1;
	p = line + n;
	if (parse_types(&p, types, &nargs) || *p++ != ' ')
		return snprintf(why, why_size, "bad argument types"), -1;
	if (evt_unquote(&p, path, sizeof(path)) || *p++ != ' ' ||
	    evt_unquote(&p, format, sizeof(format)) || *p)
		return snprintf(why, why_size, "bad quoted path or format"), -1;
	if (evt_event_layout_load(&e.layout, kind, format, types, nargs, err,
				  sizeof(err)))
		return snprintf(why, why_size, "%s", err), -1;
	e.sid = sid;
	e.id = id;
	e.line = lineno;
	e.path = strdup(path);
	e.format = strdup(format);
	/* Room doubles at each power of two: one realloc per doubling. */
	grown = ix->events;
	if (ix->nevents < 16 ? ix->nevents == 0 : !(ix->nevents & (ix->nevents - 1)))
		grown = realloc(ix->events, (ix->nevents < 16 ? 16 : 2 * (size_t)ix->nevents) *
				sizeof(e));
	if (!e.path || !e.format || !grown) {
		free(e.path);
		free(e.format);
		evt_event_layout_free(&e.layout);
		if (grown)
			ix->events = grown;
		return snprintf(why, why_size, "out of memory"), -1;
	}
	ix->events = grown;
	ix->events[ix->nevents++] = e;
	return 0;
}

/* A function line: its event is the one on the line before. */
static int add_function(struct evt_trace_index *ix, const char *line,
			char *why, size_t why_size)
{
	struct evt_event_desc *e = ix->nevents ? &ix->events[ix->nevents - 1] : NULL;
	char func[1100];
	unsigned sid, id;
	const char *p;
	int n = 0;

	if (sscanf(line, "function %u %u %n", &sid, &id, &n) != 2 || !n)
		return snprintf(why, why_size, "malformed function line"), -1;
	p = line + n;
	if (evt_unquote(&p, func, sizeof(func)) || *p)
		return snprintf(why, why_size, "bad quoted function"), -1;
	if (!e || e->sid != sid || e->id != id || e->func)
		return snprintf(why, why_size, "a function line not after its event's"), -1;
	e->func = strdup(func);
	if (!e->func)
		return snprintf(why, why_size, "out of memory"), -1;
	return 0;
}

/* A kernel-format line: its event is the one on the line before (or
 * before its function line). */
static int add_kernel_format(struct evt_trace_index *ix, const char *line,
			     size_t len, char *why, size_t why_size)
{
	struct evt_event_desc *e = ix->nevents ? &ix->events[ix->nevents - 1] : NULL;
	unsigned sid, id;
	const char *p;
	char *text;
	int n = 0;

	if (sscanf(line, "kernel-format %u %u %n", &sid, &id, &n) != 2 || !n)
		return snprintf(why, why_size, "malformed kernel-format line"), -1;
	if (!e || e->sid != sid || e->id != id || e->kernel_format ||
	    e->layout.kind != EVT_KIND_KERNEL)
		return snprintf(why, why_size, "a kernel-format line not after "
				"its kernel event's"), -1;
	if (!(text = malloc(len + 1)))
		return snprintf(why, why_size, "out of memory"), -1;
	p = line + n;
	if (evt_unquote(&p, text, len + 1) || *p) {
		free(text);
		return snprintf(why, why_size, "bad quoted kernel format"), -1;
	}
	e->kernel_format = text;
	return 0;
}

static int add_stream(struct evt_trace_index *ix, const char *line,
		      char *why, size_t why_size)
{
	struct evt_stream_class sc = { 0 };
	const char *p;
	void *grown;
	int n = 0;

	if (!strncmp(line, "kernel-stream ", 14)) {
		if (sscanf(line, "kernel-stream %u%n", &sc.sid, &n) != 1 ||
		    line[n])
			return snprintf(why, why_size, "malformed kernel-stream line"), -1;
		sc.kernel = true;
		snprintf(sc.comm, sizeof(sc.comm), "kernel");
	} else {
		if (sscanf(line, "stream %u %u %n", &sc.sid, &sc.pid, &n) != 2 || !n)
			return snprintf(why, why_size, "malformed stream line"), -1;
		p = line + n;
		if (evt_unquote(&p, sc.comm, sizeof(sc.comm)) || *p)
			return snprintf(why, why_size, "bad quoted comm"), -1;
	}
	grown = realloc(ix->streams, (ix->nstreams + 1) * sizeof(sc));
	if (!grown)
		return snprintf(why, why_size, "out of memory"), -1;
	ix->streams = grown;
	ix->streams[ix->nstreams++] = sc;
	return 0;
}

/* "host-pid SID PID": of a stream class already read. */
static int add_host_pid(struct evt_trace_index *ix, const char *line,
			char *why, size_t why_size)
{
	unsigned sid, pid;
	uint32_t i;
	int n = -1;

	if (sscanf(line, "host-pid %u %u%n", &sid, &pid, &n) != 2 || n < 0 ||
	    line[n] || !pid)
		return snprintf(why, why_size, "malformed host-pid line"), -1;
	for (i = ix->nstreams; i-- > 0;)
		if (ix->streams[i].sid == sid && !ix->streams[i].kernel) {
			ix->streams[i].host_pid = pid;
			return 0;
		}
	return snprintf(why, why_size, "host-pid of stream %u, not described "
			"before", sid), -1;
}

static int cmp_stream(const void *a, const void *b)
{
	const struct evt_stream_class *x = a, *y = b;

	return x->sid < y->sid ? -1 : x->sid > y->sid;
}

static int cmp_event(const void *a, const void *b)
{
	const struct evt_event_desc *x = a, *y = b;

	if (x->sid != y->sid)
		return x->sid < y->sid ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

/* host "<name>" "<boot id>" */
static int read_host(struct evt_trace_index *ix, const char *p, char *why,
		     size_t why_size)
{
	if (evt_unquote(&p, ix->host, sizeof(ix->host)) || *p != ' ')
		return snprintf(why, why_size, "bad host line"), -1;
	p++;
	if (evt_unquote(&p, ix->boot_id, sizeof(ix->boot_id)) || *p)
		return snprintf(why, why_size, "bad host line"), -1;
	return 0;
}

/* kernel "<release>" "<machine>" */
static int read_kernel(struct evt_trace_index *ix, const char *p, char *why,
		       size_t why_size)
{
	if (evt_unquote(&p, ix->kernel_release, sizeof(ix->kernel_release)) ||
	    *p != ' ')
		return snprintf(why, why_size, "bad kernel line"), -1;
	p++;
	if (evt_unquote(&p, ix->kernel_machine, sizeof(ix->kernel_machine)) || *p)
		return snprintf(why, why_size, "bad kernel line"), -1;
	return 0;
}

/* A decimal number without sign or leading zero, at most 9 digits, at
 * *p, moved past it.  0, or -1. */
static int number(const char **p, unsigned *out)
{
	size_t n = strspn(*p, "0123456789");

	if (!n || n > 9 || (n > 1 && **p == '0'))
		return -1;
	*out = (unsigned)strtoul(*p, NULL, 10);
	*p += n;
	return 0;
}

/* The first line: "evtrace-index MAJOR" or "evtrace-index MAJOR.MINOR",
 * MAJOR at least 1.  0, or -1. */
static int index_version(const char *line, unsigned *major, unsigned *minor)
{
	const char *p = line + 14;

	*minor = 0;
	if (strncmp(line, "evtrace-index ", 14) || number(&p, major) || !*major)
		return -1;
	if (*p == '.' && (p++, number(&p, minor)))
		return -1;
	return *p ? -1 : 0;
}

/* Reads an index from f, named file in messages; closes f. */
static int read_index(FILE *f, const char *file, struct evt_trace_index *ix,
		      char *err, size_t err_size)
{
	char *line = NULL, why[256] = "";
	size_t cap = 0;
	ssize_t len;
	unsigned lineno = 0;
	int ret = -1, have_clock = 0;
	bool later_minor = false;
	uint32_t i;

	memset(ix, 0, sizeof(*ix));
	while ((len = getline(&line, &cap, f)) >= 0) {
		lineno++;
		if (len > 0 && line[len - 1] == '\n')
			line[--len] = '\0';
		if ((size_t)len != strlen(line)) {
			snprintf(why, sizeof(why), "NUL byte");
			goto out_bad;
		}
		if (lineno == 1) {
			unsigned major = 0, minor = 0;

			/* "evtrace-index MAJOR[.MINOR]": a later minor's index
			 * may hold lines this reader does not know, which it
			 * skips (doc/versions.md). */
			if (index_version(line, &major, &minor) ||
			    major > EVT_TRACE_INDEX_MAJOR_MAX) {
				if (major > EVT_TRACE_INDEX_MAJOR_MAX)
					snprintf(why, sizeof(why), "%s: written by an evtrace "
						 "later than this one (%s, which reads "
						 "evtrace-index 1 to %u): read it with a "
						 "later evtrace", line, EVT_RELEASE,
						 EVT_TRACE_INDEX_MAJOR_MAX);
				else
					snprintf(why, sizeof(why), "not an evtrace-index 1 "
						 "to %u file", EVT_TRACE_INDEX_MAJOR_MAX);
				goto out_bad;
			}
			ix->version = major;
			later_minor = major == EVT_TRACE_INDEX_MAJOR_MAX &&
				      minor > EVT_TRACE_INDEX_MINOR;
		} else if (!strncmp(line, "clock ", 6)) {
			struct evt_clock_calibration *c = &ix->clock;

			if (sscanf(line, "clock %u %" SCNu64 " %" SCNu64 " %" SCNd64
				   " %" SCNd64, &c->kind, &c->freq_hz, &c->ref_value,
				   &c->ref_monotonic_ns, &c->ref_realtime_ns) != 5 ||
			    c->freq_hz == 0 ||
			    (c->kind != EVT_CLOCK_TSC && c->kind != EVT_CLOCK_MONOTONIC)) {
				snprintf(why, sizeof(why), "bad clock line");
				goto out_bad;
			}
			if (!evt_clock_calibration_sane(c)) {
				snprintf(why, sizeof(why), "clock line out of range (a rate "
					 "from 1 kHz to 100 GHz, times within 146 years)");
				goto out_bad;
			}
			have_clock = 1;
		} else if (!strncmp(line, "stream ", 7) ||
			   !strncmp(line, "kernel-stream ", 14)) {
			if (add_stream(ix, line, why, sizeof(why)))
				goto out_bad;
		} else if (!strncmp(line, "event ", 6)) {
			if (add_event(ix, lineno, line, why, sizeof(why)))
				goto out_bad;
		} else if (!strcmp(line, "complete")) {
			ix->complete = true;
		} else if (!strncmp(line, "host ", 5)) {
			if (read_host(ix, line + 5, why, sizeof(why)))
				goto out_bad;
		} else if (!strncmp(line, "kernel ", 7)) {
			if (read_kernel(ix, line + 7, why, sizeof(why)))
				goto out_bad;
		} else if (!strncmp(line, "clock-snapshot ", 15)) {
			struct evt_clock_snapshot cs;
			int n = -1;

			if (sscanf(line, "clock-snapshot %" SCNu64 " %" SCNd64 " %" SCNd64 "%n",
				   &cs.value, &cs.monotonic_ns, &cs.realtime_ns, &n) != 3 ||
			    n < 0 || line[n]) {
				snprintf(why, sizeof(why), "bad clock-snapshot line");
				goto out_bad;
			}
			if (!evt_clock_ns_sane(cs.monotonic_ns) ||
			    !evt_clock_ns_sane(cs.realtime_ns) || cs.value > EVT_CLOCK_NS_MAX) {
				snprintf(why, sizeof(why), "clock-snapshot line out of range "
					 "(times within 146 years)");
				goto out_bad;
			}
			if (evt_trace_index_add_snapshot(ix, &cs)) {
				snprintf(why, sizeof(why), "out of memory");
				goto out_bad;
			}
		} else if (!strncmp(line, "function ", 9)) {
			if (add_function(ix, line, why, sizeof(why)))
				goto out_bad;
		} else if (!strncmp(line, "kernel-format ", 14)) {
			/* (in a growing index before its head says 6) */
			if (add_kernel_format(ix, line, (size_t)len, why, sizeof(why)))
				goto out_bad;
		} else if (ix->version >= 5 && !strncmp(line, "container ", 10)) {
			const char *p;
			int n = -1;

			if (sscanf(line, "container %" SCNu64 " %n", &ix->container_pidns,
				   &n) != 1 || n < 0 || !ix->container_pidns ||
			    (p = line + n, evt_unquote(&p, ix->container_cgroup,
						       sizeof(ix->container_cgroup))) || *p) {
				snprintf(why, sizeof(why), "bad container line");
				goto out_bad;
			}
		} else if (ix->version >= 5 && !strncmp(line, "host-pid ", 9)) {
			if (add_host_pid(ix, line, why, sizeof(why)))
				goto out_bad;
		} else if (line[0] && !later_minor) {
			snprintf(why, sizeof(why), "unknown line");
			goto out_bad;
		}
	}
	if (!have_clock) {
		snprintf(err, err_size, "%s: no clock line", file);
		goto out;
	}
	if (ix->nstreams)	/* (NULL and 0 are not for qsort) */
		qsort(ix->streams, ix->nstreams, sizeof(*ix->streams), cmp_stream);
	for (i = 1; i < ix->nstreams; i++)
		if (ix->streams[i - 1].sid == ix->streams[i].sid) {
			snprintf(err, err_size, "%s: stream %u twice", file,
				 ix->streams[i].sid);
			goto out;
		}
	/* Sorted, twice the same event are neighbours: n log n, where a
	 * search per line made 100,000 events take seconds. */
	if (ix->nevents)
		qsort(ix->events, ix->nevents, sizeof(*ix->events), cmp_event);
	for (i = 1; i < ix->nevents; i++) {
		const struct evt_event_desc *a = &ix->events[i - 1], *b = &ix->events[i];

		if (a->sid == b->sid && a->id == b->id) {
			lineno = a->line > b->line ? a->line : b->line;
			snprintf(why, sizeof(why), "event %u of stream %u twice",
				 b->id, b->sid);
			goto out_bad;
		}
	}
	for (i = 0; i < ix->nevents; i++) {
		const struct evt_event_desc *e = &ix->events[i];
		const struct evt_stream_class *sc = evt_trace_index_stream(ix, e->sid);

		if (sc && sc->kernel != (e->layout.kind == EVT_KIND_KERNEL)) {
			lineno = e->line;
			snprintf(why, sizeof(why), "%s event in a %s stream class",
				 e->layout.kind == EVT_KIND_KERNEL ? "a kernel" :
				 "a process's", sc->kernel ? "kernel" : "process");
			goto out_bad;
		}
	}
	ret = 0;
	goto out;
out_bad:
	snprintf(err, err_size, "%s:%u: %s", file, lineno, why);
out:
	if (ret)
		evt_trace_index_free(ix);
	free(line);
	fclose(f);
	return ret;
}

int evt_trace_index_read(const char *file, struct evt_trace_index *ix,
			 char *err, size_t err_size)
{
	size_t size;
	int fd = evt_open_regular(file, &size, err, err_size);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "r");

	memset(ix, 0, sizeof(*ix));
	if (!f) {
		if (fd >= 0) {
			snprintf(err, err_size, "%s: %s", file, strerror(errno));
			close(fd);
		}
		return -1;
	}
	return read_index(f, file, ix, err, err_size);
}

#define METADATA_MAX (256u << 20)

int evt_trace_index_read_metadata(const char *file, struct evt_trace_index *ix,
				  char *err, size_t err_size)
{
	static const char open_tag[] = "/* " EVT_INDEX_COMMENT "\n";
	size_t size, got = 0, text_len = 0;
	char *meta = NULL, *text = NULL, *p, *end;
	int fd = evt_open_regular(file, &size, err, err_size);
	FILE *f;

	memset(ix, 0, sizeof(*ix));
	if (fd < 0)
		return -1;
	if (size > METADATA_MAX || !(meta = malloc(size + 1)) ||
	    !(text = malloc(size + 1))) {
		snprintf(err, err_size, "%s: %s", file, size > METADATA_MAX ?
			 "too large" : "out of memory");
		goto fail;
	}
	while (got < size) {
		ssize_t n = read(fd, meta + got, size - got);

		if (n <= 0) {
			snprintf(err, err_size, "%s: %s", file,
				 n ? strerror(errno) : "shorter than it was");
			goto fail;
		}
		got += (size_t)n;
	}
	meta[size] = '\0';
	/* Each comment's lines, in order: the index in parts. */
	for (p = meta; (p = strstr(p, open_tag)); p = end + 2) {
		p += sizeof(open_tag) - 1;
		if (!(end = strstr(p, "*/"))) {
			snprintf(err, err_size, "%s: an index comment without its end",
				 file);
			goto fail;
		}
		memcpy(text + text_len, p, (size_t)(end - p));
		text_len += (size_t)(end - p);
	}
	if (!text_len) {
		snprintf(err, err_size, "%s: not an evtrace trace's metadata", file);
		goto fail;
	}
	close(fd);
	free(meta);
	if (!(f = fmemopen(text, text_len, "r"))) {
		snprintf(err, err_size, "out of memory");
		free(text);
		return -1;
	}
	{
		int ret = read_index(f, file, ix, err, err_size);

		free(text);
		return ret;
	}
fail:
	close(fd);
	free(meta);
	free(text);
	return -1;
}

const struct evt_stream_class *evt_trace_index_stream(const struct evt_trace_index *ix,
						      uint32_t sid)
{
	const struct evt_stream_class key = { .sid = sid };

	return ix->nstreams ? bsearch(&key, ix->streams, ix->nstreams, sizeof(key),
				      cmp_stream) : NULL;
}

const struct evt_event_desc *evt_trace_index_event(const struct evt_trace_index *ix,
						   uint32_t sid, uint32_t id)
{
	size_t lo = 0, hi = ix->nevents;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		const struct evt_event_desc *e = &ix->events[mid];

		if (e->sid == sid && e->id == id)
			return e;
		if (e->sid < sid || (e->sid == sid && e->id < id))
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

int evt_trace_index_read_dir(const char *dir, struct evt_trace_index *ix,
			     char *err, size_t err_size)
{
	char index[PATH_MAX];

	snprintf(index, sizeof(index), "%s/" EVT_TRACE_INDEX_PATH, dir);
	if (access(index, F_OK) && errno == ENOENT) {
		/* A relay's copy has only the metadata, the index in it. */
		snprintf(index, sizeof(index), "%s/metadata", dir);
		if (access(index, F_OK) && errno == ENOENT)
			return snprintf(err, err_size, "%s: not an evtrace trace "
					"(no evtrace/index in it)", dir), -1;
		return evt_trace_index_read_metadata(index, ix, err, err_size);
	}
	return evt_trace_index_read(index, ix, err, err_size);
}
