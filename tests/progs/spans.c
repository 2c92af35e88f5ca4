/*
 * spans.c - spans, async spans and counters of known shape, for the span
 * tests.  Every thread's spans nest as written below and last at least
 * their sleeps; main prints "done" when all threads are joined.
 *
 *   spans [THREADS]   (default 2)
 *   spans odd         spans that do not pair, a NaN counter: see odd()
 *   spans wait        prints "ready" and waits (for ls)
 *   spans service     a service for triggers: see service()
 *   spans storm N US  an error storm: N times a span "leak" begun and
 *                     never ended and a line "error I", one every US
 *                     microseconds (0: as fast as it can)
 *   spans interleave  spans "req" of two threads that nest and end
 *                     between each other's: see interleave()
 *   spans lossy N     a span "req" around N short ones inside it,
 *                     written at SIGUSR1 after "ready", and how many of
 *                     those took over 20 ms: see lossy()
 *   spans slow N MS   two threads of short spans "req" and N slow ones of
 *                     MS each among them, one at a time: see slow()
 *   spans spaced      at SIGUSR1 after "ready", spans "L0 slowdown" and
 *                     a counter "memtable bytes": see spaced()
 *   spans capped N    at SIGUSR1 after "ready", N spans "parent" around a
 *                     line and a span "kid", each followed by a line
 *                     outside: see capped()
 *   spans timed N US  N spans "get", each busy for US microseconds
 *                     (on CLOCK_MONOTONIC: a preemption lengthens one
 *                     span, not the next), each after a line "item I"
 *
 * Per worker thread t (0-based): scope "work" (args t) holding two
 * "step" spans of 2 ms each (the second left by an early return) and the
 * begin of the async span "job" (id 100 + t), which the next thread ends
 * inside its span "tail"; counters "queue" (integer: 0..3) and "load"
 * (double: t + 0.5).
 */
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <time.h>

#include <evtrace/evtrace.h>

static int nthreads = 2;
static pthread_barrier_t handed;

static void sleep_ms(int ms)
{
	struct timespec ts = { 0, ms * 1000000L };

	while (nanosleep(&ts, &ts))
		;
}

static int step(int i)
{
	trace_scope("step", "i=%d", i);
	sleep_ms(2);
	if (i == 1)
		return -1;	/* the scope ends here too */
	return 0;
}

static void *worker(void *arg)
{
	int t = (int)(long)arg, q;

	{
		trace_scope("work", "thread %d", t);
		for (q = 0; q < 4; q++)
			trace_counter("queue", q);
		trace_counter("load", t + 0.5);
		step(0);
		step(1);
		trace_async_begin("job", 100 + t, "from %d", t);
	}
	pthread_barrier_wait(&handed);
	trace_span_begin("tail");
	/* the job the previous thread began ends here */
	trace_async_end("job", 100 + (t + nthreads - 1) % nthreads);
	sleep_ms(1);
	trace_span_end("tail");
	return NULL;
}

static volatile double zero;

/* Each of the states a slice can end in but "after_loss"; a counter that
 * is not a number. */
static void odd(void)
{
	trace_span_end("orphan");		/* no_begin */
	trace_span_begin("outer");		/* complete */
	trace_span_begin("inner");		/* no_end: outer ends first */
	trace_span_end("outer");
	trace_async_begin("dup", 7);		/* no_end: 7 begins again */
	trace_async_begin("dup", 7, "again");	/* open */
	trace_async_end("dup", 9);		/* no_begin */
	trace_span_begin("left open");		/* open */
	trace_counter("ratio", zero / zero);	/* NaN */
}

/* Two threads of 100 requests of 0.2 ms each; request 50 of thread 1
 * takes 300 ms (far past what a loaded machine makes of the others);
 * request 70 of thread 0 logs an error (with its code in a
 * typed event too); an init line before them, and a span "drain" after
 * them that never ends (15 ms before the program does). */
EVT_EVENT(svc, failure, EVT_PROTO(int code), EVT_ARGS(code),
	  EVT_FIELDS(evt_integer(int, code, code)))

static void *serve(void *arg)
{
	int t = (int)(long)arg, i;

	for (i = 0; i < 100; i++) {
		trace_scope("request", "t=%d i=%d", t, i);
		sleep_ms(0);
		if (t == 1 && i == 50)
			sleep_ms(300);
		else
			nanosleep(&(struct timespec){ 0, 200000 }, NULL);
		if (t == 0 && i == 70) {
			trace_printk("error: request %d failed\n", i);
			trace_svc_failure(28);
		}
		trace_svc_failure(i == 90 ? 5 : 0);
	}
	return NULL;
}

static int service(void)
{
	pthread_t th[2];
	long i;

	trace_printk("service starting\n");
	for (i = 0; i < 2; i++)
		pthread_create(&th[i], NULL, serve, (void *)i);
	for (i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	trace_span_begin("drain");	/* never ended: open at the end */
	sleep_ms(15);
	printf("served\n");
	return 0;
}

static int storm(long n, long pace_us)
{
	struct timespec pace = { 0, pace_us * 1000 };
	long i;

	for (i = 0; i < n; i++) {
		trace_span_begin("leak");
		trace_printk("error %ld\n", i);
		if (pace_us)
			nanosleep(&pace, NULL);
	}
	printf("stormed\n");
	return 0;
}

/* Thread B's "req" begins first and ends while thread A's two nested
 * "req" (an outer of about 120 ms, an inner of 40 ms inside it) are
 * open: A's ends must pair with A's begins, innermost first, whatever
 * ended between them.  Paired otherwise, A's ends measure 80 ms each.
 * Prints "A TID" at the end. */
static pthread_barrier_t beat;

static void *interleave_b(void *arg)
{
	(void)arg;
	trace_span_begin("req");
	pthread_barrier_wait(&beat);	/* A may begin */
	pthread_barrier_wait(&beat);	/* A's inner one has begun */
	trace_span_end("req");
	pthread_barrier_wait(&beat);
	return NULL;
}

static int interleave(void)
{
	pthread_t b;

	pthread_barrier_init(&beat, NULL, 2);
	pthread_create(&b, NULL, interleave_b, NULL);
	pthread_barrier_wait(&beat);
	trace_span_begin("req");
	sleep_ms(40);
	trace_span_begin("req");
	pthread_barrier_wait(&beat);
	pthread_barrier_wait(&beat);	/* B's has ended */
	sleep_ms(40);
	trace_span_end("req");
	sleep_ms(40);
	trace_span_end("req");
	pthread_join(b, NULL);
	printf("A %ld\n", (long)syscall(SYS_gettid));
	return 0;
}

/* Prints "ready" and returns at SIGUSR1. */
static void ready_then_usr1(void)
{
	sigset_t usr1;
	int sig;

	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	sigprocmask(SIG_BLOCK, &usr1, NULL);
	printf("ready\n");
	fflush(stdout);
	sigwait(&usr1, &sig);
}

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* At SIGUSR1 (after "ready"), a span "req" of 30 ms or more around N
 * spans "req" of next to no time (a reader stopped meanwhile loses some);
 * prints "burst slow=K" after the N, K the inner spans that took more
 * than 20 ms all the same (measured around them: the machine took the
 * CPU away between their begin and end). */
static int lossy(long n)
{
	long i, slow = 0;

	ready_then_usr1();
	trace_span_begin("req");
	for (i = 0; i < n; i++) {
		int64_t t0 = now_ns();

		trace_span_begin("req");
		trace_span_end("req");
		slow += now_ns() - t0 > 20000000;
	}
	printf("burst slow=%ld\n", slow);
	fflush(stdout);
	sleep_ms(30);
	trace_span_end("req");
	return 0;
}

/* Names with spaces: at SIGUSR1 (after "ready"), three spans "L0
 * slowdown" (the second 30 ms, the others 1 ms), each with the counter
 * "memtable bytes" (100, 101, 102) inside. */
static int spaced(void)
{
	int i;

	ready_then_usr1();
	for (i = 0; i < 3; i++) {
		trace_scope("L0 slowdown");
		trace_counter("memtable bytes", 100 + i);
		sleep_ms(i == 1 ? 30 : 1);
	}
	printf("spaced done\n");
	return 0;
}

/* At SIGUSR1 (after "ready"), n times: span "parent" { "child I", span
 * "kid" { } }, then "outside I"; prints "capped done". */
static int capped(long n)
{
	long i;

	ready_then_usr1();
	for (i = 0; i < n; i++) {
		trace_span_begin("parent");
		trace_printk("child %ld\n", i);
		trace_span_begin("kid");
		trace_span_end("kid");
		trace_span_end("parent");
		trace_printk("outside %ld\n", i);
	}
	printf("capped done\n");
	return 0;
}

/* Two threads of spans "req" of 0.2 ms each, with n slow ones ("slow J",
 * ms milliseconds each) taken in turn, one every ms * 3 / 2 ms from the
 * start, so that no two are open at once; each thread stops after the
 * last slow one's turn. */
static long slow_n, slow_ms;
static struct timespec slow_start;

static long ms_since(const struct timespec *t0)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - t0->tv_sec) * 1000 + (now.tv_nsec - t0->tv_nsec) / 1000000;
}

static void *slow_thread(void *arg)
{
	long t = (long)arg, j = t, period = slow_ms * 3 / 2;

	while (j < slow_n) {
		if (ms_since(&slow_start) >= j * period) {
			trace_scope("req", "slow %ld", j);
			sleep_ms((int)slow_ms);
			j += 2;
			continue;
		}
		trace_scope("req", "short");
		nanosleep(&(struct timespec){ 0, 200000 }, NULL);
	}
	return NULL;
}

static int slow(long n, long ms)
{
	pthread_t th[2];
	long i;

	slow_n = n;
	slow_ms = ms;
	clock_gettime(CLOCK_MONOTONIC, &slow_start);
	for (i = 0; i < 2; i++)
		pthread_create(&th[i], NULL, slow_thread, (void *)i);
	for (i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	printf("slow done\n");
	return 0;
}

static int64_t now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static int timed(int n, int us)
{
	int i;

	for (i = 0; i < n; i++) {
		int64_t until = now_us() + us;

		trace_printk("item %d\n", i);
		trace_span_begin("get");
		while (now_us() < until)
			;
		trace_span_end("get");
	}
	printf("timed done\n");
	return 0;
}

int main(int argc, char **argv)
{
	pthread_t th[16];
	int i;

	if (argc == 4 && !strcmp(argv[1], "timed"))
		return timed(atoi(argv[2]), atoi(argv[3]));

	if (argc == 4 && !strcmp(argv[1], "storm"))
		return storm(atol(argv[2]), atol(argv[3]));
	if (argc > 1 && !strcmp(argv[1], "odd")) {
		odd();
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "service"))
		return service();
	if (argc > 1 && !strcmp(argv[1], "interleave"))
		return interleave();
	if (argc == 3 && !strcmp(argv[1], "lossy"))
		return lossy(atol(argv[2]));
	if (argc == 2 && !strcmp(argv[1], "spaced"))
		return spaced();
	if (argc == 3 && !strcmp(argv[1], "capped"))
		return capped(atol(argv[2]));
	if (argc == 4 && !strcmp(argv[1], "slow"))
		return slow(atol(argv[2]), atol(argv[3]));
	if (argc > 1 && !strcmp(argv[1], "wait")) {
		printf("ready\n");
		fflush(stdout);
		pause();
		return 0;
	}
	if (argc > 1)
		nthreads = atoi(argv[1]);
	if (nthreads < 1 || nthreads > 16)
		return 2;
	pthread_barrier_init(&handed, NULL, (unsigned)nthreads);
	for (i = 0; i < nthreads; i++)
		pthread_create(&th[i], NULL, worker, (void *)(long)i);
	for (i = 0; i < nthreads; i++)
		pthread_join(th[i], NULL);
	printf("done\n");
	return 0;
}
