/*
 * kernel_format.c - a kernel tracepoint's format file turned into
 * evtrace's format and the places of its fields in the raw record, by
 * libtraceevent alone: no tracefs, so that what reads traces (the
 * babeltrace2 plugin too) can use it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "kernel_events.h"

int evt_kernel_split_path(const char *path, char system[256], char name[256],
			  char *err, size_t err_size)
{
	const char *p = path, *slash;
	size_t slen;

	while (*p == '/')
		p++;
	/* (a USDT probe's: usdt/PROVIDER/NAME, its format's system and
	 * name, usdt_probes.h) */
	if (!strncmp(p, "usdt/", 5))
		p += 5;
	else if (strncmp(p, EVT_KERNEL_PREFIX, strlen(EVT_KERNEL_PREFIX)))
		goto bad;
	else
		p += strlen(EVT_KERNEL_PREFIX);
	slash = strchr(p, '/');
	slen = slash ? (size_t)(slash - p) : 0;
	if (!slen || slen > 255 || strchr(slash + 1, '/') || !slash[1] ||
	    strlen(slash + 1) > 255 || *p == '.' || slash[1] == '.')
		goto bad;
	snprintf(system, 256, "%.*s", (int)slen, p);
	snprintf(name, 256, "%s", slash + 1);
	return 0;
bad:
	return snprintf(err, err_size, "%s: not a kernel event "
			"(kernel/<system>/<event>)", path), -1;
}

static void element_type(const char *type, char *out, size_t size)
{
	const char *t = type;

	if (!strncmp(t, "__data_loc ", 11))
		t += 11;
	else if (!strncmp(t, "__rel_loc ", 10))
		t += 10;
	snprintf(out, size, "%.*s", (int)strcspn(t, "["), t);
	while (*out && out[strlen(out) - 1] == ' ')
		out[strlen(out) - 1] = '\0';
}

static bool int_size(unsigned bytes)
{
	return bytes == 1 || bytes == 2 || bytes == 4 || bytes == 8;
}

/* One kernel field as an evtrace field, and where its bytes are. */
static int convert_field(const struct tep_format_field *k,
			 struct evt_field_format *f,
			 struct evt_kernel_field_src *src, char *err,
			 size_t err_size)
{
	unsigned long fl = k->flags;
	unsigned elem = k->elementsize ? k->elementsize : 1;

	memset(f, 0, sizeof(*f));
	snprintf(f->name, sizeof(f->name), "%s", k->name);
	element_type(k->type, f->type, sizeof(f->type));
	f->is_signed = !!(fl & TEP_FIELD_IS_SIGNED);
	if (k->offset < 0 || k->size <= 0 || k->offset > 0xffff || k->size > 0xffff)
		return snprintf(err, err_size, "field %s: offset %d, size %d",
				k->name, k->offset, k->size), -1;
	*src = (struct evt_kernel_field_src){
		.how = EVT_KSRC_COPY, .offset = (uint16_t)k->offset,
		.size = (uint16_t)k->size,
	};
	if (fl & (TEP_FIELD_IS_DYNAMIC | TEP_FIELD_IS_RELATIVE)) {
		src->relative = !!(fl & TEP_FIELD_IS_RELATIVE);
		if ((fl & TEP_FIELD_IS_STRING) || !strcmp(f->type, "char")) {
			f->kind = EVT_FIELD_STRING;
			snprintf(f->type, sizeof(f->type), "char");
			elem = 1;
		} else {
			f->kind = EVT_FIELD_SEQUENCE;
		}
		if (f->kind == EVT_FIELD_SEQUENCE && !strchr(k->type, '[')) {
			/* not an array (a bitmask, a struct): its bytes */
			snprintf(f->type, sizeof(f->type), "uint8_t");
			f->is_signed = 0;
			elem = 1;
		}
		src->how = f->kind == EVT_FIELD_STRING ? EVT_KSRC_STRING :
			   EVT_KSRC_SEQUENCE;
		if (k->size != 4)
			return snprintf(err, err_size, "field %s: a dynamic field "
					"of %d bytes", k->name, k->size), -1;
	} else if (fl & TEP_FIELD_IS_ARRAY) {
		f->kind = EVT_FIELD_ARRAY;
		f->count = k->arraylen ? k->arraylen : (unsigned)k->size / elem;
		if ((uint64_t)f->count * elem != (unsigned)k->size)
			return snprintf(err, err_size, "field %s: %u elements of %u "
					"bytes in %d", k->name, f->count, elem,
					k->size), -1;
	} else if (int_size((unsigned)k->size)) {
		f->kind = EVT_FIELD_INTEGER;
		elem = (unsigned)k->size;
		if (fl & TEP_FIELD_IS_POINTER)
			f->is_signed = 0;
	} else {			/* a struct or odd size: its bytes */
		f->kind = EVT_FIELD_ARRAY;
		snprintf(f->type, sizeof(f->type), "uint8_t");
		f->is_signed = 0;
		elem = 1;
		f->count = (unsigned)k->size;
	}
	if (!int_size(elem))
		return snprintf(err, err_size, "field %s: elements of %u bytes",
				k->name, elem), -1;
	f->size_bits = elem * 8;
	f->align = elem;
	src->elem = (uint16_t)elem;
	return 0;
}

int evt_kernel_event_parse(const char *path, const char *text, size_t len,
			   struct evt_kernel_event *out, char *err,
			   size_t err_size)
{
	struct tep_format_field **fields = NULL;
	struct tep_handle *tep = NULL;
	struct tep_event *event = NULL;
	char system[256], name[256], why[300];
	unsigned i, n = 0;

	memset(out, 0, sizeof(*out));
	if (evt_kernel_split_path(path, system, name, err, err_size))
		return -1;
	tep = tep_alloc();
	if (tep && tep_parse_event(tep, text, (unsigned long)len, system) == 0)
		event = tep_find_event_by_name(tep, system, name);
	if (!event) {
		tep_free(tep);
		return snprintf(err, err_size, "%s: no such kernel event (or "
				"libtraceevent cannot parse its format)", path), -1;
	}
	fields = tep_event_fields(event);
	while (fields && fields[n])
		n++;
	out->id = event->id;
	out->path = strdup(path);
	out->tracefs_format = strndup(text, len);
	out->format.fields = calloc(n ? n : 1, sizeof(*out->format.fields));
	out->src = calloc(n ? n : 1, sizeof(*out->src));
	if (!out->path || !out->tracefs_format || !out->format.fields || !out->src) {
		snprintf(err, err_size, "out of memory");
		goto fail;
	}
	for (i = 0; i < n; i++, out->format.nfields++)
		if (convert_field(fields[i], &out->format.fields[i], &out->src[i],
				  why, sizeof(why))) {
			snprintf(err, err_size, "%s: %s: evtrace cannot express it",
				 path, why);
			goto fail;
		}
	if (!strcmp(system, "syscalls") || !strcmp(system, "raw_syscalls"))
		/* TRACE_EVENT_FL_CAP_ANY */
		out->format.flags = EVT_FORMAT_FL_CAP_ANY;
	if (evt_event_format_check(&out->format, why, sizeof(why))) {
		snprintf(err, err_size, "%s: %s", path, why);
		goto fail;
	}
	free(fields);
	tep_free(tep);
	return 0;
fail:
	free(fields);
	tep_free(tep);
	evt_kernel_event_free(out);
	return -1;
}

void evt_kernel_event_free(struct evt_kernel_event *e)
{
	free(e->path);
	free(e->tracefs_format);
	free(e->src);
	evt_event_format_free(&e->format);
	memset(e, 0, sizeof(*e));
}
