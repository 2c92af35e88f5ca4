/*
 * record_fields.h - a record's payload as the fields of consumer.h: name,
 * type and value of each typed field or printk argument.
 */
#ifndef EVT_FORMAT_RECORD_FIELDS_H
#define EVT_FORMAT_RECORD_FIELDS_H

#include <stdbool.h>
#include <stddef.h>

#include <evtrace/consumer.h>

#include "record.h"

/* Room for the names of printk arguments: "arg31_precision". */
typedef char evt_arg_name[24];

/*
 * Fills out[] (EVT_FIELDS_MAX entries at least) from the payload, which
 * must outlive them: strings and arrays point into it; printk argument
 * names go into names[] (EVT_PRINTK_MAX_ARGS entries).  Returns the number
 * of fields, or -1 when the payload does not fit the layout.
 */
int evt_record_fields(const struct evt_event_layout *l, const uint8_t *payload,
		      size_t size, struct evt_field *out, evt_arg_name *names);
/* Element i of an array field, widened to 64 bits (sign-extended when
 * its elements are signed). */
uint64_t evt_field_element(const struct evt_field *fl, uint32_t i);
/* Whether a field is text: an array of char (fd its format, or NULL). */
bool evt_field_is_text(const struct evt_field *fl, const struct evt_field_format *fd);
/* The length of such a field's text: up to its first NUL. */
size_t evt_field_text_len(const struct evt_field *fl);

#endif
