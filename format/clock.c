/*
 * clock.c - choose and calibrate the trace clock (see clock.h).
 */
#include <cpuid.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"

static int tsc_is_invariant(void)
{
	unsigned a, b, c, d;

	return __get_cpuid(0x80000007, &a, &b, &c, &d) && (d & (1u << 8));
}

uint32_t evt_clock_detect(void)
{
	const char *force = getenv("EVTRACE_CLOCK");

	if (force && strcmp(force, "monotonic") == 0)
		return EVT_CLOCK_MONOTONIC;
	/* Whatever the kernel's clocksource: on kvm-clock (most cloud VMs)
	 * clock_gettime costs 2-3x a record, while an invariant TSC is as
	 * good a clock; the calibration against CLOCK_MONOTONIC at the start
	 * and end of a recording maps it. */
	return tsc_is_invariant() ? EVT_CLOCK_TSC : EVT_CLOCK_MONOTONIC;
}

static int64_t ts_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

#define SAMPLES 32

/*
 * Each of SAMPLES tries reads the clock between two CLOCK_MONOTONIC
 * readings, which bound its monotonic time.  Without a rate (freq_hz 0)
 * the tightest pair's middle is taken; with one (the TSC's, calibrated),
 * the bounds of every try, moved to the tightest try's clock value by
 * the rate, are intersected: tighter than any one pair (a pair costs
 * 40-300 ns on a VM; the intersection is often under 20).
 */
void evt_clock_pair(uint32_t kind, uint64_t freq_hz, uint64_t *value,
		    int64_t *mono)
{
	uint64_t v[SAMPLES];
	int64_t m0[SAMPLES], m1[SAMPLES], lo = INT64_MIN, hi = INT64_MAX;
	uint16_t cpu;
	int i, k = 0;

	for (i = 0; i < SAMPLES; i++) {
		m0[i] = ts_ns(CLOCK_MONOTONIC);
		v[i] = evt_clock_now(kind, &cpu);
		m1[i] = ts_ns(CLOCK_MONOTONIC);
		if (m1[i] - m0[i] < m1[k] - m0[k])
			k = i;
	}
	*value = v[k];
	for (i = 0; freq_hz && kind == EVT_CLOCK_TSC && i < SAMPLES; i++) {
		int64_t d = (int64_t)((__int128)(int64_t)(v[i] - v[k]) * 1000000000 /
				      (__int128)freq_hz);

		lo = m0[i] - d > lo ? m0[i] - d : lo;
		hi = m1[i] - d < hi ? m1[i] - d : hi;
	}
	*mono = lo <= hi && lo != INT64_MIN ? lo + (hi - lo) / 2 :
		m0[k] + (m1[k] - m0[k]) / 2;
}

/* A (clock value, monotonic, realtime) triple: realtime is read apart,
 * beside CLOCK_MONOTONIC, as it only places the trace among machines. */
static void sample(uint32_t kind, uint64_t freq_hz, uint64_t *value,
		   int64_t *mono, int64_t *real)
{
	int64_t best = INT64_MAX, real_off = 0;
	int i;

	evt_clock_pair(kind, freq_hz, value, mono);
	for (i = 0; i < 8; i++) {
		int64_t a = ts_ns(CLOCK_MONOTONIC), r = ts_ns(CLOCK_REALTIME),
			b = ts_ns(CLOCK_MONOTONIC);

		if (b - a < best) {
			best = b - a;
			real_off = r - (a + (b - a) / 2);
		}
	}
	*real = *mono + real_off;
}

void evt_clock_sample(uint32_t kind, uint64_t *value, int64_t *mono, int64_t *real)
{
	sample(kind, 0, value, mono, real);
}

int evt_clock_calibrate(uint32_t kind, struct evt_clock_calibration *cal)
{
	uint64_t v0, v1;
	int64_t m0, m1, r;
	struct timespec pause = { 0, 20 * 1000 * 1000 };

	cal->kind = kind;
	if (kind != EVT_CLOCK_TSC) {
		cal->freq_hz = 1000000000u;
		evt_clock_sample(kind, &v0, &m0, &r);
		cal->ref_value = v0;
		cal->ref_monotonic_ns = (int64_t)v0;
		cal->ref_realtime_ns = r - (m0 - (int64_t)v0);
		return 0;
	}
	evt_clock_sample(kind, &v0, &m0, &r);
	while (nanosleep(&pause, &pause) && errno == EINTR)
		;
	evt_clock_sample(kind, &v1, &m1, &r);
	if (m1 <= m0 || v1 <= v0)
		return -EIO;
	cal->freq_hz = (uint64_t)((unsigned __int128)(v1 - v0) * 1000000000u /
				  (uint64_t)(m1 - m0));
	/* The reference point again, by that rate: a tighter one. */
	sample(kind, cal->freq_hz, &v1, &m1, &r);
	cal->ref_value = v1;
	cal->ref_monotonic_ns = m1;
	cal->ref_realtime_ns = r;
	cal->first_value = v0;
	cal->first_monotonic_ns = m0;
	return 0;
}

int evt_clock_refine(struct evt_clock_calibration *cal)
{
	uint64_t v;
	int64_t m, r;

	if (cal->kind != EVT_CLOCK_TSC)
		return 0;
	sample(cal->kind, cal->freq_hz, &v, &m, &r);
	if (m <= cal->first_monotonic_ns || v <= cal->first_value)
		return -1;
	cal->freq_hz = (uint64_t)((unsigned __int128)(v - cal->first_value) *
				  1000000000u / (uint64_t)(m - cal->first_monotonic_ns));
	cal->ref_value = v;
	cal->ref_monotonic_ns = m;
	cal->ref_realtime_ns = r;
	return 0;
}

bool evt_clock_refine_every(struct evt_clock_calibration *cal, int64_t *last,
			    int64_t period_ns)
{
	struct evt_clock_calibration m = *cal;
	int64_t now = ts_ns(CLOCK_MONOTONIC), at, e;

	if (!*last || now - *last < period_ns) {
		if (!*last)
			*last = now;
		return false;
	}
	*last = now;
	if (evt_clock_refine(&m))
		return false;
	/*
	 * Slewed, not stepped: the mapping goes on from where it puts now,
	 * at a rate that meets the measured one a period on.  A step back
	 * would give a later kernel event an earlier time than the one
	 * before it (a writer clamps it: a tie that readers order as they
	 * like), and a thread's later event an earlier one in a stream.
	 */
	at = evt_clock_to_monotonic_ns(cal, m.ref_value);
	e = m.ref_monotonic_ns - at;
	if (cal->kind != EVT_CLOCK_TSC || e > period_ns / 4 || e < -period_ns / 4) {
		*cal = m;	/* (a clock that jumped: taken as it is) */
		return true;
	}
	cal->freq_hz = (uint64_t)((__int128)m.freq_hz * period_ns / (period_ns + e));
	cal->ref_value = m.ref_value;
	cal->ref_monotonic_ns = at;
	cal->ref_realtime_ns = m.ref_realtime_ns - e;
	return true;
}

int64_t evt_clock_to_monotonic_ns(const struct evt_clock_calibration *cal,
				  uint64_t value)
{
	__int128 d = (__int128)value - (__int128)cal->ref_value;
	uint64_t f = cal->freq_hz, a, q;
	__int128 ns;

	/* What the 128-bit division gives (truncated toward 0), in 64-bit
	 * ones: |d| = q f + r, and r 10^9 < 2^64 for f up to 9 GHz.  (The
	 * division was a fifth of a reader's time a record.) */
	if (f && f <= 9000000000ull && d >= -(__int128)INT64_MAX &&
	    d <= (__int128)INT64_MAX) {
		a = d < 0 ? (uint64_t)-(int64_t)d : (uint64_t)d;
		q = a / f;
		ns = (__int128)q * 1000000000 + (a - q * f) * 1000000000ull / f;
		return evt_clock_ns_clamp((__int128)cal->ref_monotonic_ns +
					  (d < 0 ? -ns : ns));
	}
	return evt_clock_ns_clamp((__int128)cal->ref_monotonic_ns +
				  d * 1000000000 / (__int128)cal->freq_hz);
}

uint64_t evt_clock_from_monotonic_ns(const struct evt_clock_calibration *cal,
				     int64_t ns)
{
	__int128 d = (__int128)ns - (__int128)cal->ref_monotonic_ns;

	return (uint64_t)((__int128)cal->ref_value +
			  d * (__int128)cal->freq_hz / 1000000000);
}

void evt_clock_ctf_offset(const struct evt_clock_calibration *c,
			  int64_t *offset_s, uint64_t *offset_cycles)
{
	/* Real time at clock value 0, split into whole seconds + cycles. */
	__int128 real0_ns = (__int128)c->ref_realtime_ns -
		(__int128)c->ref_value * 1000000000 / (__int128)c->freq_hz;
	__int128 rem_ns;

	*offset_s = (int64_t)(real0_ns / 1000000000);
	rem_ns = real0_ns - (__int128)*offset_s * 1000000000;
	if (rem_ns < 0) {
		(*offset_s)--;
		rem_ns += 1000000000;
	}
	*offset_cycles = (uint64_t)(rem_ns * c->freq_hz / 1000000000);
}

/* Cycles as nanoseconds the way babeltrace2 counts them: in double
 * precision, truncated. */
static int64_t ctf_ns(uint64_t freq, uint64_t cycles)
{
	double ns;

	if (freq == 1000000000)
		return (int64_t)cycles;
	ns = 1e9 * (double)cycles / (double)freq;
	return ns >= 9.2e18 ? INT64_MAX : (int64_t)ns;
}

void evt_clock_real_init(const struct evt_clock_calibration *c,
			 struct evt_clock_real *r)
{
	int64_t offset_s;
	uint64_t offset_cycles;

	evt_clock_ctf_offset(c, &offset_s, &offset_cycles);
	r->base_ns = (__int128)offset_s * 1000000000 +
		     ctf_ns(c->freq_hz, offset_cycles);
	r->freq_hz = c->freq_hz;
}

int64_t evt_clock_real_ns(const struct evt_clock_real *r, uint64_t value)
{
	return evt_clock_ns_clamp(r->base_ns + ctf_ns(r->freq_hz, value));
}

int64_t evt_clock_to_realtime_ns(const struct evt_clock_calibration *c,
				 uint64_t value)
{
	struct evt_clock_real r;

	evt_clock_real_init(c, &r);
	return evt_clock_real_ns(&r, value);
}
