/*
 * field_text.h - an event's payload, as babeltrace2 hands it over, as
 * the text evtrace report gives it: a printk event's message rendered
 * from its format (which the metadata carries as the event class's EMF
 * URI) by evtrace's own renderer, a typed event's fields as name=value.
 */
#ifndef EVT_BT2_FIELD_TEXT_H
#define EVT_BT2_FIELD_TEXT_H

#include <stdio.h>

#include <babeltrace2/babeltrace.h>

/* Writes the text of the event's payload to f; format is the printk
 * format, or NULL for a typed event. */
void evt_bt2_payload_text(FILE *f, const bt_field *payload,
			  const char *format);

/* The same for a span, async span or counter (span/, async/, counter/):
 * "begin", "end 7", "begin: <message>", the counter's value, as report
 * gives them; format is a rider's printk format, or NULL. */
void evt_bt2_span_text(FILE *f, const bt_field *payload, const char *format);

#endif
