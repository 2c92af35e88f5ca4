/*
 * clock_pairs.h - CLOCK_MONOTONIC nanoseconds to trace clock values, as
 * finely as the machine allows: for events timed by the kernel (perf
 * and eBPF records carry CLOCK_MONOTONIC) that must fall in order among
 * those the trace clock timed.
 *
 * The calibration (clock.h) is one line for a whole trace, which readers
 * use the other way; its error grows with the distance from its
 * reference.  Pairs of (trace clock, CLOCK_MONOTONIC) read together, each
 * the tightest of a few tries (clock.c's evt_clock_pair), taken every
 * millisecond at most, map a time between two of them by the line
 * through them, whose error is theirs, tens of nanoseconds.  Outside
 * them, from the nearest at the rate the oldest and newest give, or
 * before two are a millisecond apart, the calibration's.
 */
#ifndef EVT_FORMAT_CLOCK_PAIRS_H
#define EVT_FORMAT_CLOCK_PAIRS_H

#include <stdbool.h>
#include <stdint.h>

#include "clock.h"

#define EVT_CLOCK_PAIRS		4096
#define EVT_CLOCK_PAIR_EVERY_NS	(1000 * 1000)

struct evt_clock_pairs {
	uint32_t kind;			/* the trace clock's */
	uint64_t freq_hz;		/* its calibrated rate */
	struct evt_clock_pair_ns {
		int64_t mono;
		uint64_t value;
	} pair[EVT_CLOCK_PAIRS];
	unsigned n, next;		/* a ring, next the oldest */
};

/* Starts pairs for the clock of calibration cal, taking the first. */
void evt_clock_pairs_init(struct evt_clock_pairs *p,
			  const struct evt_clock_calibration *cal);

/* Takes a pair, unless the last is younger than a millisecond (force:
 * whatever its age).  A drain takes one first, so that the kernel's
 * records it reads fall between pairs.  Nothing for a CLOCK_MONOTONIC
 * trace clock, which is the identity. */
void evt_clock_pairs_take(struct evt_clock_pairs *p, bool force);

/* The trace clock value of CLOCK_MONOTONIC time mono (0 at the least). */
uint64_t evt_clock_pairs_value(const struct evt_clock_pairs *p, uint64_t mono);

#endif
