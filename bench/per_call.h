/*
 * per_call.h - time each call of one statement: rdtscp before and after
 * each of N calls, REPS times, and N empty pairs; for each repetition a
 * line of the call's median, 90th percentile and mean in ns, less an
 * empty pair's median, the TSC's rate taken from CLOCK_MONOTONIC over the
 * repetition.  C and C++: the same loop times evtrace and its peers.
 *
 *   PER_CALL_MAIN(NAME, SETUP, CALL)   NAME N REPS
 *
 * CALL sees the loop's index as `i` (long).
 */
#ifndef EVT_BENCH_PER_CALL_H
#define EVT_BENCH_PER_CALL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static inline uint64_t per_call_ticks(void)
{
	uint32_t lo, hi;

	__asm__ volatile("rdtscp" : "=a"(lo), "=d"(hi) : : "rcx");
	return ((uint64_t)hi << 32) | lo;
}

static inline int64_t per_call_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int per_call_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Prints one repetition's line from call[] and empty[] (sorted here). */
static inline void per_call_print(int rep, uint64_t *call, uint64_t *empty, long n,
				  double ticks_per_ns)
{
	double sum = 0, base;
	long i;

	for (i = 0; i < n; i++)
		sum += (double)call[i];
	qsort(call, (size_t)n, sizeof(*call), per_call_cmp);
	qsort(empty, (size_t)n, sizeof(*empty), per_call_cmp);
	base = (double)empty[n / 2];
	printf("rep %d p50_ns %.2f p90_ns %.2f mean_ns %.2f empty_ns %.2f\n", rep,
	       ((double)call[n / 2] - base) / ticks_per_ns,
	       ((double)call[n * 9 / 10] - base) / ticks_per_ns,
	       (sum / (double)n - base) / ticks_per_ns, base / ticks_per_ns);
	fflush(stdout);
}

#define PER_CALL_MAIN(NAME, SETUP, CALL)					\
int main(int argc, char **argv)							\
{										\
	long n = argc > 1 ? atol(argv[1]) : 200000, i;				\
	int reps = argc > 2 ? atoi(argv[2]) : 1, rep;				\
	uint64_t *call = (uint64_t *)malloc((size_t)n * sizeof(*call));	\
	uint64_t *empty = (uint64_t *)malloc((size_t)n * sizeof(*empty));	\
										\
	if (n < 10 || reps < 1 || !call || !empty)				\
		return fprintf(stderr, "usage: " NAME " N REPS (N of 10 or more)\n"), 2; \
	SETUP;									\
	for (rep = 1; rep <= reps; rep++) {					\
		int64_t ns0 = per_call_ns();					\
		uint64_t tk0 = per_call_ticks(), t0, t1;			\
										\
		for (i = 0; i < n; i++) {					\
			t0 = per_call_ticks();					\
			CALL;							\
			t1 = per_call_ticks();					\
			call[i] = t1 - t0;					\
		}								\
		for (i = 0; i < n; i++) {					\
			t0 = per_call_ticks();					\
			__asm__ volatile("" : : : "memory");			\
			t1 = per_call_ticks();					\
			empty[i] = t1 - t0;					\
		}								\
		per_call_print(rep, call, empty, n, (double)(per_call_ticks() - tk0) / \
			       (double)(per_call_ns() - ns0));			\
	}									\
	free(call);								\
	free(empty);								\
	return 0;								\
}

#endif
