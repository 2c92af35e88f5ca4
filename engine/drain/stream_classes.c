/*
 * stream_classes.c - processes that agree share a stream class (see
 * stream_classes.h).
 */
#include <stdlib.h>
#include <string.h>

#include "stream_classes.h"

static int agrees(const struct evt_stream_class_map *m, const uint32_t *gids,
		  uint32_t n)
{
	uint32_t k = m->len < n ? m->len : n;

	return !memcmp(m->gids, gids, k * sizeof(*gids));
}

/* Makes class m describe local ids 0..n-1 (it agrees on the prefix). */
static int grow(struct evt_stream_class_map *m, const uint32_t *gids, uint32_t n)
{
	if (n <= m->len)
		return 0;
	if (n > m->cap) {
		uint32_t cap = m->cap ? m->cap : 16;
		void *grown;

		while (cap < n)
			cap *= 2;
		grown = realloc(m->gids, cap * sizeof(*m->gids));
		if (!grown)
			return -1;
		m->gids = grown;
		m->cap = cap;
	}
	memcpy(m->gids + m->len, gids + m->len, (n - m->len) * sizeof(*gids));
	m->len = n;
	return 0;
}

uint32_t evt_stream_classes_place(struct evt_stream_classes *cs, uint32_t cur,
				  const uint32_t *gids, uint32_t n,
				  uint32_t *described)
{
	uint32_t k = cur;
	void *grown;

	/* Its own class first: it agrees but for a dlopen now and then. */
	if (k >= cs->n || !agrees(&cs->v[k], gids, n))
		for (k = 0; k < cs->n; k++)
			if (agrees(&cs->v[k], gids, n))
				break;
	if (k == cs->n) {
		grown = realloc(cs->v, (cs->n + 1) * sizeof(*cs->v));
		if (!grown)
			return EVT_NO_CLASS;
		cs->v = grown;
		memset(&cs->v[k], 0, sizeof(cs->v[k]));
		cs->n++;
	}
	*described = cs->v[k].len;
	if (grow(&cs->v[k], gids, n))
		return EVT_NO_CLASS;
	return k;
}

void evt_stream_classes_free(struct evt_stream_classes *cs)
{
	uint32_t k;

	for (k = 0; k < cs->n; k++)
		free(cs->v[k].gids);
	free(cs->v);
	memset(cs, 0, sizeof(*cs));
}
