/*
 * window_take.c - a flight recorder's snapshot, in this process
 * (window_take.h).
 */
#include <limits.h>
#include <stdio.h>

#include "window_take.h"
#include "trace_names.h"

/* The recording's pinned sites (record --keep), whatever their age, into
 * DIR/keep, which readers of DIR read with it. */
static int take_keep(const struct evt_collection_opts *main, uint32_t keep,
		     char *err, size_t err_size)
{
	struct evt_collection_opts o = *main;
	struct evt_collection_stats stats;
	char out[PATH_MAX + 8], why[PATH_MAX + 400];
	struct evt_collection *c = NULL;

	snprintf(out, sizeof(out), "%s/" EVT_TRACE_KEEP, main->output);
	o.output = out;
	o.adopt_slot = keep;
	o.pids = NULL;
	o.npids = 0;
	o.snapshot_since_ns = 0;
	if (evt_collection_create(&o, &c, why, sizeof(why)) ||
	    evt_collection_finish(c, &stats, why, sizeof(why))) {
		evt_collection_destroy(c);
		snprintf(err, err_size, "the pinned sites: %s", why);
		return -1;
	}
	evt_collection_destroy(c);
	return 0;
}

int evt_window_take(const struct evt_collection_opts *o,
		    struct evt_collection_stats *stats, uint32_t *slot, char *err, size_t err_size)
{
	struct evt_collection *c;
	uint32_t keep;

	if (evt_collection_create(o, &c, err, err_size))
		return -1;
	if (evt_collection_finish(c, stats, err, err_size)) {
		evt_collection_destroy(c);
		return -1;
	}
	keep = evt_collection_keep_number(c);
	*slot = evt_collection_number(c);
	evt_collection_destroy(c);
	return keep ? take_keep(o, keep, err, err_size) : 0;
}
