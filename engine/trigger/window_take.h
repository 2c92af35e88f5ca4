/*
 * window_take.h - a snapshot of a running flight recorder, taken in the
 * calling process: what its buffers hold now into a trace directory, and
 * its pinned sites (record --keep) into DIR/keep.  `evtrace snapshot`
 * takes one; so does a recorder for each of its triggers' windows.
 */
#ifndef EVT_ENGINE_WINDOW_TAKE_H
#define EVT_ENGINE_WINDOW_TAKE_H

#include <stddef.h>
#include <stdint.h>

#include "collection.h"

/*
 * o: the snapshot's options, o->snapshot set, with the recording named
 * by o->adopt_slot or o->pids, o->output the directory (not existing),
 * o->snapshot_since_ns where it starts (0: all).  Fills stats (the main
 * part's) and *slot (the recording's collection).  0, or -1 with err set
 * (nothing half written is left: the collection removes it).
 */
int evt_window_take(const struct evt_collection_opts *o,
		    struct evt_collection_stats *stats, uint32_t *slot, char *err, size_t err_size);

#endif
