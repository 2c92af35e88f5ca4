/*
 * kernel_text.c - kernel events by their print fmt (see kernel_text.h):
 * the fields are packed back into the payload evtrace stored (its
 * event format's order and sizes, little endian) and handed to the same
 * printer report uses.
 */
#include <stdlib.h>
#include <string.h>

#include "kernel_print.h"
#include "kernel_text.h"

struct printer {
	const bt_event_class *cls;
	struct evt_kernel_print *p;	/* NULL: its format cannot print */
};

struct evt_bt2_kernels {
	struct printer *v;
	size_t n, cap;
	uint8_t *buf;
	size_t buf_cap;
};

void evt_bt2_kernels_free(struct evt_bt2_kernels *k)
{
	size_t i;

	if (!k)
		return;
	for (i = 0; i < k->n; i++)
		evt_kernel_print_free(k->v[i].p);
	free(k->v);
	free(k->buf);
	free(k);
}

/* A sys_exit_ class's sys_enter_ sibling in its stream class, whose
 * format types the arguments a resumed call shows; or NULL. */
static const bt_event_class *enter_class(const bt_event_class *cls, const char *name)
{
	const bt_stream_class *sc = bt_event_class_borrow_stream_class_const(cls);
	const char *prefix = "kernel/syscalls/sys_exit_";
	uint64_t i, n = bt_stream_class_get_event_class_count(sc);

	if (strncmp(name, prefix, strlen(prefix)))
		return NULL;
	for (i = 0; i < n; i++) {
		const bt_event_class *e = bt_stream_class_borrow_event_class_by_index_const(sc, i);
		const char *other = bt_event_class_get_name(e);

		if (other && !strncmp(other, "kernel/syscalls/sys_enter_", 26) &&
		    !strcmp(other + 26, name + strlen(prefix)) &&
		    bt_event_class_get_emf_uri(e))
			return e;
	}
	return NULL;
}

static struct printer *printer_of(struct evt_bt2_kernels *k,
				  const bt_event_class *cls, const char *name,
				  const char *format)
{
	char *paths[2] = { (char *)name }, *texts[2] = { (char *)format };
	const bt_event_class *enter = enter_class(cls, name);
	size_t i;

	for (i = 0; i < k->n; i++)
		if (k->v[i].cls == cls)
			return &k->v[i];
	if (k->n == k->cap) {
		size_t cap = k->cap ? 2 * k->cap : 16;
		struct printer *grown = realloc(k->v, cap * sizeof(*grown));

		if (!grown)
			return NULL;
		k->v = grown;
		k->cap = cap;
	}
	if (enter) {
		paths[1] = (char *)bt_event_class_get_name(enter);
		texts[1] = (char *)bt_event_class_get_emf_uri(enter);
	}
	k->v[k->n] = (struct printer){ cls, evt_kernel_print_new(paths, texts,
								 enter ? 2 : 1) };
	return &k->v[k->n++];
}

static uint8_t *room(struct evt_bt2_kernels *k, size_t used, size_t more)
{
	if (used + more > k->buf_cap) {
		size_t cap = 2 * (used + more) + 256;
		uint8_t *grown = realloc(k->buf, cap);

		if (!grown)
			return NULL;
		k->buf = grown;
		k->buf_cap = cap;
	}
	return k->buf + used;
}

static int put_integer(const bt_field *fl, unsigned bytes, uint8_t *out)
{
	bt_field_class_type t = bt_field_get_class_type(fl);
	uint64_t v;
	unsigned b;

	if (bt_field_class_type_is(t, BT_FIELD_CLASS_TYPE_SIGNED_INTEGER))
		v = (uint64_t)bt_field_integer_signed_get_value(fl);
	else if (bt_field_class_type_is(t, BT_FIELD_CLASS_TYPE_UNSIGNED_INTEGER))
		v = bt_field_integer_unsigned_get_value(fl);
	else if (t == BT_FIELD_CLASS_TYPE_BOOL)
		v = bt_field_bool_get_value(fl);
	else
		return -1;
	for (b = 0; b < bytes; b++)	/* little endian */
		out[b] = (uint8_t)(v >> (8 * b));
	return 0;
}

/* The payload as evtrace stored it, from the fields f names; its size
 * or -1. */
static long pack(struct evt_bt2_kernels *k, const struct evt_event_format *f,
		 const bt_field *payload)
{
	size_t used = 0;
	uint32_t i;

	for (i = 0; i < f->nfields; i++) {
		const struct evt_field_format *fd = &f->fields[i];
		const bt_field *fl = bt_field_structure_borrow_member_field_by_name_const(
			payload, fd->name);
		unsigned bytes = fd->size_bits / 8;
		uint64_t n, e;
		uint8_t *p;

		if (!fl)
			return -1;
		switch (fd->kind) {
		case EVT_FIELD_STRING: {
			const char *s = bt_field_get_class_type(fl) == BT_FIELD_CLASS_TYPE_STRING ?
					bt_field_string_get_value(fl) : NULL;
			size_t len = s ? strlen(s) + 1 : 0;

			if (!s || !(p = room(k, used, len)))
				return -1;
			memcpy(p, s, len);
			used += len;
			break;
		}
		case EVT_FIELD_ARRAY:
			if (!(p = room(k, used, (size_t)fd->count * bytes)))
				return -1;
			memset(p, 0, (size_t)fd->count * bytes);
			if (bt_field_get_class_type(fl) == BT_FIELD_CLASS_TYPE_STRING) {
				/* (a char array, UTF-8 in the metadata) */
				const char *s = bt_field_string_get_value(fl);
				size_t len = strlen(s);

				memcpy(p, s, len < fd->count ? len : fd->count);
			} else {
				n = bt_field_array_get_length(fl);
				for (e = 0; e < n && e < fd->count; e++)
					if (put_integer(bt_field_array_borrow_element_field_by_index_const(fl, e),
							bytes, p + e * bytes))
						return -1;
			}
			used += (size_t)fd->count * bytes;
			break;
		case EVT_FIELD_SEQUENCE: {
			uint32_t count;

			n = bt_field_array_get_length(fl);
			count = (uint32_t)n;
			if (!(p = room(k, used, 4 + n * bytes)))
				return -1;
			memcpy(p, &count, 4);
			for (e = 0; e < n; e++)
				if (put_integer(bt_field_array_borrow_element_field_by_index_const(fl, e),
						bytes, p + 4 + e * bytes))
					return -1;
			used += 4 + n * bytes;
			break;
		}
		default:
			if (!(p = room(k, used, bytes)) || put_integer(fl, bytes, p))
				return -1;
			used += bytes;
		}
	}
	return (long)used;
}

int evt_bt2_kernel_text(struct evt_bt2_kernels **k, const bt_event_class *cls,
			const char *name, const char *format,
			const bt_field *payload, uint32_t tid, uint16_t cpu,
			char *out, size_t out_size)
{
	const struct evt_event_format *f;
	struct printer *pr;
	long n;

	if (!*k && !(*k = calloc(1, sizeof(**k))))
		return -1;
	if (!(pr = printer_of(*k, cls, name, format)) || !pr->p ||
	    !(f = evt_kernel_print_format(pr->p, 0)) ||
	    (n = pack(*k, f, payload)) < 0)
		return -1;
	return evt_kernel_print_payload(pr->p, 0, (*k)->buf, (size_t)n, tid, cpu,
					out, out_size);
}
