/*
 * clock.h - the trace clock, read the same way by writers and engines.
 *
 * EVT_CLOCK_TSC: the TSC, used where the kernel's clocksource is tsc and
 * the TSC is invariant, so that all CPUs and processes share one count.
 * Otherwise CLOCK_MONOTONIC in nanoseconds.
 */
#ifndef EVT_FORMAT_CLOCK_H
#define EVT_FORMAT_CLOCK_H

#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/rseq.h>
#include <time.h>

#include "layout.h"

/*
 * The CPU this thread runs on: glibc registers rseq for every thread, and
 * the kernel keeps cpu_id current in it, so this is one load; without
 * rseq, sched_getcpu().
 */
static inline uint16_t evt_clock_cpu(void)
{
	if (__builtin_expect(__rseq_size >= 8, 1)) {
		const struct rseq *rs = (const struct rseq *)
			((char *)__builtin_thread_pointer() + __rseq_offset);
		uint32_t cpu = __atomic_load_n(&rs->cpu_id, __ATOMIC_RELAXED);

		if ((int32_t)cpu >= 0)
			return (uint16_t)cpu;
	}
	int c = sched_getcpu();

	return c < 0 ? 0 : (uint16_t)c;
}

/*
 * rdtsc is not ordered with the instructions around it; a record's
 * timestamp only needs to fall between its neighbours', which the writer
 * enforces per thread.  (rdtscp, which would give the CPU too, costs twice
 * as much on virtual machines.)
 */
static inline uint64_t evt_clock_now(uint32_t kind, uint16_t *cpu)
{
	*cpu = evt_clock_cpu();
	if (kind == EVT_CLOCK_TSC) {
		uint32_t lo, hi;

		__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
		return ((uint64_t)hi << 32) | lo;
	} else {
		struct timespec ts;

		clock_gettime(CLOCK_MONOTONIC, &ts);
		return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	}
}

/* CLOCK_MONOTONIC now, in ns: the time engines and tools keep their
 * deadlines in. */
static inline int64_t evt_monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Which clock this machine's writers use: the TSC wherever the CPU says
 * it is invariant, whatever the kernel's clocksource, else
 * CLOCK_MONOTONIC ($EVTRACE_CLOCK=monotonic forces the fallback). */
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
	/* The first sample, kept by calibrate for refine (not saved). */
	uint64_t first_value;
	int64_t first_monotonic_ns;
};

/*
 * The trace clock and CLOCK_MONOTONIC read as close together as 32 tries
 * manage: without a rate (freq_hz 0), the tightest try's middle; with
 * the TSC's calibrated rate, the bounds of every try moved to the
 * tightest try's value, intersected.  The one reading of the two clocks
 * together, for calibrations (below) and the kernel's events'
 * (clock_pairs.h).
 */
void evt_clock_pair(uint32_t kind, uint64_t freq_hz, uint64_t *value,
		    int64_t *mono);
/* The trace clock, CLOCK_MONOTONIC and CLOCK_REALTIME read as close
 * together as 32 tries manage. */
void evt_clock_sample(uint32_t kind, uint64_t *value, int64_t *mono, int64_t *real);
/* Measures freq_hz (TSC) over a short sleep and takes a reference point. */
int evt_clock_calibrate(uint32_t kind, struct evt_clock_calibration *cal);
/* Measures freq_hz again, from the first sample to now, and moves the
 * reference point to now.  0, or -1 when the clock went wrong. */
int evt_clock_refine(struct evt_clock_calibration *cal);
/*
 * evt_clock_refine() once every period_ns, *last the CLOCK_MONOTONIC
 * time of the last (0 at first: the calibration's own).  A stream or
 * recording that maps the trace clock to CLOCK_MONOTONIC as it goes, to
 * merge kernel events, keeps the error near zero for what comes now: the
 * 20 ms calibration's rate alone is off by microseconds a second.  The
 * mapping is slewed to the new measurement, never stepped, so that it
 * never goes back.  Whether it refined.
 */
bool evt_clock_refine_every(struct evt_clock_calibration *cal, int64_t *last,
			    int64_t period_ns);
int64_t evt_clock_to_monotonic_ns(const struct evt_clock_calibration *cal,
				  uint64_t value);
/*
 * What a trace may say of its clocks (its index is anyone's to write):
 * times within EVT_CLOCK_NS_MAX (2^62 ns, 146 years) of 0, a rate from
 * 1 kHz to 100 GHz.  Within them, times computed from clock values are
 * carried in 128 bits and clamped to 64 (evt_clock_ns_clamp): never a
 * signed overflow, whatever the values.
 */
#define EVT_CLOCK_NS_MAX (INT64_C(1) << 62)

static inline bool evt_clock_ns_sane(int64_t ns)
{
	return ns >= -EVT_CLOCK_NS_MAX && ns <= EVT_CLOCK_NS_MAX;
}

static inline bool evt_clock_calibration_sane(const struct evt_clock_calibration *c)
{
	return c->freq_hz >= 1000 && c->freq_hz <= 100000000000ull &&
	       c->ref_value <= (uint64_t)EVT_CLOCK_NS_MAX &&
	       evt_clock_ns_sane(c->ref_monotonic_ns) &&
	       evt_clock_ns_sane(c->ref_realtime_ns);
}

static inline int64_t evt_clock_ns_clamp(__int128 v)
{
	return v > INT64_MAX ? INT64_MAX : v < INT64_MIN ? INT64_MIN : (int64_t)v;
}
/* The trace clock value at CLOCK_MONOTONIC ns (an eBPF program's time). */
uint64_t evt_clock_from_monotonic_ns(const struct evt_clock_calibration *cal,
				     int64_t ns);
/* The CTF clock's offset: real time at value 0, as whole seconds and the
 * cycles of the rest. */
void evt_clock_ctf_offset(const struct evt_clock_calibration *cal,
			  int64_t *offset_s, uint64_t *offset_cycles);
/* CLOCK_REALTIME at value, computed as CTF readers compute it from that
 * offset (so report and babeltrace2 agree to the nanosecond). */
int64_t evt_clock_to_realtime_ns(const struct evt_clock_calibration *cal,
				 uint64_t value);
/* The same for many values of one calibration: what of it is the
 * calibration's alone, computed once. */
struct evt_clock_real {
	__int128 base_ns;
	uint64_t freq_hz;
};
void evt_clock_real_init(const struct evt_clock_calibration *cal,
			 struct evt_clock_real *r);
int64_t evt_clock_real_ns(const struct evt_clock_real *r, uint64_t value);

#endif
