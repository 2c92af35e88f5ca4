/*
 * record_fields.c - decode a payload into fields (see record_fields.h).
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "layout.h"
#include "record_fields.h"
#include "span_kind.h"

static uint64_t load_le(const uint8_t *p, unsigned bytes)
{
	uint64_t v = 0;

	memcpy(&v, p, bytes);	/* little endian, as the host */
	return v;
}

static int64_t sign_extend(uint64_t v, unsigned bytes)
{
	unsigned shift = 64 - 8 * bytes;

	return bytes == 8 ? (int64_t)v : (int64_t)(v << shift) >> shift;
}

static void integer(struct evt_field *f, const uint8_t *p, unsigned bytes,
		    bool is_signed)
{
	uint64_t v = load_le(p, bytes);

	if (is_signed) {
		f->type = EVT_VALUE_INT;
		f->value.i = sign_extend(v, bytes);
	} else {
		f->type = EVT_VALUE_UINT;
		f->value.u = v;
	}
}

static int typed_fields(const struct evt_event_format *fmt, const uint8_t *p,
			size_t size, struct evt_field *out)
{
	size_t off = 0;
	uint32_t i, j;

	for (i = 0; i < fmt->nfields; i++) {
		const struct evt_field_format *fd = &fmt->fields[i];
		struct evt_field *f = &out[i];
		long n = evt_event_field_bytes(fd, p + off, size - off);
		unsigned bytes = fd->size_bits / 8;
		uint32_t count;

		if (n < 0)
			return -1;
		memset(f, 0, sizeof(*f));
		f->name = fd->name;
		switch (fd->kind) {
		case EVT_FIELD_INTEGER:
			integer(f, p + off, bytes, fd->is_signed);
			break;
		case EVT_FIELD_ENUM:
			integer(f, p + off, bytes, fd->is_signed);
			for (j = 0; j < fd->nvalues; j++)
				if ((fd->is_signed ? f->value.i : (int64_t)f->value.u) ==
				    fd->values[j].value)
					f->label = fd->values[j].name;
			break;
		case EVT_FIELD_BOOL:
			f->type = EVT_VALUE_UINT;
			f->value.u = p[off] != 0;
			break;
		case EVT_FIELD_DOUBLE:
			f->type = EVT_VALUE_DOUBLE;
			memcpy(&f->value.d, p + off, 8);
			break;
		case EVT_FIELD_STRING:
			f->type = EVT_VALUE_STRING;
			f->value.s = (const char *)p + off;
			break;
		case EVT_FIELD_ARRAY:
		case EVT_FIELD_SEQUENCE:
			f->type = EVT_VALUE_ARRAY;
			count = fd->count;
			f->value.array.data = p + off;
			if (fd->kind == EVT_FIELD_SEQUENCE) {
				memcpy(&count, p + off, 4);
				f->value.array.data = p + off + 4;
			}
			f->value.array.count = count;
			f->value.array.elem_bytes = (uint8_t)bytes;
			f->value.array.is_signed = fd->is_signed;
			break;
		}
		off += (size_t)n;
	}
	return (int)fmt->nfields;
}

/* Argument names as the CTF metadata has them: a spec's value is
 * arg<spec>, its '*' width and precision arg<spec>_width, _precision. */
/* "arg<spec><suffix>", as snprintf would write it, without its cost
 * (it runs for every argument of every event a trigger reads). */
static void arg_name(char *out, size_t size, unsigned spec, const char *suffix)
{
	char digits[10];
	size_t n = 0, at = 0;

	do
		digits[n++] = (char)('0' + spec % 10);
	while ((spec /= 10) && n < sizeof(digits));
	for (const char *c = "arg"; *c && at + 1 < size; c++)
		out[at++] = *c;
	while (n && at + 1 < size)
		out[at++] = digits[--n];
	for (; *suffix && at + 1 < size; suffix++)
		out[at++] = *suffix;
	out[at] = '\0';
}

static int printk_fields(const struct evt_printk_format *pf,
			 const uint8_t *types, unsigned nargs, const uint8_t *p,
			 size_t size, struct evt_field *out, evt_arg_name *names)
{
	unsigned spec = 0, part = 0, i;
	size_t off = 0;

	for (i = 0; i < nargs; i++) {
		const struct evt_printk_spec *sp = &pf->specs[spec];
		struct evt_field *f = &out[i];
		uint8_t t = types[i];
		const char *suffix = "";

		if (spec >= pf->nspecs)
			return -1;
		if (part < sp->star_width)
			suffix = "_width";
		else if (part < (unsigned)sp->star_width + sp->star_precision)
			suffix = "_precision";
		arg_name(names[i], sizeof(names[i]), spec, suffix);
		memset(f, 0, sizeof(*f));
		f->name = names[i];
		if (t == EVT_ARG_STRING) {
			const uint8_t *nul = off < size ? memchr(p + off, '\0', size - off) : NULL;

			if (!nul)
				return -1;
			f->type = EVT_VALUE_STRING;
			f->value.s = (const char *)p + off;
			off = (size_t)(nul - p) + 1;
		} else {
			size_t n = evt_arg_type_size(t);

			if (n == 0 || n > size - off || off > size)
				return -1;
			if (t == EVT_ARG_DOUBLE) {
				f->type = EVT_VALUE_DOUBLE;
				memcpy(&f->value.d, p + off, 8);
			} else {
				integer(f, p + off, (unsigned)n,
					t == EVT_ARG_I8 || t == EVT_ARG_I16 ||
					t == EVT_ARG_I32 || t == EVT_ARG_I64);
			}
			off += n;
		}
		if (++part > (unsigned)sp->star_width + sp->star_precision) {
			part = 0;
			spec++;
		}
	}
	return (int)nargs;
}

/* A span's head as the CTF metadata names it (phase, id; a counter's
 * value), then its arguments as a printk event's. */
static int span_fields(const struct evt_event_layout *l, const uint8_t *p,
		       size_t size, struct evt_field *out, evt_arg_name *names)
{
	unsigned n = 0, bytes = 0;
	int args;

	memset(out, 0, l->head * sizeof(*out));
	if (l->kind == EVT_KIND_COUNTER) {
		if (size < 8)
			return -1;
		out[0].name = "value";
		if (l->types[0] == EVT_ARG_DOUBLE) {
			out[0].type = EVT_VALUE_DOUBLE;
			memcpy(&out[0].value.d, p, 8);
		} else {
			integer(&out[0], p, 8, true);
		}
		return 1;
	}
	if (size < (l->kind == EVT_KIND_ASYNC ? 9u : 1u))
		return -1;
	out[n].name = "phase";
	integer(&out[n++], p, 1, false);
	bytes = 1;
	if (l->kind == EVT_KIND_ASYNC) {
		out[n].name = "id";
		integer(&out[n++], p + 1, 8, false);
		bytes = 9;
	}
	args = printk_fields(&l->printk, l->types + n, l->nargs - n, p + bytes,
			     size - bytes, out + n, names + n);
	return args < 0 ? -1 : (int)n + args;
}

uint64_t evt_field_element(const struct evt_field *fl, uint32_t i)
{
	const uint8_t *at = (const uint8_t *)fl->value.array.data +
			    (size_t)i * fl->value.array.elem_bytes;
	unsigned k, w = fl->value.array.elem_bytes;
	uint64_t u = 0;

	for (k = 0; k < w; k++)		/* little endian */
		u |= (uint64_t)at[k] << (8 * k);
	if (fl->value.array.is_signed && w < 8 && (u >> (8 * w - 1)) & 1)
		u |= ~0ULL << (8 * w);
	return u;
}

bool evt_field_is_text(const struct evt_field *fl, const struct evt_field_format *fd)
{
	return fl->type == EVT_VALUE_ARRAY && fd && !strcmp(fd->type, "char");
}

size_t evt_field_text_len(const struct evt_field *fl)
{
	const char *nul = memchr(fl->value.array.data, '\0', fl->value.array.count);

	return nul ? (size_t)(nul - (const char *)fl->value.array.data) :
		     fl->value.array.count;
}

int evt_record_fields(const struct evt_event_layout *l, const uint8_t *payload,
		      size_t size, struct evt_field *out, evt_arg_name *names)
{
	if (evt_event_kind_is_typed(l->kind))
		return typed_fields(&l->typed, payload, size, out);
	if (evt_kind_is_span(l->kind))
		return span_fields(l, payload, size, out, names);
	return printk_fields(&l->printk, l->types, l->nargs, payload, size, out,
			     names);
}
