/* The statistics of evtrace diff (reader/compare.c): a figure's own
 * sampling variance, and Welch's t that never trusts a few runs that
 * happen to agree more than their runs' sampling allows. */
#include <math.h>
#include <stdint.h>

#include "compare.h"
#include "unit.h"

int main(void)
{
	uint64_t one_to_100[100], tail[500], four[] = { 1, 2, 3, 4 };
	/* The p99 of 500 spans, three runs a side, as CI saw it under a
	 * sanitizer: each side's figures close together, the sides 3.5 ms
	 * apart. */
	double a[] = { 11.8e6, 11.9e6, 12.0e6 }, b[] = { 8.3e6, 8.4e6, 8.5e6 };
	double slow[] = { 200e3, 199e3, 201e3 }, fast[] = { 100e3, 101e3, 99e3 };
	size_t i;

	for (i = 0; i < 100; i++)
		one_to_100[i] = i + 1;
	/* median's rank 50 spreads by 5: half of 55 - 45 */
	CHECK(evt_quantile_var(one_to_100, 100, 0.5) == 25);
	CHECK(evt_quantile(one_to_100, 100, 0.9) == 90);
	/* (3 - 2.5)^2 ... over 3, over 4 */
	CHECK(fabs(evt_mean_var(four, 4) - 5.0 / 12) < 1e-12);
	CHECK(evt_mean_var(four, 1) == 0 && evt_quantile_var(one_to_100, 1, 0.5) == 0);

	/* 5 preempted spans in 500: the p99 is one of them or not, and its
	 * standard error says so (ranks 492 to 498: 100 ns to 10 us). */
	for (i = 0; i < 500; i++)
		tail[i] = i < 495 ? 100 : 10000;
	CHECK(evt_quantile(tail, 500, 0.99) == 100);
	CHECK(evt_quantile_var(tail, 500, 0.99) == 4950.0 * 4950.0);

	/* Alone, the agreeing runs look certain; their sampling says not. */
	CHECK(evt_runs_p(a, 3, 0, b, 3, 0) < 0.001);
	CHECK(evt_runs_p(a, 3, 2e6 * 2e6, b, 3, 2e6 * 2e6) > 0.05);
	/* A real change stays one when the floor is small beside it. */
	CHECK(evt_runs_p(fast, 3, 1e6, slow, 3, 1e6) < 0.001);
	/* Identical sides, no spread, no floor: p 1. */
	CHECK(evt_runs_p(fast, 3, 0, fast, 3, 0) == 1);
	CHECK(evt_runs_p(fast, 1, 0, slow, 3, 0) == -1);
	UNIT_DONE();
}
