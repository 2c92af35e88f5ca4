/*
 * per_call.c - W1 timed call by call: rdtscp before and after each of N
 * trace_printk() calls, and around nothing, N times; prints the median
 * and the 90th percentile of each in TSC ticks, and the median of N
 * rdtsc instructions in a row, so that one run's figures can be set
 * against another's (a run where every call is slower shows in its
 * median).  Run under evtrace record.
 *
 *   per_call N
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <evtrace/evtrace.h>

static inline uint64_t ticks(void)
{
	uint32_t lo, hi;

	__asm__ volatile("rdtscp" : "=a"(lo), "=d"(hi) : : "rcx");
	return ((uint64_t)hi << 32) | lo;
}

static int by_value(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 200000, i;
	uint64_t *call = malloc((size_t)n * sizeof(*call));
	uint64_t *empty = malloc((size_t)n * sizeof(*empty));
	uint64_t t0, t1, rd;
	const char *comm = "kworker";

	if (n < 10 || !call || !empty)
		return fprintf(stderr, "usage: per_call N (10 or more)\n"), 2;
	for (i = 0; i < n; i++) {
		t0 = ticks();
		trace_printk("migrate task %s:%d\n", comm, (int)i);
		t1 = ticks();
		call[i] = t1 - t0;
	}
	for (i = 0; i < n; i++) {
		t0 = ticks();
		__asm__ volatile("" : : : "memory");
		t1 = ticks();
		empty[i] = t1 - t0;
	}
	/* A row of rdtsc: what one costs, in ticks. */
	t0 = ticks();
	for (i = 0; i < n; i++) {
		uint32_t lo, hi;

		__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
		__asm__ volatile("" : : "r"(lo), "r"(hi) : "memory");
	}
	rd = (ticks() - t0) * 100 / (uint64_t)n;
	qsort(call, (size_t)n, sizeof(*call), by_value);
	qsort(empty, (size_t)n, sizeof(*empty), by_value);
	printf("call_p50 %llu call_p90 %llu empty_p50 %llu rdtsc_x100 %llu\n",
	       (unsigned long long)call[n / 2], (unsigned long long)call[n * 9 / 10],
	       (unsigned long long)empty[n / 2], (unsigned long long)rd);
	free(call);
	free(empty);
	return 0;
}
