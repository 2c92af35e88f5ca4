/*
 * collection_index.c - the trace's stream classes and index: events given
 * their global ids as processes register them, described once per
 * class, the index and metadata rewritten before the packets they
 * describe.
 */
#include "container.h"
#include "collection_local.h"

int evt__coll_flush_index(struct evt_collection *c, char *err, size_t err_size)
{
	if (!c->index_dirty || c->o.mode == EVT_MODE_COUNT)
		return 0;
	if (local(c) && evt_trace_dir_describe(&c->out, &c->ix, err, err_size))
		return -1;
	if (c->relay)
		evt_relay_out_metadata(c->relay, &c->ix, c->o.relay->hostname,
				       &c->relay_sent);
	c->index_dirty = false;
	return 0;
}
/* Describes local id L of class cls in the index (and so the metadata). */
static int describe(struct evt_collection *c, uint32_t cls, uint32_t L)
{
	const struct evt_global_event *g =
		evt_event_ids_at(&c->ids, c->classes.v[cls].gids[L]);
	struct evt_event_desc *e;
	char why[300];
	void *grown = realloc(c->ix.events,
			      (c->ix.nevents + 1) * sizeof(*c->ix.events));

	if (!grown)
		return -1;
	c->ix.events = grown;
	e = &c->ix.events[c->ix.nevents];
	memset(e, 0, sizeof(*e));
	e->sid = cls;
	e->id = L;
	e->path = strdup(g->path);
	e->func = g->func ? strdup(g->func) : NULL;
	/* A refused printk site never writes: described with no format, so
	 * that the trace's readers take it. */
	e->format = strdup(g->kind == EVT_KIND_PRINTK && !g->nargs &&
			   evt_printk_problems(g->format, why, sizeof(why)) ?
			   "" : g->format);
	/* Its own copy: the layout owns memory. */
	if (!e->path || !e->format || (g->func && !e->func) ||
	    evt_event_layout_load(&e->layout, g->kind, e->format, g->types,
				  g->nargs, why, sizeof(why))) {
		free(e->path);
		free(e->format);
		free(e->func);
		return -1;
	}
	if (cls >= c->nlayouts) {
		struct class_layouts *more = realloc(c->layouts,
						     (cls + 1) * sizeof(*more));

		if (!more)
			goto fail;
		memset(more + c->nlayouts, 0,
		       (cls + 1 - c->nlayouts) * sizeof(*more));
		c->layouts = more;
		c->nlayouts = cls + 1;
	}
	if (L >= c->layouts[cls].n) {
		uint32_t *more = realloc(c->layouts[cls].ix, (L + 1) * sizeof(*more));

		if (!more)
			goto fail;
		memset(more + c->layouts[cls].n, 0xff,
		       (L + 1 - c->layouts[cls].n) * sizeof(*more));
		c->layouts[cls].ix = more;
		c->layouts[cls].n = L + 1;
	}
	c->layouts[cls].ix[L] = c->ix.nevents;
	c->ix.nevents++;
	c->index_dirty = true;
	return 0;
fail:
	evt_event_layout_free(&e->layout);
	free(e->path);
	free(e->format);
	free(e->func);
	return -1;
}
/* The layout of event id of a class, for the relay's pieces. */
const struct evt_event_layout *evt__coll_layout_of(void *ctx, uint16_t id)
{
	const struct layout_ctx *x = ctx;
	const struct class_layouts *cl;

	if (x->cls >= x->c->nlayouts)
		return NULL;
	cl = &x->c->layouts[x->cls];
	return id < cl->n && cl->ix[id] < x->c->ix.nevents ?
	       &x->c->ix.events[cl->ix[id]].layout : NULL;
}
/* The stream classes of processes in the index (the kernel's is not
 * one): their sids are 0, 1, ... as the classes are numbered. */
static uint32_t process_classes(const struct evt_collection *c)
{
	return c->ix.nstreams - c->kernel_class;
}
static int add_stream_class(struct evt_collection *c, const struct tracked *t)
{
	struct evt_stream_class *sc = realloc(c->ix.streams,
					      (c->ix.nstreams + 1) * sizeof(*sc));

	if (!sc)
		return -1;
	c->ix.streams = sc;
	sc = &c->ix.streams[c->ix.nstreams];
	memset(sc, 0, sizeof(*sc));
	sc->sid = process_classes(c);
	c->ix.nstreams++;
	sc->pid = t->ctl->h.pid;
	if (c->o.container_pidns)
		sc->host_pid = (uint32_t)evt_container_host_pid(c->o.container_pidns,
								(pid_t)sc->pid);
	memcpy(sc->comm, t->ctl->h.comm, 16);
	sc->comm[16] = '\0';
	c->index_dirty = true;
	return 0;
}
/* Packets of another class go to other files: each file is one CTF
 * stream, of one class.  Lost counts start again with the file (an open
 * packet partly flushed goes on there, in pieces). */
static void start_new_files(struct evt_collection *c, struct tracked *t)
{
	uint32_t i;

	for (i = 0; i < t->ctl->h.max_tbufs; i++) {
		struct out_stream *st = &t->streams[i];

		if (st->fd >= 0 && st->epoch)
			close(st->fd);
		if (c->relay)
			evt_relay_out_end(c->relay, &st->relay);
		st->fd = -1;
		st->size = 0;
		st->lost_base = st->last_discarded;
	}
}
/* Gives the process's new events their global ids and the process the
 * stream class they agree with; describes what is new to that class. */
int evt__coll_index_events(struct evt_collection *c, struct tracked *t)
{
	struct evt_ctl *ctl = t->ctl;
	uint32_t cls, L, described;

	if (t->nindexed == ctl->nevents && t->cls != EVT_NO_CLASS)
		return 0;
	if (ctl->nevents > t->nindexed) {
		uint32_t *grown = realloc(t->gids, ctl->nevents * sizeof(*grown));

		if (!grown)
			return -1;
		t->gids = grown;
	}
	for (; t->nindexed < ctl->nevents; t->nindexed++) {
		t->gids[t->nindexed] = evt_event_ids_get(&c->ids,
							 &ctl->events[t->nindexed]);
		if (t->gids[t->nindexed] == EVT_NO_ID)
			return -1;
	}
	if (c->o.mode == EVT_MODE_COUNT) {	/* nothing to describe */
		if (c->ids.n > c->ntotals) {
			uint64_t *grown = realloc(c->totals, c->ids.n * sizeof(*grown));

			if (!grown)
				return -1;
			memset(grown + c->ntotals, 0,
			       (c->ids.n - c->ntotals) * sizeof(*grown));
			c->totals = grown;
			c->ntotals = c->ids.n;
		}
		return 0;
	}
	cls = evt_stream_classes_place(&c->classes, t->cls, t->gids,
				       t->nindexed, &described);
	if (cls == EVT_NO_CLASS)
		return -1;
	if (cls == process_classes(c) && add_stream_class(c, t))
		return -1;
	if (t->cls != EVT_NO_CLASS && cls != t->cls)
		start_new_files(c, t);
	t->cls = cls;
	for (L = described; L < c->classes.v[cls].len; L++)
		if (describe(c, cls, L))
			return -1;
	return 0;
}
