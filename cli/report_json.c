/*
 * report_json.c - report --json: each event or lost-events notice as one
 * JSON object on a line of its own, with the event's decoded fields.
 */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "event_format.h"
#include "record_fields.h"
#include "report_output.h"

/* Length of the valid UTF-8 sequence at s (n bytes left), or 0. */
static size_t utf8_length(const unsigned char *s, size_t n)
{
	size_t len, i;
	uint32_t cp;

	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xe0) == 0xc0)
		len = 2, cp = s[0] & 0x1f;
	else if ((s[0] & 0xf0) == 0xe0)
		len = 3, cp = s[0] & 0x0f;
	else if ((s[0] & 0xf8) == 0xf0)
		len = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (len > n)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* overlong forms, surrogates, beyond Unicode */
	if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) ||
	    (len == 4 && cp < 0x10000) || (cp >= 0xd800 && cp <= 0xdfff) ||
	    cp > 0x10ffff)
		return 0;
	return len;
}

void report_json_string(FILE *f, const char *text, size_t n)
{
	const unsigned char *s = (const unsigned char *)text;
	size_t i = 0, len;

	putc('"', f);
	while (i < n) {
		unsigned char c = s[i];

		if (c == '"' || c == '\\') {
			fprintf(f, "\\%c", c);
			i++;
		} else if (c == '\n') {
			fputs("\\n", f);
			i++;
		} else if (c == '\t') {
			fputs("\\t", f);
			i++;
		} else if (c < 0x20 || c == 0x7f) {
			fprintf(f, "\\u%04x", c);
			i++;
		} else if ((len = utf8_length(s + i, n - i))) {
			fwrite(s + i, 1, len, f);
			i += len;
		} else {
			fputs("\\ufffd", f);
			i++;
		}
	}
	putc('"', f);
}

static void json_array(FILE *f, const struct evt_field *fl)
{
	const uint8_t *p = fl->value.array.data;
	unsigned w = fl->value.array.elem_bytes;
	uint32_t i;

	putc('[', f);
	for (i = 0; i < fl->value.array.count; i++, p += w) {
		uint64_t u = 0;
		unsigned b;

		for (b = 0; b < w; b++)	/* little endian */
			u |= (uint64_t)p[b] << (8 * b);
		if (i)
			putc(',', f);
		if (fl->value.array.is_signed && w < 8 && (u >> (8 * w - 1)) & 1)
			u |= ~0ULL << (8 * w);	/* sign-extended */
		if (fl->value.array.is_signed)
			fprintf(f, "%" PRId64, (int64_t)u);
		else
			fprintf(f, "%" PRIu64, u);
	}
	putc(']', f);
}

static void json_value(FILE *f, const struct evt_field *fl)
{
	if (fl->label) {	/* an enum: its name */
		report_json_string(f, fl->label, strlen(fl->label));
		return;
	}
	switch (fl->type) {
	case EVT_VALUE_INT:
		fprintf(f, "%" PRId64, fl->value.i);
		break;
	case EVT_VALUE_UINT:
		fprintf(f, "%" PRIu64, fl->value.u);
		break;
	case EVT_VALUE_DOUBLE:
		if (isfinite(fl->value.d))
			fprintf(f, "%.17g", fl->value.d);
		else
			fputs("null", f);	/* JSON has no NaN or infinity */
		break;
	case EVT_VALUE_STRING:
		report_json_string(f, fl->value.s, strlen(fl->value.s));
		break;
	case EVT_VALUE_ARRAY:
		json_array(f, fl);
		break;
	default:
		fputs("null", f);
	}
}

void report_json_fields(FILE *f, const struct evt_trace_item *it)
{
	struct evt_field fields[EVT_FIELDS_MAX];
	evt_arg_name names[EVT_PRINTK_MAX_ARGS];
	const struct evt_event_layout *l = &it->event->layout;
	const struct evt_event_format *typed =
		evt_event_kind_is_typed(l->kind) ? &l->typed : NULL;
	int n, i;

	n = evt_record_fields(l, it->payload, it->payload_size,
			      fields, names);
	putc('{', f);
	for (i = 0; i < n; i++) {
		const struct evt_field_format *fd = typed ? &typed->fields[i] : NULL;

		if (i)
			putc(',', f);
		report_json_string(f, fields[i].name, strlen(fields[i].name));
		putc(':', f);
		if (fd && fd->kind == EVT_FIELD_BOOL)
			fputs(fields[i].value.u ? "true" : "false", f);
		else if (fd && fields[i].type == EVT_VALUE_ARRAY &&
			 !strcmp(fd->type, "char")) {	/* text, to its NUL */
			const char *s = fields[i].value.array.data;
			const char *nul = memchr(s, '\0', fields[i].value.array.count);

			report_json_string(f, s, nul ? (size_t)(nul - s) :
				    fields[i].value.array.count);
		} else
			json_value(f, &fields[i]);
	}
	putc('}', f);
}

void report_json_item(FILE *f, const struct evt_trace_item *it)
{
	fprintf(f, "{\"time_ns\":%" PRId64 ",\"realtime_ns\":%" PRId64
		",\"pid\":%" PRIu32 ",\"tid\":%" PRIu32 ",\"comm\":",
		it->monotonic_ns, it->realtime_ns, it->pid, it->tid);
	report_json_string(f, it->comm, strlen(it->comm));
	if (it->kind == EVT_ITEM_LOST) {
		fprintf(f, ",\"lost\":%" PRIu64 "}\n", it->lost);
		return;
	}
	fprintf(f, ",\"cpu\":%u,\"event\":", it->cpu);
	report_json_string(f, it->event->path, strlen(it->event->path));
	fputs(",\"message\":", f);
	report_json_string(f, it->text, it->text_len && it->text[it->text_len - 1] == '\n' ?
		    it->text_len - 1 : it->text_len);
	fputs(",\"fields\":", f);
	report_json_fields(f, it);
	fputs("}\n", f);
}
