/*
 * register_span.c - turn span and counter sites into events (span.h).
 *
 * Every site of the name <name> reads the enable word of one event, the
 * switch span/<name>, async/<name> or counter/<name>, registered by the
 * first site of that name in any module and shared with the others, so
 * that a begin and its end are on or off together.  A site whose records
 * store no more than the switch's head writes records of the switch; one
 * that stores more (a begin's printf-style arguments, a counter of
 * doubles) writes those of a rider: an event of the layout it needs,
 * child of the switch, shared by every site of that layout (layout.h).
 */
#include <stdio.h>
#include <string.h>

#include "quote.h"
#include "record_header.h"
#include "runtime.h"
#include "span_kind.h"

static uint16_t event_kind(uint32_t site_kind)
{
	return site_kind == EVT_SITE_SPAN ? EVT_KIND_SPAN :
	       site_kind == EVT_SITE_ASYNC ? EVT_KIND_ASYNC : EVT_KIND_COUNTER;
}

/* The switch of path, added or taken again: its id, or UINT32_MAX. */
static uint32_t add_switch(const char *path, uint16_t kind)
{
	uint8_t types[2];
	unsigned n = evt_span_head(kind, false, types);
	int reused;
	uint32_t id = evt__event_add_locked(path, "", kind, types, (uint8_t)n,
					    UINT32_MAX, &reused);

	if (id == UINT32_MAX)
		evt__warn("%s: the name is taken by another event; this site "
			  "stays off", path);
	else if (id == UINT32_MAX - 1)
		evt__warn("%s: cannot register (registry full); this site stays off",
			  path);
	if (id >= UINT32_MAX - 1)
		return UINT32_MAX;
	if (!reused) {
		struct evt__site_rt *rt = &evt__proc.events[id].rt_store;

		rt->id = id;
		rt->nargs = 0;
		rt->max_record_bytes = evt__record_max_bytes(types, n);
		rt->head_rt = rt;
		evt__proc.events[id].rt = rt;
	}
	return id;
}

/* The rider of switch sw for the arguments of f (NULL: a counter of
 * doubles): its id, or UINT32_MAX. */
static uint32_t add_rider(uint32_t sw, uint16_t kind, const char *format,
			  const struct evt_printk_format *f)
{
	const char *sw_path = evt__proc.events[sw].path;
	uint8_t types[EVT_PRINTK_MAX_ARGS];
	char path[1300];
	unsigned head = evt_span_head(kind, f == NULL, types);
	struct evt__site_rt *rt;
	uint32_t id;
	int reused;

	if (f && head + f->nargs > EVT_PRINTK_MAX_ARGS) {
		evt__warn("%s: more than %u arguments; this site stays off",
			  sw_path, EVT_PRINTK_MAX_ARGS - head);
		return UINT32_MAX;
	}
	if (f)
		memcpy(types + head, f->arg_types, f->nargs);
	snprintf(path, sizeof(path), "%s@%s", sw_path, f ? format : "double");
	id = evt__event_add_locked(path, f ? format : "", kind, types,
				   (uint8_t)(head + (f ? f->nargs : 0)), sw, &reused);
	if (id >= UINT32_MAX - 1) {
		evt__warn("%s: cannot register %s; this site stays off", path,
			  id == UINT32_MAX ? "(the name is taken)" : "(registry full)");
		return UINT32_MAX;
	}
	if (!reused) {
		rt = &evt__proc.events[id].rt_store;
		rt->id = id;
		rt->nargs = f ? f->nargs : 0;
		if (f)
			evt__site_write_types(f, rt);
		rt->max_record_bytes = evt__record_max_bytes(types, head +
							     (f ? f->nargs : 0));
		/* A counter of doubles stores no more than its head. */
		rt->head_rt = f ? evt__proc.events[sw].rt : rt;
		evt__proc.events[id].rt = rt;
	}
	return id;
}

void evt__span_site_register_locked(struct evt_site *site, uint32_t *id_out)
{
	uint16_t kind = event_kind(site->kind);
	bool real = site->kind == EVT_SITE_COUNTER_REAL;
	struct evt_printk_format f;
	char name[256], path[300], err[256];
	uint32_t sw, id;

	*id_out = UINT32_MAX;
	if (site->kind > EVT_SITE_COUNTER_REAL || !site->name || !*site->name ||
	    !site->format) {
		evt__warn("%s:%u: a site of unknown kind %u; it stays off",
			  site->file ? site->file : "?", site->line, site->kind);
		evt__site_stays_off(site);
		return;
	}
	evt_printable(name, sizeof(name), site->name);
	snprintf(path, sizeof(path), "%s/%s", evt_span_kind_prefix(kind), name);
	if (*site->format && (evt_printk_parse(site->format, &f, err, sizeof(err)) ||
			      (site->size >= EVT_SITE_SIZE_0_1_12 && site->arg_types &&
			       evt_printk_args_agree(site->format, &f, site->arg_types,
						     err, sizeof(err))))) {
		char shown[256];

		evt__warn("%s: format \"%s\": %s; this site stays off", path,
			  evt__escape(site->format, shown, sizeof(shown)), err);
		evt__site_stays_off(site);
		return;
	}
	sw = add_switch(path, kind);
	if (sw == UINT32_MAX) {
		evt__site_stays_off(site);
		return;
	}
	id = sw;
	if (*site->format || real) {
		id = add_rider(sw, kind, site->format, real ? NULL : &f);
		if (id == UINT32_MAX) {
			evt__event_unload_locked(sw);
			evt__site_stays_off(site);
			return;
		}
	}
	site->runtime = evt__proc.events[id].rt;
	*id_out = id;
	/* Its begins and ends without arguments, and its counts, are
	 * records of the head-only event, which a C site writes into the
	 * thread's window itself (bits/window.h) when a compact header
	 * holds the id. */
	if (site->size >= EVT_SITE_SIZE_0_1_14 &&
	    evt__proc.events[id].rt->head_rt->id < EVT_HDR_EXTENDED)
		site->inline_id = evt__proc.events[id].rt->head_rt->id + 1;
	/* As a printk site's: a plain store the fast path may see late. */
	evt__site_point(site, &evt__proc.enable[sw]);
}
