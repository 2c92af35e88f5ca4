/*
 * clock.h - the trace clock, read the same way by writers and engines.
 *
 * EVT_CLOCK_TSC: rdtscp, used where the kernel's clocksource is tsc and
 * the TSC is invariant, so that all CPUs and processes share one count.
 * rdtscp also yields the CPU (Linux keeps it in TSC_AUX).  Otherwise
 * CLOCK_MONOTONIC in nanoseconds and sched_getcpu().
 */
#ifndef EVT_FORMAT_CLOCK_H
#define EVT_FORMAT_CLOCK_H

#include <sched.h>
#include <stdint.h>
#include <time.h>

#include "layout.h"

static inline uint64_t evt_clock_now(uint32_t kind, uint16_t *cpu)
{
	if (kind == EVT_CLOCK_TSC) {
		uint32_t lo, hi, aux;

		__asm__ volatile("rdtscp" : "=a"(lo), "=d"(hi), "=c"(aux));
		*cpu = aux & 0xfff;
		return ((uint64_t)hi << 32) | lo;
	} else {
		struct timespec ts;
		int c = sched_getcpu();

		clock_gettime(CLOCK_MONOTONIC, &ts);
		*cpu = c < 0 ? 0 : (uint16_t)c;
		return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	}
}

/* Which clock this machine's writers use ($EVTRACE_CLOCK=monotonic forces
 * the fallback). */
uint32_t evt_clock_detect(void);

/*
 * How trace clock values map to CLOCK_MONOTONIC and CLOCK_REALTIME:
 * ns = (value - ref_value) * 1e9 / freq_hz + ref_*_ns.
 */
struct evt_clock_calibration {
	uint32_t kind;
	uint64_t freq_hz;
	uint64_t ref_value;
	int64_t ref_monotonic_ns;
	int64_t ref_realtime_ns;
};

/* Measures freq_hz (TSC) over a short sleep and takes a reference point. */
int evt_clock_calibrate(uint32_t kind, struct evt_clock_calibration *cal);
int64_t evt_clock_to_monotonic_ns(const struct evt_clock_calibration *cal,
				  uint64_t value);

#endif
