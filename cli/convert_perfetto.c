/*
 * convert_perfetto.c - convert --to perfetto: Perfetto's native trace, a
 * Trace message of TracePackets (protobuf), written from the field
 * numbers of its published schema (perfetto/trace/trace_packet.proto and
 * the track_event/ protos; tests/data/perfetto_trace.proto is the part
 * used here, for protoc --decode).
 *
 * Each thread's packets are a sequence of their own, as Perfetto's SDK
 * writes a sequence per writer thread: its first packet clears the
 * sequence's incremental state and sets its defaults (the thread's track,
 * and a clock of the sequence's own whose timestamps are deltas from the
 * last); a clock snapshot then maps that clock to CLOCK_MONOTONIC.  A
 * packet earlier than the sequence's last (a slice, written when it
 * closes) names CLOCK_MONOTONIC itself.  Sequence 1 holds what is not a
 * thread's: the kernel's release and machine (system info), the trace's
 * clock snapshot (CLOCK_MONOTONIC, beside CLOCK_REALTIME and BOOTTIME),
 * the track descriptors and, last, the trace's stats, which list every
 * thread's sequence.  Kernel events are ftrace events in a bundle per
 * CPU, on sequence 2 (perfetto_ftrace.h).  Tracks: one per process, one per thread
 * under it, one per counter name under its process, one per async span,
 * one for each thread's lost events.  Events are instants on their
 * thread's track, named by their path, with interned names, categories
 * (the path's first part), source locations of printk sites (file, line
 * and, in traces that keep it, function) and field
 * names; a printk's message is an annotation, a typed event's fields are
 * typed ones, a kernel event's both (see instant()).
 * Spans are slices from span_pairs.c, named by interned names and
 * categories too, their arguments typed annotations with interned names,
 * written when they close (the trace
 * processor orders packets by time): begin and end when paired, a begin
 * alone when still open at the end; one whose end is unknown (no_end) or
 * whose begin is missing (no_begin) is an instant, so that no slice
 * stands where nothing says it was.  A loss is a slice on the thread's
 * lost-events track from its previous item to the notice, and data loss
 * on its sequence: the slice's packet says the previous packets were
 * dropped, which makes the importer count it in its stats and drop the
 * sequence's incremental state, so that packet clears and sets it again.
 * A packet that refers to interned data says it needs the sequence's
 * incremental state (doc/perfetto.md lists the rules kept).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "convert.h"
#include "key_map.h"
#include "lost_record.h"
#include "perfetto_ftrace.h"
#include "protobuf.h"
#include "record_fields.h"
#include "report_output.h"
#include "span_kind.h"
#include "span_pairs.h"
#include "trace_index.h"

/* Field numbers (perfetto.protos). */
enum {
	TRACE_PACKET = 1,
	/* TracePacket */
	TP_CLOCK_SNAPSHOT = 6, TP_TIMESTAMP = 8, TP_SEQUENCE_ID = 10,
	TP_TRACK_EVENT = 11, TP_INTERNED_DATA = 12, TP_SEQUENCE_FLAGS = 13,
	TP_TRACE_STATS = 35, TP_PREVIOUS_PACKET_DROPPED = 42, TP_SYSTEM_INFO = 45,
	/* SystemInfo, Utsname */
	SI_UTSNAME = 1, UTS_SYSNAME = 1, UTS_RELEASE = 3, UTS_MACHINE = 4,
	TP_TIMESTAMP_CLOCK_ID = 58, TP_DEFAULTS = 59, TP_TRACK_DESCRIPTOR = 60,
	/* TracePacketDefaults, TrackEventDefaults */
	DEF_TIMESTAMP_CLOCK_ID = 58, DEF_TRACK_EVENT = 11, DEF_TRACK_UUID = 11,
	/* TraceStats, TraceStats.WriterStats */
	TS_WRITER_STATS = 18, WS_SEQUENCE_ID = 1, WS_BUFFER = 4,
	/* ClockSnapshot, Clock */
	CS_CLOCKS = 1, CS_PRIMARY_TRACE_CLOCK = 2, CLOCK_ID = 1, CLOCK_TIMESTAMP = 2,
	CLOCK_IS_INCREMENTAL = 3,
	/* TrackDescriptor, ProcessDescriptor, ThreadDescriptor */
	TD_UUID = 1, TD_NAME = 2, TD_PROCESS = 3, TD_THREAD = 4, TD_PARENT_UUID = 5,
	TD_COUNTER = 8,
	PD_PID = 1, PD_PROCESS_NAME = 6,
	THD_PID = 1, THD_TID = 2, THD_THREAD_NAME = 5,
	/* TrackEvent */
	TE_CATEGORY_IIDS = 3, TE_DEBUG_ANNOTATIONS = 4, TE_TYPE = 9, TE_NAME_IID = 10,
	TE_TRACK_UUID = 11, TE_CATEGORIES = 22, TE_NAME = 23, TE_COUNTER_VALUE = 30,
	TE_SOURCE_LOCATION_IID = 34, TE_DOUBLE_COUNTER_VALUE = 44,
	/* DebugAnnotation */
	DA_NAME_IID = 1, DA_BOOL = 2, DA_UINT = 3, DA_INT = 4, DA_DOUBLE = 5,
	DA_STRING = 6, DA_NAME = 10,
	/* InternedData; EventCategory, EventName, DebugAnnotationName */
	ID_EVENT_CATEGORIES = 1, ID_EVENT_NAMES = 2, ID_ANNOTATION_NAMES = 3,
	ID_SOURCE_LOCATIONS = 4, IID = 1, IID_NAME = 2,
	/* SourceLocation */
	SL_FILE_NAME = 2, SL_FUNCTION_NAME = 3, SL_LINE_NUMBER = 4,
};

enum { SLICE_BEGIN = 1, SLICE_END = 2, INSTANT = 3, COUNTER = 4 };
enum { SEQ_CLEARED = 1, SEQ_NEEDS_STATE = 2 };
enum { CLOCK_REALTIME_ID = 1, CLOCK_MONOTONIC_ID = 3, CLOCK_BOOTTIME_ID = 6 };
/* A sequence's own clock (sequence-scoped ids are 64 to 127). */
enum { CLOCK_SEQUENCE_ID = 64 };
enum { SEQ_GLOBAL = 1, SEQ_KERNEL = 2 };

/* Annotation names every trace has, interned in the first packet. */
enum { NAME_MESSAGE = 1, NAME_STATE, NAME_CPU, NAME_ID, NAME_LOST, NAMES_FIXED };
static const char *const fixed_names[NAMES_FIXED] = {
	[NAME_MESSAGE] = "message", [NAME_STATE] = "state", [NAME_CPU] = "cpu",
	[NAME_ID] = "id", [NAME_LOST] = "lost",
};

/* What an event's packets refer to, interned when first met. */
struct site {
	uint64_t name_iid, category_iid, location_iid;	/* 0: none */
	uint64_t field_iid[EVT_FIELDS_MAX];
};

/* A thread's sequence and what its incremental state holds. */
struct seq {
	uint32_t id;
	uint64_t track;		/* the thread's: its packets' default */
	int64_t clock;		/* its clock's last value; -1: not started */
	struct key_map sites;	/* event: struct site *, interned here */
	struct key_map categories;	/* hash of the name: iid */
	struct key_map event_names, annotation_names;	/* the same, slices' */
};

struct counter_track {
	uint32_t pid;
	char *name;
	uint64_t uuid;
};

struct perfetto {
	FILE *f;
	struct report_filter *filter;
	struct pb pkt;		/* the packet being built */
	size_t interned;	/* its interned_data, or 0 */
	struct key_map processes, threads, lost_tracks;
	struct key_map seqs;	/* pid << 32 | tid: struct seq * */
	struct key_map last_ts;	/* pid << 32 | tid: its previous item + 1 */
	struct counter_track *counters;
	size_t ncounters;
	uint32_t nseqs;
	uint64_t next_uuid, next_iid, next_category_iid, next_location_iid;
	struct seq *seq;	/* the sequence of the packet being built */
	struct ftrace_bundles ftrace;	/* kernel events, a bundle per CPU */
	struct evt_span_pairs *pairs;
	struct json_buf text;
	bool started, out_of_memory;
};

/* A packet on sequence 1 (s NULL) or on s, at ts (none if negative): on
 * s's own clock, a delta, unless earlier than its last value. */
static void packet_start(struct perfetto *p, struct seq *s, int64_t ts)
{
	p->pkt.len = 0;
	p->interned = 0;
	p->seq = s;
	if (ts >= 0 && s && ts >= s->clock) {
		pb_varint(&p->pkt, TP_TIMESTAMP, (uint64_t)(ts - s->clock));
		s->clock = ts;
	} else if (ts >= 0) {
		pb_varint(&p->pkt, TP_TIMESTAMP, (uint64_t)ts);
		pb_varint(&p->pkt, TP_TIMESTAMP_CLOCK_ID, CLOCK_MONOTONIC_ID);
	}
	pb_varint(&p->pkt, TP_SEQUENCE_ID, s ? s->id : SEQ_GLOBAL);
}

/* The packet as a Trace's packet field, on f. */
static int packet_end(struct perfetto *p)
{
	uint8_t head[11];
	uint64_t n = p->pkt.len;
	size_t k = 0;

	if (p->pkt.failed)
		return p->out_of_memory = true, -1;
	head[k++] = TRACE_PACKET << 3 | 2;	/* length-delimited */
	while (n >= 0x80) {
		head[k++] = (uint8_t)(n | 0x80);
		n >>= 7;
	}
	head[k++] = (uint8_t)n;
	fwrite(head, 1, k, p->f);
	fwrite(p->pkt.p, 1, p->pkt.len, p->f);
	return 0;
}

/* Interned data in the packet being built: opened on first need (it
 * must come before the track event, which is opened after). */
static void intern(struct perfetto *p, uint32_t field, uint64_t iid,
		   const char *name)
{
	size_t m;

	if (!p->interned)
		p->interned = pb_open(&p->pkt, TP_INTERNED_DATA);
	m = pb_open(&p->pkt, field);
	pb_varint(&p->pkt, IID, iid);
	pb_string(&p->pkt, IID_NAME, name);
	pb_close(&p->pkt, m);
}

static void intern_done(struct perfetto *p)
{
	if (p->interned)
		pb_close(&p->pkt, p->interned);
	p->interned = 0;
}

/* A category's iid, interned in the packet being built (on a thread's
 * sequence) when new to its sequence. */
static uint64_t category(struct perfetto *p, const char *name, size_t n)
{
	int fresh;
	uint64_t *iid = key_map_add(&p->seq->categories,
					  key_map_text_key(name, n), &fresh);
	char text[128];

	if (!iid)
		return p->out_of_memory = true, 0;
	if (fresh) {
		*iid = ++p->next_category_iid;
		snprintf(text, sizeof(text), "%.*s", (int)n, name);
		intern(p, ID_EVENT_CATEGORIES, *iid, text);
	}
	return *iid;
}

/* The iid of name in the interned table field (names: what the packet's
 * sequence has interned there, by the name's hash), interned in the
 * packet being built when new. */
static uint64_t interned(struct perfetto *p, struct key_map *names, uint32_t field,
			 const char *name)
{
	int fresh;
	uint64_t *iid = key_map_add(names, key_map_text_key(name, strlen(name)), &fresh);

	if (!iid)
		return p->out_of_memory = true, 0;
	if (fresh) {
		*iid = ++p->next_iid;
		intern(p, field, *iid, name);
	}
	return *iid;
}

/* A packet describing a named track under parent; a counter's with
 * counter.  Written, or -1. */
static int track_descriptor(struct perfetto *p, uint64_t uuid, uint64_t parent,
			    const char *name, bool counter)
{
	size_t m;

	packet_start(p, NULL, -1);
	m = pb_open(&p->pkt, TP_TRACK_DESCRIPTOR);
	pb_varint(&p->pkt, TD_UUID, uuid);
	pb_varint(&p->pkt, TD_PARENT_UUID, parent);
	pb_string(&p->pkt, TD_NAME, name);
	if (counter)
		pb_close(&p->pkt, pb_open(&p->pkt, TD_COUNTER));
	pb_close(&p->pkt, m);
	return packet_end(p);
}

/* The thread's track, described (with its process's) when first met. */
static uint64_t thread_track(struct perfetto *p, uint32_t pid, uint32_t tid,
			     const char *comm)
{
	int fresh;
	uint64_t *proc = key_map_add(&p->processes, pid, &fresh), *thr;
	char name[64];
	size_t m, d;

	if (!proc)
		return p->out_of_memory = true, 0;
	if (fresh) {
		*proc = ++p->next_uuid;
		packet_start(p, NULL, -1);
		m = pb_open(&p->pkt, TP_TRACK_DESCRIPTOR);
		pb_varint(&p->pkt, TD_UUID, *proc);
		d = pb_open(&p->pkt, TD_PROCESS);
		pb_varint(&p->pkt, PD_PID, pid);
		pb_string(&p->pkt, PD_PROCESS_NAME, comm);
		pb_close(&p->pkt, d);
		pb_close(&p->pkt, m);
		if (packet_end(p))
			return 0;
	}
	thr = key_map_add(&p->threads, (uint64_t)pid << 32 | tid, &fresh);
	if (!thr)
		return p->out_of_memory = true, 0;
	if (fresh) {
		uint64_t parent = *key_map_find(&p->processes, pid);

		*thr = ++p->next_uuid;
		packet_start(p, NULL, -1);
		m = pb_open(&p->pkt, TP_TRACK_DESCRIPTOR);
		pb_varint(&p->pkt, TD_UUID, *thr);
		pb_varint(&p->pkt, TD_PARENT_UUID, parent);
		d = pb_open(&p->pkt, TD_THREAD);
		pb_varint(&p->pkt, THD_PID, pid);
		pb_varint(&p->pkt, THD_TID, tid);
		snprintf(name, sizeof(name), "%s", comm);
		pb_string(&p->pkt, THD_THREAD_NAME, name);
		pb_close(&p->pkt, d);
		pb_close(&p->pkt, m);
		if (packet_end(p))
			return 0;
	}
	return *thr;
}

/* What a sequence has interned goes (with its incremental state). */
static void seq_forget(struct seq *s)
{
	size_t i;

	for (i = 0; i < s->sites.cap; i++)
		if (s->sites.slots[i].key)
			free((void *)(uintptr_t)s->sites.slots[i].value);
	key_map_free(&s->sites);
	key_map_free(&s->categories);
	key_map_free(&s->event_names);
	key_map_free(&s->annotation_names);
}

/*
 * Clears s's incremental state and sets it again, from ts on: a packet
 * that says so (and, after a loss, that the packets before it were
 * dropped) with the sequence's defaults and the fixed annotation names,
 * then a clock snapshot that starts the sequence's clock at ts.
 */
static int seq_start(struct perfetto *p, struct seq *s, int64_t ts, bool dropped)
{
	size_t m, d, c;
	int i;

	seq_forget(s);
	s->clock = -1;
	packet_start(p, s, -1);
	pb_varint(&p->pkt, TP_SEQUENCE_FLAGS, SEQ_CLEARED);
	if (dropped)
		pb_varint(&p->pkt, TP_PREVIOUS_PACKET_DROPPED, 1);
	m = pb_open(&p->pkt, TP_DEFAULTS);
	pb_varint(&p->pkt, DEF_TIMESTAMP_CLOCK_ID, CLOCK_SEQUENCE_ID);
	d = pb_open(&p->pkt, DEF_TRACK_EVENT);
	pb_varint(&p->pkt, DEF_TRACK_UUID, s->track);
	pb_close(&p->pkt, d);
	pb_close(&p->pkt, m);
	for (i = 1; i < NAMES_FIXED; i++)
		intern(p, ID_ANNOTATION_NAMES, (uint64_t)i, fixed_names[i]);
	intern_done(p);
	if (packet_end(p))
		return -1;
	packet_start(p, s, -1);
	m = pb_open(&p->pkt, TP_CLOCK_SNAPSHOT);
	c = pb_open(&p->pkt, CS_CLOCKS);
	pb_varint(&p->pkt, CLOCK_ID, CLOCK_SEQUENCE_ID);
	pb_varint(&p->pkt, CLOCK_TIMESTAMP, (uint64_t)ts);
	pb_varint(&p->pkt, CLOCK_IS_INCREMENTAL, 1);
	pb_close(&p->pkt, c);
	c = pb_open(&p->pkt, CS_CLOCKS);
	pb_varint(&p->pkt, CLOCK_ID, CLOCK_MONOTONIC_ID);
	pb_varint(&p->pkt, CLOCK_TIMESTAMP, (uint64_t)ts);
	pb_close(&p->pkt, c);
	pb_close(&p->pkt, m);
	s->clock = ts;
	return packet_end(p);
}

/* The sequence of the thread's packets, started at ts when new. */
static struct seq *seq_of(struct perfetto *p, uint32_t pid, uint32_t tid,
			  const char *comm, int64_t ts)
{
	uint64_t track = thread_track(p, pid, tid, comm);
	int fresh;
	struct seq *s;

	if (!track)
		return NULL;
	s = key_map_object(&p->seqs, (uint64_t)pid << 32 | tid, sizeof(*s), &fresh);
	if (!s)
		return p->out_of_memory = true, NULL;
	if (!fresh)
		return s;
	s->id = SEQ_KERNEL + ++p->nseqs;
	s->track = track;
	return seq_start(p, s, ts < 0 ? 0 : ts, false) ? NULL : s;
}

static uint64_t counter_track(struct perfetto *p, const struct evt_trace_item *it,
			      const char *name)
{
	struct counter_track *c;
	uint64_t parent;
	size_t i;

	for (i = 0; i < p->ncounters; i++)
		if (p->counters[i].pid == it->pid && !strcmp(p->counters[i].name, name))
			return p->counters[i].uuid;
	c = realloc(p->counters, (p->ncounters + 1) * sizeof(*c));
	if (!c)
		return p->out_of_memory = true, 0;
	p->counters = c;
	c = &c[p->ncounters];
	if (!(c->name = strdup(name)))
		return p->out_of_memory = true, 0;
	p->ncounters++;
	c->pid = it->pid;
	c->uuid = ++p->next_uuid;
	parent = *key_map_find(&p->processes, it->pid);
	return track_descriptor(p, c->uuid, parent, name, true) ? 0 : c->uuid;
}

static void annotation_string(struct perfetto *p, uint64_t name_iid,
			      const char *s, size_t n)
{
	size_t m = pb_open(&p->pkt, TE_DEBUG_ANNOTATIONS);

	pb_varint(&p->pkt, DA_NAME_IID, name_iid);
	pb_text(&p->pkt, DA_STRING, s, n);
	pb_close(&p->pkt, m);
}

static void annotation_varint(struct perfetto *p, uint64_t name_iid,
			      uint32_t type, uint64_t v)
{
	size_t m = pb_open(&p->pkt, TE_DEBUG_ANNOTATIONS);

	pb_varint(&p->pkt, DA_NAME_IID, name_iid);
	pb_varint(&p->pkt, type, v);
	pb_close(&p->pkt, m);
}

/* The event's site: its name, category, source location and field
 * names, interned in the packet being built when first met on its
 * sequence. */
static struct site *site_of(struct perfetto *p, const struct evt_trace_item *it)
{
	const char *path = it->event->path;
	struct cli_site_location loc;
	int fresh;
	struct site *s = key_map_object(&p->seq->sites, (uintptr_t)it->event,
					sizeof(*s), &fresh);
	size_t m;

	if (!s)
		return p->out_of_memory = true, NULL;
	if (!fresh)
		return s;
	s->name_iid = ++p->next_iid;
	intern(p, ID_EVENT_NAMES, s->name_iid, path);
	s->category_iid = category(p, path, strcspn(path, "/"));
	if (cli_site_location(path, &loc)) {
		char name[1024];

		snprintf(name, sizeof(name), "%.*s", (int)loc.file_len, loc.file);
		s->location_iid = ++p->next_location_iid;
		if (!p->interned)
			p->interned = pb_open(&p->pkt, TP_INTERNED_DATA);
		m = pb_open(&p->pkt, ID_SOURCE_LOCATIONS);
		pb_varint(&p->pkt, IID, s->location_iid);
		pb_string(&p->pkt, SL_FILE_NAME, name);
		if (it->event->func)
			pb_string(&p->pkt, SL_FUNCTION_NAME, it->event->func);
		pb_varint(&p->pkt, SL_LINE_NUMBER, loc.line);
		pb_close(&p->pkt, m);
	}
	return s;
}

/* A field's annotation, its name interned when first met. */
static void field_annotation(struct perfetto *p, struct site *s, int i,
			     const struct evt_field *fl, const struct evt_field_format *fd)
{
	size_t m = pb_open(&p->pkt, TE_DEBUG_ANNOTATIONS);

	pb_varint(&p->pkt, DA_NAME_IID, s->field_iid[i]);	/* interned before */
	if (fl->label) {
		pb_string(&p->pkt, DA_STRING, fl->label);
	} else if (fd && fd->kind == EVT_FIELD_BOOL) {
		pb_varint(&p->pkt, DA_BOOL, fl->value.u != 0);
	} else if (fl->type == EVT_VALUE_INT) {
		pb_varint(&p->pkt, DA_INT, (uint64_t)fl->value.i);
	} else if (fl->type == EVT_VALUE_UINT) {
		pb_varint(&p->pkt, DA_UINT, fl->value.u);
	} else if (fl->type == EVT_VALUE_DOUBLE) {
		pb_double(&p->pkt, DA_DOUBLE, fl->value.d);
	} else if (fl->type == EVT_VALUE_STRING) {
		pb_string(&p->pkt, DA_STRING, fl->value.s);
	} else if (evt_field_is_text(fl, fd)) {
		pb_text(&p->pkt, DA_STRING, fl->value.array.data, evt_field_text_len(fl));
	} else {
		p->text.len = 0;
		json_buf_array(&p->text, fl);
		pb_text(&p->pkt, DA_STRING, p->text.text ? p->text.text : "",
			 p->text.len);
	}
	pb_close(&p->pkt, m);
}

/*
 * An instant on the thread's track (its sequence's default).  Each value
 * once: a printk's (or ftrace print's) in its message, the text the
 * program wrote, as its arguments have no names; a typed event's as
 * typed annotations, its text being only their rendering; a kernel
 * event's both, as its print format adds what the fields do not say
 * (a state's letters, a flag's name).
 */
static int instant(struct perfetto *p, const struct evt_trace_item *it, struct seq *q)
{
	struct evt_field fields[EVT_FIELDS_MAX];
	evt_arg_name names[EVT_PRINTK_MAX_ARGS];
	const struct evt_event_layout *l = &it->event->layout;
	const struct evt_event_format *typed =
		evt_event_kind_is_typed(l->kind) ? &l->typed : NULL;
	struct site *s;
	size_t m, n;
	int i, nf;

	packet_start(p, q, it->monotonic_ns);
	pb_varint(&p->pkt, TP_SEQUENCE_FLAGS, SEQ_NEEDS_STATE);
	if (!(s = site_of(p, it)))
		return -1;
	nf = typed ? evt_record_fields(l, it->payload, it->payload_size, fields, names) : 0;
	for (i = 0; i < nf; i++)
		if (!s->field_iid[i]) {
			s->field_iid[i] = ++p->next_iid;
			intern(p, ID_ANNOTATION_NAMES, s->field_iid[i], fields[i].name);
		}
	intern_done(p);
	m = pb_open(&p->pkt, TP_TRACK_EVENT);
	pb_varint(&p->pkt, TE_TYPE, INSTANT);
	pb_varint(&p->pkt, TE_NAME_IID, s->name_iid);
	pb_varint(&p->pkt, TE_CATEGORY_IIDS, s->category_iid);
	if (s->location_iid)
		pb_varint(&p->pkt, TE_SOURCE_LOCATION_IID, s->location_iid);
	n = it->text_len && it->text[it->text_len - 1] == '\n' ? it->text_len - 1 :
	    it->text_len;
	if (!typed || l->kind == EVT_KIND_KERNEL)
		annotation_string(p, NAME_MESSAGE, it->text, n);
	annotation_varint(p, NAME_CPU, DA_UINT, it->cpu);
	for (i = 0; i < nf; i++)
		field_annotation(p, s, i, &fields[i], typed ? &typed->fields[i] : NULL);
	pb_close(&p->pkt, m);
	return packet_end(p);
}

static int counter(struct perfetto *p, const struct evt_trace_item *it, struct seq *q)
{
	struct evt_span_head h;
	uint64_t track;
	size_t m;

	if (evt_span_head_read(&it->event->layout, it->payload, it->payload_size, &h))
		return 0;
	track = counter_track(p, it, strchr(it->event->path, '/') + 1);
	if (!track)
		return -1;
	packet_start(p, q, it->monotonic_ns);
	m = pb_open(&p->pkt, TP_TRACK_EVENT);
	pb_varint(&p->pkt, TE_TYPE, COUNTER);
	pb_varint(&p->pkt, TE_TRACK_UUID, track);
	if (h.real)
		pb_double(&p->pkt, TE_DOUBLE_COUNTER_VALUE, h.real_value);
	else
		pb_varint(&p->pkt, TE_COUNTER_VALUE, (uint64_t)h.int_value);
	pb_close(&p->pkt, m);
	return packet_end(p);
}

/* A span's arguments, each a debug annotation of its type, named by
 * the iids in names (interned before). */
static void slice_args(struct perfetto *p, const struct evt_slice *s,
		       const uint64_t *names)
{
	unsigned i;

	for (i = 0; i < s->nfields; i++) {
		const struct evt_field *fl = &s->fields[i];
		size_t m = pb_open(&p->pkt, TE_DEBUG_ANNOTATIONS);

		pb_varint(&p->pkt, DA_NAME_IID, names[i]);
		if (fl->type == EVT_VALUE_INT)
			pb_varint(&p->pkt, DA_INT, (uint64_t)fl->value.i);
		else if (fl->type == EVT_VALUE_UINT)
			pb_varint(&p->pkt, DA_UINT, fl->value.u);
		else if (fl->type == EVT_VALUE_DOUBLE)
			pb_double(&p->pkt, DA_DOUBLE, fl->value.d);
		else if (fl->type == EVT_VALUE_STRING)
			pb_string(&p->pkt, DA_STRING, fl->value.s);
		else
			pb_string(&p->pkt, DA_STRING, "");
		pb_close(&p->pkt, m);
	}
}

/* A slice event (begin, end or instant) of s on q, on track (0: the
 * thread's, q's default). */
static int slice_event(struct perfetto *p, struct seq *q, const struct evt_slice *s,
		       int type, int64_t ts, uint64_t track, bool args)
{
	const char *state = evt_slice_state_name(s->state);
	const char *kind = s->async ? "async" : "span";
	uint64_t name = 0, cat = 0, arg_names[EVT_FIELDS_MAX];
	unsigned i;
	size_t m;

	packet_start(p, q, ts);
	/* Its name, category and arguments' names interned (the fixed
	 * annotations' names are the sequence's first packet's): an end has
	 * none. */
	if (type != SLICE_END) {
		pb_varint(&p->pkt, TP_SEQUENCE_FLAGS, SEQ_NEEDS_STATE);
		name = interned(p, &q->event_names, ID_EVENT_NAMES, s->name);
		cat = category(p, kind, strlen(kind));
		for (i = 0; args && i < s->nfields && i < EVT_FIELDS_MAX; i++)
			arg_names[i] = interned(p, &q->annotation_names,
						ID_ANNOTATION_NAMES, s->fields[i].name);
		intern_done(p);
	}
	m = pb_open(&p->pkt, TP_TRACK_EVENT);
	pb_varint(&p->pkt, TE_TYPE, (uint64_t)type);
	if (track)
		pb_varint(&p->pkt, TE_TRACK_UUID, track);
	if (type != SLICE_END) {
		pb_varint(&p->pkt, TE_NAME_IID, name);
		pb_varint(&p->pkt, TE_CATEGORY_IIDS, cat);
	}
	if (args) {
		/* (a slice is complete unless it says otherwise) */
		if (s->state != EVT_SLICE_COMPLETE)
			annotation_string(p, NAME_STATE, state, strlen(state));
		if (s->args)
			annotation_string(p, NAME_MESSAGE, s->args, strlen(s->args));
		if (s->async)
			annotation_varint(p, NAME_ID, DA_UINT, s->async_id);
		if (s->nfields)
			slice_args(p, s, arg_names);
	}
	pb_close(&p->pkt, m);
	return packet_end(p);
}

static int slice(const struct evt_slice *s, void *ctx)
{
	struct perfetto *p = ctx;
	const struct evt_slice_point *at = s->begin.seen ? &s->begin : &s->end;
	struct seq *q = seq_of(p, at->pid, at->tid, at->comm, at->monotonic_ns);
	uint64_t track = 0, parent;

	if (!q)
		return 1;
	if (s->state == EVT_SLICE_NO_BEGIN || (!s->async && s->state == EVT_SLICE_NO_END))
		return slice_event(p, q, s, INSTANT, at->monotonic_ns, 0, true) ? 1 : 0;
	if (s->async) {
		parent = *key_map_find(&p->processes, at->pid);
		track = ++p->next_uuid;
		if (track_descriptor(p, track, parent, s->name, false))
			return 1;
	}
	if (slice_event(p, q, s, SLICE_BEGIN, s->begin.monotonic_ns, track, true))
		return 1;
	if (s->end.seen &&
	    slice_event(p, q, s, SLICE_END, s->end.monotonic_ns, track, false))
		return 1;
	return 0;
}

/* A loss on q's thread, noticed at it, after an item at from: data loss
 * on q (its state set again), and a slice from from to it. */
static int lost(struct perfetto *p, const struct evt_trace_item *it, struct seq *q,
		int64_t from)
{
	int fresh;
	uint64_t *track = key_map_add(&p->lost_tracks, (uint64_t)it->pid << 32 | it->tid,
				      &fresh);
	uint64_t thread = thread_track(p, it->pid, it->tid, it->comm);
	struct evt_loss_part parts[EVT_LOSS_SITES_MAX];
	char name[EVT_LOSS_SITES_MAX * 300];
	uint64_t cat;
	size_t m;

	if (!track || !thread)
		return p->out_of_memory = true, -1;
	if (fresh) {
		*track = ++p->next_uuid;
		if (track_descriptor(p, *track, thread, "lost events", false))
			return -1;
	}
	evt_loss_text(name, sizeof(name), it->lost, parts, cli_loss_parts(it, parts));
	if (seq_start(p, q, from, true))
		return -1;
	packet_start(p, q, from);
	pb_varint(&p->pkt, TP_SEQUENCE_FLAGS, SEQ_NEEDS_STATE);
	cat = category(p, "evtrace", strlen("evtrace"));
	intern_done(p);
	m = pb_open(&p->pkt, TP_TRACK_EVENT);
	pb_varint(&p->pkt, TE_TYPE, SLICE_BEGIN);
	pb_varint(&p->pkt, TE_TRACK_UUID, *track);
	pb_string(&p->pkt, TE_NAME, name);	/* (its own: not interned) */
	pb_varint(&p->pkt, TE_CATEGORY_IIDS, cat);
	annotation_varint(p, NAME_LOST, DA_UINT, it->lost);
	pb_close(&p->pkt, m);
	if (packet_end(p))
		return -1;
	packet_start(p, q, it->monotonic_ns);
	m = pb_open(&p->pkt, TP_TRACK_EVENT);
	pb_varint(&p->pkt, TE_TYPE, SLICE_END);
	pb_varint(&p->pkt, TE_TRACK_UUID, *track);
	pb_close(&p->pkt, m);
	return packet_end(p);
}

/* The trace's clock snapshot. */
static int start(struct perfetto *p, const struct evt_trace_item *it)
{
	size_t m, c;

	packet_start(p, NULL, -1);
	m = pb_open(&p->pkt, TP_CLOCK_SNAPSHOT);
	c = pb_open(&p->pkt, CS_CLOCKS);
	pb_varint(&p->pkt, CLOCK_ID, CLOCK_MONOTONIC_ID);
	pb_varint(&p->pkt, CLOCK_TIMESTAMP, (uint64_t)it->monotonic_ns);
	pb_close(&p->pkt, c);
	c = pb_open(&p->pkt, CS_CLOCKS);
	pb_varint(&p->pkt, CLOCK_ID, CLOCK_REALTIME_ID);
	pb_varint(&p->pkt, CLOCK_TIMESTAMP, (uint64_t)it->realtime_ns);
	pb_close(&p->pkt, c);
	/* Kernel events' bundles are on BOOTTIME for the importer; their
	 * times are CLOCK_MONOTONIC's, so BOOTTIME is given its value. */
	c = pb_open(&p->pkt, CS_CLOCKS);
	pb_varint(&p->pkt, CLOCK_ID, CLOCK_BOOTTIME_ID);
	pb_varint(&p->pkt, CLOCK_TIMESTAMP, (uint64_t)it->monotonic_ns);
	pb_close(&p->pkt, c);
	pb_varint(&p->pkt, CS_PRIMARY_TRACE_CLOCK, CLOCK_MONOTONIC_ID);
	pb_close(&p->pkt, m);
	p->next_iid = NAMES_FIXED - 1;
	return packet_end(p);
}

/* The trace's stats, last: every thread's sequence as a writer of buffer
 * 0, so that the importer counts the losses said on each (its
 * sequence packet loss). */
static int stats(struct perfetto *p)
{
	size_t i, m, w;

	if (!p->nseqs)
		return 0;
	packet_start(p, NULL, -1);
	m = pb_open(&p->pkt, TP_TRACE_STATS);
	for (i = 0; i < p->seqs.cap; i++) {
		const struct seq *s;

		if (!p->seqs.slots[i].value)	/* (none, or not made) */
			continue;
		s = (const struct seq *)(uintptr_t)p->seqs.slots[i].value;
		w = pb_open(&p->pkt, TS_WRITER_STATS);
		pb_varint(&p->pkt, WS_SEQUENCE_ID, s->id);
		pb_varint(&p->pkt, WS_BUFFER, 0);
		pb_close(&p->pkt, w);
	}
	pb_close(&p->pkt, m);
	return packet_end(p);
}

/* The kernel the first of the traces with kernel events ran (its index
 * says since 6.1): the importer reads a task state's bits by its release
 * and system call numbers by its machine.  Nothing if none says. */
static int system_info(struct perfetto *p, const struct convert_input *in)
{
	struct evt_trace_index ix;
	char err[512];
	unsigned i;
	int found = 0;
	size_t m, u;

	for (i = 0; i < in->n && !found; i++) {
		if (evt_trace_index_read_dir(in->dirs[i], &ix, err, sizeof(err)))
			continue;	/* (the read that follows says why) */
		if (ix.kernel_release[0]) {
			found = 1;
			packet_start(p, NULL, -1);
			m = pb_open(&p->pkt, TP_SYSTEM_INFO);
			u = pb_open(&p->pkt, SI_UTSNAME);
			pb_string(&p->pkt, UTS_SYSNAME, "Linux");
			pb_string(&p->pkt, UTS_RELEASE, ix.kernel_release);
			pb_string(&p->pkt, UTS_MACHINE, ix.kernel_machine);
			pb_close(&p->pkt, u);
			pb_close(&p->pkt, m);
		}
		evt_trace_index_free(&ix);
	}
	return found ? packet_end(p) : 0;
}

/* cpu's bundle of kernel events, as a packet of the kernel's sequence. */
static int ftrace_packet(struct perfetto *p, uint32_t cpu)
{
	p->pkt.len = 0;
	p->interned = 0;
	p->seq = NULL;
	pb_varint(&p->pkt, TP_SEQUENCE_ID, SEQ_KERNEL);
	ftrace_bundles_write(&p->ftrace, cpu, &p->pkt);
	return packet_end(p);
}

/* A kernel event into its CPU's bundle, written once full. */
static int kernel_event(struct perfetto *p, const struct evt_trace_item *it)
{
	int64_t full = ftrace_bundles_add(&p->ftrace, it);

	if (full < 0)
		return p->out_of_memory = true, 1;
	return full != UINT32_MAX && ftrace_packet(p, (uint32_t)full) ? 1 : 0;
}

static int add(const struct evt_trace_item *it, void *ctx)
{
	struct perfetto *p = ctx;
	uint64_t *last;
	struct seq *q;
	int64_t before;
	int fresh, r;

	if (it->kind == EVT_ITEM_ERROR) {
		fprintf(stderr, "evtrace: convert: %s\n", it->message);
		return 0;
	}
	if (!p->started) {
		p->started = true;
		if (start(p, it))
			return 1;
	}
	if (p->filter && !report_filter_wanted(p->filter, it))
		return 0;
	if (it->kind == EVT_ITEM_EVENT && it->event->layout.kind == EVT_KIND_KERNEL)
		return kernel_event(p, it);
	if (it->kind == EVT_ITEM_LOST && it->kernel &&
	    ftrace_bundles_lost(&p->ftrace, it->cpu))
		return p->out_of_memory = true, 1;
	if (!(q = seq_of(p, it->pid, it->tid, it->comm, it->monotonic_ns)))
		return 1;
	last = key_map_add(&p->last_ts, (uint64_t)it->pid << 32 | it->tid, &fresh);
	if (!last)
		return p->out_of_memory = true, 1;
	before = *last ? (int64_t)(*last - 1) : it->monotonic_ns;
	*last = (uint64_t)it->monotonic_ns + 1;
	if (it->kind == EVT_ITEM_LOST)
		r = lost(p, it, q, before);
	else if (it->event->layout.kind == EVT_KIND_COUNTER)
		r = counter(p, it, q);
	else if (evt_kind_is_span(it->event->layout.kind))
		r = 0;		/* slices, as they close */
	else
		r = instant(p, it, q);
	if (r)
		return 1;
	r = evt_span_pairs_feed(p->pairs, it);
	if (r == -1)
		p->out_of_memory = true;
	return r ? 1 : 0;
}

int convert_perfetto(FILE *f, const struct convert_input *in,
		     struct report_filter *filter, struct evt_trace_stats *st,
		     char *err, size_t err_size)
{
	struct perfetto p = { .f = f, .filter = filter };
	size_t i;
	int ret = -1;

	p.pairs = evt_span_pairs_new(slice, &p);
	if (!p.pairs) {
		snprintf(err, err_size, "out of memory");
		goto out;
	}
	evt_span_pairs_keep_fields(p.pairs);	/* typed annotations */
	if (system_info(&p, in)) {
		snprintf(err, err_size, "out of memory");
		goto out;
	}
	if (evt_trace_read_set(in->dirs, in->n, in->offsets_ns, add, &p, st, err,
			       err_size))
		goto out;
	if (!p.out_of_memory && evt_span_pairs_finish(p.pairs) == -1)
		p.out_of_memory = true;
	for (i = 0; !p.out_of_memory && i < p.ftrace.ncpus; i++)
		if (ftrace_bundles_pending(&p.ftrace, (uint32_t)i) &&
		    ftrace_packet(&p, (uint32_t)i))
			p.out_of_memory = true;
	if (!p.out_of_memory && stats(&p))
		p.out_of_memory = true;
	if (p.out_of_memory || p.pkt.failed) {
		snprintf(err, err_size, "out of memory");
		goto out;
	}
	ret = 0;
out:
	for (i = 0; i < p.seqs.cap; i++)
		if (p.seqs.slots[i].value) {
			struct seq *s = (struct seq *)(uintptr_t)p.seqs.slots[i].value;

			seq_forget(s);
			free(s);
		}
	key_map_free(&p.seqs);
	key_map_free(&p.processes);
	key_map_free(&p.threads);
	key_map_free(&p.lost_tracks);
	key_map_free(&p.last_ts);
	ftrace_bundles_free(&p.ftrace);
	for (i = 0; i < p.ncounters; i++)
		free(p.counters[i].name);
	free(p.counters);
	free(p.text.text);
	pb_free(&p.pkt);
	evt_span_pairs_free(p.pairs);
	return ret;
}
