/*
 * tracer_bench.c - what one event of workloads W1,
 *   ("migrate task %s:%d\n", comm, pid), comm 7 characters, pid changing
 * on every call, and W2 (u64 a, u32 b, i32 c, 7-character s) costs, with
 * evtrace and with the tracers users pick today.
 *
 *   tracer_bench TRACER EVENTS THREADS RUNS [RATE]
 *     evtrace       trace_printk(); enabled when run under `evtrace record`
 *     evtrace-event W2: a typed event (u64 a, u32 b, i32 c, 7-character s)
 *     evtrace-scope   a trace_scope() (its begin and end) per iteration
 *     evtrace-counter a trace_counter() of the iteration number
 *     empty         the same loop without any tracer: the baseline
 *     rdtsc         the loop reading the TSC: the clock's own cost
 *     fprintf       fprintf() to a fully buffered file in /dev/shm
 *     marker        snprintf() + write() to ftrace's trace_marker
 *     usdt          a USDT probe (sys/sdt.h): disabled unless a tracer attaches
 *     lttng         an LTTng-UST tracepoint; enabled inside a started session
 *     lttng-tracef  LTTng-UST tracef(); likewise
 *     fprintf-w2, marker-w2, usdt-w2, lttng-w2: the same peers for W2
 * RATE paces each thread to that many events per second (in batches of
 * 256, sleeping between them) instead of as fast as it goes.
 * Prints one line per run: "ns_per_event <x> events_per_s <y>".
 */
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <evtrace/evtrace.h>

#ifdef HAVE_SDT
#include <sys/sdt.h>
#endif
#ifdef HAVE_LTTNG
#include "lttng_tp.h"	/* defined in lttng_tp.c */
#include <lttng/tracef.h>
#endif

static long events;
static int marker_fd = -1;
static FILE *log_file;

typedef void (*loop_fn)(const char *comm, long n);

__attribute__((noinline)) static void run_evtrace(const char *comm, long n)
{
	int pid = 1000;

	for (long i = 0; i < n; i++)
		trace_printk("migrate task %s:%d\n", comm, pid++);
}

EVT_EVENT(bench, w2,
	EVT_PROTO(uint64_t a, uint32_t b, int32_t c, const char *s),
	EVT_ARGS(a, b, c, s),
	EVT_FIELDS(evt_integer(uint64_t, a, a), evt_integer(uint32_t, b, b),
		   evt_integer(int32_t, c, c), evt_string(s, s)))

__attribute__((noinline)) static void run_evtrace_event(const char *comm, long n)
{
	for (long i = 0; i < n; i++)
		trace_bench_w2((uint64_t)i, (uint32_t)i, (int32_t)-i, comm);
}

/* W1's arguments as a typed event: a string and an int. */
EVT_EVENT(bench, migrate,
	EVT_PROTO(const char *comm, int pid),
	EVT_ARGS(comm, pid),
	EVT_FIELDS(evt_string(comm, comm), evt_integer(int, pid, pid)))

__attribute__((noinline)) static void run_evtrace_typed_w1(const char *comm, long n)
{
	int pid = 1000;

	for (long i = 0; i < n; i++)
		trace_bench_migrate(comm, pid++);
}

__attribute__((noinline)) static void run_evtrace_scope(const char *comm, long n)
{
	for (long i = 0; i < n; i++) {
		trace_scope("bench");
		__asm__ volatile("" : : "r"(comm) : "memory");
	}
}

__attribute__((noinline)) static void run_evtrace_counter(const char *comm, long n)
{
	(void)comm;
	for (long i = 0; i < n; i++)
		trace_counter("bench", i);
}

__attribute__((noinline)) static void run_empty(const char *comm, long n)
{
	for (long i = 0; i < n; i++)
		__asm__ volatile("" : : "r"(comm) : "memory");
}

__attribute__((noinline)) static void run_rdtsc(const char *comm, long n)
{
	(void)comm;
	for (long i = 0; i < n; i++) {
		uint32_t lo, hi;

		__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
		__asm__ volatile("" : : "r"(lo), "r"(hi) : "memory");
	}
}

__attribute__((noinline)) static void run_fprintf(const char *comm, long n)
{
	int pid = 1000;

	for (long i = 0; i < n; i++)
		fprintf(log_file, "migrate task %s:%d\n", comm, pid++);
}

__attribute__((noinline)) static void run_marker(const char *comm, long n)
{
	int pid = 1000;
	char buf[64];

	for (long i = 0; i < n; i++) {
		int len = snprintf(buf, sizeof(buf), "migrate task %s:%d\n", comm,
				   pid++);

		if (write(marker_fd, buf, len) < 0)
			break;
	}
}

/* W2's values, as the typed event gets them. */
#define W2_VALUES(i, comm) (uint64_t)(i), (uint32_t)(i), (int32_t)-(i), (comm)

__attribute__((noinline)) static void run_fprintf_w2(const char *comm, long n)
{
	for (long i = 0; i < n; i++)
		fprintf(log_file, "w2 a=%" PRIu64 " b=%" PRIu32 " c=%" PRId32 " s=%s\n",
			W2_VALUES(i, comm));
}

__attribute__((noinline)) static void run_marker_w2(const char *comm, long n)
{
	char buf[96];

	for (long i = 0; i < n; i++) {
		int len = snprintf(buf, sizeof(buf),
				   "w2 a=%" PRIu64 " b=%" PRIu32 " c=%" PRId32 " s=%s\n",
				   W2_VALUES(i, comm));

		if (write(marker_fd, buf, len) < 0)
			break;
	}
}

#ifdef HAVE_SDT
__attribute__((noinline)) static void run_usdt_w2(const char *comm, long n)
{
	for (long i = 0; i < n; i++)
		DTRACE_PROBE4(evtbench, w2, (uint64_t)i, (uint32_t)i, (int32_t)-i, comm);
}

__attribute__((noinline)) static void run_usdt(const char *comm, long n)
{
	int pid = 1000;

	for (long i = 0; i < n; i++) {
		DTRACE_PROBE2(evtbench, migrate, comm, pid);
		pid++;
	}
}
#endif

#ifdef HAVE_LTTNG
__attribute__((noinline)) static void run_lttng(const char *comm, long n)
{
	int pid = 1000;

	for (long i = 0; i < n; i++)
		tracepoint(evtbench, migrate, comm, pid++);
}

__attribute__((noinline)) static void run_lttng_w2(const char *comm, long n)
{
	for (long i = 0; i < n; i++)
		tracepoint(evtbench, w2, W2_VALUES(i, comm));
}

__attribute__((noinline)) static void run_lttng_tracef(const char *comm, long n)
{
	int pid = 1000;

	for (long i = 0; i < n; i++)
		tracef("migrate task %s:%d\n", comm, pid++);
}
#endif

static const struct {
	const char *name;
	loop_fn run;
} tracers[] = {
	{ "evtrace", run_evtrace },
	{ "evtrace-event", run_evtrace_event },
	{ "evtrace-typed-w1", run_evtrace_typed_w1 },
	{ "evtrace-scope", run_evtrace_scope },
	{ "evtrace-counter", run_evtrace_counter },
	{ "empty", run_empty },
	{ "rdtsc", run_rdtsc },
	{ "fprintf", run_fprintf },
	{ "marker", run_marker },
	{ "fprintf-w2", run_fprintf_w2 },
	{ "marker-w2", run_marker_w2 },
#ifdef HAVE_SDT
	{ "usdt", run_usdt },
	{ "usdt-w2", run_usdt_w2 },
#endif
#ifdef HAVE_LTTNG
	{ "lttng", run_lttng },
	{ "lttng-tracef", run_lttng_tracef },
	{ "lttng-w2", run_lttng_w2 },
#endif
};

static loop_fn run;

static int runs;
static double rate;		/* events per second per thread; 0: unpaced */
static pthread_barrier_t start_line, finish_line;

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* n events at the pace of rate: batches of 256, sleeping until each is due. */
static void run_paced(const char *comm, long n)
{
	const long batch = 256;
	double start = now_ns();
	long done;

	for (done = 0; done < n; done += batch) {
		double due;

		run(comm, n - done < batch ? n - done : batch);
		due = start + (done + batch) * 1e9 / rate;
		if (now_ns() < due) {
			struct timespec ts = { (time_t)(due / 1e9),
					       (long)((long long)due % 1000000000) };

			clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		}
	}
}

/* Threads live across runs, so each claims its buffer once, as a real
 * program's threads do; runs are separated by barriers. */
static void *worker(void *arg)
{
	int r;

	(void)arg;
	for (r = 0; r < runs; r++) {
		pthread_barrier_wait(&start_line);
		if (rate > 0)
			run_paced("kworker", events);
		else
			run("kworker", events);
		pthread_barrier_wait(&finish_line);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t th[64];
	int threads, r, t;

	size_t k;

	if (argc != 5 && argc != 6) {
		fprintf(stderr, "usage: tracer_bench TRACER EVENTS THREADS RUNS [RATE]\n");
		return 2;
	}
	for (k = 0; k < sizeof(tracers) / sizeof(tracers[0]); k++)
		if (!strcmp(tracers[k].name, argv[1]))
			run = tracers[k].run;
	if (!run) {
		fprintf(stderr, "tracer_bench: %s: not a tracer of this build\n", argv[1]);
		return 2;
	}
	events = atol(argv[2]);
	threads = atoi(argv[3]);
	runs = atoi(argv[4]);
	rate = argc == 6 ? atof(argv[5]) : 0;
	if (threads < 1 || threads > 64)
		return 2;
	if (run == run_fprintf || run == run_fprintf_w2) {
		char path[64];

		snprintf(path, sizeof(path), "/dev/shm/tracer_bench.%d.log", (int)getpid());
		log_file = fopen(path, "w");
		if (!log_file || setvbuf(log_file, NULL, _IOFBF, 1 << 20))
			return perror(path), 1;
		unlink(path);
	}
	if (run == run_marker || run == run_marker_w2) {
		marker_fd = open("/sys/kernel/tracing/trace_marker", O_WRONLY | O_CLOEXEC);
		if (marker_fd < 0)
			return perror("/sys/kernel/tracing/trace_marker"), 1;
	}
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
