/*
 * register_event.c - turn a module's typed and stable events (section
 * "evt_events", one pointer per translation unit that defines one) into
 * registry entries whose format is the event's format text.
 *
 * An event's static description is checked here, once: what the macros
 * could not refuse at compile time (enum values that do not fit, a record
 * that could not fit the smallest packet, a path defined elsewhere with
 * another format) is registered refused, with why, and stays off: the
 * tools that would enable it say why, as ls does; the process says
 * nothing at its start (but with $EVTRACE_DEBUG).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "event_format.h"
#include "record_header.h"
#include "runtime.h"

_Static_assert((int)EVT__FK_INTEGER == (int)EVT_FIELD_INTEGER &&
	       (int)EVT__FK_SEQUENCE == (int)EVT_FIELD_SEQUENCE &&
	       EVT_FL_CAP_ANY == EVT_FORMAT_FL_CAP_ANY &&
	       EVT__SLOT_BITS == EVT_SLOT_MASK,
	       "public and internal constants agree");

/* The largest payload a record may have: it must fit the smallest packet. */
#define PAYLOAD_MAX (EVT_PACKET_MIN_BYTES - sizeof(struct evt_packet_header) - \
		     EVT_HDR_MAX_BYTES)

static const uint32_t event_off;

static void event_stays_off(struct evt_event *ev)
{
	__atomic_store_n(&ev->enable, &event_off, __ATOMIC_RELEASE);
}

/* ev at path is refused for why: registered so, said to $EVTRACE_DEBUG
 * only (on stderr when it cannot be registered); it stays off.  -1. */
static int refuse(struct evt_event *ev, const char *path, const char *why)
{
	char format[400];
	int reused;
	uint32_t id;

	snprintf(format, sizeof(format), EVT_REFUSED_PREFIX "%s", why);
	id = evt__event_add_refused_locked(path, format, ev->is_stable ?
					   EVT_KIND_STABLE : EVT_KIND_TYPED,
					   NULL, &reused);
	if (id < UINT32_MAX - 1)
		evt__debug("%s: %s; this event stays off", path, why);
	else	/* its path taken, or the registry full: no tool can tell */
		evt__warn("%s: %s; this event stays off", path, why);
	event_stays_off(ev);
	return -1;
}

/* The format of ev, described from its static definition. */
static int describe(const struct evt_event *ev, struct evt_event_format *f,
		    char *err, size_t err_size)
{
	size_t stride = ev->field_size;
	uint32_t i, n;

	memset(f, 0, sizeof(*f));
	if (stride < sizeof(struct evt_event_field) || stride % sizeof(void *)) {
		snprintf(err, err_size, "fields of an unknown layout (%zu bytes each)",
			 stride);
		return -1;
	}
	if (ev->nfields == 0 || ev->nfields > EVT_FIELDS_MAX) {
		snprintf(err, err_size, "%u fields, 1 to %d allowed", ev->nfields,
			 EVT_FIELDS_MAX);
		return -1;
	}
	f->flags = ev->flags ? *ev->flags : 0;
	f->fields = calloc(ev->nfields, sizeof(*f->fields));
	if (!f->fields) {
		snprintf(err, err_size, "out of memory");
		return -1;
	}
	f->nfields = ev->nfields;
	for (i = 0; i < ev->nfields; i++) {
		/* A module built with other headers strides by its own size. */
		const struct evt_event_field *src = (const struct evt_event_field *)
			((const char *)ev->fields + (size_t)i * stride);
		struct evt_field_format *fd = &f->fields[i];

		fd->kind = (enum evt_field_kind)src->kind;
		snprintf(fd->name, sizeof(fd->name), "%s", src->name ? src->name : "");
		snprintf(fd->type, sizeof(fd->type), "%s", src->type ? src->type : "");
		fd->size_bits = src->size * 8;
		fd->align = src->align;
		fd->count = src->count;
		fd->is_signed = src->is_signed ? 1 : 0;
		if (src->kind == EVT__FK_ENUM && src->values) {
			for (n = 0; src->values[n].name && n <= EVT_ENUM_VALUES_MAX; n++)
				;
			/* The names stay the event's; the casts only add
			 * const back on what evt_event_format never frees here. */
			fd->values = (struct evt_enum_entry *)calloc(n ? n : 1,
								     sizeof(*fd->values));
			if (!fd->values) {
				snprintf(err, err_size, "out of memory");
				return -1;
			}
			fd->nvalues = n;
			for (n = 0; n < fd->nvalues; n++) {
				fd->values[n].name = (char *)src->values[n].name;
				fd->values[n].value = src->values[n].value;
			}
		}
	}
	if (evt_event_format_check(f, err, err_size))
		return -1;
	if (evt_event_format_max_bytes(f) > PAYLOAD_MAX) {
		snprintf(err, err_size, "a record could take %llu bytes, more "
			 "than the %zu a packet can hold",
			 (unsigned long long)evt_event_format_max_bytes(f),
			 (size_t)PAYLOAD_MAX);
		return -1;
	}
	return 0;
}

/* Frees what describe() allocated: the value names are the event's. */
static void release_description(struct evt_event_format *f)
{
	uint32_t i;

	for (i = 0; i < f->nfields; i++)
		free(f->fields[i].values);
	free(f->fields);
	memset(f, 0, sizeof(*f));
}

int evt__event_register_locked(struct evt_event *ev, const char *module)
{
	struct evt_event_format f;
	struct evt__site_rt *rt;
	char path[512], err[300];
	uint32_t parent = UINT32_MAX, id;
	char *text;
	int reused;

	if (ev->runtime)
		return 0;
	if (__atomic_load_n(&ev->enable, __ATOMIC_ACQUIRE) == &event_off)
		return -1;	/* refused already (by a first pass) */
	if (ev->size < sizeof(struct evt_event) || !ev->provider || !ev->name ||
	    strlen(ev->provider) > 200 || strlen(ev->name) > 200 ||
	    !evt_is_identifier(ev->provider) || !evt_is_identifier(ev->name)) {
		evt__warn("module %s: an event has an unknown layout or a bad name; "
			  "it stays off", module);
		event_stays_off(ev);
		return -1;
	}
	snprintf(path, sizeof(path), "%s/%s", ev->provider, ev->name);
	if (ev->is_stable) {
		const struct evt__site_rt *raw_rt;

		if (!ev->raw || ev->raw->is_stable || !ev->probe ||
		    evt__event_register_locked(ev->raw, module)) {
			char why[300];

			snprintf(why, sizeof(why), "its raw event %s/%s is refused "
				 "or not registered", ev->raw && ev->raw->provider ?
				 ev->raw->provider : "?", ev->raw && ev->raw->name ?
				 ev->raw->name : "?");
			return refuse(ev, path, why);
		}
		raw_rt = ev->raw->runtime;
		parent = raw_rt->id;
	}
	if (describe(ev, &f, err, sizeof(err))) {
		release_description(&f);
		return refuse(ev, path, err);
	}
	text = evt_event_format_text(&f);
	release_description(&f);
	id = text ? evt__event_add_locked(path, text,
						ev->is_stable ? EVT_KIND_STABLE :
								EVT_KIND_TYPED,
						NULL, 0, parent, &reused) :
			  UINT32_MAX - 1;
	free(text);
	if (id == UINT32_MAX)
		return refuse(ev, path, "defined with another format elsewhere "
			      "in this process");
	if (id == UINT32_MAX - 1) {
		evt__warn("%s: cannot register (registry full); this event stays "
			  "off", path);
		event_stays_off(ev);
		return -1;
	}
	rt = evt__proc.events[id].rt = &evt__proc.events[id].rt_store;
	rt->id = id;
	ev->runtime = rt;
	/* Its C calls write into the thread's window when a compact header
	 * holds its id (the field was padding before 0.1.14: ours to set). */
	if (id < EVT_HDR_EXTENDED)
		ev->inline_id = id + 1;
	if (ev->is_stable) {
		ev->next_view = ev->raw->views;
		/* Pairs with the acquire in evt__event_views(). */
		__atomic_store_n(&ev->raw->views, ev, __ATOMIC_RELEASE);
	}
	__atomic_store_n(&ev->enable, &evt__proc.enable[id], __ATOMIC_RELEASE);
	return 0;
}

void evt__events_register_locked(struct evt_event **start,
				 struct evt_event **stop, const char *module)
{
	struct evt_event **p;

	/* Raw events first: a stable view needs its raw event's id. */
	for (p = start; p < stop; p++)
		if (*p && (*p)->size >= sizeof(struct evt_event) && !(*p)->is_stable)
			evt__event_register_locked(*p, module);
	for (p = start; p < stop; p++)
		if (*p)
			evt__event_register_locked(*p, module);
}

void evt__events_unregister_locked(struct evt_event **start,
				   struct evt_event **stop)
{
	struct evt_event **p;

	for (p = start; p < stop; p++) {
		struct evt_event *ev = *p;
		const struct evt__site_rt *rt;

		if (!ev || ev->size < sizeof(struct evt_event) || !ev->runtime)
			continue;	/* not registered, or seen already */
		rt = ev->runtime;
		evt__event_unload_locked(rt->id);
		ev->runtime = NULL;
		event_stays_off(ev);
	}
}

void evt__event_register_lazy(struct evt_event *ev)
{
	int saved = errno;	/* the caller's, whatever registering does */

	if (pthread_mutex_trylock(&evt__proc.lock))
		return;
	if (!ev->runtime && !evt__process_init_locked())
		evt__event_register_locked(ev, evt__module_name(ev));
	pthread_mutex_unlock(&evt__proc.lock);
	errno = saved;
}
