/*
 * json_text.c - JSON text built in memory (see json_text.h).
 */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "event_format.h"
#include "json_text.h"
#include "record_fields.h"
#include "safe_text.h"

void json_buf_put(struct json_buf *b, const void *p, size_t n)
{
	if (b->failed)
		return;
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 256;
		char *t;

		while (b->len + n + 1 > cap)
			cap *= 2;
		t = realloc(b->text, cap);
		if (!t) {
			b->failed = true;
			return;
		}
		b->text = t;
		b->cap = cap;
	}
	memcpy(b->text + b->len, p, n);
	b->len += n;
	b->text[b->len] = '\0';
}

static void put_c(struct json_buf *b, char c)
{
	if (b->len + 2 <= b->cap) {
		b->text[b->len++] = c;
		b->text[b->len] = '\0';
	} else {
		json_buf_put(b, &c, 1);
	}
}

void json_buf_puts(struct json_buf *b, const char *s)
{
	json_buf_put(b, s, strlen(s));
}

void json_buf_printf(struct json_buf *b, const char *fmt, ...)
{
	char tmp[64];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (n > 0)
		json_buf_put(b, tmp, (size_t)n < sizeof(tmp) ? (size_t)n : sizeof(tmp) - 1);
}

static void put_u64(struct json_buf *b, uint64_t v)
{
	char tmp[24], *p = tmp + sizeof(tmp);

	do
		*--p = (char)('0' + v % 10);
	while (v /= 10);
	json_buf_put(b, p, (size_t)(tmp + sizeof(tmp) - p));
}

static void put_i64(struct json_buf *b, int64_t v)
{
	if (v < 0) {
		put_c(b, '-');
		put_u64(b, -(uint64_t)v);
	} else {
		put_u64(b, (uint64_t)v);
	}
}

void json_buf_string(struct json_buf *b, const char *text, size_t n)
{
	const unsigned char *s = (const unsigned char *)text;
	size_t i = 0, len, plain;

	put_c(b, '"');
	while (i < n) {
		unsigned char c = s[i];

		/* A run that needs no escape goes in at once. */
		for (plain = i; plain < n && s[plain] >= 0x20 && s[plain] < 0x7f &&
		     s[plain] != '"' && s[plain] != '\\'; plain++)
			;
		if (plain > i) {
			json_buf_put(b, s + i, plain - i);
			i = plain;
			continue;
		}
		if (c == '"' || c == '\\') {
			put_c(b, '\\');
			put_c(b, (char)c);
			i++;
		} else if (c == '\n') {
			json_buf_puts(b, "\\n");
			i++;
		} else if (c == '\t') {
			json_buf_puts(b, "\\t");
			i++;
		} else if (c < 0x20 || c == 0x7f) {
			json_buf_printf(b, "\\u%04x", c);
			i++;
		} else if ((len = evt_utf8_length(s + i, n - i)) &&
			   evt_utf8_is_c1(s + i, len)) {	/* (for terminals) */
			json_buf_printf(b, "\\u%04x", s[i + 1]);
			i += len;
		} else if (len) {
			json_buf_put(b, s + i, len);
			i += len;
		} else {
			json_buf_puts(b, "\\ufffd");
			i++;
		}
	}
	put_c(b, '"');
}

void json_buf_array(struct json_buf *b, const struct evt_field *fl)
{
	uint32_t i;

	put_c(b, '[');
	for (i = 0; i < fl->value.array.count; i++) {
		uint64_t u = evt_field_element(fl, i);

		if (i)
			put_c(b, ',');
		if (fl->value.array.is_signed)
			put_i64(b, (int64_t)u);
		else
			put_u64(b, u);
	}
	put_c(b, ']');
}

static void json_value(struct json_buf *b, const struct evt_field *fl)
{
	char tmp[32];

	if (fl->label) {	/* an enum: its name */
		json_buf_string(b, fl->label, strlen(fl->label));
		return;
	}
	switch (fl->type) {
	case EVT_VALUE_INT:
		put_i64(b, fl->value.i);
		break;
	case EVT_VALUE_UINT:
		if (b->sql && fl->value.u > INT64_MAX) {
			put_c(b, '"');
			put_u64(b, fl->value.u);
			put_c(b, '"');
		} else {
			put_u64(b, fl->value.u);
		}
		break;
	case EVT_VALUE_DOUBLE:
		if (isfinite(fl->value.d)) {
			evt_real_text(tmp, sizeof(tmp), fl->value.d);
			json_buf_puts(b, tmp);
			if (b->sql && !strpbrk(tmp, ".e"))
				json_buf_puts(b, ".0");
		} else {
			json_buf_puts(b, "null");	/* JSON has no NaN or infinity */
		}
		break;
	case EVT_VALUE_STRING:
		json_buf_string(b, fl->value.s, strlen(fl->value.s));
		break;
	case EVT_VALUE_ARRAY:
		json_buf_array(b, fl);
		break;
	default:
		json_buf_puts(b, "null");
	}
}

void json_buf_field_list(struct json_buf *b, const struct evt_field *fields,
			 unsigned n)
{
	unsigned i;

	put_c(b, '{');
	for (i = 0; i < n; i++) {
		if (i)
			put_c(b, ',');
		json_buf_string(b, fields[i].name, strlen(fields[i].name));
		put_c(b, ':');
		json_value(b, &fields[i]);
	}
	put_c(b, '}');
}

void json_buf_fields(struct json_buf *b, const struct evt_trace_item *it)
{
	struct evt_field fields[EVT_FIELDS_MAX];
	evt_arg_name names[EVT_PRINTK_MAX_ARGS];
	const struct evt_event_layout *l = &it->event->layout;
	const struct evt_event_format *typed =
		evt_event_kind_is_typed(l->kind) ? &l->typed : NULL;
	int n, i;

	n = evt_record_fields(l, it->payload, it->payload_size, fields, names);
	put_c(b, '{');
	for (i = 0; i < n; i++) {
		const struct evt_field_format *fd = typed ? &typed->fields[i] : NULL;

		if (i)
			put_c(b, ',');
		json_buf_string(b, fields[i].name, strlen(fields[i].name));
		put_c(b, ':');
		if (fd && fd->kind == EVT_FIELD_BOOL)
			json_buf_puts(b, fields[i].value.u ? "true" : "false");
		else if (evt_field_is_text(&fields[i], fd))
			json_buf_string(b, fields[i].value.array.data,
					evt_field_text_len(&fields[i]));
		else
			json_value(b, &fields[i]);
	}
	put_c(b, '}');
}
