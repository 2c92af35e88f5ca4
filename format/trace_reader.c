/*
 * trace_reader.c - decode and merge the streams of a trace directory.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clock_map.h"
#include "layout.h"
#include "record.h"
#include "regular_file.h"
#include "shm_guard.h"
#include "span_kind.h"
#include "trace_reader.h"
#include "trace_names.h"

struct reader;

struct cursor {
	struct reader *r;		/* the trace it reads */
	char path[PATH_MAX];
	const uint8_t *data;
	size_t size;
	size_t pkt_off;			/* current packet */
	size_t pkt_content_end;
	size_t pkt_next;
	size_t pos;			/* next record */
	int in_packet;
	int done;
	struct evt_packet_header hdr;
	struct evt_hdr_state hs;	/* the packet's records so far */
	bool kernel;			/* the packet's records carry whose */
	int kernel_cpu;			/* the CPU of a kernel stream's file
					 * (stream_kernel_cpuN), or -1 */
	char comm[17];
	char task_comm[17];		/* a kernel record's task */
	uint64_t discarded;		/* last events_discarded seen */
	struct evt_trace_item item;	/* the pending item, if have */
	struct evt_loss_site sites[EVT_LOSS_SITES_MAX];	/* of a LOST item */
	int have;
	volatile int shrank;		/* the file was cut while mapped */
	char text[EVT_RENDER_MAX_BYTES];
	char message[PATH_MAX + 200];
};

/* One trace directory of those read. */
struct reader {
	struct evt_trace_index ix;
	struct evt_clock_map map;
	unsigned trace;			/* its number among them */
	bool merged;			/* one of several, merged on real time */
	int64_t offset_ns;		/* added to its real time */
	int64_t mono_shift;		/* real time less the first trace's
					 * CLOCK_MONOTONIC (merged) */
	struct evt_trace_stats *stats;
	void *printer;			/* kernel_printer's for this trace */
	bool no_text;			/* EVT_TRACE_NO_TEXT */
	bool no_realtime;		/* EVT_TRACE_NO_REALTIME */
	struct evt_clock_real real;	/* ix's clock to real time */
	unsigned index;			/* among the set's readers */
};

static const struct evt_kernel_printer_ops *kernel_printer;

void evt_trace_reader_kernel_printer(const struct evt_kernel_printer_ops *ops)
{
	kernel_printer = ops;
}

/* All the streams read, merged. */
struct merge {
	struct cursor *cursors;
	unsigned ncursors;
	bool by_realtime;
};

static void cursor_error(struct reader *r, struct cursor *c, size_t off,
			 const char *why)
{
	snprintf(c->message, sizeof(c->message), "%s: offset %zu: %s", c->path,
		 off, why);
	c->item = (struct evt_trace_item){ .kind = EVT_ITEM_ERROR,
					   .message = c->message,
					   .timestamp = c->hdr.timestamp_begin };
	c->have = 1;
	r->stats->errors++;
}

/* Adds a named part to the pending LOST item, merged with an entry of the
 * same site and cause.  -1 when the item has no room (a writer names a
 * few sites per packet). */
static int add_loss_site(struct cursor *c, const struct evt_event_desc *e,
			 uint8_t cause, uint64_t count)
{
	unsigned i;

	for (i = 0; i < c->item.nsites; i++)
		if (c->sites[i].event == e && c->sites[i].cause == cause) {
			c->sites[i].count += count;
			return 0;
		}
	if (i == EVT_LOSS_SITES_MAX)
		return -1;
	c->sites[i] = (struct evt_loss_site){ e, cause, count };
	c->item.nsites++;
	return 0;
}

/*
 * The evtrace/lost records at a packet's start name the sites of the loss
 * its header counts: taken into the pending LOST item.  Records that name
 * more than the header counts (or too many sites) are dropped with what
 * they named (the count stays the header's); records in a packet that counts no loss are an
 * error.
 */
static void take_lost_records(struct reader *r, struct cursor *c)
{
	uint64_t named = 0;
	bool bad = false;

	c->item.sites = c->sites;
	c->item.nsites = 0;
	while (c->pos < c->pkt_content_end) {
		size_t avail = c->pkt_content_end - c->pos;
		struct evt_hdr_state hs = c->hs;
		struct evt_lost_entry e;
		struct evt_record rec;

		if (evt_record_header(c->data + c->pos, avail, &hs, &rec) ||
		    rec.id != EVT_LOST_EVENT_ID || evt_record_lost(&rec, avail, &e))
			break;	/* decode_record() says what is wrong */
		if (!c->have) {
			cursor_error(r, c, c->pos, "evtrace/lost record in a "
				     "packet that counts no loss");
			c->pos += rec.header_bytes + rec.payload_size;
			c->hs = hs;
			return;
		}
		c->hs = hs;
		c->pos += rec.header_bytes + rec.payload_size;
		if (bad || e.count > c->item.lost - named) {
			bad = true;
			continue;
		}
		named += e.count;
		bad = add_loss_site(c, e.site == EVT_LOST_SITE_OTHER ? NULL :
				    evt_trace_index_event(&r->ix, c->hdr.stream_id,
							  e.site),
				    e.cause, e.count) != 0;
	}
	if (bad)
		c->item.nsites = 0;
}

/* Enters the packet at c->pkt_next.  Returns 0, 1 at end, -1 on error. */
static int enter_packet(struct reader *r, struct cursor *c)
{
	struct evt_packet_header *h = &c->hdr;
	const struct evt_stream_class *sc;
	size_t off = c->pkt_next, content, total;

	if (off == c->size)
		return 1;
	if (c->size - off < sizeof(*h)) {
		cursor_error(r, c, off, "truncated packet header");
		return -1;
	}
	memcpy(h, c->data + off, sizeof(*h));
	if (h->magic != EVT_PACKET_MAGIC) {
		cursor_error(r, c, off, "bad packet magic");
		return -1;
	}
	if (h->content_size % 8 || h->packet_size % 8 ||
	    h->content_size < sizeof(*h) * 8 || h->packet_size < h->content_size) {
		cursor_error(r, c, off, "bad packet sizes");
		return -1;
	}
	content = h->content_size / 8;
	total = h->packet_size / 8;
	if (total > c->size - off) {
		cursor_error(r, c, off, "packet runs past the end of the file (truncated)");
		return -1;
	}
	sc = evt_trace_index_stream(&r->ix, h->stream_id);
	if (!sc) {
		cursor_error(r, c, off, "stream id not in the trace index");
		return -1;
	}
	c->kernel = sc->kernel;
	c->pkt_off = off;
	c->pkt_content_end = off + content;
	c->pkt_next = off + total;
	c->pos = off + sizeof(*h);
	c->in_packet = 1;
	evt_hdr_reset(&c->hs);
	c->hs.legacy = r->ix.version == 1;
	c->hs.ctx_bytes = c->kernel ? sizeof(struct evt_kernel_context) : 0;
	memcpy(c->comm, h->comm, 16);
	c->comm[16] = '\0';
	if (h->events_discarded < c->discarded) {
		cursor_error(r, c, off, "events_discarded went backwards");
		c->discarded = h->events_discarded;
		return -1;
	}
	if (h->events_discarded > c->discarded) {
		c->item = (struct evt_trace_item){
			.kind = EVT_ITEM_LOST,
			.timestamp = h->timestamp_begin,
			.pid = h->pid, .tid = h->tid, .comm = c->comm,
			.lost = h->events_discarded - c->discarded,
			.kernel = c->kernel && c->kernel_cpu >= 0,
			.cpu = c->kernel && c->kernel_cpu >= 0 ? (uint16_t)c->kernel_cpu : 0,
		};
		r->stats->lost += c->item.lost;
		c->discarded = h->events_discarded;
		c->have = 1;
	}
	if (!c->kernel)
		take_lost_records(r, c);
	return 0;
}

/* The text of record rec of event e (a kernel one's task: tid); its
 * length, or -1 when the payload does not fit the format. */
static int render(const struct reader *r, const struct evt_event_desc *e,
		  const struct evt_record *rec, uint32_t tid, char *out,
		  size_t out_size)
{
	int len = -1;

	if (e->layout.kind == EVT_KIND_KERNEL && r->printer)
		len = kernel_printer->render(r->printer, e, rec->payload,
					     rec->payload_size, tid, rec->cpu,
					     out, out_size);
	if (len < 0)
		len = evt_record_render(rec, &e->layout, e->format, out, out_size);
	return len;
}

/* Decodes the record at c->pos into c->item.  0, or -1 on error. */
static int decode_record(struct reader *r, struct cursor *c)
{
	size_t avail = c->pkt_content_end - c->pos;
	const uint8_t *p = c->data + c->pos;
	const struct evt_event_desc *e;
	struct evt_kernel_context kc = { .pid = c->hdr.pid, .tid = c->hdr.tid };
	size_t ctx_bytes = c->kernel ? sizeof(kc) : 0;
	struct evt_record rec;
	int len;
	char why[128];

	if (evt_record_header(p, avail, &c->hs, &rec) ||
	    avail - rec.header_bytes < ctx_bytes) {
		cursor_error(r, c, c->pos, avail >= EVT_HDR_MAX_BYTES ?
			     "record header with no CPU record before it" :
			     "truncated record header");
		return -1;
	}
	if (rec.id == EVT_LOST_EVENT_ID && !c->kernel) {
		struct evt_lost_entry le;

		if (evt_record_lost(&rec, avail, &le)) {
			cursor_error(r, c, c->pos, "bad evtrace/lost record");
			return -1;
		}
		cursor_error(r, c, c->pos, "evtrace/lost record after a "
			     "packet's first event");
		c->pos += rec.header_bytes + rec.payload_size;
		return 0;
	}
	if (c->kernel) {
		memcpy(&kc, rec.payload, sizeof(kc));
		memcpy(c->task_comm, kc.comm, 16);
		c->task_comm[16] = '\0';
		rec.payload += sizeof(kc);
		avail -= sizeof(kc);	/* so that the payload starts after it */
	}
	e = evt_trace_index_event(&r->ix, c->hdr.stream_id, rec.id);
	if (!e) {
		snprintf(why, sizeof(why), "event id %u not in the metadata of stream %u",
			 rec.id, c->hdr.stream_id);
		cursor_error(r, c, c->pos, why);
		return -1;
	}
	if (evt_record_payload(&rec, &e->layout, avail)) {
		snprintf(why, sizeof(why), "record of %s runs past its packet",
			 e->path);
		cursor_error(r, c, c->pos, why);
		return -1;
	}
	len = 0;
	c->text[0] = '\0';
	/* (a span's text has its arguments, which pairing keeps) */
	if (!r->no_text || evt_kind_is_span(e->layout.kind))
		len = render(r, e, &rec, kc.tid, c->text, sizeof(c->text));
	if (len < 0) {
		cursor_error(r, c, c->pos, "arguments do not fit the format");
		return -1;
	}
	c->item = (struct evt_trace_item){
		.kind = EVT_ITEM_EVENT, .timestamp = rec.timestamp,
		.pid = kc.pid, .tid = kc.tid,
		.comm = c->kernel ? c->task_comm : c->comm,
		.cpu = rec.cpu, .event = e, .payload = rec.payload,
		.payload_size = rec.payload_size,
		.text = r->no_text && !evt_kind_is_span(e->layout.kind) ? NULL :
			c->text,
		.text_len = (size_t)len,
		.reader = r->index,
	};
	c->pos += rec.header_bytes + ctx_bytes + rec.payload_size;
	r->stats->events++;
	c->have = 1;
	return 0;
}

/* Makes c->item the stream's next item, or sets done. */
static void advance(struct reader *r, struct cursor *c)
{
	c->have = 0;
	while (!c->have && !c->done) {
		if (c->shrank) {	/* it reads as zeroes since */
			cursor_error(r, c, c->pos, "the file shrank while it was read");
			c->done = 1;
			break;
		}
		if (c->in_packet && c->pos < c->pkt_content_end) {
			if (decode_record(r, c))
				c->pos = c->pkt_content_end;	/* next packet */
			continue;
		}
		c->in_packet = 0;
		switch (enter_packet(r, c)) {
		case 1:
			c->done = 1;
			break;
		case -1:
			c->done = 1;	/* no way to find the next packet */
			break;
		}
	}
	if (c->have && r->merged) {
		/* (128 bits, clamped: clock.h; offsets come from --align) */
		c->item.realtime_ns = evt_clock_ns_clamp(
			(__int128)evt_clock_map_realtime(&r->map, c->item.timestamp) +
			r->offset_ns);
		c->item.monotonic_ns = evt_clock_ns_clamp((__int128)c->item.realtime_ns -
							  r->mono_shift);
	} else if (c->have) {
		c->item.monotonic_ns = evt_clock_to_monotonic_ns(&r->ix.clock,
								 c->item.timestamp);
		c->item.realtime_ns = r->no_realtime ? 0 :
				      evt_clock_real_ns(&r->real, c->item.timestamp);
	}
	c->item.trace = r->trace;
}

static int open_cursor(struct merge *m, struct reader *r, const char *dir,
		       const char *name)
{
	struct cursor *c = &m->cursors[m->ncursors];
	char err[PATH_MAX + 100];
	int fd;

	memset(c, 0, sizeof(*c));
	c->r = r;
	c->kernel_cpu = -1;
	if (!strncmp(name, EVT_TRACE_KERNEL_PREFIX "cpu", strlen(EVT_TRACE_KERNEL_PREFIX "cpu"))) {
		const char *n = name + strlen(EVT_TRACE_KERNEL_PREFIX "cpu");
		char *end;
		unsigned long cpu = strtoul(n, &end, 10);

		if (end != n && !*end && cpu <= UINT16_MAX)
			c->kernel_cpu = (int)cpu;
	}
	snprintf(c->path, sizeof(c->path), "%s/%s", dir, name);
	fd = evt_open_regular(c->path, &c->size, err, sizeof(err));
	if (fd < 0) {
		fprintf(stderr, "evtrace: %s; skipped\n", err);
		return -1;
	}
	if (c->size) {
		c->data = mmap(NULL, c->size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (c->data == MAP_FAILED ||
		    evt_shm_guard_add((void *)c->data, c->size, &c->shrank, NULL)) {
			fprintf(stderr, "evtrace: %s: %s\n", c->path, strerror(errno));
			if (c->data != MAP_FAILED)
				munmap((void *)c->data, c->size);
			close(fd);
			return -1;
		}
	}
	close(fd);
	m->ncursors++;
	r->stats->streams++;
	advance(r, c);
	return 0;
}

/*
 * The merge: a binary heap of the cursors that have an item, earliest
 * first (on the trace clock, or for several traces on real time), ties to
 * the cursor that comes first by trace and file name.
 */
static bool earlier(const struct merge *r, unsigned a, unsigned b)
{
	if (r->by_realtime) {
		int64_t ra = r->cursors[a].item.realtime_ns;
		int64_t rb = r->cursors[b].item.realtime_ns;

		return ra < rb || (ra == rb && a < b);
	}
	uint64_t ta = r->cursors[a].item.timestamp, tb = r->cursors[b].item.timestamp;

	return ta < tb || (ta == tb && a < b);
}

static void heap_down(const struct merge *r, unsigned *heap, unsigned n,
		      unsigned i)
{
	for (;;) {
		unsigned l = 2 * i + 1, m = i, t;

		if (l < n && earlier(r, heap[l], heap[m]))
			m = l;
		if (l + 1 < n && earlier(r, heap[l + 1], heap[m]))
			m = l + 1;
		if (m == i)
			return;
		t = heap[i];
		heap[i] = heap[m];
		heap[m] = t;
		i = m;
	}
}

static void heap_push(const struct merge *r, unsigned *heap, unsigned *n,
		      unsigned cursor)
{
	unsigned i = (*n)++;

	heap[i] = cursor;
	while (i && earlier(r, heap[i], heap[(i - 1) / 2])) {
		unsigned p = (i - 1) / 2, t = heap[i];

		heap[i] = heap[p];
		heap[p] = t;
		i = p;
	}
}

static int is_stream_file(const struct dirent *d)
{
	return !strncmp(d->d_name, EVT_TRACE_STREAM_PREFIX,
			sizeof(EVT_TRACE_STREAM_PREFIX) - 1);
}

/* Opens trace dir as r: its index and clock map, and its stream files
 * in names (*n of them).  0, or -1 with err set. */
static int open_reader(struct reader *r, const char *dir, struct dirent ***names,
		       int *n, char *err, size_t err_size)
{
	char msg[300];
	struct stat st;
	int i;

	*names = NULL;
	*n = 0;
	if (stat(dir, &st))
		return snprintf(err, err_size, errno == ENOENT ? "%s: no such trace "
				"directory" : "%s: %s", dir, strerror(errno)), -1;
	if (!S_ISDIR(st.st_mode))
		return snprintf(err, err_size, "%s: not a directory (a trace is "
				"the directory record writes)", dir), -1;
	if (evt_trace_index_read_dir(dir, &r->ix, err, err_size))
		return -1;
	evt_clock_real_init(&r->ix.clock, &r->real);
	if (kernel_printer)
		r->printer = kernel_printer->open(&r->ix);
	if (evt_clock_map_init(&r->map, &r->ix, msg, sizeof(msg)))
		return snprintf(err, err_size, "out of memory"), -1;
	if (msg[0] && r->merged)
		fprintf(stderr, "evtrace: %s: %s\n", dir, msg);
	r->stats->complete &= r->ix.complete;
	for (i = 0; i < (int)r->ix.nstreams; i++)
		if (!r->ix.streams[i].kernel && !r->stats->processes++)
			r->stats->first_pid = r->ix.streams[i].pid;
	*n = scandir(dir, names, is_stream_file, alphasort);
	if (*n < 0) {
		*n = 0;
		return snprintf(err, err_size, "%s: %s", dir, strerror(errno)), -1;
	}
	return 0;
}

/* DIR/keep, the trace of a recording's pinned sites (record --keep),
 * which is read with DIR: in path when there is one. */
static bool keep_of(const char *dir, char *path, size_t size)
{
	char index[PATH_MAX + 32];
	struct stat st;

	snprintf(path, size, "%s/" EVT_TRACE_KEEP, dir);
	snprintf(index, sizeof(index), "%s/" EVT_TRACE_INDEX_PATH, path);
	return lstat(index, &st) == 0 && S_ISREG(st.st_mode);
}

/* Traces open for one walk (trace_reader.h). */
struct evt_trace_set {
	struct merge m;
	char (*keeps)[PATH_MAX];	/* the given traces' keep/ ones */
	const char **dirs;		/* the given traces and their keep/ */
	unsigned *of;			/* which given trace each one is of */
	unsigned ndirs;
	struct reader *readers;
	struct dirent ***names;
	int *nnames;
	struct evt_trace_stats *stats;
};

void evt_trace_set_close(struct evt_trace_set *s)
{
	unsigned k, d;
	int i;

	if (!s)
		return;
	for (k = 0; k < s->m.ncursors; k++)
		if (s->m.cursors[k].size) {
			evt_shm_guard_remove((void *)s->m.cursors[k].data);
			munmap((void *)s->m.cursors[k].data, s->m.cursors[k].size);
		}
	free(s->m.cursors);
	for (d = 0; s->readers && d < s->ndirs; d++)
		if (s->readers[d].printer)
			kernel_printer->close(s->readers[d].printer);
	for (d = 0; s->readers && s->names && s->nnames && d < s->ndirs; d++) {
		for (i = 0; i < s->nnames[d]; i++)
			free(s->names[d][i]);
		free(s->names[d]);
		evt_trace_index_free(&s->readers[d].ix);
		evt_clock_map_free(&s->readers[d].map);
	}
	free(s->readers);
	free(s->names);
	free(s->nnames);
	free(s->dirs);
	free(s->of);
	free(s->keeps);
	free(s);
}

int evt_trace_set_open(const char *const *given, unsigned ngiven,
		       const int64_t *offsets_ns, unsigned flags,
		       struct evt_trace_stats *stats, struct evt_trace_set **out,
		       char *err, size_t err_size)
{
	struct evt_trace_set *s = calloc(1, sizeof(*s));
	unsigned d, total = 0, n = 2 * ngiven + 1;
	int i;

	*out = NULL;
	memset(stats, 0, sizeof(*stats));
	stats->complete = true;
	if (s) {
		s->stats = stats;
		s->keeps = calloc(ngiven ? ngiven : 1, sizeof(*s->keeps));
		s->dirs = calloc(n, sizeof(*s->dirs));
		s->of = calloc(n, sizeof(*s->of));
		s->readers = calloc(n, sizeof(*s->readers));
		s->names = calloc(n, sizeof(*s->names));
		s->nnames = calloc(n, sizeof(*s->nnames));
	}
	if (!s || !s->keeps || !s->dirs || !s->of || !s->readers || !s->names ||
	    !s->nnames) {
		snprintf(err, err_size, "out of memory");
		goto fail;
	}
	for (d = 0; d < ngiven; d++) {
		s->of[s->ndirs] = d;
		s->dirs[s->ndirs++] = given[d];
		if (keep_of(given[d], s->keeps[d], sizeof(s->keeps[d]))) {
			s->of[s->ndirs] = d;
			s->dirs[s->ndirs++] = s->keeps[d];
		}
	}
	s->m.by_realtime = s->ndirs > 1;
	for (d = 0; d < s->ndirs; d++) {
		struct reader *r = &s->readers[d];

		r->trace = s->of[d];
		r->index = d;
		r->no_text = flags & EVT_TRACE_NO_TEXT;
		r->no_realtime = flags & EVT_TRACE_NO_REALTIME;
		r->merged = s->ndirs > 1 || offsets_ns;
		r->offset_ns = offsets_ns ? offsets_ns[s->of[d]] : 0;
		r->stats = stats;
		if (open_reader(r, s->dirs[d], &s->names[d], &s->nnames[d], err,
				err_size))
			goto fail;
		total += (unsigned)s->nnames[d];
		/* One timeline on the first trace's CLOCK_MONOTONIC, through
		 * real time. */
		r->mono_shift = evt_clock_ns_clamp((__int128)s->readers[0].ix.clock.ref_realtime_ns -
						   s->readers[0].ix.clock.ref_monotonic_ns);
	}
	s->m.cursors = calloc(total ? total : 1, sizeof(*s->m.cursors));
	if (!s->m.cursors) {
		snprintf(err, err_size, "out of memory");
		goto fail;
	}
	for (d = 0; d < s->ndirs; d++)
		for (i = 0; i < s->nnames[d]; i++)
			open_cursor(&s->m, &s->readers[d], s->dirs[d],
				    s->names[d][i]->d_name);
	*out = s;
	return 0;
fail:
	evt_trace_set_close(s);
	return -1;
}

int evt_trace_set_walk(struct evt_trace_set *s, evt_trace_item_cb cb, void *ctx)
{
	struct merge *m = &s->m;
	unsigned *heap = malloc((m->ncursors ? m->ncursors : 1) * sizeof(*heap));
	unsigned nheap = 0, k;

	if (!heap)
		return -1;
	for (k = 0; k < m->ncursors; k++)
		if (m->cursors[k].have)
			heap_push(m, heap, &nheap, k);
	while (nheap) {
		struct cursor *best = &m->cursors[heap[0]];

		if (cb(&best->item, ctx))
			break;
		advance(best->r, best);
		if (best->have)
			heap_down(m, heap, nheap, 0);
		else {
			heap[0] = heap[--nheap];
			heap_down(m, heap, nheap, 0);
		}
	}
	free(heap);
	return 0;
}

int evt_trace_set_render(const struct evt_trace_set *s, unsigned reader,
			 const struct evt_event_desc *e, const uint8_t *payload,
			 size_t payload_size, uint32_t tid, uint16_t cpu,
			 char *out, size_t out_size)
{
	struct evt_record rec = {
		.id = (uint16_t)e->id, .cpu = cpu, .payload = payload,
		.payload_size = payload_size,
	};

	if (reader >= s->ndirs)
		return -1;
	return render(&s->readers[reader], e, &rec, tid, out, out_size);
}

int evt_trace_read_set(const char *const *given, unsigned ngiven,
		       const int64_t *offsets_ns, evt_trace_item_cb cb, void *ctx,
		       struct evt_trace_stats *stats, char *err, size_t err_size)
{
	struct evt_trace_set *s;
	int ret;

	if (evt_trace_set_open(given, ngiven, offsets_ns, 0, stats, &s, err,
			       err_size))
		return -1;
	ret = evt_trace_set_walk(s, cb, ctx);
	if (ret)
		snprintf(err, err_size, "out of memory");
	evt_trace_set_close(s);
	return ret;
}

int evt_trace_read(const char *dir, evt_trace_item_cb cb, void *ctx,
		   struct evt_trace_stats *stats, char *err, size_t err_size)
{
	return evt_trace_read_set(&dir, 1, NULL, cb, ctx, stats, err, err_size);
}
