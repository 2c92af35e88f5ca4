/*
 * clock_map.h - a trace's clock values as CLOCK_REALTIME, through the
 * clock snapshots its recorder took (trace_index.h), for merging the
 * traces of several machines on real time.
 *
 * Between two snapshots, real time is interpolated; before the first and
 * after the last, it runs at the calibration's rate from them.  A trace
 * without two good snapshots maps through its calibration alone.
 * Snapshots are checked first: one whose clock value or real time does
 * not come after the one before, or whose real time is more than a
 * second from the calibration's, is left out and said (a hostile or
 * stepped clock), so that the mapping only ever goes forward and never
 * reorders a trace's own events.
 */
#ifndef EVT_FORMAT_CLOCK_MAP_H
#define EVT_FORMAT_CLOCK_MAP_H

#include <stddef.h>
#include <stdint.h>

#include "trace_index.h"

struct evt_clock_map {
	struct evt_clock_calibration cal;
	struct evt_clock_snapshot *points;	/* the good snapshots, in order */
	uint32_t n;
	uint32_t dropped;			/* snapshots left out */
};

/* From the index ix; what was left out is said in msg (empty when none).
 * 0, or -1 when out of memory. */
int evt_clock_map_init(struct evt_clock_map *m, const struct evt_trace_index *ix,
		       char *msg, size_t msg_size);
void evt_clock_map_free(struct evt_clock_map *m);
int64_t evt_clock_map_realtime(const struct evt_clock_map *m, uint64_t value);

#endif
