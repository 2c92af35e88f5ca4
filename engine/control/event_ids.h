/*
 * event_ids.h - an engine's dense global event ids.
 *
 * Each process numbers its own events; an engine gives each distinct
 * event, its kind, path, exact format and storage types, one dense id,
 * 0, 1, 2 ... in the order it first meets them, by which it indexes its
 * arrays and stream classes.  Two programs that define one path with two
 * formats get two ids.  What users see (ls --ids, consumers, selections
 * by id) is the public id, the one every engine of the run directory
 * agrees on (id_registry.h); without a registry, or when it fails,
 * EVT_LOCAL_IDS + the dense id, so that such an id is never taken for a
 * registered one.
 */
#ifndef EVT_ENGINE_EVENT_IDS_H
#define EVT_ENGINE_EVENT_IDS_H

#include <stdint.h>

#include "ctl.h"

#define EVT_NO_ID UINT32_MAX
#define EVT_LOCAL_IDS 0x80000000u

struct evt_id_registry;

struct evt_global_event {
	uint32_t id;
	uint32_t public_id;
	uint16_t kind;			/* enum evt_event_kind */
	uint8_t nargs;
	uint8_t types[EVT_PRINTK_MAX_ARGS];
	char *path;
	char *format;
	char *func;			/* a printk site's function, or NULL */
};

struct evt_event_ids {
	struct evt_global_event *events;	/* by global id */
	uint32_t n, cap;
	uint32_t *slots;			/* hash table of ids, EVT_NO_ID free */
	uint32_t nslots;			/* a power of two */
	struct evt_id_registry *registry;	/* owned; NULL: none */
};

/* The global id of a process's event, given one when new; EVT_NO_ID when
 * out of memory. */
uint32_t evt_event_ids_get(struct evt_event_ids *ids,
			   const struct evt_ctl_event *e);
static inline const struct evt_global_event *
evt_event_ids_at(const struct evt_event_ids *ids, uint32_t id)
{
	return id < ids->n ? &ids->events[id] : 0;
}
/* The public id of dense id g. */
static inline uint32_t evt_event_ids_public(const struct evt_event_ids *ids,
					    uint32_t g)
{
	return g < ids->n ? ids->events[g].public_id : EVT_NO_ID;
}
/* The sites' view of it: each event's function too (NULL: none). */
typedef void (*evt_event_site_cb)(uint32_t id, const char *path,
				  const char *format, const char *func,
				  void *ctx);
int evt_event_ids_each_site(const struct evt_event_ids *ids,
			    evt_event_site_cb cb, void *ctx);
/* Calls cb for every event, by public id; returns how many. */
int evt_event_ids_each(const struct evt_event_ids *ids,
		       void (*cb)(uint32_t id, const char *path,
				  const char *format, void *ctx),
		       void *ctx);
void evt_event_ids_free(struct evt_event_ids *ids);

#endif
