/*
 * span_kind.h - what the kinds of spans and counters store (layout.h):
 * shared by the library that writes them and every reader.
 */
#ifndef EVT_FORMAT_SPAN_KIND_H
#define EVT_FORMAT_SPAN_KIND_H

#include <stdbool.h>
#include <stdint.h>

#include "layout.h"

static inline bool evt_kind_is_span(unsigned kind)
{
	return kind == EVT_KIND_SPAN || kind == EVT_KIND_ASYNC ||
	       kind == EVT_KIND_COUNTER;
}

/* The first part of the path of kind's events: span, async, counter. */
static inline const char *evt_span_kind_prefix(unsigned kind)
{
	return kind == EVT_KIND_SPAN ? "span" :
	       kind == EVT_KIND_ASYNC ? "async" : "counter";
}

/* The types of the head every record of kind stores (a counter's value
 * a double when real); their number. */
static inline unsigned evt_span_head(unsigned kind, bool real, uint8_t *types)
{
	switch (kind) {
	case EVT_KIND_SPAN:
		types[0] = EVT_ARG_U8;
		return 1;
	case EVT_KIND_ASYNC:
		types[0] = EVT_ARG_U8;
		types[1] = EVT_ARG_U64;
		return 2;
	default:
		types[0] = real ? EVT_ARG_DOUBLE : EVT_ARG_I64;
		return 1;
	}
}

#endif
