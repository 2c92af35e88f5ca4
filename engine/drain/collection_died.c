/*
 * collection_died.c - what a process that died was writing: the event of
 * a record begun and not committed in one of its buffers (the commit
 * mark, ring.h), looked at when its open packets are drained.
 */
#include <stdlib.h>

#include "collection_local.h"

void evt__coll_died_writing(struct evt_collection *c, const struct tracked *t,
			    const struct evt_ring *r,
			    const struct evt_ring_packet *p)
{
	const struct class_layouts *cl;
	struct died *d;
	uint16_t id;

	if (!evt_ring_died_writing(t->ctl, r, p, &id) || t->cls >= c->nlayouts)
		return;
	cl = &c->layouts[t->cls];
	if (id >= cl->n || cl->ix[id] >= c->ix.nevents)
		return;		/* not an event it registered */
	d = realloc(c->died, (c->ndied + 1) * sizeof(*d));
	if (!d)
		return;
	c->died = d;
	c->died[c->ndied++] = (struct died){ .pid = (int)t->ctl->h.pid,
					    .tid = (int)p->h.tid,
					    .event = cl->ix[id] };
}

size_t evt_collection_died_writing(const struct evt_collection *c, int pid,
				   char *buf, size_t size)
{
	size_t len = 0;
	unsigned k;

	if (size)
		buf[0] = '\0';
	for (k = 0; k < c->ndied && size; k++)
		if (c->died[k].pid == pid)
			len = evt_ring_say_died_writing(buf, size, len, c->died[k].tid,
							c->ix.events[c->died[k].event].path);
	return len;
}
