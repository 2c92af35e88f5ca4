/*
 * json_text.h - JSON text built in memory: strings made valid UTF-8, and
 * an event's decoded fields as an object (report --json, query's fields
 * and args, converters).
 */
#ifndef EVT_READER_JSON_TEXT_H
#define EVT_READER_JSON_TEXT_H

#include <stdbool.h>
#include <stddef.h>

#include "trace_reader.h"

/* JSON text built in memory; failed once out of memory (then text is
 * what fitted). */
struct json_buf {
	char *text;		/* NUL-terminated */
	size_t len, cap;
	bool failed;
	bool sql;		/* numbers as SQLite's json_each must type them:
				 * reals with a point or exponent, integers
				 * past INT64_MAX as text */
};

void json_buf_put(struct json_buf *b, const void *p, size_t n);
void json_buf_puts(struct json_buf *b, const char *s);
void json_buf_printf(struct json_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* A JSON string of n bytes; what is not UTF-8 becomes U+FFFD. */
void json_buf_string(struct json_buf *b, const char *text, size_t n);
/* An array field as a JSON array of its integers. */
struct evt_field;
void json_buf_array(struct json_buf *b, const struct evt_field *fl);
/* An event's decoded fields as a JSON object. */
void json_buf_fields(struct json_buf *b, const struct evt_trace_item *it);
/* A JSON object of n fields, as evt_record_fields() gives them. */
void json_buf_field_list(struct json_buf *b, const struct evt_field *fields,
			 unsigned n);

#endif
