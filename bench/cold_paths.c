/*
 * cold_paths.c - what the first events cost: each of THREADS threads,
 * started one after another, times its first trace_printk() and its
 * second (enabled when run under `evtrace record`).
 *
 *   cold_paths THREADS
 * Prints "first_ns <median> <max> second_ns <median>".
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <evtrace/evtrace.h>

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

struct cost {
	double first, second;
};

static void *worker(void *arg)
{
	struct cost *c = arg;
	double t0, t1, t2;

	t0 = now_ns();
	trace_printk("first event of a thread %d\n", 1);
	t1 = now_ns();
	trace_printk("second event of a thread %d\n", 2);
	t2 = now_ns();
	c->first = t1 - t0;
	c->second = t2 - t1;
	return NULL;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	int n = argc == 2 ? atoi(argv[1]) : 0, i;
	struct cost *c;
	double *first, *second;

	if (n < 1 || n > 1000) {
		fprintf(stderr, "usage: cold_paths THREADS (1..1000)\n");
		return 2;
	}
	c = calloc(n, sizeof(*c));
	first = calloc(n, sizeof(*first));
	second = calloc(n, sizeof(*second));
	if (!c || !first || !second)
		return 1;
	for (i = 0; i < n; i++) {
		pthread_t th;

		if (pthread_create(&th, NULL, worker, &c[i]) || pthread_join(th, NULL))
			return 1;
		first[i] = c[i].first;
		second[i] = c[i].second;
	}
	qsort(first, n, sizeof(*first), by_value);
	qsort(second, n, sizeof(*second), by_value);
	printf("first_ns %.0f %.0f second_ns %.0f\n", first[n / 2], first[n - 1],
	       second[n / 2]);
	return 0;
}
