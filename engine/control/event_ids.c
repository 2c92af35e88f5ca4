/*
 * event_ids.c - dense global event ids (see event_ids.h): an array by id
 * and an open-addressing hash table over it.
 */
#include <stdlib.h>
#include <string.h>

#include "event_ids.h"
#include "id_registry.h"

static uint64_t hash_bytes(uint64_t h, const void *p, size_t n)
{
	const uint8_t *b = p;

	while (n--)
		h = (h ^ *b++) * 0x100000001b3ull;	/* FNV-1a */
	return h;
}

static uint64_t hash_event(unsigned kind, const char *path, const char *format,
			   const uint8_t *types, unsigned nargs)
{
	uint64_t h = 0xcbf29ce484222325ull;
	uint8_t k = (uint8_t)kind;

	h = hash_bytes(h, &k, 1);
	h = hash_bytes(h, path, strlen(path) + 1);
	h = hash_bytes(h, format, strlen(format) + 1);
	return hash_bytes(h, types, nargs);
}

static int same(const struct evt_global_event *g, const struct evt_ctl_event *e)
{
	return g->kind == e->layout.kind && g->nargs == e->layout.nargs &&
	       !memcmp(g->types, e->layout.types, g->nargs) &&
	       !strcmp(g->path, e->path) && !strcmp(g->format, e->format);
}

static int rehash(struct evt_event_ids *ids, uint32_t nslots)
{
	uint32_t *slots = malloc(nslots * sizeof(*slots));
	uint32_t i;

	if (!slots)
		return -1;
	memset(slots, 0xff, nslots * sizeof(*slots));
	for (i = 0; i < ids->n; i++) {
		const struct evt_global_event *g = &ids->events[i];
		uint32_t s = (uint32_t)hash_event(g->kind, g->path, g->format,
						  g->types, g->nargs) & (nslots - 1);

		while (slots[s] != EVT_NO_ID)
			s = (s + 1) & (nslots - 1);
		slots[s] = i;
	}
	free(ids->slots);
	ids->slots = slots;
	ids->nslots = nslots;
	return 0;
}

uint32_t evt_event_ids_get(struct evt_event_ids *ids,
			   const struct evt_ctl_event *e)
{
	const struct evt_event_layout *l = &e->layout;
	uint64_t h = hash_event(l->kind, e->path, e->format, l->types, l->nargs);
	struct evt_global_event *g;
	uint32_t s;

	/* At most half full: probes stay short. */
	if ((ids->n + 1) * 2 > ids->nslots &&
	    rehash(ids, ids->nslots ? ids->nslots * 2 : 64))
		return EVT_NO_ID;
	for (s = (uint32_t)h & (ids->nslots - 1); ids->slots[s] != EVT_NO_ID;
	     s = (s + 1) & (ids->nslots - 1))
		if (same(&ids->events[ids->slots[s]], e))
			return ids->slots[s];
	if (ids->n == ids->cap) {
		uint32_t cap = ids->cap ? ids->cap * 2 : 64;
		void *grown = realloc(ids->events, cap * sizeof(*ids->events));

		if (!grown)
			return EVT_NO_ID;
		ids->events = grown;
		ids->cap = cap;
	}
	g = &ids->events[ids->n];
	memset(g, 0, sizeof(*g));
	g->id = ids->n;
	g->kind = l->kind;
	g->nargs = l->nargs;
	memcpy(g->types, l->types, l->nargs);
	g->path = strdup(e->path);
	g->format = strdup(e->format);
	g->func = e->func ? strdup(e->func) : NULL;
	if (!g->path || !g->format || (e->func && !g->func)) {
		free(g->path);
		free(g->format);
		free(g->func);
		return EVT_NO_ID;
	}
	g->public_id = ids->registry ?
		evt_id_registry_get(ids->registry, h, e->path) : EVT_NO_ID;
	if (g->public_id == EVT_NO_ID)
		g->public_id = EVT_LOCAL_IDS + ids->n;
	ids->slots[s] = ids->n;
	return ids->n++;
}

int evt_event_ids_each(const struct evt_event_ids *ids,
		       void (*cb)(uint32_t id, const char *path,
				  const char *format, void *ctx),
		       void *ctx)
{
	uint32_t g;

	for (g = 0; g < ids->n; g++)
		cb(ids->events[g].public_id, ids->events[g].path,
		   ids->events[g].format, ctx);
	return (int)ids->n;
}

int evt_event_ids_each_site(const struct evt_event_ids *ids,
			    evt_event_site_cb cb, void *ctx)
{
	uint32_t g;

	for (g = 0; g < ids->n; g++)
		cb(ids->events[g].public_id, ids->events[g].path,
		   ids->events[g].format, ids->events[g].func, ctx);
	return (int)ids->n;
}

void evt_event_ids_free(struct evt_event_ids *ids)
{
	uint32_t i;

	evt_id_registry_close(ids->registry);
	for (i = 0; i < ids->n; i++) {
		free(ids->events[i].path);
		free(ids->events[i].format);
		free(ids->events[i].func);
	}
	free(ids->events);
	free(ids->slots);
	memset(ids, 0, sizeof(*ids));
}
