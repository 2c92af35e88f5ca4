/*
 * wire_record.c - a consumer.h record in a frame, for consumers that read
 * another user's processes through evtraced.
 */
#include <string.h>

#include <evtrace/consumer.h>

#include "protocol.h"

void evt_wire_record(struct evt_wire *w, const struct evt_consumer_record *r)
{
	unsigned i;

	evt_wire_u32(w, r->id);
	evt_wire_u64(w, (uint64_t)r->time_ns);
	evt_wire_u32(w, r->pid);
	evt_wire_u32(w, r->tid);
	evt_wire_u32(w, r->cpu);
	evt_wire_u64(w, r->lost);
	evt_wire_str(w, r->path);
	evt_wire_str(w, r->format);
	evt_wire_str(w, r->comm);
	evt_wire_bytes(w, r->text ? r->text : "", r->text ? r->text_len : 0);
	evt_wire_u32(w, r->nfields);
	for (i = 0; i < r->nfields; i++) {
		const struct evt_field *f = &r->fields[i];

		evt_wire_str(w, f->name);
		evt_wire_u8(w, (uint8_t)f->type);
		evt_wire_u8(w, f->label != NULL);
		if (f->label)
			evt_wire_str(w, f->label);
		switch (f->type) {
		case EVT_VALUE_STRING:
			evt_wire_str(w, f->value.s);
			break;
		case EVT_VALUE_ARRAY:
			evt_wire_u32(w, f->value.array.count);
			evt_wire_u8(w, f->value.array.elem_bytes);
			evt_wire_u8(w, f->value.array.is_signed);
			evt_wire_bytes(w, f->value.array.data, (size_t)f->value.array.count *
				       f->value.array.elem_bytes);
			break;
		default:	/* i, u and d: eight bytes */
			evt_wire_u64(w, f->value.u);
			break;
		}
	}
}

int evt_wire_get_record(struct evt_wire *w, struct evt_consumer_record *r,
			struct evt_field *fields, unsigned max)
{
	uint32_t n, i, text_len;

	memset(r, 0, sizeof(*r));
	r->id = evt_wire_get_u32(w);
	r->time_ns = (int64_t)evt_wire_get_u64(w);
	r->pid = evt_wire_get_u32(w);
	r->tid = evt_wire_get_u32(w);
	r->cpu = (uint16_t)evt_wire_get_u32(w);
	r->lost = evt_wire_get_u64(w);
	r->path = evt_wire_get_str(w);
	r->format = evt_wire_get_str(w);
	r->comm = evt_wire_get_str(w);
	r->text = evt_wire_get_bytes(w, &text_len);
	r->text_len = text_len;
	n = evt_wire_get_u32(w);
	if (w->bad || n > max)
		return -1;
	for (i = 0; i < n; i++) {
		struct evt_field *f = &fields[i];

		memset(f, 0, sizeof(*f));
		f->name = evt_wire_get_str(w);
		f->type = (enum evt_value_type)evt_wire_get_u8(w);
		if (evt_wire_get_u8(w))
			f->label = evt_wire_get_str(w);
		switch (f->type) {
		case EVT_VALUE_STRING:
			f->value.s = evt_wire_get_str(w);
			break;
		case EVT_VALUE_ARRAY: {
			uint32_t bytes;

			f->value.array.count = evt_wire_get_u32(w);
			f->value.array.elem_bytes = evt_wire_get_u8(w);
			f->value.array.is_signed = evt_wire_get_u8(w);
			f->value.array.data = evt_wire_get_bytes(w, &bytes);
			if ((f->value.array.elem_bytes != 1 && f->value.array.elem_bytes != 2 &&
			     f->value.array.elem_bytes != 4 && f->value.array.elem_bytes != 8) ||
			    bytes != (uint64_t)f->value.array.count * f->value.array.elem_bytes)
				return -1;
			break;
		}
		case EVT_VALUE_INT:
		case EVT_VALUE_UINT:
		case EVT_VALUE_DOUBLE:
			f->value.u = evt_wire_get_u64(w);
			break;
		default:
			return -1;
		}
	}
	if (w->bad)
		return -1;
	r->fields = n ? fields : NULL;
	r->nfields = n;
	if (r->lost)
		r->path = NULL, r->format = NULL;
	return 0;
}
