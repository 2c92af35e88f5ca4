/*
 * clock_map.c - trace clock values as real time, through snapshots
 * (clock_map.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock_map.h"

#define FAR_NS 1000000000LL	/* a snapshot this far from the calibration */

static __int128 abs128(__int128 v)
{
	return v < 0 ? -v : v;
}

int evt_clock_map_init(struct evt_clock_map *m, const struct evt_trace_index *ix,
		       char *msg, size_t msg_size)
{
	uint32_t i;

	memset(m, 0, sizeof(*m));
	m->cal = ix->clock;
	msg[0] = '\0';
	if (!ix->nsnapshots)
		return 0;
	m->points = malloc(ix->nsnapshots * sizeof(*m->points));
	if (!m->points)
		return -1;
	for (i = 0; i < ix->nsnapshots; i++) {
		const struct evt_clock_snapshot *s = &ix->snapshots[i];
		const struct evt_clock_snapshot *last = m->n ? &m->points[m->n - 1] : NULL;

		if ((last && (s->value <= last->value ||
			      s->realtime_ns <= last->realtime_ns)) ||
		    abs128((__int128)s->realtime_ns -
			   evt_clock_to_realtime_ns(&m->cal, s->value)) >
		    FAR_NS) {
			if (!m->dropped++)
				snprintf(msg, msg_size, "clock snapshot %u of %u left "
					 "out: it goes back, or is more than a second "
					 "from the trace's calibration", i + 1,
					 ix->nsnapshots);
			continue;
		}
		m->points[m->n++] = *s;
	}
	if (m->dropped > 1)
		snprintf(msg + strlen(msg), msg_size - strlen(msg),
			 " (and %u more)", m->dropped - 1);
	return 0;
}

void evt_clock_map_free(struct evt_clock_map *m)
{
	free(m->points);
	memset(m, 0, sizeof(*m));
}

/* ns of d clock values at the calibration's rate. */
static __int128 scaled(const struct evt_clock_map *m, uint64_t d)
{
	return (__int128)d * 1000000000 / (__int128)m->cal.freq_hz;
}

int64_t evt_clock_map_realtime(const struct evt_clock_map *m, uint64_t value)
{
	const struct evt_clock_snapshot *a, *b;
	uint32_t lo = 0, hi;

	if (m->n < 2)
		return evt_clock_to_realtime_ns(&m->cal, value);
	/* (128 bits, clamped: clock.h) */
	if (value <= m->points[0].value)
		return evt_clock_ns_clamp((__int128)m->points[0].realtime_ns -
					  scaled(m, m->points[0].value - value));
	if (value >= m->points[m->n - 1].value)
		return evt_clock_ns_clamp((__int128)m->points[m->n - 1].realtime_ns +
					  scaled(m, value - m->points[m->n - 1].value));
	hi = m->n - 1;		/* points[lo].value < value < points[hi].value */
	while (hi - lo > 1) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (m->points[mid].value <= value)
			lo = mid;
		else
			hi = mid;
	}
	a = &m->points[lo];
	b = &m->points[hi];
	return evt_clock_ns_clamp((__int128)a->realtime_ns +
				  (__int128)(value - a->value) *
				  ((__int128)b->realtime_ns - a->realtime_ns) /
				  (__int128)(b->value - a->value));
}
