/*
 * key_map.h - a map from 64-bit keys to 64-bit values, open addressing,
 * for what the readers of a trace remember per thread, process, event or
 * site: as many entries as those, never one per record.
 */
#ifndef EVT_CLI_KEY_MAP_H
#define EVT_CLI_KEY_MAP_H

#include <stddef.h>
#include <stdint.h>

struct key_map {
	struct key_map_slot {
		uint64_t key;	/* key + 1; 0 is free */
		uint64_t value;
	} *slots;
	size_t n, cap;
};

/* The value of key, or NULL when it has none. */
uint64_t *key_map_find(const struct key_map *m, uint64_t key);
/* The value of key, added as 0 (*fresh set) when it had none; NULL when
 * out of memory.  The pointer lasts until the next add.  key must not be
 * UINT64_MAX. */
uint64_t *key_map_add(struct key_map *m, uint64_t key, int *fresh);
/* The object (size bytes, zeroed when made: *fresh set) that key's
 * value points to; NULL when out of memory.  The caller frees the
 * objects before key_map_free(). */
void *key_map_object(struct key_map *m, uint64_t key, size_t size, int *fresh);
void key_map_free(struct key_map *m);
/* A key for n bytes of text (FNV-1a; never UINT64_MAX): equal texts give
 * equal keys, different ones almost always different keys, so that a
 * caller for whom a collision matters compares the texts too. */
uint64_t key_map_text_key(const char *s, size_t n);

#endif
