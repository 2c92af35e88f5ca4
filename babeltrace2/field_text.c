/*
 * field_text.c - payload fields as evtrace report's text (see
 * field_text.h).
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "field_text.h"
#include "layout.h"
#include "printk_format.h"

/* The payload as the traced process stored it: each argument in its
 * storage type, little endian, strings with their NUL. */
static long pack_args(const bt_field *payload, unsigned first,
		      const struct evt_printk_format *pf, uint8_t *out, size_t cap)
{
	uint64_t n = bt_field_class_structure_get_member_count(
		bt_field_borrow_class_const(payload));
	size_t used = 0;
	unsigned i;

	if (n != first + pf->nargs)
		return -1;
	for (i = 0; i < pf->nargs; i++) {
		const bt_field *fl =
			bt_field_structure_borrow_member_field_by_index_const(payload, first + i);
		bt_field_class_type t = bt_field_get_class_type(fl);
		size_t size = evt_arg_type_size(pf->arg_types[i]);
		uint64_t bits;

		if (pf->arg_types[i] == EVT_ARG_STRING) {
			const char *s = t == BT_FIELD_CLASS_TYPE_STRING ?
					bt_field_string_get_value(fl) : "";
			size_t len = strlen(s) + 1;

			if (used + len > cap)
				return -1;
			memcpy(out + used, s, len);
			used += len;
			continue;
		}
		if (!size || used + size > cap)
			return -1;
		if (bt_field_class_type_is(t, BT_FIELD_CLASS_TYPE_DOUBLE_PRECISION_REAL)) {
			double d = bt_field_real_double_precision_get_value(fl);

			memcpy(&bits, &d, sizeof(bits));
		} else if (bt_field_class_type_is(t, BT_FIELD_CLASS_TYPE_SIGNED_INTEGER)) {
			bits = (uint64_t)bt_field_integer_signed_get_value(fl);
		} else if (bt_field_class_type_is(t, BT_FIELD_CLASS_TYPE_UNSIGNED_INTEGER)) {
			bits = bt_field_integer_unsigned_get_value(fl);
		} else {
			return -1;
		}
		for (size_t b = 0; b < size; b++)	/* little endian */
			out[used + b] = (uint8_t)(bits >> (8 * b));
		used += size;
	}
	return (long)used;
}

static void value_text(FILE *f, const bt_field *fl);

static void array_text(FILE *f, const bt_field *fl)
{
	uint64_t n = bt_field_array_get_length(fl), i;

	/* (char arrays, UTF-8 in the metadata, arrive as strings) */
	fputc('[', f);
	for (i = 0; i < n; i++) {
		if (i)
			fputs(", ", f);
		value_text(f, bt_field_array_borrow_element_field_by_index_const(fl, i));
	}
	fputc(']', f);
}

static void value_text(FILE *f, const bt_field *fl)
{
	bt_field_class_type t = bt_field_get_class_type(fl);
	bt_field_class_enumeration_mapping_label_array labels;
	uint64_t nlabels = 0;

	if (t == BT_FIELD_CLASS_TYPE_STRING) {
		fprintf(f, "\"%s\"", bt_field_string_get_value(fl));
	} else if (bt_field_class_type_is(t, BT_FIELD_CLASS_TYPE_ENUMERATION)) {
		bt_field_enumeration_get_mapping_labels_status st =
			bt_field_class_type_is(t, BT_FIELD_CLASS_TYPE_SIGNED_ENUMERATION) ?
			bt_field_enumeration_signed_get_mapping_labels(fl, &labels, &nlabels) :
			bt_field_enumeration_unsigned_get_mapping_labels(fl, &labels, &nlabels);

		if (st == BT_FIELD_ENUMERATION_GET_MAPPING_LABELS_STATUS_OK && nlabels)
			fputs(labels[0], f);
		else if (bt_field_class_type_is(t, BT_FIELD_CLASS_TYPE_SIGNED_ENUMERATION))
			fprintf(f, "%" PRId64, bt_field_integer_signed_get_value(fl));
		else
			fprintf(f, "%" PRIu64, bt_field_integer_unsigned_get_value(fl));
	} else if (bt_field_class_type_is(t, BT_FIELD_CLASS_TYPE_SIGNED_INTEGER)) {
		fprintf(f, "%" PRId64, bt_field_integer_signed_get_value(fl));
	} else if (bt_field_class_type_is(t, BT_FIELD_CLASS_TYPE_UNSIGNED_INTEGER)) {
		fprintf(f, "%" PRIu64, bt_field_integer_unsigned_get_value(fl));
	} else if (bt_field_class_type_is(t, BT_FIELD_CLASS_TYPE_DOUBLE_PRECISION_REAL)) {
		fprintf(f, "%g", bt_field_real_double_precision_get_value(fl));
	} else if (bt_field_class_type_is(t, BT_FIELD_CLASS_TYPE_SINGLE_PRECISION_REAL)) {
		fprintf(f, "%g", (double)bt_field_real_single_precision_get_value(fl));
	} else if (t == BT_FIELD_CLASS_TYPE_BOOL) {
		fputs(bt_field_bool_get_value(fl) ? "true" : "false", f);
	} else if (bt_field_class_type_is(t, BT_FIELD_CLASS_TYPE_ARRAY)) {
		array_text(f, fl);
	} else {
		fputs("?", f);
	}
}

/* A sequence's length, "_<name>_length" (read without the first '_' of
 * its TSDL name) before "<name>": not one of the event's fields. */
static bool is_sequence_length(const bt_field_class *cls, uint64_t i,
			       const char *name)
{
	size_t n = strlen(name);
	const char *next;

	if (name[0] != '_' || n < 9 || strcmp(name + n - 7, "_length") ||
	    i + 1 >= bt_field_class_structure_get_member_count(cls))
		return false;
	next = bt_field_class_structure_member_get_name(
		bt_field_class_structure_borrow_member_by_index_const(cls, i + 1));
	return strlen(next) == n - 8 && !strncmp(next, name + 1, n - 8);
}

/* A typed event: name=value, space-separated, as report prints. */
static void fields_text(FILE *f, const bt_field *payload)
{
	const bt_field_class *cls = bt_field_borrow_class_const(payload);
	uint64_t n = bt_field_class_structure_get_member_count(cls), i;
	bool first = true;

	for (i = 0; i < n; i++) {
		const bt_field_class_structure_member *m =
			bt_field_class_structure_borrow_member_by_index_const(cls, i);
		const char *name = bt_field_class_structure_member_get_name(m);

		if (is_sequence_length(cls, i, name))
			continue;
		fprintf(f, "%s%s=", first ? "" : " ", name);
		first = false;
		value_text(f, bt_field_structure_borrow_member_field_by_index_const(payload, i));
	}
}

/* The message of the printk format, its arguments the payload's members
 * from first on; 0, or -1 when they do not fit the format. */
static int render(FILE *f, const bt_field *payload, unsigned first,
		  const char *format)
{
	struct evt_printk_format pf;
	uint8_t *args = malloc(EVT_RENDER_MAX_BYTES);
	char *text = malloc(EVT_RENDER_MAX_BYTES + 1), err[256];
	size_t len = 0;
	long n;
	int ret = -1;

	if (args && text && !evt_printk_parse(format, &pf, err, sizeof(err)) &&
	    (n = pack_args(payload, first, &pf, args, EVT_RENDER_MAX_BYTES)) >= 0 &&
	    evt_printk_render(format, &pf, args, (size_t)n, text,
			      EVT_RENDER_MAX_BYTES + 1, &len) >= 0) {
		if (len && text[len - 1] == '\n')
			len--;
		fwrite(text, 1, len, f);
		ret = 0;
	}
	free(args);
	free(text);
	return ret;
}

void evt_bt2_span_text(FILE *f, const bt_field *payload, const char *format)
{
	const bt_field_class *cls = bt_field_borrow_class_const(payload);
	uint64_t n = bt_field_class_structure_get_member_count(cls);
	const bt_field *head, *id;
	unsigned first = 1;
	char real[32];

	if (!n)
		return;
	head = bt_field_structure_borrow_member_field_by_index_const(payload, 0);
	if (!strcmp(bt_field_class_structure_member_get_name(
		    bt_field_class_structure_borrow_member_by_index_const(cls, 0)), "value")) {
		if (bt_field_class_type_is(bt_field_get_class_type(head),
					   BT_FIELD_CLASS_TYPE_DOUBLE_PRECISION_REAL)) {
			evt_real_text(real, sizeof(real),
				      bt_field_real_double_precision_get_value(head));
			fputs(real, f);
		} else {
			value_text(f, head);
		}
		return;
	}
	value_text(f, head);		/* the phase: begin or end */
	id = bt_field_structure_borrow_member_field_by_name_const(payload, "id");
	if (id) {
		fputc(' ', f);
		value_text(f, id);
		first = 2;
	}
	if (format && n > first) {
		fputs(": ", f);
		if (render(f, payload, first, format))
			fputs("?", f);
	}
}

void evt_bt2_payload_text(FILE *f, const bt_field *payload, const char *format)
{
	if (!format || render(f, payload, 0, format))
		fields_text(f, payload);	/* the arguments, at least */
}
