/*
 * clock_pairs.c - CLOCK_MONOTONIC to the trace clock, by pairs (see
 * clock_pairs.h).
 */
#include <time.h>

#include "clock_pairs.h"

static int64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static const struct evt_clock_pair_ns *at(const struct evt_clock_pairs *p,
					  unsigned i)
{
	return &p->pair[(p->next + EVT_CLOCK_PAIRS - p->n + i) % EVT_CLOCK_PAIRS];
}

void evt_clock_pairs_init(struct evt_clock_pairs *p,
			  const struct evt_clock_calibration *cal)
{
	p->kind = cal->kind;
	p->freq_hz = cal->freq_hz;
	p->n = p->next = 0;
	evt_clock_pairs_take(p, true);
}

void evt_clock_pairs_take(struct evt_clock_pairs *p, bool force)
{
	const struct evt_clock_pair_ns *last;
	struct evt_clock_pair_ns q;

	if (p->kind != EVT_CLOCK_TSC)
		return;
	last = p->n ? at(p, p->n - 1) : NULL;
	if (!force && last && mono_ns() - last->mono < EVT_CLOCK_PAIR_EVERY_NS)
		return;
	evt_clock_pair(p->kind, p->freq_hz, &q.value, &q.mono);
	/* (the clocks only go forward; a pair that says otherwise is off) */
	if (last && (q.mono <= last->mono || q.value <= last->value))
		return;
	p->pair[p->next] = q;
	p->next = (p->next + 1) % EVT_CLOCK_PAIRS;
	if (p->n < EVT_CLOCK_PAIRS)
		p->n++;
}

uint64_t evt_clock_pairs_value(const struct evt_clock_pairs *p, uint64_t mono)
{
	const struct evt_clock_pair_ns *a, *b;
	int64_t m = (int64_t)mono;
	unsigned lo = 0, hi;
	__int128 v;

	if (p->kind != EVT_CLOCK_TSC || !p->n)
		return mono;
	hi = p->n - 1;
	if (m <= at(p, 0)->mono || m >= at(p, hi)->mono) {
		__int128 span_ns = at(p, hi)->mono - at(p, 0)->mono;
		__int128 span = at(p, hi)->value - at(p, 0)->value;

		if (span_ns < EVT_CLOCK_PAIR_EVERY_NS) {
			span_ns = 1000000000;
			span = p->freq_hz;
		}
		a = m <= at(p, 0)->mono ? at(p, 0) : at(p, hi);
		v = (__int128)a->value + ((__int128)m - a->mono) * span / span_ns;
		return v < 0 ? 0 : (uint64_t)v;
	}
	while (hi - lo > 1) {
		unsigned mid = (lo + hi) / 2;

		if (at(p, mid)->mono <= m)
			lo = mid;
		else
			hi = mid;
	}
	a = at(p, lo);
	b = at(p, hi);
	v = (__int128)a->value + ((__int128)m - a->mono) *
	    (__int128)(b->value - a->value) / (b->mono - a->mono);
	return v < 0 ? 0 : (uint64_t)v;
}
