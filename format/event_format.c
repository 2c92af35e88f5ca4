/*
 * event_format.c - typed event formats: check, text, parse, size, render,
 * CTF (see event_format.h).  Everything read is untrusted.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "event_format.h"
#include "quote.h"

static const char *const line_kinds[] = {
	[EVT_FIELD_INTEGER] = "field", [EVT_FIELD_ENUM] = "field",
	[EVT_FIELD_BOOL] = "field", [EVT_FIELD_DOUBLE] = "field",
	[EVT_FIELD_ARRAY] = "array", [EVT_FIELD_STRING] = "string",
	[EVT_FIELD_SEQUENCE] = "sequence",
};

static int fail(char *err, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(char *err, size_t size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, size, fmt, ap);
	va_end(ap);
	return -1;
}

bool evt_is_identifier(const char *s)
{
	if (!*s || !(isalpha((unsigned char)*s) || *s == '_'))
		return false;
	for (; *s; s++)
		if (!(isalnum((unsigned char)*s) || *s == '_'))
			return false;
	return true;
}

/* Enum value names: one word that the format text can hold unquoted. */
static bool is_word(const char *s)
{
	if (!*s || strlen(s) >= EVT_FIELD_NAME_MAX)
		return false;
	for (; *s; s++)
		if (!(isalnum((unsigned char)*s) || strchr("_.+-", *s)))
			return false;
	return true;
}

static bool is_type_name(const char *s)
{
	if (!*s || strlen(s) >= EVT_FIELD_NAME_MAX)
		return false;
	for (; *s; s++)
		if (!isprint((unsigned char)*s) || *s == ';')
			return false;
	return true;
}

static bool is_int_size(uint32_t bits)
{
	return bits == 8 || bits == 16 || bits == 32 || bits == 64;
}

static bool is_char_type(const struct evt_field_format *fd)
{
	return fd->size_bits == 8 && !strcmp(fd->type, "char");
}

static bool value_fits(const struct evt_field_format *fd, int64_t v)
{
	if (fd->size_bits == 64)
		return fd->is_signed || v >= 0;
	if (fd->is_signed)
		return v >= -(INT64_C(1) << (fd->size_bits - 1)) &&
		       v < (INT64_C(1) << (fd->size_bits - 1));
	return v >= 0 && v < (INT64_C(1) << fd->size_bits);
}

static int check_field(const struct evt_field_format *fd, char *err,
		       size_t size)
{
	uint32_t i, j;

	if (!evt_is_identifier(fd->name) || strlen(fd->name) >= EVT_FIELD_NAME_MAX)
		return fail(err, size, "field name \"%s\" is not a C identifier "
			    "of at most %d characters", fd->name,
			    EVT_FIELD_NAME_MAX - 1);
	if (!is_type_name(fd->type))
		return fail(err, size, "field %s: type \"%s\" is not a type name",
			    fd->name, fd->type);
	if (fd->align == 0 || fd->align > 8 || (fd->align & (fd->align - 1)))
		return fail(err, size, "field %s: align %u is not 1, 2, 4 or 8",
			    fd->name, fd->align);
	if (fd->is_signed > 1)
		return fail(err, size, "field %s: signed must be 0 or 1", fd->name);
	switch (fd->kind) {
	case EVT_FIELD_BOOL:
		if (fd->size_bits != 8 || fd->is_signed)
			return fail(err, size, "field %s: a bool is 8 unsigned bits",
				    fd->name);
		break;
	case EVT_FIELD_DOUBLE:
		if (fd->size_bits != 64)
			return fail(err, size, "field %s: a double is 64 bits",
				    fd->name);
		break;
	case EVT_FIELD_STRING:
		if (!is_char_type(fd))
			return fail(err, size, "field %s: a string is of type char, "
				    "size 8", fd->name);
		break;
	case EVT_FIELD_INTEGER:
	case EVT_FIELD_ENUM:
	case EVT_FIELD_ARRAY:
	case EVT_FIELD_SEQUENCE:
		if (!is_int_size(fd->size_bits))
			return fail(err, size, "field %s: size %u is not 8, 16, 32 "
				    "or 64 bits", fd->name, fd->size_bits);
		break;
	default:
		return fail(err, size, "field %s: unknown kind %d", fd->name,
			    (int)fd->kind);
	}
	if (fd->kind == EVT_FIELD_ARRAY &&
	    (fd->count == 0 ||
	     (uint64_t)fd->count * fd->size_bits / 8 > EVT_SEQUENCE_MAX_BYTES))
		return fail(err, size, "field %s: array count %u is not 1 to %u bytes",
			    fd->name, fd->count, EVT_SEQUENCE_MAX_BYTES);
	if (fd->kind != EVT_FIELD_ARRAY && fd->count)
		return fail(err, size, "field %s: only arrays have a count", fd->name);
	if (fd->kind != EVT_FIELD_ENUM)
		return fd->nvalues ? fail(err, size, "field %s: only enums have "
					  "values", fd->name) : 0;
	if (fd->nvalues == 0 || fd->nvalues > EVT_ENUM_VALUES_MAX)
		return fail(err, size, "field %s: an enum needs 1 to %d values",
			    fd->name, EVT_ENUM_VALUES_MAX);
	for (i = 0; i < fd->nvalues; i++) {
		if (!fd->values[i].name || !is_word(fd->values[i].name))
			return fail(err, size, "field %s: enum value name \"%s\" is "
				    "not a word", fd->name,
				    fd->values[i].name ? fd->values[i].name : "");
		if (!value_fits(fd, fd->values[i].value))
			return fail(err, size, "field %s: enum value %s=%" PRId64
				    " does not fit the type", fd->name,
				    fd->values[i].name, fd->values[i].value);
		for (j = 0; j < i; j++)
			if (!strcmp(fd->values[i].name, fd->values[j].name))
				return fail(err, size, "field %s: enum value %s "
					    "named twice", fd->name,
					    fd->values[i].name);
	}
	return 0;
}

int evt_event_format_check(const struct evt_event_format *f, char *err,
			   size_t err_size)
{
	uint32_t i, j;

	if (f->flags & ~EVT_FORMAT_FL_CAP_ANY)
		return fail(err, err_size, "unknown event flags 0x%x", f->flags);
	if (f->nfields > EVT_FIELDS_MAX)
		return fail(err, err_size, "%u fields, at most %d", f->nfields,
			    EVT_FIELDS_MAX);
	for (i = 0; i < f->nfields; i++) {
		if (check_field(&f->fields[i], err, err_size))
			return -1;
		for (j = 0; j < i; j++)
			if (!strcmp(f->fields[i].name, f->fields[j].name))
				return fail(err, err_size, "field %s defined twice",
					    f->fields[i].name);
	}
	return 0;
}

uint64_t evt_event_format_max_bytes(const struct evt_event_format *f)
{
	uint64_t n = 0;
	uint32_t i;

	for (i = 0; i < f->nfields; i++) {
		const struct evt_field_format *fd = &f->fields[i];

		switch (fd->kind) {
		case EVT_FIELD_STRING:
			n += 256;	/* EVT_STRING_MAX_BYTES */
			break;
		case EVT_FIELD_SEQUENCE:
			n += 4 + EVT_SEQUENCE_MAX_BYTES;
			break;
		case EVT_FIELD_ARRAY:
			n += (uint64_t)fd->count * fd->size_bits / 8;
			break;
		default:
			n += fd->size_bits / 8;
		}
	}
	return n;
}

const char *evt_event_flags_name(uint32_t flags, char *buf, size_t size)
{
	snprintf(buf, size, "%s", flags & EVT_FORMAT_FL_CAP_ANY ? "CAP_ANY" : "");
	return buf;
}

int evt_event_format_write(FILE *out, const struct evt_event_format *f)
{
	uint32_t i, j;
	char flags[64];

	if (f->flags)
		fprintf(out, "\tflags:%s;\n",
			evt_event_flags_name(f->flags, flags, sizeof(flags)));
	for (i = 0; i < f->nfields; i++) {
		const struct evt_field_format *fd = &f->fields[i];

		fprintf(out, "\t%s:%s\ttype:%s\tsize:%u", line_kinds[fd->kind],
			fd->name, fd->type, fd->size_bits);
		if (fd->kind == EVT_FIELD_ARRAY)
			fprintf(out, "\tcount:%u", fd->count);
		if (fd->kind == EVT_FIELD_SEQUENCE)
			fputs("\tlength:32", out);
		fprintf(out, "\talign:%u\tsigned:%u", fd->align, fd->is_signed);
		for (j = 0; j < fd->nvalues; j++)
			fprintf(out, "%s%s=%" PRId64, j ? "," : "\tenum:",
				fd->values[j].name, fd->values[j].value);
		fputs(";\n", out);
	}
	return ferror(out) ? -1 : 0;
}

char *evt_event_format_text(const struct evt_event_format *f)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);

	if (!m)
		return NULL;
	if (evt_event_format_write(m, f) | fclose(m)) {
		free(text);
		return NULL;
	}
	return text;
}

void evt_event_format_free(struct evt_event_format *f)
{
	uint32_t i, j;

	for (i = 0; i < f->nfields; i++) {
		for (j = 0; j < f->fields[i].nvalues; j++)
			free(f->fields[i].values[j].name);
		free(f->fields[i].values);
	}
	free(f->fields);
	memset(f, 0, sizeof(*f));
}

/* ---- parser ---- */

static int parse_u32(const char *s, uint32_t *out)
{
	char *end;
	unsigned long v;

	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (*end || errno || v > UINT32_MAX)
		return -1;
	*out = (uint32_t)v;
	return 0;
}

static int parse_enum(struct evt_field_format *fd, char *s)
{
	char *item, *save = NULL;

	for (item = strtok_r(s, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(item, '='), *end;
		struct evt_enum_entry *grown;
		long long v;

		if (!eq || fd->nvalues >= EVT_ENUM_VALUES_MAX)
			return -1;
		*eq = '\0';
		errno = 0;
		v = strtoll(eq + 1, &end, 10);
		if (end == eq + 1 || *end || errno)
			return -1;
		grown = realloc(fd->values, (fd->nvalues + 1) * sizeof(*grown));
		if (!grown)
			return -1;
		fd->values = grown;
		fd->values[fd->nvalues].name = strdup(item);
		fd->values[fd->nvalues].value = v;
		if (!fd->values[fd->nvalues++].name)
			return -1;
	}
	return fd->nvalues ? 0 : -1;
}

/* Parses one field line (without its ';'), split at tabs, into fd. */
static int parse_field_line(char *line, struct evt_field_format *fd,
			    char *why, size_t why_size)
{
	char *attr, *save = NULL;
	bool have_type = false, have_size = false, have_align = false;
	bool have_signed = false, have_count = false, have_length = false;
	bool first = true;

	for (attr = strtok_r(line, "\t", &save); attr;
	     attr = strtok_r(NULL, "\t", &save), first = false) {
		char *colon = strchr(attr, ':'), *v;
		uint32_t n;

		if (!colon)
			return fail(why, why_size, "\"%s\" is not key:value", attr);
		*colon = '\0';
		v = colon + 1;
		if (first) {
			if (!strcmp(attr, "field"))
				fd->kind = EVT_FIELD_INTEGER;
			else if (!strcmp(attr, "array"))
				fd->kind = EVT_FIELD_ARRAY;
			else if (!strcmp(attr, "string"))
				fd->kind = EVT_FIELD_STRING;
			else if (!strcmp(attr, "sequence"))
				fd->kind = EVT_FIELD_SEQUENCE;
			else
				return fail(why, why_size, "unknown line kind \"%s\"", attr);
			if (strlen(v) >= sizeof(fd->name))
				return fail(why, why_size, "field name too long");
			strcpy(fd->name, v);
		} else if (!strcmp(attr, "type") && !have_type) {
			if (strlen(v) >= sizeof(fd->type))
				return fail(why, why_size, "type name too long");
			strcpy(fd->type, v);
			have_type = true;
		} else if (!strcmp(attr, "size") && !have_size && !parse_u32(v, &n)) {
			fd->size_bits = n;
			have_size = true;
		} else if (!strcmp(attr, "align") && !have_align && !parse_u32(v, &n)) {
			fd->align = n;
			have_align = true;
		} else if (!strcmp(attr, "signed") && !have_signed &&
			   !parse_u32(v, &n) && n <= 1) {
			fd->is_signed = (uint8_t)n;
			have_signed = true;
		} else if (!strcmp(attr, "count") && !have_count &&
			   fd->kind == EVT_FIELD_ARRAY && !parse_u32(v, &n)) {
			fd->count = n;
			have_count = true;
		} else if (!strcmp(attr, "length") && !have_length &&
			   fd->kind == EVT_FIELD_SEQUENCE && !strcmp(v, "32")) {
			have_length = true;
		} else if (!strcmp(attr, "enum") && fd->kind == EVT_FIELD_INTEGER &&
			   !fd->nvalues) {
			if (parse_enum(fd, v))
				return fail(why, why_size, "bad enum values");
			fd->kind = EVT_FIELD_ENUM;
		} else {
			return fail(why, why_size, "unexpected or bad \"%s:%s\"", attr, v);
		}
	}
	if (!have_type || !have_size || !have_align || !have_signed ||
	    (fd->kind == EVT_FIELD_ARRAY && !have_count) ||
	    (fd->kind == EVT_FIELD_SEQUENCE && !have_length))
		return fail(why, why_size, "type, size, align and signed are "
			    "needed%s", fd->kind == EVT_FIELD_ARRAY ? ", and count" :
			    fd->kind == EVT_FIELD_SEQUENCE ? ", and length" : "");
	if (fd->kind == EVT_FIELD_INTEGER && !strcmp(fd->type, "bool"))
		fd->kind = EVT_FIELD_BOOL;
	else if (fd->kind == EVT_FIELD_INTEGER && !strcmp(fd->type, "double"))
		fd->kind = EVT_FIELD_DOUBLE;
	return 0;
}

static int parse_flags(const char *v, uint32_t *flags)
{
	if (!strcmp(v, "CAP_ANY")) {
		*flags = EVT_FORMAT_FL_CAP_ANY;
		return 0;
	}
	return -1;
}

int evt_event_format_parse(const char *text, struct evt_event_format *out,
			   char *err, size_t err_size)
{
	char *copy = strdup(text), *line, *next, why[200];
	unsigned lineno = 0;
	int ret = -1;

	memset(out, 0, sizeof(*out));
	if (!copy)
		return fail(err, err_size, "out of memory");
	for (line = copy; line; line = next) {
		struct evt_field_format *fd, *grown;
		size_t len;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		line += strspn(line, "\t ");
		len = strlen(line);
		if (!len)
			continue;
		if (line[len - 1] != ';') {
			fail(err, err_size, "line %u: does not end in ';'", lineno);
			goto out;
		}
		line[len - 1] = '\0';
		if (!strncmp(line, "flags:", 6)) {
			if (out->nfields || out->flags || parse_flags(line + 6, &out->flags)) {
				fail(err, err_size, "line %u: bad flags line", lineno);
				goto out;
			}
			continue;
		}
		if (out->nfields >= EVT_FIELDS_MAX) {
			fail(err, err_size, "line %u: more than %d fields", lineno,
			     EVT_FIELDS_MAX);
			goto out;
		}
		grown = realloc(out->fields, (out->nfields + 1) * sizeof(*grown));
		if (!grown) {
			fail(err, err_size, "out of memory");
			goto out;
		}
		out->fields = grown;
		fd = &out->fields[out->nfields++];
		memset(fd, 0, sizeof(*fd));
		if (parse_field_line(line, fd, why, sizeof(why))) {
			fail(err, err_size, "line %u: %s", lineno, why);
			goto out;
		}
		if (check_field(fd, why, sizeof(why))) {
			fail(err, err_size, "line %u: %s", lineno, why);
			goto out;
		}
	}
	if (evt_event_format_check(out, why, sizeof(why))) {
		fail(err, err_size, "%s", why);
		goto out;
	}
	ret = 0;
out:
	free(copy);
	if (ret)
		evt_event_format_free(out);
	return ret;
}

/* ---- records ---- */

long evt_event_field_bytes(const struct evt_field_format *fd, const uint8_t *p,
			   size_t avail)
{
	uint32_t n;
	const uint8_t *nul;

	switch (fd->kind) {
	case EVT_FIELD_STRING:
		nul = memchr(p, '\0', avail);
		return nul ? nul - p + 1 : -1;
	case EVT_FIELD_SEQUENCE:
		if (avail < 4)
			return -1;
		memcpy(&n, p, 4);
		if ((uint64_t)n * (fd->size_bits / 8) > avail - 4)
			return -1;
		return 4 + (long)n * (fd->size_bits / 8);
	case EVT_FIELD_ARRAY:
		return (uint64_t)fd->count * fd->size_bits / 8 <= avail ?
		       (long)fd->count * (fd->size_bits / 8) : -1;
	default:
		return fd->size_bits / 8 <= avail ? (long)fd->size_bits / 8 : -1;
	}
}

long evt_event_format_payload_size(const struct evt_event_format *f,
				   const uint8_t *p, size_t avail)
{
	size_t off = 0;
	uint32_t i;

	for (i = 0; i < f->nfields; i++) {
		long n = evt_event_field_bytes(&f->fields[i], p + off, avail - off);

		if (n < 0)
			return -1;
		off += (size_t)n;
	}
	return (long)off;
}

static uint64_t load_uint(const uint8_t *p, uint32_t bytes)
{
	uint64_t v = 0;

	memcpy(&v, p, bytes);	/* little endian */
	return v;
}

static void put_integer(FILE *m, const struct evt_field_format *fd,
			const uint8_t *p)
{
	uint32_t bits = fd->size_bits;
	uint64_t u = load_uint(p, bits / 8);

	if (fd->is_signed) {
		int64_t s = bits == 64 ? (int64_t)u :
			(int64_t)(u << (64 - bits)) >> (64 - bits);
		fprintf(m, "%" PRId64, s);
	} else {
		fprintf(m, "%" PRIu64, u);
	}
}

static void put_text(FILE *m, const uint8_t *p, size_t n)
{
	char buf[EVT_SEQUENCE_MAX_BYTES + 1];
	const uint8_t *nul = memchr(p, '\0', n);

	if (nul)
		n = nul - p;
	if (n > EVT_SEQUENCE_MAX_BYTES)
		n = EVT_SEQUENCE_MAX_BYTES;
	memcpy(buf, p, n);
	buf[n] = '\0';
	evt_quote(m, buf);
}

static void put_elements(FILE *m, const struct evt_field_format *fd,
			 const uint8_t *p, uint32_t n)
{
	uint32_t i, bytes = fd->size_bits / 8;

	if (is_char_type(fd)) {
		put_text(m, p, n);
		return;
	}
	fputc('[', m);
	for (i = 0; i < n; i++) {
		if (i)
			fputs(", ", m);
		put_integer(m, fd, p + (size_t)i * bytes);
	}
	fputc(']', m);
}

static void put_value(FILE *m, const struct evt_field_format *fd,
		      const uint8_t *p)
{
	uint32_t i, n;
	double d;

	switch (fd->kind) {
	case EVT_FIELD_INTEGER:
		put_integer(m, fd, p);
		break;
	case EVT_FIELD_ENUM: {
		uint64_t u = load_uint(p, fd->size_bits / 8);
		int64_t v = fd->size_bits == 64 || !fd->is_signed ? (int64_t)u :
			(int64_t)(u << (64 - fd->size_bits)) >> (64 - fd->size_bits);

		for (i = 0; i < fd->nvalues; i++)
			if (fd->values[i].value == v)
				break;
		if (i < fd->nvalues)
			fputs(fd->values[i].name, m);
		else
			put_integer(m, fd, p);
		break;
	}
	case EVT_FIELD_BOOL:
		fputs(*p ? "true" : "false", m);
		break;
	case EVT_FIELD_DOUBLE:
		memcpy(&d, p, 8);
		fprintf(m, "%g", d);
		break;
	case EVT_FIELD_ARRAY:
		put_elements(m, fd, p, fd->count);
		break;
	case EVT_FIELD_STRING:
		evt_quote(m, (const char *)p);
		break;
	case EVT_FIELD_SEQUENCE:
		memcpy(&n, p, 4);
		put_elements(m, fd, p + 4, n);
		break;
	}
}

long evt_event_format_render(const struct evt_event_format *f,
			     const uint8_t *p, size_t avail,
			     char *out, size_t out_size)
{
	long total = evt_event_format_payload_size(f, p, avail);
	size_t off = 0;
	uint32_t i;
	FILE *m;

	if (total < 0 || out_size < 4)
		return -1;
	m = fmemopen(out, out_size, "w");
	if (!m)
		return -1;
	for (i = 0; i < f->nfields; i++) {
		const struct evt_field_format *fd = &f->fields[i];

		fprintf(m, "%s%s=", i ? " " : "", fd->name);
		put_value(m, fd, p + off);
		off += (size_t)evt_event_field_bytes(fd, p + off, avail - off);
	}
	fflush(m);
	if ((size_t)ftell(m) >= out_size - 1)
		memcpy(out + out_size - 4, "...", 4);
	fclose(m);
	return total;
}

/* ---- CTF ---- */

/*
 * Field names get a leading '_', which CTF readers drop: a field may then
 * be called like a TSDL keyword (string, align, ...).
 */
static void put_ctf_integer(FILE *out, const struct evt_field_format *fd)
{
	fprintf(out, "integer { size = %u; align = 8; signed = %s;%s }",
		fd->size_bits, fd->is_signed ? "true" : "false",
		is_char_type(fd) ? " encoding = UTF8;" : "");
}

void evt_event_format_write_ctf(FILE *out, const struct evt_event_format *f)
{
	uint32_t i, j;

	for (i = 0; i < f->nfields; i++) {
		const struct evt_field_format *fd = &f->fields[i];

		fputs("\t\t", out);
		switch (fd->kind) {
		case EVT_FIELD_INTEGER:
			put_ctf_integer(out, fd);
			fprintf(out, " _%s;\n", fd->name);
			break;
		case EVT_FIELD_ENUM:
			fputs("enum : ", out);
			put_ctf_integer(out, fd);
			fputs(" {", out);
			for (j = 0; j < fd->nvalues; j++)
				fprintf(out, "%s \"%s\" = %" PRId64, j ? "," : "",
					fd->values[j].name, fd->values[j].value);
			fprintf(out, " } _%s;\n", fd->name);
			break;
		case EVT_FIELD_BOOL:
			fprintf(out, "enum : integer { size = 8; align = 8; signed = false; }"
				" { \"false\" = 0, \"true\" = 1 ... 255 } _%s;\n", fd->name);
			break;
		case EVT_FIELD_DOUBLE:
			fprintf(out, "floating_point { exp_dig = 11; mant_dig = 53; "
				"align = 8; } _%s;\n", fd->name);
			break;
		case EVT_FIELD_ARRAY:
			put_ctf_integer(out, fd);
			fprintf(out, " _%s[%u];\n", fd->name, fd->count);
			break;
		case EVT_FIELD_STRING:
			fprintf(out, "string _%s;\n", fd->name);
			break;
		case EVT_FIELD_SEQUENCE:
			fprintf(out, "integer { size = 32; align = 8; signed = false; }"
				" __%s_length;\n\t\t", fd->name);
			put_ctf_integer(out, fd);
			fprintf(out, " _%s[__%s_length];\n", fd->name, fd->name);
			break;
		}
	}
}
