/*
 * printk_bench.c - the cost of one trace_printk("migrate task %s:%d\n",
 * comm, pid) site, disabled or enabled, on 1..N threads.
 *
 *   printk_bench MODE EVENTS THREADS RUNS
 *     MODE: site (the site; enabled when run under `evtrace record`)
 *           empty (the same loop without the site: the baseline)
 *           rdtsc (the loop reading the TSC: the clock's own cost)
 * Prints one line per run: "ns_per_event <x> events_per_s <y>".
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <evtrace/evtrace.h>

static long events;
static int with_site;

__attribute__((noinline)) static void run_site(const char *comm, long n)
{
	int pid = 1000;

	for (long i = 0; i < n; i++)
		trace_printk("migrate task %s:%d\n", comm, pid++);
}

__attribute__((noinline)) static void run_empty(const char *comm, long n)
{
	for (long i = 0; i < n; i++)
		__asm__ volatile("" : : "r"(comm) : "memory");
}

__attribute__((noinline)) static void run_rdtsc(long n)
{
	for (long i = 0; i < n; i++) {
		uint32_t lo, hi;

		__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
		__asm__ volatile("" : : "r"(lo), "r"(hi) : "memory");
	}
}

static int runs;
static pthread_barrier_t start_line, finish_line;

/* Threads live across runs, so each claims its buffer once, as a real
 * program's threads do; runs are separated by barriers. */
static void *worker(void *arg)
{
	int r;

	(void)arg;
	for (r = 0; r < runs; r++) {
		pthread_barrier_wait(&start_line);
		if (with_site == 2)
			run_rdtsc(events);
		else if (with_site)
			run_site("kworker", events);
		else
			run_empty("kworker", events);
		pthread_barrier_wait(&finish_line);
	}
	return NULL;
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	pthread_t th[64];
	int threads, r, t;

	if (argc != 5) {
		fprintf(stderr, "usage: printk_bench site|empty|rdtsc EVENTS THREADS RUNS\n");
		return 2;
	}
	with_site = !strcmp(argv[1], "site") ? 1 : !strcmp(argv[1], "rdtsc") ? 2 : 0;
	events = atol(argv[2]);
	threads = atoi(argv[3]);
	runs = atoi(argv[4]);
	if (threads < 1 || threads > 64)
		return 2;
	pthread_barrier_init(&start_line, NULL, threads + 1);
	pthread_barrier_init(&finish_line, NULL, threads + 1);
	for (t = 0; t < threads; t++)
		pthread_create(&th[t], NULL, worker, NULL);
	for (r = 0; r < runs; r++) {
		struct timespec pause = { 0, 50 * 1000 * 1000 };
		double start, elapsed;

		nanosleep(&pause, NULL);	/* let the engine drain */
		start = now_ns();
		pthread_barrier_wait(&start_line);
		pthread_barrier_wait(&finish_line);
		elapsed = now_ns() - start;
		printf("ns_per_event %.2f events_per_s %.0f\n", elapsed / events,
		       threads * events / elapsed * 1e9);
	}
	for (t = 0; t < threads; t++)
		pthread_join(th[t], NULL);
	return 0;
}
