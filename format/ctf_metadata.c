/*
 * ctf_metadata.c - generate TSDL from the trace index (see ctf_metadata.h).
 * Every integer is byte aligned, matching the packed records of layout.h.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "ctf_metadata.h"
#include "layout.h"
#include "lost_record.h"
#include "quote.h"
#include "record_header.h"
#include "span_kind.h"
#include "trace_names.h"

static const char prologue[] =
	"/* CTF 1.8 */\n\n"
	"typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
	"typealias integer { size = 16; align = 8; signed = false; } := uint16_t;\n"
	"typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
	"typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n"
	"typealias integer { size = 8; align = 8; signed = true; } := int8_t;\n"
	"typealias integer { size = 16; align = 8; signed = true; } := int16_t;\n"
	"typealias integer { size = 32; align = 8; signed = true; } := int32_t;\n"
	"typealias integer { size = 64; align = 8; signed = true; } := int64_t;\n"
	"typealias integer { size = 64; align = 8; signed = false; base = 16; } := evt_pointer_t;\n"
	"typealias floating_point { exp_dig = 11; mant_dig = 53; align = 8; } := evt_double_t;\n\n"
	"trace {\n"
	"\tmajor = 1;\n\tminor = 8;\n\tbyte_order = le;\n"
	"\tpacket.header := struct {\n"
	"\t\tuint32_t magic;\n\t\tuint32_t stream_id;\n\t};\n};\n\n";

static const char *ctf_type(uint8_t t)
{
	switch (t) {
	case EVT_ARG_I8: return "int8_t";
	case EVT_ARG_U8: return "uint8_t";
	case EVT_ARG_I16: return "int16_t";
	case EVT_ARG_U16: return "uint16_t";
	case EVT_ARG_I32: return "int32_t";
	case EVT_ARG_U32: return "uint32_t";
	case EVT_ARG_I64: return "int64_t";
	case EVT_ARG_U64: return "uint64_t";
	case EVT_ARG_DOUBLE: return "evt_double_t";
	case EVT_ARG_PTR: return "evt_pointer_t";
	case EVT_ARG_STRING: return "string";
	}
	return NULL;
}

static void write_clock(FILE *f, const struct evt_clock_calibration *c)
{
	int64_t offset_s;
	uint64_t offset_cycles;

	evt_clock_ctf_offset(c, &offset_s, &offset_cycles);
	fprintf(f, "clock {\n\tname = \"evtrace\";\n\tdescription = \"%s\";\n"
		"\tfreq = %" PRIu64 ";\n\tprecision = 1;\n"
		"\toffset_s = %" PRId64 ";\n\toffset = %" PRIu64 ";\n"
		"\tabsolute = FALSE;\n};\n\n",
		c->kind == EVT_CLOCK_TSC ? "TSC, invariant" : "CLOCK_MONOTONIC",
		c->freq_hz, offset_s, offset_cycles);
	fputs("typealias integer { size = 64; align = 8; signed = false; "
	      "map = clock.evtrace.value; } := evt_clock_t;\n\n", f);
}

/*
 * record_header.h in TSDL.  Bit-packed little endian: the id in the low 11
 * bits of the first word; an extended header's id and time start at its
 * third byte.
 */
static void write_record_header(FILE *f)
{
	fprintf(f, "\tevent.header := struct {\n"
		"\t\tenum : integer { size = %u; align = 1; signed = false; } "
		"{ compact = 0 ... %u, extended = %u } id;\n"
		"\t\tvariant <id> {\n"
		"\t\t\tstruct {\n"
		"\t\t\t\tinteger { size = %u; align = 1; signed = false; "
		"map = clock.evtrace.value; } timestamp;\n"
		"\t\t\t} compact;\n"
		"\t\t\tstruct {\n"
		"\t\t\t\tuint16_t id;\n"
		"\t\t\t\tevt_clock_t timestamp;\n"
		"\t\t\t} extended;\n"
		"\t\t} v;\n"
		"\t};\n",
		EVT_HDR_ID_BITS, EVT_HDR_EXTENDED - 1, EVT_HDR_EXTENDED,
		EVT_HDR_TS_BITS);
}

static const char kernel_context[] =	/* struct evt_kernel_context */
	"\t\tuint32_t pid;\n"
	"\t\tuint32_t tid;\n"
	"\t\tinteger { size = 8; align = 8; signed = false; encoding = UTF8; } comm[16];\n";

/* lost_record.h: the events the writer dropped, by site and cause. */
static void write_lost_event(FILE *f, uint32_t sid)
{
	unsigned c;

	fprintf(f, "event {\n\tname = \"" EVT_LOST_EVENT_NAME "\";\n\tid = %u;\n"
		"\tstream_id = %u;\n\tfields := struct {\n\t\tuint32_t site;\n"
		"\t\tenum : uint8_t { ", EVT_LOST_EVENT_ID, sid);
	for (c = 1; c < EVT_LOSS_CAUSES; c++)
		fprintf(f, "%s%s = %u", c > 1 ? ", " : "", evt_loss_cause_word(c), c);
	fputs(" } cause;\n\t\tuint64_t count;\n\t};\n};\n\n", f);
}

static void write_stream(FILE *f, const struct evt_stream_class *s,
			 uint32_t version)
{
	fprintf(f, "stream {\n\tid = %u;\n"
		"\tpacket.context := struct {\n"
		"\t\tevt_clock_t timestamp_begin;\n"
		"\t\tevt_clock_t timestamp_end;\n"
		"\t\tuint64_t content_size;\n"
		"\t\tuint64_t packet_size;\n"
		"\t\tuint64_t packet_seq_num;\n"
		"\t\tuint64_t events_discarded;\n"
		"\t\tuint64_t first_event;\n"
		"\t\tuint32_t pid;\n"
		"\t\tuint32_t tid;\n"
		"\t\tinteger { size = 8; align = 8; signed = false; encoding = UTF8; } comm[16];\n"
		"\t};\n", s->sid);
	if (version == 1) {	/* the 12-byte headers of the first traces */
		fprintf(f, "\tevent.header := struct {\n"
			"\t\tuint16_t id;\n"
			"\t\tevt_clock_t timestamp;\n"
			"\t};\n"
			"\tevent.context := struct {\n"
			"\t\tuint16_t cpu_id;\n%s"
			"\t};\n};\n\n", s->kernel ? kernel_context : "");
		return;
	}
	write_record_header(f);
	if (s->kernel)
		fprintf(f, "\tevent.context := struct {\n%s\t};\n", kernel_context);
	fprintf(f, "};\n\n"
		"event {\n\tname = \"" EVT_CPU_EVENT_NAME "\";\n\tid = %u;\n\tstream_id = %u;\n"
		"\tfields := struct {\n\t\tuint16_t cpu_id;\n\t};\n};\n\n",
		EVT_CPU_EVENT_ID, s->sid);
	if (!s->kernel)
		write_lost_event(f, s->sid);
}

/*
 * A printk event's format rides in its model.emf.uri, the one free-text
 * attribute of an event that CTF 1.8 has and babeltrace2 keeps (it warns
 * about unknown ones): sink.evtrace.text renders messages from it.  A
 * kernel event's format file rides there too, for its print fmt.
 */
static void write_format_attribute(FILE *f, const char *format)
{
	if (!*format)
		return;	/* babeltrace2 warns about an empty one */
	fputs("\tmodel.emf.uri = ", f);
	evt_quote(f, format);
	fputs(";\n", f);
}

/* The arguments of the printk format, stored from types[arg] on. */
static void write_printk_fields(FILE *f, const struct evt_event_layout *l,
				unsigned arg)
{
	const struct evt_printk_format *p = &l->printk;
	unsigned i;

	for (i = 0; i < p->nspecs; i++) {
		if (p->specs[i].star_width)
			fprintf(f, "\t\tint32_t arg%u_width;\n", i);
		if (p->specs[i].star_precision)
			fprintf(f, "\t\tint32_t arg%u_precision;\n", i);
		fprintf(f, "\t\t%s arg%u;\n", ctf_type(l->types[arg + p->specs[i].star_width +
							     p->specs[i].star_precision]), i);
		arg += 1 + p->specs[i].star_width + p->specs[i].star_precision;
	}
}

/* A span's head (layout.h), then its arguments as a printk event's. */
static void write_span_fields(FILE *f, const struct evt_event_layout *l)
{
	if (l->kind == EVT_KIND_COUNTER) {
		fprintf(f, "\t\t%s value;\n", ctf_type(l->types[0]));
		return;
	}
	fprintf(f, "\t\tenum : uint8_t { begin = %u, end = %u } phase;\n",
		EVT_SPAN_BEGIN, EVT_SPAN_END);
	if (l->kind == EVT_KIND_ASYNC)
		fputs("\t\tuint64_t id;\n", f);
	write_printk_fields(f, l, l->head);
}

static void write_event(FILE *f, const struct evt_event_desc *e)
{
	fputs("event {\n\tname = ", f);
	evt_quote(f, e->path);
	fprintf(f, ";\n\tid = %u;\n\tstream_id = %u;\n", e->id, e->sid);
	if (!evt_event_kind_is_typed(e->layout.kind))
		write_format_attribute(f, e->format);
	else if (e->kernel_format)	/* its print fmt, for sink.evtrace.text */
		write_format_attribute(f, e->kernel_format);
	fputs("\tfields := struct {\n", f);
	if (evt_event_kind_is_typed(e->layout.kind))
		evt_event_format_write_ctf(f, &e->layout.typed);
	else if (evt_kind_is_span(e->layout.kind))
		write_span_fields(f, &e->layout);
	else
		write_printk_fields(f, &e->layout, 0);
	fputs("\t};\n};\n\n", f);
}

/* The index lines of what this part declares, as a comment for evtrace's
 * readers (trace_index.h).  A "*" "/" in them, which only a quoted string
 * can hold, is written "*\x2f". */
static int write_index_comment(FILE *f, const struct evt_trace_index *ix,
			       bool head, const struct evt_index_marks *from)
{
	char *text = NULL;
	size_t len = 0, i;
	FILE *m = open_memstream(&text, &len);

	if (!m)
		return -1;
	evt_trace_index_write_part(m, ix, head, from);
	if (fclose(m)) {
		free(text);
		return -1;
	}
	fputs("/* " EVT_INDEX_COMMENT "\n", f);
	for (i = 0; i < len; i++) {
		if (text[i] == '*' && i + 1 < len && text[i + 1] == '/') {
			fputs("*\\x2f", f);
			i++;
		} else {
			fputc(text[i], f);
		}
	}
	fputs("*/\n\n", f);
	free(text);
	return 0;
}

int evt_ctf_metadata_write_part(FILE *f, const struct evt_trace_index *ix,
				const char *hostname,
				const struct evt_index_marks *from)
{
	static const struct evt_index_marks all;
	uint32_t i;

	if (!from)
		from = &all;
	/* A reader may check each part it is given for the signature
	 * (babeltrace2's lttng-live does), which a comment can carry. */
	if (!hostname)
		fputs("/* CTF 1.8 */\n", f);
	if (hostname) {
		fputs(prologue, f);
		fputs("env {\n\tdomain = \"ust\";\n\ttracer_name = \"evtrace\";\n"
		      "\ttracer_major = 0;\n\ttracer_minor = 1;\n\thostname = ", f);
		evt_quote(f, hostname);
		fputs(";\n};\n\n", f);
		write_clock(f, &ix->clock);
	}
	for (i = from->streams; i < ix->nstreams; i++)
		write_stream(f, &ix->streams[i], ix->version);
	for (i = from->events; i < ix->nevents; i++)
		write_event(f, &ix->events[i]);
	/* A part of index lines alone (clock snapshots) still declares
	 * something: a reader may refuse an empty one.  Named by the
	 * snapshots so far, which only grow: never twice the same name. */
	if (!hostname && from->streams == ix->nstreams && from->events == ix->nevents)
		fprintf(f, "typealias integer { size = 8; align = 8; signed = false; } "
			":= evt_index_part_%u_t;\n\n", ix->nsnapshots);
	if (write_index_comment(f, ix, hostname != NULL, from))
		return -1;
	return ferror(f) ? -1 : 0;
}

int evt_ctf_metadata_write(FILE *f, const struct evt_trace_index *ix,
			   const char *hostname)
{
	return evt_ctf_metadata_write_part(f, ix, hostname, NULL);
}
