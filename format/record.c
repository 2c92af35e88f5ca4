/*
 * record.c - decode records (see record.h).
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layout.h"
#include "record.h"
#include "span_kind.h"

/* A span's or counter's: its head (span_kind.h), then the arguments of
 * its format. */
static int span_layout_load(struct evt_event_layout *l, unsigned kind,
			    const char *format, const uint8_t *types,
			    unsigned nargs, char *why, size_t why_size)
{
	uint8_t head[2];
	bool real = kind == EVT_KIND_COUNTER && nargs == 1 &&
		    types[0] == EVT_ARG_DOUBLE;
	unsigned n = evt_span_head(kind, real, head);
	char err[256];

	if (nargs < n || nargs > EVT_PRINTK_MAX_ARGS || memcmp(types, head, n)) {
		snprintf(why, why_size, "argument types disagree with the kind");
		return -1;
	}
	if (evt_printk_parse(format, &l->printk, err, sizeof(err))) {
		snprintf(why, why_size, "format: %s", err);
		return -1;
	}
	if ((kind == EVT_KIND_COUNTER && *format) || l->printk.nargs != nargs - n ||
	    memcmp(l->printk.arg_types, types + n, nargs - n)) {
		snprintf(why, why_size, "argument types disagree with the format");
		return -1;
	}
	l->nargs = (uint8_t)nargs;
	l->head = (uint8_t)n;
	memcpy(l->types, types, nargs);
	return 0;
}

int evt_event_layout_load(struct evt_event_layout *l, unsigned kind,
			  const char *format, const uint8_t *types,
			  unsigned nargs, char *why, size_t why_size)
{
	char err[256];

	memset(l, 0, sizeof(*l));
	if (evt_event_kind_is_typed(kind)) {
		if (nargs) {
			snprintf(why, why_size, "a typed event has no argument types");
			return -1;
		}
		if (evt_event_format_parse(format, &l->typed, err, sizeof(err))) {
			snprintf(why, why_size, "format: %s", err);
			return -1;
		}
	} else if (kind == EVT_KIND_PRINTK || kind == EVT_KIND_FTRACE) {
		if (nargs > EVT_PRINTK_MAX_ARGS) {
			snprintf(why, why_size, "too many argument types");
			return -1;
		}
		if (evt_printk_parse(format, &l->printk, err, sizeof(err))) {
			snprintf(why, why_size, "format: %s", err);
			return -1;
		}
		if (l->printk.nargs != nargs ||
		    memcmp(l->printk.arg_types, types, nargs)) {
			snprintf(why, why_size, "argument types disagree with the format");
			return -1;
		}
		l->nargs = (uint8_t)nargs;
		memcpy(l->types, types, nargs);
	} else if (evt_kind_is_span(kind)) {
		if (span_layout_load(l, kind, format, types, nargs, why, why_size))
			return -1;
	} else {
		snprintf(why, why_size, "unknown event kind %u", kind);
		return -1;
	}
	l->kind = (uint16_t)kind;
	for (unsigned i = 0; i < l->nargs; i++) {
		l->strings |= l->types[i] == EVT_ARG_STRING;
		l->fixed_bytes += (uint16_t)evt_arg_type_size(l->types[i]);
	}
	return 0;
}

void evt_event_layout_free(struct evt_event_layout *l)
{
	evt_event_format_free(&l->typed);
	memset(l, 0, sizeof(*l));
}

/* Index version 1 traces: every header { uint16 id; uint64 ts; uint16 cpu; }. */
#define LEGACY_HEADER_BYTES 12

int evt_record_header(const uint8_t *p, size_t avail, struct evt_hdr_state *st,
		      struct evt_record *r)
{
	unsigned n;

	if (st->legacy) {
		if (avail < LEGACY_HEADER_BYTES)
			return -1;
		memcpy(&r->id, p, 2);
		memcpy(&r->timestamp, p + 2, 8);
		memcpy(&r->cpu, p + 10, 2);
		n = LEGACY_HEADER_BYTES;
	} else if (evt_hdr_get(p, avail, st, &r->id, &r->timestamp, &r->cpu, &n)) {
		return -1;
	}
	r->header_bytes = n;
	r->payload = p + n;
	r->payload_size = 0;
	return 0;
}

static long printk_payload_size(const struct evt_event_layout *l,
				const uint8_t *p, size_t avail)
{
	size_t n = 0;
	unsigned i;

	/* (every record of a format without strings is as long) */
	if (!l->strings)
		return l->fixed_bytes <= avail ? (long)l->fixed_bytes : -1;
	for (i = 0; i < l->nargs; i++) {
		if (l->types[i] == EVT_ARG_STRING) {
			const uint8_t *nul = n < avail ?
				memchr(p + n, '\0', avail - n) : NULL;
			if (!nul)
				return -1;
			n = nul - p + 1;
		} else {
			n += evt_arg_type_size(l->types[i]);
			if (n > avail)
				return -1;
		}
	}
	return (long)n;
}

int evt_record_payload(struct evt_record *r, const struct evt_event_layout *l,
		       size_t avail)
{
	long n;

	if (avail < r->header_bytes)
		return -1;
	avail -= r->header_bytes;
	if (evt_event_kind_is_typed(l->kind))
		n = evt_event_format_payload_size(&l->typed, r->payload, avail);
	else
		n = printk_payload_size(l, r->payload, avail);
	if (n < 0)
		return -1;
	r->payload_size = (size_t)n;
	return 0;
}

int evt_record_lost(struct evt_record *r, size_t avail,
		    struct evt_lost_entry *e)
{
	if (avail < r->header_bytes ||
	    evt_lost_payload_get(r->payload, avail - r->header_bytes, e))
		return -1;
	r->payload_size = EVT_LOST_PAYLOAD_BYTES;
	return 0;
}

/* "begin", "end", "begin 42" (async), "begin: message", a counter's value. */
static int span_render(const struct evt_record *r,
		       const struct evt_event_layout *l, const char *format,
		       char *out, size_t out_size)
{
	struct evt_span_head h;
	size_t len = 0, at, done;
	int n;

	if (evt_span_head_read(l, r->payload, r->payload_size, &h))
		return -1;
	if (l->kind == EVT_KIND_COUNTER)
		return h.real ? evt_real_text(out, out_size, h.real_value) :
		       snprintf(out, out_size, "%" PRId64, h.int_value);
	n = h.phase == EVT_SPAN_BEGIN ? snprintf(out, out_size, "begin") :
	    h.phase == EVT_SPAN_END ? snprintf(out, out_size, "end") :
	    snprintf(out, out_size, "phase %u", h.phase);
	if (n >= 0 && l->kind == EVT_KIND_ASYNC)
		n += snprintf(out + n, out_size - (size_t)n, " %" PRIu64, h.id);
	if (n < 0 || (size_t)n + 3 >= out_size)
		return -1;
	if (!*format)
		return n;
	at = (size_t)n;
	memcpy(out + at, ": ", 3);
	at += 2;
	if (evt_printk_render(format, &l->printk, r->payload + h.bytes,
			      r->payload_size - h.bytes, out + at, out_size - at,
			      &len) < 0)
		return -1;
	done = at + len;
	return (int)done;
}

int evt_span_head_read(const struct evt_event_layout *l, const uint8_t *p,
		       size_t size, struct evt_span_head *h)
{
	memset(h, 0, sizeof(*h));
	if (!evt_kind_is_span(l->kind))
		return -1;
	if (l->kind == EVT_KIND_COUNTER) {
		if (size < 8)
			return -1;
		h->real = l->types[0] == EVT_ARG_DOUBLE;
		if (h->real)
			memcpy(&h->real_value, p, 8);
		else
			memcpy(&h->int_value, p, 8);
		h->bytes = 8;
		return 0;
	}
	h->bytes = l->kind == EVT_KIND_ASYNC ? 9 : 1;
	if (size < h->bytes)
		return -1;
	h->phase = p[0];
	if (l->kind == EVT_KIND_ASYNC)
		memcpy(&h->id, p + 1, 8);
	return 0;
}

int evt_record_render(const struct evt_record *r,
		      const struct evt_event_layout *l, const char *format,
		      char *out, size_t out_size)
{
	size_t len;

	if (evt_event_kind_is_typed(l->kind))
		return evt_event_format_render(&l->typed, r->payload,
					       r->payload_size, out, out_size) < 0 ?
		       -1 : (int)strlen(out);
	if (evt_kind_is_span(l->kind))
		return span_render(r, l, format, out, out_size);
	return evt_printk_render(format, &l->printk, r->payload,
				 r->payload_size, out, out_size, &len) < 0 ?
	       -1 : (int)len;
}
