/*
 * syscall_fields.c - copied memory as fields a CTF reader reads (see
 * syscall_fields.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "syscall_fields.h"

/* The table entry of call, by the kernel's event name too ("newfstat"
 * is fstat's). */
static void spec_of(const char *call, struct evt_cap_spec *sp)
{
	unsigned i;

	evt_syscall_memory_spec(call, sp);
	for (i = 0; i < EVT_CAP_NARGS && !sp->kind[i]; i++)
		;
	if (i == EVT_CAP_NARGS && !strncmp(call, "new", 3))
		evt_syscall_memory_spec(call + 3, sp);
}

static bool at_exit(unsigned kind)
{
	return kind == EVT_CAP_BUF_OUT || kind == EVT_CAP_STRUCT_OUT ||
	       kind == EVT_CAP_STRING_OUT || kind == EVT_CAP_IOVEC_OUT;
}

static bool is_vector(unsigned kind)
{
	return kind == EVT_CAP_ARGV || kind == EVT_CAP_IOVEC_IN ||
	       kind == EVT_CAP_IOVEC_OUT;
}

static bool is_string(unsigned kind)
{
	return kind == EVT_CAP_STRING || kind == EVT_CAP_STRING_OUT ||
	       kind == EVT_CAP_ARGV;
}

/* The fields of a copied argument after evtrace_capture, in order: each
 * a role, a suffix to the argument's name and its tracefs type. */
struct shape {
	struct evt_capf role;
	char suffix[16];
	const char *type;	/* "u64", "u32", "string", "bytes" */
};

static unsigned arg_shape(unsigned kind, bool enter, unsigned arg,
			  struct shape *out)
{
	unsigned n = 0, k;

#define ADD(r, e, sfx, t) do { \
		out[n].role = (struct evt_capf){ (r), (uint8_t)arg, (int8_t)(e) }; \
		snprintf(out[n].suffix, sizeof(out[n].suffix), "%s", (sfx)); \
		out[n++].type = (t); \
	} while (0)
	if (!is_vector(kind)) {
		if (!enter)
			ADD(EVT_CAPF_CONTENT, -1, "", is_string(kind) ? "string" : "bytes");
		ADD(EVT_CAPF_ADDR, -1, "_addr", "u64");
		ADD(EVT_CAPF_FLAGS, -1, "_flags", "u32");
		return n;
	}
	for (k = 0; k < EVT_CAP_VEC_MAX; k++) {
		char sfx[16];

		snprintf(sfx, sizeof(sfx), "_%u", k);
		ADD(EVT_CAPF_CONTENT, k, sfx, is_string(kind) ? "string" : "bytes");
		if (kind != EVT_CAP_ARGV) {
			snprintf(sfx, sizeof(sfx), "_len_%u", k);
			ADD(EVT_CAPF_LEN, k, sfx, "u64");
		}
		snprintf(sfx, sizeof(sfx), "_flags_%u", k);
		ADD(EVT_CAPF_FLAGS, k, sfx, "u32");
	}
	ADD(EVT_CAPF_COUNT, -1, "_count", "u32");
	if (!enter)
		ADD(EVT_CAPF_ADDR, -1, "_addr", "u64");
	ADD(EVT_CAPF_FLAGS, -1, "_flags", "u32");
#undef ADD
	return n;
}

/* The most fields one argument takes after evtrace_capture. */
#define SHAPE_MAX (3 * EVT_CAP_VEC_MAX + 3)

/* A field line's offset and size, or false. */
static bool line_place(const char *line, unsigned *offset, unsigned *size)
{
	const char *o = strstr(line, "offset:"), *s = strstr(line, "size:");

	return o && s && sscanf(o, "offset:%u", offset) == 1 &&
	       sscanf(s, "size:%u", size) == 1;
}

/* A field line's name (the word before its ';'), into name. */
static void line_name(const char *line, size_t len, char *name, size_t size)
{
	const char *semi = memchr(line, ';', len), *start;

	name[0] = '\0';
	if (!semi)
		return;
	for (start = semi; start > line && (start[-1] == '_' ||
		(start[-1] >= '0' && start[-1] <= '9') ||
		(start[-1] >= 'a' && start[-1] <= 'z') ||
		(start[-1] >= 'A' && start[-1] <= 'Z')); start--)
		;
	snprintf(name, size, "%.*s", (int)(semi - start), start);
}

struct text {
	char *s;
	size_t len, cap;
	bool failed;
};

static void put(struct text *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void put(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (t->failed)
		return;
	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(t->s + t->len, t->cap - t->len, fmt, ap);
		va_end(ap);
		if (n < 0) {
			t->failed = true;
			return;
		}
		if ((size_t)n < t->cap - t->len)
			break;
		char *grown = realloc(t->s, 2 * t->cap + (size_t)n);

		if (!grown) {
			t->failed = true;
			return;
		}
		t->s = grown;
		t->cap = 2 * t->cap + (size_t)n;
	}
	t->len += (size_t)n;
}

/* A field line of type ("u64", "u32", "string", "bytes") at *end,
 * aligned; *end past it. */
static void put_field(struct text *t, const char *type, const char *name,
		      const char *suffix, unsigned *end)
{
	unsigned size = !strcmp(type, "u64") ? 8 : 4;

	*end = (*end + size - 1) & ~(size - 1);
	if (!strcmp(type, "u64"))
		put(t, "\tfield:unsigned long %s%s;", name, suffix);
	else if (!strcmp(type, "u32"))
		put(t, "\tfield:unsigned int %s%s;", name, suffix);
	else
		put(t, "\tfield:__data_loc %s[] %s%s;",
		    !strcmp(type, "string") ? "char" : "uint8_t", name, suffix);
	put(t, "\toffset:%u;\tsize:%u;\tsigned:0;\n", *end, size);
	*end += size;
}

char *evt_capf_format_text(const char *text, const char *call, bool enter,
			   const struct evt_event_format *kf,
			   char *const *entry_names, unsigned nargs)
{
	const char *fields = strstr(text, "format:\n"), *tail, *line;
	struct text t = { .cap = strlen(text) + 4096 };
	struct shape shape[SHAPE_MAX];
	struct evt_cap_spec sp;
	unsigned end = 8, i, j, n;

	spec_of(call, &sp);
	if (!fields || !(tail = strstr(fields, "\n\nprint fmt:")) || !kf->nfields ||
	    strcmp(kf->fields[0].name, "__syscall_nr") || nargs > EVT_CAP_NARGS ||
	    !(t.s = malloc(t.cap)))
		return NULL;
	fields += strlen("format:\n");
	put(&t, "%.*s", (int)(fields - text), text);
	/* The kernel's lines, an entry's arguments copied whole as their
	 * bytes in place of their addresses. */
	for (line = fields; line <= tail; ) {
		const char *nl = strchr(line, '\n');
		size_t len = (size_t)(nl - line);
		unsigned off, size, arg = EVT_CAP_NARGS;
		char name[EVT_FIELD_NAME_MAX];

		line_name(line, len, name, sizeof(name));
		for (i = 1; i < kf->nfields && i <= EVT_CAP_NARGS; i++)
			if (!strcmp(kf->fields[i].name, name))
				arg = i - 1;
		if (len && line_place(line, &off, &size) && off + size > end)
			end = off + size;
		if (enter && arg < EVT_CAP_NARGS && sp.kind[arg] && !is_vector(sp.kind[arg]) &&
		    len && line_place(line, &off, &size) && size >= 4)
			put(&t, "\tfield:__data_loc %s[] %s;\toffset:%u;\tsize:4;\tsigned:0;\n",
			    is_string(sp.kind[arg]) ? "char" : "uint8_t", name, off);
		else	/* (the empty line after the common fields too) */
			put(&t, "%.*s\n", (int)len, line);
		line = nl + 1;
		if (nl == tail)
			break;
	}
	end = (end + 3) & ~3u;
	put_field(&t, "u32", EVT_SYSCALL_CAPTURE_FIELD, "", &end);
	n = enter ? kf->nfields - 1 : nargs;
	for (i = 0; i < n && i < EVT_CAP_NARGS; i++) {
		char fallback[8];
		const char *name = enter ? kf->fields[i + 1].name :
				   entry_names ? entry_names[i] : NULL;
		unsigned kind = sp.kind[i];

		if (!name) {
			snprintf(fallback, sizeof(fallback), "arg%u", i);
			name = fallback;
		}
		if (!enter && (!kind || !at_exit(kind))) {
			put_field(&t, "u64", name, "", &end);
			continue;
		}
		if (!kind || at_exit(kind) != !enter)
			continue;
		for (j = 0; j < arg_shape(kind, enter, i, shape); j++)
			put_field(&t, shape[j].type, name, shape[j].suffix, &end);
	}
	put(&t, "%s", tail + 1);
	if (t.failed) {
		free(t.s);
		return NULL;
	}
	return t.s;
}

int evt_capf_roles(const char *call, bool enter,
		   const struct evt_event_format *f, struct evt_capf *roles)
{
	struct shape shape[SHAPE_MAX];
	struct evt_cap_spec sp;
	uint32_t i, at, mark = f->nfields;
	unsigned arg, j, n;

	for (i = 0; i < f->nfields; i++)
		if (!strcmp(f->fields[i].name, EVT_SYSCALL_CAPTURE_FIELD))
			mark = i;
	if (mark == f->nfields)
		return 0;
	spec_of(call, &sp);
	memset(roles, 0, f->nfields * sizeof(*roles));
	if (!mark || strcmp(f->fields[0].name, "__syscall_nr") ||
	    (enter ? mark - 1 > EVT_CAP_NARGS : mark != 2))
		return -1;
	for (i = 1; enter && i < mark; i++) {
		arg = i - 1;
		roles[i] = (struct evt_capf){ EVT_CAPF_ARG, (uint8_t)arg, -1 };
		if (f->fields[i].kind == EVT_FIELD_STRING ||
		    f->fields[i].kind == EVT_FIELD_SEQUENCE) {
			if (!sp.kind[arg] || at_exit(sp.kind[arg]) || is_vector(sp.kind[arg]))
				return -1;
			roles[i].role = EVT_CAPF_CONTENT;
		} else if (f->fields[i].kind != EVT_FIELD_INTEGER) {
			return -1;
		}
	}
	roles[mark].role = EVT_CAPF_MARK;
	at = mark + 1;
	for (arg = 0; arg < EVT_CAP_NARGS && at < f->nfields; arg++) {
		unsigned kind = sp.kind[arg];
		const char *name = f->fields[at].name;
		size_t base;

		if (!enter && (!kind || !at_exit(kind))) {
			if (f->fields[at].kind != EVT_FIELD_INTEGER)
				return -1;
			roles[at++] = (struct evt_capf){ EVT_CAPF_ENTRY_ARG, (uint8_t)arg, -1 };
			continue;
		}
		if (!kind || at_exit(kind) != !enter)
			continue;
		n = arg_shape(kind, enter, arg, shape);
		if (at + n > f->nfields)
			return -1;
		/* The argument's name: the first field's, less its suffix. */
		if (strlen(name) < strlen(shape[0].suffix))
			return -1;
		base = strlen(name) - strlen(shape[0].suffix);
		for (j = 0; j < n; j++) {
			const struct evt_field_format *fd = &f->fields[at + j];
			bool bytes = shape[j].role.role == EVT_CAPF_CONTENT;

			if (strlen(fd->name) < base || strncmp(fd->name, name, base) ||
			    strcmp(fd->name + base, shape[j].suffix) ||
			    (bytes ? fd->kind != EVT_FIELD_STRING &&
				     fd->kind != EVT_FIELD_SEQUENCE :
				     fd->kind != EVT_FIELD_INTEGER))
				return -1;
			roles[at + j] = shape[j].role;
		}
		at += n;
	}
	return at == f->nfields ? 1 : -1;
}

static uint64_t integer(const struct evt_field_format *fd, const uint8_t *p)
{
	uint64_t v = 0;

	memcpy(&v, p, fd->size_bits / 8);
	return v;
}

/* The piece of argument code arg in out, made if new. */
static struct evt_cap_bytes *piece(struct evt_capf_read *out, unsigned code)
{
	unsigned i;

	for (i = 0; i < out->nmem; i++)
		if (out->mem[i].arg == code)
			return &out->mem[i];
	if (out->nmem == sizeof(out->mem) / sizeof(*out->mem))
		return NULL;
	out->mem[out->nmem] = (struct evt_cap_bytes){ .arg = (uint8_t)code };
	return &out->mem[out->nmem++];
}

/* An argv's or iovec's elements, as read. */
struct vec {
	bool seen, iov;
	uint32_t count, flags;
	struct elem {
		const uint8_t *bytes;
		uint32_t len, flags;
		uint64_t iov_len;
	} e[EVT_CAP_VEC_MAX];
};

/* The elements of argument i as pieces of their own (an iovec's led by
 * its iov_len, in out's scratch, *used of it taken). */
static int vec_pieces(struct evt_capf_read *out, unsigned i, const struct vec *v,
		      size_t *used)
{
	struct evt_cap_bytes *m;
	unsigned k;

	if ((v->flags & EVT_CAP_FAULT) && (m = piece(out, i))) {
		m->flags = EVT_CAP_FAULT;
		m->addr = out->args[i];
	}
	for (k = 0; k < v->count && k < EVT_CAP_VEC_MAX; k++) {
		const struct elem *e = &v->e[k];
		uint32_t n = e->len + (v->iov ? 8 : 0);

		if (!(m = piece(out, 8 * (k + 1) + i)) ||
		    *used + n > sizeof(out->scratch))
			return -1;
		m->bytes = out->scratch + *used;
		if (v->iov)
			memcpy(out->scratch + *used, &e->iov_len, 8);
		memcpy(out->scratch + *used + (v->iov ? 8 : 0), e->bytes, e->len);
		m->len = n;
		m->flags = e->flags;
		*used += n;
	}
	return 0;
}

int evt_capf_read(const struct evt_event_format *f, const struct evt_capf *roles,
		  const uint8_t *payload, size_t size, struct evt_capf_read *out)
{
	struct vec vec[EVT_CAP_NARGS];
	bool in_place[EVT_CAP_NARGS] = { false }, before_mark = true;
	size_t at = 0, used = 0;
	uint32_t i;

	memset(out, 0, offsetof(struct evt_capf_read, scratch));
	memset(vec, 0, sizeof(vec));
	for (i = 0; i < f->nfields; i++) {
		const struct evt_field_format *fd = &f->fields[i];
		const struct evt_capf *r = &roles[i];
		long len = evt_event_field_bytes(fd, payload + at, size - at);
		const uint8_t *p = payload + at;
		struct evt_cap_bytes *m;
		uint64_t v = 0;

		if (len < 0 || r->arg >= EVT_CAP_NARGS || r->elem >= EVT_CAP_VEC_MAX)
			return -1;
		at += (size_t)len;
		if (fd->kind == EVT_FIELD_INTEGER)
			v = integer(fd, p);
		if (before_mark && i && r->role != EVT_CAPF_MARK &&
		    out->nvalues < EVT_CAP_NARGS)
			out->nvalues++;
		switch (r->role) {
		case EVT_CAPF_KERNEL:
			if (i)
				out->values[out->nvalues - 1] = v;
			break;
		case EVT_CAPF_ARG:
			out->values[r->arg] = out->args[r->arg] = v;
			break;
		case EVT_CAPF_MARK:
			out->have_args = v != 0;
			before_mark = false;
			break;
		case EVT_CAPF_ENTRY_ARG:
			out->args[r->arg] = v;
			break;
		case EVT_CAPF_CONTENT:
			if (fd->kind == EVT_FIELD_STRING) {
				len--;		/* its NUL */
			} else {
				p += 4;		/* its count */
				len -= 4;
			}
			if (len < 0)
				return -1;
			if (r->elem >= 0) {
				vec[r->arg].seen = true;
				vec[r->arg].e[r->elem].bytes = p;
				vec[r->arg].e[r->elem].len = (uint32_t)len;
				break;
			}
			in_place[r->arg] = before_mark;
			if (!(m = piece(out, r->arg)))
				return -1;
			m->bytes = p;
			m->len = (uint32_t)len;
			break;
		case EVT_CAPF_ADDR:
			out->args[r->arg] = v;
			if (in_place[r->arg])
				out->values[r->arg] = v;
			if (!vec[r->arg].seen) {
				if (!(m = piece(out, r->arg)))
					return -1;
				m->addr = v;
			}
			break;
		case EVT_CAPF_FLAGS:
			if (r->elem >= 0)
				vec[r->arg].e[r->elem].flags = (uint32_t)v;
			else if (vec[r->arg].seen)
				vec[r->arg].flags = (uint32_t)v;
			else if ((m = piece(out, r->arg)))
				m->flags = (uint32_t)v;
			else
				return -1;
			break;
		case EVT_CAPF_COUNT:
			vec[r->arg].count = (uint32_t)v;
			break;
		case EVT_CAPF_LEN:
			vec[r->arg].iov = true;
			vec[r->arg].e[r->elem].iov_len = v;
			break;
		default:
			return -1;
		}
	}
	for (i = 0; i < EVT_CAP_NARGS; i++)
		if (vec[i].seen && vec_pieces(out, i, &vec[i], &used))
			return -1;
	return 0;
}
