/*
 * key_map.c - open addressing with linear probing, at most half full.
 */
#include <stdlib.h>

#include "key_map.h"

static size_t home(uint64_t stored, size_t cap)
{
	return (size_t)((stored * 0x9e3779b97f4a7c15ULL) >> 32) & (cap - 1);
}

uint64_t *key_map_find(const struct key_map *m, uint64_t key)
{
	size_t i;

	if (!m->cap)
		return NULL;
	for (i = home(key + 1, m->cap); m->slots[i].key; i = (i + 1) & (m->cap - 1))
		if (m->slots[i].key == key + 1)
			return &m->slots[i].value;
	return NULL;
}

static int grow(struct key_map *m)
{
	size_t cap = m->cap ? m->cap * 2 : 64, i, j;
	struct key_map_slot *t = calloc(cap, sizeof(*t));

	if (!t)
		return -1;
	for (j = 0; j < m->cap; j++) {
		if (!m->slots[j].key)
			continue;
		for (i = home(m->slots[j].key, cap); t[i].key; i = (i + 1) & (cap - 1))
			;
		t[i] = m->slots[j];
	}
	free(m->slots);
	m->slots = t;
	m->cap = cap;
	return 0;
}

uint64_t *key_map_add(struct key_map *m, uint64_t key, int *fresh)
{
	uint64_t *v = key_map_find(m, key);
	size_t i;

	*fresh = 0;
	if (v)
		return v;
	if ((m->n + 1) * 2 > m->cap && grow(m))
		return NULL;
	for (i = home(key + 1, m->cap); m->slots[i].key; i = (i + 1) & (m->cap - 1))
		;
	m->slots[i].key = key + 1;
	m->slots[i].value = 0;
	m->n++;
	*fresh = 1;
	return &m->slots[i].value;
}

void *key_map_object(struct key_map *m, uint64_t key, size_t size, int *fresh)
{
	uint64_t *v = key_map_add(m, key, fresh);
	void *o;

	if (!v)
		return NULL;
	if (*v) {
		*fresh = 0;
		return (void *)(uintptr_t)*v;
	}
	/* (a slot whose object could not be made stays empty: tried again) */
	o = calloc(1, size);
	*v = (uintptr_t)o;
	*fresh = o != NULL;
	return o;
}

uint64_t key_map_text_key(const char *s, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	while (n--)
		h = (h ^ (unsigned char)*s++) * 0x100000001b3ULL;
	return h >> 1;
}

void key_map_free(struct key_map *m)
{
	free(m->slots);
	m->slots = NULL;
	m->n = m->cap = 0;
}
