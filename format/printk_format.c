/*
 * printk_format.c - parse and render trace_printk() formats.
 *
 * Storage follows the C argument's type after promotion: %hhd stores one
 * byte, %d four, %ld eight, %c one, %p eight, %f a double, %s the string
 * bytes and a NUL.  A '*' width or precision stores an int32 before the
 * value.  Anything printf would read from elsewhere (%n, %m) or that the
 * reader cannot hold exactly (long double, wide characters) is refused.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "printk_format.h"

size_t evt_arg_type_size(uint8_t type)
{
	switch (type) {
	case EVT_ARG_I8: case EVT_ARG_U8: return 1;
	case EVT_ARG_I16: case EVT_ARG_U16: return 2;
	case EVT_ARG_I32: case EVT_ARG_U32: return 4;
	case EVT_ARG_I64: case EVT_ARG_U64: case EVT_ARG_DOUBLE:
	case EVT_ARG_PTR: return 8;
	default: return 0;
	}
}

enum length { LEN_NONE, LEN_HH, LEN_H, LEN_L, LEN_LL, LEN_J, LEN_Z, LEN_T,
	      LEN_BIG_L };

static int integer_type(enum length len, int is_signed)
{
	switch (len) {
	case LEN_HH: return is_signed ? EVT_ARG_I8 : EVT_ARG_U8;
	case LEN_H: return is_signed ? EVT_ARG_I16 : EVT_ARG_U16;
	case LEN_NONE: return is_signed ? EVT_ARG_I32 : EVT_ARG_U32;
	case LEN_L: case LEN_LL: case LEN_J: case LEN_Z: case LEN_T:
		return is_signed ? EVT_ARG_I64 : EVT_ARG_U64;
	default: return 0;
	}
}

static int refuse(char *err, size_t err_size, size_t offset, int len,
		  const char *spec, const char *why)
{
	snprintf(err, err_size, "conversion '%.*s' at offset %zu: %s", len,
		 spec, offset, why);
	return -EINVAL;
}

static int add_arg(struct evt_printk_format *out, uint8_t type, char *err,
		   size_t err_size, size_t offset)
{
	if (out->nargs >= EVT_PRINTK_MAX_ARGS) {
		snprintf(err, err_size,
			 "more than %d arguments (at offset %zu)",
			 EVT_PRINTK_MAX_ARGS, offset);
		return -EINVAL;
	}
	out->arg_types[out->nargs++] = type;
	return 0;
}

/*
 * Parses format from offset from on; a refused conversion ends at
 * *bad_end (the format's end when what failed was no one conversion).
 */
static int parse(const char *format, size_t from, struct evt_printk_format *out,
		 char *err, size_t err_size, size_t *bad_end)
{
	const char *p = format + from;

	memset(out, 0, sizeof(*out));
	*bad_end = strlen(format);
	if (strlen(format) > UINT16_MAX) {
		snprintf(err, err_size, "format longer than %d bytes",
			 UINT16_MAX);
		return -EINVAL;
	}
	while ((p = strchr(p, '%'))) {
		const char *start = p++;
		struct evt_printk_spec spec = { .start = start - format,
						.precision = -1 };
		enum length len = LEN_NONE;
		int type, ret;

		if (*p == '%') {
			p++;
			continue;
		}
		p += strspn(p, "-+ #0'");
		if (*p == '*') {
			spec.star_width = 1;
			p++;
		} else {
			p += strspn(p, "0123456789");
		}
		if (*p == '.') {
			p++;
			if (*p == '*') {
				spec.star_precision = 1;
				p++;
			} else {
				for (spec.precision = 0; *p >= '0' && *p <= '9'; p++)
					if (spec.precision < 100000)
						spec.precision = spec.precision * 10 + (*p - '0');
			}
		}
		if (*p == '$' || (p[0] >= '0' && p[0] <= '9'))
			return *bad_end = spec.start + (size_t)(p - start + 1),
			       refuse(err, err_size, spec.start, p - start + 1,
				      start, "positional arguments are not supported");
		switch (*p) {
		case 'h': len = p[1] == 'h' ? (p++, LEN_HH) : LEN_H; p++; break;
		case 'l': len = p[1] == 'l' ? (p++, LEN_LL) : LEN_L; p++; break;
		case 'q': len = LEN_LL; p++; break;
		case 'j': len = LEN_J; p++; break;
		case 'z': len = LEN_Z; p++; break;
		case 't': len = LEN_T; p++; break;
		case 'L': len = LEN_BIG_L; p++; break;
		}
		spec.conversion = *p;
		spec.len = p - start + (*p ? 1 : 0);
		switch (*p) {
		case 'd': case 'i':
			type = integer_type(len, 1);
			break;
		case 'u': case 'o': case 'x': case 'X':
			type = integer_type(len, 0);
			break;
		case 'c':
			type = len == LEN_NONE ? EVT_ARG_I8 : 0;
			break;
		case 's':
			type = len == LEN_NONE ? EVT_ARG_STRING : 0;
			break;
		case 'p':
			type = len == LEN_NONE ? EVT_ARG_PTR : 0;
			break;
		case 'f': case 'F': case 'e': case 'E': case 'g': case 'G':
		case 'a': case 'A':
			type = (len == LEN_NONE || len == LEN_L) ?
				EVT_ARG_DOUBLE : 0;
			break;
		case 'n':
			return *bad_end = spec.start + spec.len,
			       refuse(err, err_size, spec.start, spec.len, start,
				      "%n writes through a pointer and is refused");
		case 'm':
			return *bad_end = spec.start + spec.len,
			       refuse(err, err_size, spec.start, spec.len, start,
				      "%m reads errno, which a reader cannot see");
		case '\0':
			return *bad_end = spec.start + spec.len,
			       refuse(err, err_size, spec.start, spec.len, start,
				      "format ends inside a conversion");
		default:
			return *bad_end = spec.start + spec.len,
			       refuse(err, err_size, spec.start, spec.len, start,
				      "unknown conversion");
		}
		if (!type)
			return *bad_end = spec.start + spec.len,
			       refuse(err, err_size, spec.start, spec.len, start,
				      "length modifier not supported for this conversion");
		if (out->nspecs >= EVT_PRINTK_MAX_ARGS)
			return *bad_end = spec.start + spec.len,
			       refuse(err, err_size, spec.start, spec.len, start,
				      "too many conversions");
		spec.type = type;
		if (spec.star_width &&
		    (ret = add_arg(out, EVT_ARG_I32, err, err_size, spec.start)))
			return ret;
		if (spec.star_precision &&
		    (ret = add_arg(out, EVT_ARG_I32, err, err_size, spec.start)))
			return ret;
		if ((ret = add_arg(out, type, err, err_size, spec.start)))
			return ret;
		out->specs[out->nspecs++] = spec;
		p++;
	}
	return 0;
}

int evt_printk_parse(const char *format, struct evt_printk_format *out,
		     char *err, size_t err_size)
{
	size_t bad_end;

	return parse(format, 0, out, err, err_size, &bad_end);
}

static const char *given_name(char code)
{
	switch (code) {
	case EVT_ARGC_INT: return "an int";
	case EVT_ARGC_UINT: return "an unsigned int";
	case EVT_ARGC_LONG: return "a 64-bit integer";
	case EVT_ARGC_ULONG: return "an unsigned 64-bit integer";
	case EVT_ARGC_DOUBLE: return "a double";
	case EVT_ARGC_STRING: return "a char pointer";
	case EVT_ARGC_PTR: return "a pointer";
	default: return "of a type no conversion reads (a struct, long double, "
			"a 128-bit integer...)";
	}
}

static const char *wanted_name(uint8_t type)
{
	switch (type) {
	case EVT_ARG_I64: case EVT_ARG_U64: return "a 64-bit integer";
	case EVT_ARG_DOUBLE: return "a double";
	case EVT_ARG_STRING: return "a string (char pointer)";
	case EVT_ARG_PTR: return "a pointer";
	default: return "an int";
	}
}

/* Whether a value passed as code is read right as stored type. */
static bool agrees(char code, uint8_t type)
{
	switch (type) {
	case EVT_ARG_I64: case EVT_ARG_U64:
		return code == EVT_ARGC_LONG || code == EVT_ARGC_ULONG;
	case EVT_ARG_DOUBLE:
		return code == EVT_ARGC_DOUBLE;
	case EVT_ARG_STRING:
		return code == EVT_ARGC_STRING;
	case EVT_ARG_PTR:
		return code == EVT_ARGC_PTR || code == EVT_ARGC_STRING;
	default:	/* (int and narrower: promoted to int) */
		return code == EVT_ARGC_INT || code == EVT_ARGC_UINT;
	}
}

int evt_printk_args_agree(const char *format, const struct evt_printk_format *f,
			  const char *given, char *why, size_t why_size)
{
	size_t ngiven = strlen(given);
	unsigned k = 0, s;

	for (s = 0; s < f->nspecs; s++) {
		const struct evt_printk_spec *sp = &f->specs[s];
		unsigned nvalues = 1u + sp->star_width + sp->star_precision, v;

		for (v = 0; v < nvalues; v++, k++) {
			bool star = v + 1 < nvalues;
			uint8_t type = star ? EVT_ARG_I32 : f->arg_types[k];

			if (k >= ngiven)
				return snprintf(why, why_size, "the format takes %u "
						"value%s, and %zu argument%s came: '%.*s' "
						"at offset %u has none", f->nargs,
						f->nargs == 1 ? "" : "s", ngiven,
						ngiven == 1 ? "" : "s", (int)sp->len,
						format + sp->start, (unsigned)sp->start), -1;
			if (!agrees(given[k], type))
				return snprintf(why, why_size, "argument %u is %s, and "
						"'%.*s' at offset %u reads %s%s", k + 1,
						given_name(given[k]), (int)sp->len,
						format + sp->start, (unsigned)sp->start,
						star ? "its '*' as " : "", wanted_name(type)), -1;
		}
	}
	if (ngiven > k)
		return snprintf(why, why_size, "the format takes %u value%s, and %zu "
				"arguments came", k, k == 1 ? "" : "s", ngiven), -1;
	return 0;
}

int evt_printk_problems(const char *format, char *out, size_t out_size)
{
	struct evt_printk_format f;
	size_t from = 0, len = strlen(format), used = 0;
	char err[256];
	int n = 0;

	if (out_size)
		out[0] = '\0';
	while (from <= len && parse(format, from, &f, err, sizeof(err), &from)) {
		if (used < out_size)
			used += (size_t)snprintf(out + used, out_size - used, "%s%s",
						 n ? "; " : "", err);
		n++;
		if (from >= len)
			break;
	}
	return n;
}

/* Appends to out at *pos, always NUL-terminated, never past out_size. */
static void append(char *out, size_t out_size, size_t *pos, const char *s,
		   size_t n)
{
	if (*pos + 1 >= out_size)
		return;
	if (n > out_size - 1 - *pos)
		n = out_size - 1 - *pos;
	memcpy(out + *pos, s, n);
	*pos += n;
	out[*pos] = '\0';
}

static int load_i32(const uint8_t *args, size_t size, size_t *off, int *v)
{
	int32_t x;

	if (*off + 4 > size)
		return -1;
	memcpy(&x, args + *off, 4);
	*off += 4;
	*v = x;
	return 0;
}

/*
 * What a width or a precision may be when rendered: a value is cut at
 * 1023 bytes anyway, and these bounds keep that part the same (a double
 * has fewer than 800 significant digits; the padding of a width past
 * them is longer than the cut), where printf would allocate gigabytes
 * for "%.999999999e" or a stored width of 2^31 - 1.  A trace is not
 * trusted.
 */
#define RENDER_WIDTH_MAX	4096
#define RENDER_PRECISION_MAX	1100

static int clamp(int v, int max)
{
	return v > max ? max : v < -max ? -max : v;
}

/* The literal width and precision of spec (a copy), bounded in place. */
static void clamp_spec(char *spec)
{
	char *p = spec + 1 + strspn(spec + 1, "-+ #0'");
	int k;

	for (k = 0; k < 2; k++) {
		size_t digits = strspn(p, "0123456789");
		long v = 0;
		size_t i;

		for (i = 0; i < digits && v <= RENDER_WIDTH_MAX; i++)
			v = v * 10 + (p[i] - '0');
		if (v > (k ? RENDER_PRECISION_MAX : RENDER_WIDTH_MAX)) {
			char num[8];	/* no longer than the digits it replaces */
			int n = snprintf(num, sizeof(num), "%d", k ?
					 RENDER_PRECISION_MAX : RENDER_WIDTH_MAX);

			memmove(p + n, p + digits, strlen(p + digits) + 1);
			memcpy(p, num, (size_t)n);
			digits = (size_t)n;
		}
		p += digits;
		if (k || *p != '.')
			break;
		p++;
	}
}

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
static int snprintf_value(char *buf, size_t size, const char *spec,
			  const struct evt_printk_spec *s, int nstar, int star[2],
			  const uint8_t *v, size_t vlen)
{
	union { int8_t i8; uint8_t u8; int16_t i16; uint16_t u16; int32_t i32;
		uint32_t u32; int64_t i64; uint64_t u64; double d; } x;
	char conv_spec[48];
	size_t n = strlen(spec);

	/* The stored width is 8 bytes for any l/ll/j/z/t: print it as ll. */
	if (s->type == EVT_ARG_I64 || s->type == EVT_ARG_U64) {
		size_t keep = n - 1;

		while (keep > 0 && strchr("hlqjztL", spec[keep - 1]))
			keep--;
		snprintf(conv_spec, sizeof(conv_spec), "%.*sll%c", (int)keep,
			 spec, s->conversion);
		spec = conv_spec;
	}
	memset(&x, 0, sizeof(x));
	memcpy(&x, v, vlen < sizeof(x) ? vlen : sizeof(x));

#define EMIT(val) (nstar == 2 ? snprintf(buf, size, spec, star[0], star[1], val) \
		  : nstar == 1 ? snprintf(buf, size, spec, star[0], val)	\
		  : snprintf(buf, size, spec, val))
	switch (s->type) {
	case EVT_ARG_I8: return s->conversion == 'c' ? EMIT((int)(char)x.i8)
					: EMIT((int)x.i8);
	case EVT_ARG_U8: return EMIT((unsigned)x.u8);
	case EVT_ARG_I16: return EMIT((int)x.i16);
	case EVT_ARG_U16: return EMIT((unsigned)x.u16);
	case EVT_ARG_I32: return EMIT(x.i32);
	case EVT_ARG_U32: return EMIT(x.u32);
	case EVT_ARG_I64: return EMIT((long long)x.i64);
	case EVT_ARG_U64: return EMIT((unsigned long long)x.u64);
	case EVT_ARG_DOUBLE: return EMIT(x.d);
	case EVT_ARG_PTR: return EMIT((void *)(uintptr_t)x.u64);
	case EVT_ARG_STRING: return EMIT((const char *)v);
	}
#undef EMIT
	return -1;
}
#pragma GCC diagnostic pop

long evt_printk_render(const char *format, const struct evt_printk_format *f,
		       const uint8_t *args, size_t args_size,
		       char *out, size_t out_size, size_t *out_len)
{
	size_t pos = 0, off = 0, lit = 0;
	char value[1024], spec[40];
	unsigned i;

	if (out_size)
		out[0] = '\0';
	for (i = 0; i < f->nspecs; i++) {
		const struct evt_printk_spec *s = &f->specs[i];
		int star[2], nstar = 0, n;
		const uint8_t *v;
		size_t vlen;

		/* Literal text before this conversion, "%%" made "%". */
		while (lit < s->start) {
			if (format[lit] == '%' && format[lit + 1] == '%')
				lit++;
			append(out, out_size, &pos, format + lit, 1);
			lit++;
		}
		lit = s->start + s->len;
		if (s->star_width && load_i32(args, args_size, &off, &star[nstar++]))
			return -1;
		if (s->star_precision &&
		    load_i32(args, args_size, &off, &star[nstar++]))
			return -1;
		v = args + off;
		if (s->type == EVT_ARG_STRING) {
			const uint8_t *nul = off < args_size ?
				memchr(v, '\0', args_size - off) : NULL;
			if (!nul)
				return -1;
			vlen = nul - v + 1;
		} else {
			vlen = evt_arg_type_size(s->type);
			if (off + vlen > args_size)
				return -1;
		}
		off += vlen;
		if (s->len >= sizeof(spec))
			return -1;
		memcpy(spec, format + s->start, s->len);
		spec[s->len] = '\0';
		clamp_spec(spec);
		if (s->star_width)
			star[0] = clamp(star[0], RENDER_WIDTH_MAX);
		if (s->star_precision)
			star[nstar - 1] = clamp(star[nstar - 1], RENDER_PRECISION_MAX);
		n = snprintf_value(value, sizeof(value), spec, s, nstar, star, v,
				   vlen);
		if (n < 0)
			return -1;
		append(out, out_size, &pos, value,
		       (size_t)n < sizeof(value) ? (size_t)n : sizeof(value) - 1);
	}
	while (format[lit]) {
		if (format[lit] == '%' && format[lit + 1] == '%')
			lit++;
		append(out, out_size, &pos, format + lit, 1);
		lit++;
	}
	if (out_len)
		*out_len = pos;
	return (long)off;
}

int evt_real_text(char *out, size_t size, double v)
{
	char other[32];
	int p, n = 0, m;

	for (p = 1; p <= 17; p++) {
		n = snprintf(out, size, "%.*g", p, v);
		if (n < 0 || (size_t)n >= size || strtod(out, NULL) == v || v != v)
			break;
	}
	/* The fewest digits can take an exponent where more take fewer
	 * characters: 10 is "1e+01" to one digit, "10" to two. */
	while (n > 0 && (size_t)n < size && strchr(out, 'e') && ++p <= 17) {
		m = snprintf(other, sizeof(other), "%.*g", p, v);
		if (m > 0 && m < n && (size_t)m < size) {
			memcpy(out, other, (size_t)m + 1);
			n = m;
		}
	}
	return n;
}
