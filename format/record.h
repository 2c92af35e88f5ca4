/*
 * record.h - decode one record (layout.h): header, context, payload.
 * Used by every reader of records, from trace files or from live buffers.
 *
 * How a payload is laid out depends on the event's kind: printk and
 * ftrace events store the arguments of their format string, typed and
 * stable events the fields of their format text (event_format.h).
 */
#ifndef EVT_FORMAT_RECORD_H
#define EVT_FORMAT_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "event_format.h"
#include "lost_record.h"
#include "printk_format.h"
#include "record_header.h"

struct evt_record {
	uint16_t id;
	uint16_t cpu;
	uint64_t timestamp;
	unsigned header_bytes;
	const uint8_t *payload;
	size_t payload_size;
};

/* An event's payload layout, parsed from its kind and format. */
struct evt_event_layout {
	uint16_t kind;			/* enum evt_event_kind */
	uint8_t nargs;			/* printk, spans: stored argument types */
	uint8_t head;			/* spans: of them, the head's (layout.h) */
	uint8_t types[EVT_PRINTK_MAX_ARGS];
	/* printk, spans: whether a stored argument is a string, and the
	 * bytes of the others (a record without strings is that long) */
	bool strings;
	uint16_t fixed_bytes;
	struct evt_printk_format printk;
	struct evt_event_format typed;	/* owned; typed and stable kinds */
};

/*
 * Parses format by kind, and for printk kinds checks it against the
 * stored argument types.  0, or -1 with why set (the layout is then empty).
 */
int evt_event_layout_load(struct evt_event_layout *l, unsigned kind,
			  const char *format, const uint8_t *types,
			  unsigned nargs, char *why, size_t why_size);
void evt_event_layout_free(struct evt_event_layout *l);
/* The head of a span's or counter's record (layout.h). */
struct evt_span_head {
	uint8_t phase;			/* enum evt_span_phase */
	bool real;			/* a counter of doubles */
	uint64_t id;			/* async */
	int64_t int_value;		/* counters */
	double real_value;
	unsigned bytes;			/* the head's; the arguments follow */
};

/* Reads the head of a span's or counter's payload p (size bytes): 0, or
 * -1 when l is of another kind or p too short. */
int evt_span_head_read(const struct evt_event_layout *l, const uint8_t *p,
		       size_t size, struct evt_span_head *h);

static inline int evt_event_kind_is_typed(unsigned kind)
{
	return kind == EVT_KIND_TYPED || kind == EVT_KIND_STABLE ||
	       kind == EVT_KIND_KERNEL;
}

/* Reads the header at p (avail bytes), the packet's records before it
 * having gone through st (reset at the packet's start).  0, or -1 when
 * truncated or not to be read there. */
int evt_record_header(const uint8_t *p, size_t avail, struct evt_hdr_state *st,
		      struct evt_record *r);
/* Sets the payload of r; the whole record then takes header_bytes +
 * payload_size.  0, or -1 when the payload runs past avail (counted from
 * the record's start). */
int evt_record_payload(struct evt_record *r, const struct evt_event_layout *l,
		       size_t avail);
/* A record of evtrace/lost (lost_record.h; its id is EVT_LOST_EVENT_ID):
 * its payload set and read into e.  0, or -1 when it runs past avail
 * (counted from the record's start) or names no cause. */
int evt_record_lost(struct evt_record *r, size_t avail,
		    struct evt_lost_entry *e);
/*
 * The payload as text: a printk message as printf would have made it
 * (format is the printk format), or `field=value ...`.  Returns the text's
 * length (a printk %c of 0 leaves a NUL inside it, as printf does), or -1
 * when the payload does not fit the layout.
 */
int evt_record_render(const struct evt_record *r,
		      const struct evt_event_layout *l, const char *format,
		      char *out, size_t out_size);

#endif
