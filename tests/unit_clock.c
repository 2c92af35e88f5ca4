/* Clock values to nanoseconds (format/clock.c) give what the 128-bit
 * formulas give, to the nanosecond, over the range a trace may hold:
 * the 64-bit path for monotonic time and the real-time base computed
 * once are shortcuts, never approximations. */
#include <stdint.h>

#include "clock.h"
#include "unit.h"

static int64_t monotonic_by_128(const struct evt_clock_calibration *c, uint64_t v)
{
	__int128 d = (__int128)v - (__int128)c->ref_value;

	return evt_clock_ns_clamp((__int128)c->ref_monotonic_ns +
				  d * 1000000000 / (__int128)c->freq_hz);
}

/* As CTF readers count: the offset's seconds, then its cycles and the
 * value's each in double precision, truncated. */
static int64_t ctf_ns(uint64_t freq, uint64_t cycles)
{
	double ns = 1e9 * (double)cycles / (double)freq;

	return freq == 1000000000 ? (int64_t)cycles :
	       ns >= 9.2e18 ? INT64_MAX : (int64_t)ns;
}

static int64_t realtime_by_offset(const struct evt_clock_calibration *c, uint64_t v)
{
	int64_t offset_s;
	uint64_t offset_cycles;

	evt_clock_ctf_offset(c, &offset_s, &offset_cycles);
	return evt_clock_ns_clamp((__int128)offset_s * 1000000000 +
				  ctf_ns(c->freq_hz, offset_cycles) +
				  ctf_ns(c->freq_hz, v));
}

static uint64_t next(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

int main(void)
{
	static const uint64_t freqs[] = {
		1000, 999999937, 1000000000, 2899998000, 3000000001,
		8999999999, 9000000000, 9000000001, 100000000000ull,
	};
	uint64_t x = 88172645463325252ull;
	unsigned f, i, wrong = 0;

	for (f = 0; f < sizeof(freqs) / sizeof(freqs[0]); f++)
		for (i = 0; i < 200000; i++) {
			struct evt_clock_calibration c = {
				.kind = EVT_CLOCK_TSC, .freq_hz = freqs[f],
				.ref_value = next(&x) % (uint64_t)EVT_CLOCK_NS_MAX,
				.ref_monotonic_ns = (int64_t)(next(&x) % (uint64_t)EVT_CLOCK_NS_MAX),
				.ref_realtime_ns = (int64_t)(next(&x) % (uint64_t)EVT_CLOCK_NS_MAX),
			};
			/* values near the reference, and anywhere */
			uint64_t v = i % 2 ? c.ref_value + next(&x) % 100000000000ull -
					     50000000000ull : next(&x);
			struct evt_clock_real r;

			wrong += evt_clock_to_monotonic_ns(&c, v) != monotonic_by_128(&c, v);
			evt_clock_real_init(&c, &r);
			wrong += evt_clock_real_ns(&r, v) != realtime_by_offset(&c, v) ||
				 evt_clock_to_realtime_ns(&c, v) != realtime_by_offset(&c, v);
		}
	CHECK(wrong == 0);
	UNIT_DONE();
}
