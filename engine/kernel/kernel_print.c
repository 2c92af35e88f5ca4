/*
 * kernel_print.c - kernel events by their own print fmt (see
 * kernel_print.h).
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>
#include <trace-seq.h>

#include "kernel_events.h"
#include "kernel_print.h"
#include "syscall_args.h"

struct kev {
	bool loaded;			/* ke holds the parsed format */
	struct evt_kernel_event ke;	/* where each field is in the raw
					 * record */
	struct tep_event *te;		/* NULL: not printed by tep */
	const char *name;		/* in ke.path, after the system */
	bool syscall;			/* syscalls/: strace's notation */
	int enter;			/* a sys_exit_'s sys_enter_, or -1 */
	size_t fixed;			/* bytes before the dynamic data */
	int type_off, pid_off;		/* common_type, common_pid */
};

struct evt_kernel_print {
	struct tep_handle *tep;
	struct kev *ev;
	unsigned n;
	uint8_t *raw;
	size_t raw_cap;
	struct trace_seq seq;
	const struct evt_event_desc *base;	/* the reader's: events[0] */
};

static int common_offset(struct tep_event *te, const char *name)
{
	struct tep_format_field *f = tep_find_common_field(te, name);

	return f ? f->offset : -1;
}

/* The end of the fixed part: the furthest field end. */
static size_t fixed_size(struct tep_event *te)
{
	struct tep_format_field **all[2] = { tep_event_common_fields(te),
					     tep_event_fields(te) };
	size_t end = 0;
	unsigned k, i;

	for (k = 0; k < 2; k++) {
		for (i = 0; all[k] && all[k][i]; i++)
			if ((size_t)(all[k][i]->offset + all[k][i]->size) > end)
				end = (size_t)(all[k][i]->offset + all[k][i]->size);
		free(all[k]);
	}
	return end;
}

static void load(struct evt_kernel_print *p, struct kev *k, const char *path,
		 const char *text)
{
	char system[256], err[300];
	const char *slash;
	size_t len;

	if (strncmp(path, EVT_KERNEL_PREFIX, strlen(EVT_KERNEL_PREFIX)) ||
	    !(slash = strchr(path + strlen(EVT_KERNEL_PREFIX), '/')))
		return;
	len = (size_t)(slash - path) - strlen(EVT_KERNEL_PREFIX);
	if (len >= sizeof(system))
		return;
	memcpy(system, path + strlen(EVT_KERNEL_PREFIX), len);
	system[len] = '\0';
	if (evt_kernel_event_parse(path, text, strlen(text), &k->ke, err, sizeof(err)))
		return;
	k->loaded = true;
	k->name = strrchr(k->ke.path, '/') + 1;
	k->syscall = !strcmp(system, "syscalls");
	if (k->syscall)
		return;
	if (tep_parse_event(p->tep, text, strlen(text), system) ||
	    !(k->te = tep_find_event_by_name(p->tep, system, k->name)))
		return;
	k->type_off = common_offset(k->te, "common_type");
	k->pid_off = common_offset(k->te, "common_pid");
	k->fixed = fixed_size(k->te);
	if (k->type_off < 0 || k->pid_off < 0)
		k->te = NULL;
}

/* The sys_enter_ event of a sys_exit_ one, for its arguments' types. */
static int enter_of(const struct evt_kernel_print *p, const struct kev *k)
{
	unsigned i;

	if (!k->loaded || !k->syscall || strncmp(k->name, "sys_exit_", 9))
		return -1;
	for (i = 0; i < p->n; i++)
		if (p->ev[i].loaded && p->ev[i].syscall &&
		    !strncmp(p->ev[i].name, "sys_enter_", 10) &&
		    !strcmp(p->ev[i].name + 10, k->name + 9))
			return (int)i;
	return -1;
}

struct evt_kernel_print *evt_kernel_print_new(char *const *paths,
					      char *const *texts, unsigned n)
{
	struct evt_kernel_print *p = calloc(1, sizeof(*p));
	unsigned i, some = 0;

	if (!p || !(p->ev = calloc(n ? n : 1, sizeof(*p->ev))) ||
	    !(p->tep = tep_alloc())) {
		evt_kernel_print_free(p);
		return NULL;
	}
	p->n = n;
	tep_set_long_size(p->tep, sizeof(long));
	tep_set_file_bigendian(p->tep, tep_is_local_bigendian(p->tep) ?
				       TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	trace_seq_init(&p->seq);
	for (i = 0; i < n; i++)
		if (texts[i] && paths[i]) {
			load(p, &p->ev[i], paths[i], texts[i]);
			some += p->ev[i].loaded;
		}
	if (!some) {
		evt_kernel_print_free(p);
		return NULL;
	}
	for (i = 0; i < n; i++)
		p->ev[i].enter = enter_of(p, &p->ev[i]);
	return p;
}

void evt_kernel_print_free(struct evt_kernel_print *p)
{
	unsigned i;

	if (!p)
		return;
	for (i = 0; p->ev && i < p->n; i++)
		if (p->ev[i].loaded)
			evt_kernel_event_free(&p->ev[i].ke);
	if (p->tep) {
		trace_seq_destroy(&p->seq);
		tep_free(p->tep);
	}
	free(p->ev);
	free(p->raw);
	free(p);
}

static uint8_t *room(struct evt_kernel_print *p, size_t size)
{
	if (size > p->raw_cap) {
		uint8_t *grown = realloc(p->raw, size);

		if (!grown)
			return NULL;
		p->raw = grown;
		p->raw_cap = size;
	}
	memset(p->raw, 0, size);
	return p->raw;
}

static int print_tep(struct evt_kernel_print *p, uint8_t *raw, size_t size,
		     uint16_t cpu, char *out, size_t out_size)
{
	struct tep_record rec = { .data = raw, .size = (int)size,
				  .record_size = (int)size, .cpu = cpu };

	trace_seq_reset(&p->seq);
	tep_print_event(p->tep, &p->seq, &rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&p->seq);
	if (p->seq.state != TRACE_SEQ__GOOD || !p->seq.buffer)
		return -1;
	snprintf(out, out_size, "%s", p->seq.buffer);
	return (int)strlen(out);
}

/*
 * evtrace's payload (kernel_payload.c) back into the kernel's layout:
 * fixed fields where they were, each string and dynamic array after the
 * fixed part with its __data_loc (or __rel_loc) pointing at it.
 */
static uint8_t *rebuild(struct evt_kernel_print *p, struct kev *k,
			const uint8_t *payload, size_t size, uint32_t tid,
			size_t *raw_size)
{
	const struct evt_kernel_event *ke = &k->ke;
	size_t at = 0, dyn = k->fixed;
	uint16_t type = (uint16_t)k->te->id;
	uint8_t *raw = room(p, k->fixed + size);
	uint32_t i;

	if (!raw)
		return NULL;
	for (i = 0; i < ke->format.nfields; i++) {
		const struct evt_kernel_field_src *s = &ke->src[i];
		long len = evt_event_field_bytes(&ke->format.fields[i], payload + at,
						 size - at);
		const uint8_t *bytes = payload + at;
		size_t n = (size_t)len;
		uint32_t loc;

		if (len < 0 || (size_t)s->offset + s->size > k->fixed)
			return NULL;
		at += n;
		if (s->how == EVT_KSRC_COPY) {
			if (n != s->size)
				return NULL;
			memcpy(raw + s->offset, bytes, n);
			continue;
		}
		if (s->how == EVT_KSRC_SEQUENCE) {	/* its count first */
			if (n < 4)
				return NULL;
			bytes += 4;
			n -= 4;
		}
		memcpy(raw + dyn, bytes, n);
		loc = (uint32_t)n << 16 |
		      (uint32_t)(s->relative ? dyn - (s->offset + s->size) : dyn);
		memcpy(raw + s->offset, &loc, 4);
		dyn += n;
	}
	memcpy(raw + k->type_off, &type, 2);
	memcpy(raw + k->pid_off, &tid, 4);
	*raw_size = dyn;
	return raw;
}

static const struct evt_event_format *enter_format(const struct evt_kernel_print *p,
						  const struct kev *k)
{
	return k->enter >= 0 ? &p->ev[k->enter].ke.format : NULL;
}

int evt_kernel_print_payload(struct evt_kernel_print *p, unsigned i,
			     const uint8_t *payload, size_t size, uint32_t tid,
			     uint16_t cpu, char *out, size_t out_size)
{
	struct kev *k = p && i < p->n ? &p->ev[i] : NULL;
	size_t raw_size;
	uint8_t *raw;

	if (!k || !k->loaded)
		return -1;
	if (k->syscall)
		return evt_syscall_text_record(k->name, &k->ke.format, enter_format(p, k),
					       payload, size, out, out_size);
	if (!k->te || !(raw = rebuild(p, k, payload, size, tid, &raw_size)))
		return -1;
	return print_tep(p, raw, raw_size, cpu, out, out_size);
}

const struct evt_event_format *evt_kernel_print_format(const struct evt_kernel_print *p,
						      unsigned i)
{
	return p && i < p->n && p->ev[i].loaded ? &p->ev[i].ke.format : NULL;
}

int evt_kernel_print_raw(struct evt_kernel_print *p, unsigned i,
			 const uint8_t *raw, size_t raw_size, uint16_t cpu,
			 char *out, size_t out_size)
{
	struct kev *k = p && i < p->n ? &p->ev[i] : NULL;
	uint8_t *copy;
	long n;

	if (!k || !k->loaded)
		return -1;
	if (k->syscall) {	/* through evtrace's layout, as a trace has it */
		size_t max = evt_kernel_payload_max(&k->ke, raw_size);
		uint8_t *payload = malloc(max ? max : 1);
		int len = -1;

		if (payload && (n = evt_kernel_payload(&k->ke, raw, raw_size, payload)) >= 0)
			len = evt_syscall_text_record(k->name, &k->ke.format,
						      enter_format(p, k), payload,
						      (size_t)n, out, out_size);
		free(payload);
		return len;
	}
	if (!k->te || !(copy = room(p, raw_size)))
		return -1;
	memcpy(copy, raw, raw_size);
	return print_tep(p, copy, raw_size, cpu, out, out_size);
}

/* ---- for the trace reader ---- */

static void *reader_open(const struct evt_trace_index *ix)
{
	char **paths = calloc(ix->nevents ? ix->nevents : 1, sizeof(char *));
	char **texts = calloc(ix->nevents ? ix->nevents : 1, sizeof(char *));
	struct evt_kernel_print *p = NULL;
	unsigned i, some = 0;

	for (i = 0; paths && texts && i < ix->nevents; i++) {
		paths[i] = ix->events[i].path;
		texts[i] = ix->events[i].kernel_format;
		some += texts[i] != NULL;
	}
	if (some)
		p = evt_kernel_print_new(paths, texts, ix->nevents);
	if (p)
		p->base = ix->events;
	free(paths);
	free(texts);
	return p;
}

static int reader_render(void *printer, const struct evt_event_desc *e,
			 const uint8_t *payload, size_t size, uint32_t tid,
			 uint16_t cpu, char *out, size_t out_size)
{
	struct evt_kernel_print *p = printer;

	return evt_kernel_print_payload(p, (unsigned)(e - p->base), payload, size,
					tid, cpu, out, out_size);
}

static void reader_close(void *printer)
{
	evt_kernel_print_free(printer);
}

const struct evt_kernel_printer_ops evt_kernel_print_ops = {
	.open = reader_open,
	.render = reader_render,
	.close = reader_close,
};
