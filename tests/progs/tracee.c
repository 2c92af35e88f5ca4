/*
 * tracee.c - the traced program of the integration tests.  Each mode does
 * one thing and prints, at the end, how many events it tried to write:
 * "tried N" (a signal-safe count kept by the program itself).
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <evtrace/evtrace.h>

static volatile long tried;
static int per_thread = 100;
static int errno_changed;

static void *seq_thread(void *arg)
{
	int t = (int)(long)arg, i;

	for (i = 0; i < per_thread; i++) {
		errno = EDOM;
		trace_printk("seq t=%d i=%d\n", t, i);
		if (errno != EDOM)	/* tracing failed a system call, say */
			__atomic_store_n(&errno_changed, 1, __ATOMIC_RELAXED);
		__atomic_fetch_add(&tried, 1, __ATOMIC_RELAXED);
	}
	return NULL;
}

static int mode_threads(int n, int m)
{
	pthread_t th[64];
	long i;

	per_thread = m;
	if (n > 64)
		n = 64;
	for (i = 0; i < n; i++)
		pthread_create(&th[i], NULL, seq_thread, (void *)i);
	for (i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	if (errno_changed) {
		fprintf(stderr, "tracee: trace_printk changed errno\n");
		return 1;
	}
	return 0;
}

static pthread_barrier_t all_wrote;

static void *one_event_thread(void *arg)
{
	trace_printk("thread %ld here\n", (long)arg);
	__atomic_fetch_add(&tried, 1, __ATOMIC_RELAXED);
	pthread_barrier_wait(&all_wrote);	/* hold the buffer */
	return NULL;
}

/* n threads alive at once, each with one event. */
static int mode_concurrent(int n)
{
	pthread_t *th = calloc(n, sizeof(*th));
	long i;

	pthread_barrier_init(&all_wrote, NULL, n);
	for (i = 0; i < n; i++)
		if (pthread_create(&th[i], NULL, one_event_thread, (void *)i))
			return 1;
	for (i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	free(th);
	return 0;
}

/* n threads one after the other, three events each. */
static int mode_sequential(int n)
{
	pthread_t th;
	long i;

	per_thread = 3;
	for (i = 0; i < n; i++) {
		pthread_create(&th, NULL, seq_thread, (void *)i);
		pthread_join(th, NULL);
	}
	return 0;
}

static int mode_types(void)
{
	char big[400];

	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	trace_printk("ints %hhd %hhu %hd %hu %d %u\n", (signed char)-128,
		     (unsigned char)255, (short)-32768, (unsigned short)65535,
		     INT32_MIN, UINT32_MAX);
	trace_printk("wide %lld %llu %ld %zu %jd %tx\n", (long long)INT64_MIN,
		     (unsigned long long)UINT64_MAX, -1L, (size_t)42,
		     (intmax_t)INT64_MAX, (ptrdiff_t)255);
	trace_printk("misc %c %x %#o %5.2f %e %p %%\n", 'Z', 0xbeefu, 8u, 3.14159,
		     -1.5e-300, (void *)0x1234);
	trace_printk("strings [%s] [%s] [%-6s] [%.3s]\n", "", (char *)NULL, "ab",
		     "abcdef");
	trace_printk("star [%*d] [%.*s] [%*.*f]\n", 6, 42, 2, "xyz", 8, 3, 2.5);
	trace_printk("long %s\n", big);
	trace_printk("no arguments at all\n");
	tried = 7;
	return 0;
}

/*
 * String precision on buffers without a NUL: the last bytes of a page
 * followed by an unreadable one (reading past them faults), and a heap
 * buffer followed by a secret (reading past it would record the secret).
 * Prints what printf makes of each, for the test to compare.
 */
static int mode_precision(void)
{
	long page = sysconf(_SC_PAGESIZE);
	char *map = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	static char *volatile null_string;	/* NULL the compiler cannot see */
	char *edge, *heap, *null = null_string;

	if (map == MAP_FAILED || mprotect(map + page, page, PROT_NONE))
		return 1;
	edge = map + page - 8;
	memcpy(edge, "pagetail", 8);
	heap = malloc(32);
	memcpy(heap, "username" "PASSWORD-SECRET", 24);
	heap[24] = '\0';
#define BOTH(...) do { trace_printk(__VA_ARGS__); printf(__VA_ARGS__); tried++; } while (0)
	BOTH("edge [%.8s] [%.*s] [%.3s]\n", edge, 8, edge, edge + 5);
	BOTH("heap [%.8s] [%.*s] [%-10.4s]\n", heap, 4, heap, heap);
	BOTH("null [%.3s] [%.6s] [%.*s] [%s]\n", null, null, 2, null, null);
	BOTH("zero [%.0s] [%.*s] [%.*s]\n", heap, 0, heap, -1, "negative");
	BOTH("char [%c] [%3c] [%-3c] [%c] after\n", 'a', 'b', 'c', 0);
#undef BOTH
	free(heap);
	return 0;
}

static int mode_fork(const char *self)
{
	pid_t child;

	trace_printk("parent before fork %d\n", 1);
	child = fork();
	if (child == 0) {
		trace_printk("child after fork %d\n", 2);
		execl(self, self, "exec-child", (char *)NULL);
		_exit(127);
	}
	waitpid(child, NULL, 0);
	trace_printk("parent after fork %d\n", 3);
	tried = 3;	/* and the exec'd child's one */
	return 0;
}

static int mode_exec_child(void)
{
	trace_printk("exec child %d\n", 4);
	return 0;
}

static int mode_dlopen(const char *lib)
{
	void (*run)(int);
	void *h;
	int round;

	for (round = 1; round <= 2; round++) {
		h = dlopen(lib, RTLD_NOW);
		if (!h) {
			fprintf(stderr, "tracee: %s\n", dlerror());
			return 1;
		}
		run = (void (*)(int))dlsym(h, "plugin_run");
		run(round);
		dlclose(h);
	}
	trace_printk("main after dlclose %d\n", 9);
	return 0;
}

/* Children that load different libraries after a fork: child k of 4
 * loads libs[k / 2] and writes its event after one of the main program's. */
static int mode_fork_dlopen(const char *const libs[2], int rounds)
{
	pid_t child;
	int k;

	for (k = 0; k < 4 * rounds; k++) {
		child = fork();
		if (child == 0) {
			void *h = dlopen(libs[k % 4 / 2], RTLD_NOW);

			trace_printk("forked child %d\n", k);
			if (!h) {
				fprintf(stderr, "tracee: %s\n", dlerror());
				_exit(1);
			}
			((void (*)(int))dlsym(h, "plugin_run"))(k);
			_exit(0);
		}
		waitpid(child, NULL, 0);
	}
	trace_printk("parent after children %d\n", 4 * rounds);
	tried = 8 * rounds + 1;
	return 0;
}

static void on_usr1(int sig)
{
	static int n;

	trace_printk("in handler sig=%d n=%d\n", sig, n++);
	tried++;
}

static int mode_signal(int n)
{
	int i;

	signal(SIGUSR1, on_usr1);
	for (i = 0; i < n; i++) {
		trace_printk("before raise %d\n", i);
		tried++;
		raise(SIGUSR1);
	}
	return 0;
}

static volatile long handler_tried;
static volatile sig_atomic_t in_write;	/* main is inside trace_printk */
static volatile long nested_ticks;	/* handler writes inside one */

static void on_alarm(int sig)
{
	(void)sig;
	if (in_write)
		nested_ticks++;
	trace_printk("tick %ld\n", handler_tried);
	__atomic_fetch_add(&handler_tried, 1, __ATOMIC_RELAXED);
}

static volatile sig_atomic_t nested_stop;

static void on_nested_stop(int sig)
{
	(void)sig;
	nested_stop = 1;
}

/* Signals arrive in the middle of writes: nested writes are dropped and
 * counted, never corrupt anything.  For ms milliseconds, or with ms -1
 * until SIGUSR1 (for a test that must hit the writes while they run). */
static int mode_nested(int ms)
{
	struct itimerval it = { { 0, 50 }, { 0, 50 } };
	struct timespec start, now;
	long i = 0;

	signal(SIGALRM, on_alarm);
	signal(SIGUSR1, on_nested_stop);
	if (ms < 0) {
		printf("ready %d\n", (int)getpid());
		fflush(stdout);
	}
	setitimer(ITIMER_REAL, &it, NULL);
	clock_gettime(CLOCK_MONOTONIC, &start);
	do {
		in_write = 1;
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		trace_printk("main %ld %s\n", i++, "payload-payload");
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		in_write = 0;
		tried++;
		clock_gettime(CLOCK_MONOTONIC, &now);
	} while (ms < 0 ? !nested_stop :
		 (now.tv_sec - start.tv_sec) * 1000 +
		 (now.tv_nsec - start.tv_nsec) / 1000000 < ms);
	memset(&it, 0, sizeof(it));
	setitimer(ITIMER_REAL, &it, NULL);
	tried += handler_tried;
	printf("nested %ld\n", nested_ticks);
	return 0;
}

static int mode_burst(long n)
{
	long i;

	for (i = 0; i < n; i++)
		trace_printk("burst %ld\n", i);
	tried = n;
	return 0;
}

/* A burst of n, then "ready PID" and a wait for a signal: the buffer
 * stays as the burst left it. */
static int mode_burst_wait(long n)
{
	mode_burst(n);
	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	pause();
	return 0;
}

/* Idle for idle_ms (the recorder backs off), or, when it is negative, say
 * "ready PID" and wait for SIGUSR1 (a test attaches first), then n
 * "burst" events at per_ms events a millisecond, in batches of 50; with
 * -2, then "burst done" and a wait for another SIGUSR1 before it ends.
 * Tracing, which may wake the recorder by a system call, must leave errno
 * as it was.  With $TRACEE_SLOWEST set, it then says how long its slowest
 * event took to write ("slowest N us"): a writer that waited for its
 * reader (block_ms) shows the wait there. */
static int mode_paced(long n, long per_ms, long idle_ms)
{
	struct timespec start, due, t0, t1;
	bool timed = getenv("TRACEE_SLOWEST") != NULL;
	long long slowest_ns = 0, took;
	sigset_t go;
	int sig;
	long i;

	sigemptyset(&go);
	sigaddset(&go, SIGUSR1);
	if (idle_ms < 0) {
		/* Until told: "ready PID", then SIGUSR1 starts it. */
		sigprocmask(SIG_BLOCK, &go, NULL);
		printf("ready %d\n", (int)getpid());
		fflush(stdout);
		sigwait(&go, &sig);
	} else {
		usleep((useconds_t)idle_ms * 1000);
	}
	clock_gettime(CLOCK_MONOTONIC, &start);
	for (i = 0; i < n; i++) {
		errno = EDOM;
		if (timed)
			clock_gettime(CLOCK_MONOTONIC, &t0);
		trace_printk("burst %ld\n", i);
		if (timed) {
			int e = errno;

			clock_gettime(CLOCK_MONOTONIC, &t1);
			took = (t1.tv_sec - t0.tv_sec) * 1000000000LL +
			       (t1.tv_nsec - t0.tv_nsec);
			if (took > slowest_ns)
				slowest_ns = took;
			errno = e;
		}
		if (errno != EDOM) {
			fprintf(stderr, "tracee: errno changed by event %ld\n", i);
			return 1;
		}
		if (i % 50 == 49) {
			long long ns = (long long)(i + 1) * 1000000 / per_ms +
				       start.tv_nsec;

			due.tv_sec = start.tv_sec + (time_t)(ns / 1000000000);
			due.tv_nsec = (long)(ns % 1000000000);
			clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &due, NULL);
		}
	}
	tried = n;
	if (timed)
		printf("slowest %lld us\n", slowest_ns / 1000);
	if (idle_ms == -2) {
		printf("burst done\n");
		fflush(stdout);
		sigwait(&go, &sig);
	}
	return 0;
}

static int mode_crash(int n)
{
	int i;

	for (i = 0; i < n; i++)
		trace_printk("before crash %d\n", i);
	tried = n;
	printf("tried %ld\n", tried);
	fflush(stdout);
	raise(SIGSEGV);
	return 0;
}

/* n events, then a site whose string argument points nowhere: the
 * program dies inside the site's write (the type is right: no check at
 * registration can refuse it). */
static int mode_crash_in_site(int n)
{
	const char *volatile nowhere = (const char *)16;
	int i;

	for (i = 0; i < n; i++)
		trace_printk("before crash %d\n", i);
	tried = n;
	printf("tried %ld\n", tried);
	fflush(stdout);
	trace_printk("a string from nowhere %s\n", nowhere);
	return 0;
}

/* Short-lived threads, one after the other, until killed. */
static int mode_churn(void)
{
	pthread_t th;
	long i;

	per_thread = 1;
	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	for (i = 0;; i++) {
		pthread_create(&th, NULL, seq_thread, (void *)i);
		pthread_join(th, NULL);
		usleep(500);
	}
	return 0;
}

/* n short-lived forked children, at most k alive at once, 5 events each. */
static int mode_spawn(int n, int k)
{
	int i, j, alive = 0;

	for (i = 0; i < n; i++) {
		pid_t child;

		if (alive == k) {
			wait(NULL);
			alive--;
		}
		child = fork();
		if (child == 0) {
			for (j = 0; j < 5; j++)
				trace_printk("child i=%d j=%d\n", i, j);
			usleep(2000);
			exit(0);
		}
		if (child < 0)
			return 1;
		alive++;
	}
	while (alive-- > 0)
		wait(NULL);
	tried = 5L * n;
	return 0;
}

/* Runs until killed: for ls, enable, disable and kill -9 tests. */
static int mode_wait(void)
{
	long i = 0;

	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	for (;;) {
		trace_printk("alive %ld\n", i++);
		trace_printk("other %d\n", 1); trace_printk("same line %d\n", 2);
		ftrace_printk("legacy %ld\n", i);
		usleep(5000);
	}
	return 0;
}

static volatile sig_atomic_t loop_stop;

static void *loop_thread(void *arg)
{
	int t = (int)(long)arg;
	long i;

	for (i = 0; !__atomic_load_n(&loop_stop, __ATOMIC_RELAXED); i++) {
		trace_printk("loop t=%d i=%ld\n", t, i);
		usleep(200);
	}
	return NULL;
}

static void on_loop_stop(int sig)
{
	(void)sig;
	__atomic_store_n(&loop_stop, 1, __ATOMIC_RELAXED);
}

/* n threads, each writing numbered events until SIGTERM: for attaching. */
static int mode_loop(int n)
{
	pthread_t th[64];
	long i;

	signal(SIGTERM, on_loop_stop);
	if (n > 64)
		n = 64;
	for (i = 0; i < n; i++)
		pthread_create(&th[i], NULL, loop_thread, (void *)i);
	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	for (i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	return 0;
}

static volatile sig_atomic_t go;

static void on_go(int sig)
{
	(void)sig;
	go = 1;
}

/* Waits for SIGUSR1, then loads lib and calls it every 5 ms: a library
 * that registers its events after the process started. */
static volatile sig_atomic_t stops_seen;

static void on_graceful_stop(int sig)
{
	(void)sig;
	stops_seen++;
}

/* A service that shuts down cleanly: works until SIGINT or SIGTERM, then
 * writes its shutdown in `parts` steps `part_ms` apart (further signals
 * are only counted) and exits 3, saying how many signals it got. */
static int mode_graceful(int parts, int part_ms)
{
	struct sigaction sa = { 0 };
	long i;

	sa.sa_handler = on_graceful_stop;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	for (i = 0; !stops_seen; i++) {
		trace_printk("working %ld\n", i);
		usleep(10 * 1000);
	}
	for (i = 1; i <= parts; i++) {
		trace_printk("flushing part %ld\n", i);
		usleep((useconds_t)part_ms * 1000);
	}
	trace_printk("clean exit after %d signals\n", (int)stops_seen);
	printf("exiting after %d signals\n", (int)stops_seen);
	return 3;
}

/* Loads lib, says ready, unloads it at SIGUSR1 and says so, then waits. */
static int mode_wait_unload(const char *lib)
{
	void (*run)(int);
	void *h = dlopen(lib, RTLD_NOW);

	if (!h) {
		fprintf(stderr, "tracee: %s\n", dlerror());
		return 1;
	}
	run = (void (*)(int))dlsym(h, "plugin_run");
	run(0);
	signal(SIGUSR1, on_go);
	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	while (!go)
		usleep(5000);
	dlclose(h);
	printf("closed\n");
	fflush(stdout);
	for (;;)
		pause();
	return 0;
}

static int mode_wait_dlopen(const char *lib)
{
	void (*run)(int);
	void *h;
	int i;

	signal(SIGUSR1, on_go);
	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	while (!go)
		usleep(5000);
	h = dlopen(lib, RTLD_NOW);
	if (!h) {
		fprintf(stderr, "tracee: %s\n", dlerror());
		return 1;
	}
	run = (void (*)(int))dlsym(h, "plugin_run");
	printf("loaded\n");
	fflush(stdout);
	for (i = 0;; i++) {
		run(i);
		usleep(5000);
	}
	return 0;
}

/*
 * Opens each LIB (copies of the test plugin, say), says "ready PID",
 * then for each line on stdin runs every LIB's plugin_run(round) once,
 * in order, and says "round N" (N from 0).
 */
static int mode_dlopen_all(int n, char **libs)
{
	void (**run)(int) = calloc((size_t)n, sizeof(*run));
	char line[64];
	int i, round = 0;

	for (i = 0; run && i < n; i++) {
		void *h = dlopen(libs[i], RTLD_NOW | RTLD_LOCAL);

		if (!h || !(run[i] = (void (*)(int))dlsym(h, "plugin_run"))) {
			fprintf(stderr, "tracee: %s\n", dlerror());
			return 1;
		}
	}
	if (!run)
		return 1;
	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	for (; fgets(line, sizeof(line), stdin); round++) {
		for (i = 0; i < n; i++)
			run[i](round);
		printf("round %d\n", round);
		fflush(stdout);
	}
	free(run);
	return 0;
}

static int mode_badformat(void)
{
	int n = 0;

	trace_printk("good %d\n", 1);
	trace_printk("bad %n\n", &n);
	trace_printk("also bad %Lf\n", (long double)1.0);
	trace_printk("both %n and %Lf\n", &n, (long double)2.0);
	tried = 1;
	return 0;
}

/* Sites whose arguments disagree with their formats (what -Wformat
 * says, silenced here): refused when they register, never written; a
 * long read as a string would crash the program.  Then sites of every
 * type their formats take, which are not refused. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat"
#pragma GCC diagnostic ignored "-Wformat-extra-args"
static int mode_mismatch(void)
{
	char buf[8] = "buf";
	int x = 5;

	trace_printk("string from a long %s\n", (long)12345);
	trace_printk("missing %s and %d\n", "x");
	trace_printk("a double as an int %d\n", 1.5);
	trace_printk("one too many %d\n", 1, 2);
	trace_printk("ok %hhd %hd %d %ld %lld %zu %u %x %c\n", (char)1, (short)2, 3, 4L,
		     5LL, (size_t)6, 7u, 8u, 'c');
	trace_printk("ok %s %s %p %p %f %f %.*s %*d\n", "str", buf, (void *)&x, buf,
		     2.5, 1.5f, 3, "abcdef", 4, 9);
	tried = 1;
	return 0;
}
#pragma GCC diagnostic pop

/* n rounds of a system call between two events, each its round's. */
static void *syscall_rounds(void *arg)
{
	int n = (int)(long)arg, i;

	for (i = 0; i < n; i++) {
		trace_printk("before getppid %d\n", i);
		syscall(SYS_getppid);
		trace_printk("after getppid %d\n", i);
		__atomic_fetch_add(&tried, 2, __ATOMIC_RELAXED);
	}
	return NULL;
}

/* Rounds in the main thread, a second thread and a forked child. */
static int mode_syscalls(int n)
{
	pthread_t th;
	pid_t child = fork();

	if (child == 0) {
		syscall_rounds((void *)(long)n);
		_exit(0);
	}
	pthread_create(&th, NULL, syscall_rounds, (void *)(long)n);
	syscall_rounds((void *)(long)n);
	pthread_join(th, NULL);
	waitpid(child, NULL, 0);
	tried += 2 * n;		/* the child's */
	return 0;
}

/* The same once SIGUSR1 comes: a stream attaches first.  Then it waits
 * for a second SIGUSR1 (the stream saw it all) before it ends. */
/* Says "ready PID" and waits for SIGUSR1, kept blocked: usr1 is it. */
static void ready_for_usr1(sigset_t *usr1)
{
	int sig;

	sigemptyset(usr1);
	sigaddset(usr1, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, usr1, NULL);
	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	sigwait(usr1, &sig);
}

/* Says "done" and waits for the next SIGUSR1. */
static void done_then_usr1(const sigset_t *usr1)
{
	int sig;

	printf("done\n");
	fflush(stdout);
	sigwait(usr1, &sig);
}

static int mode_syscalls_on_signal(int n)
{
	sigset_t usr1;

	ready_for_usr1(&usr1);
	mode_syscalls(n);
	done_then_usr1(&usr1);
	return 0;
}

/* n lseek(-1, i, SEEK_SET) calls, each failing at once, i telling them
 * apart, when SIGUSR1 comes; it exits at the next. */
static int mode_lseeks_on_signal(long n)
{
	sigset_t usr1;
	long i;

	ready_for_usr1(&usr1);
	for (i = 0; i < n; i++)
		syscall(SYS_lseek, -1, i, SEEK_SET);
	done_then_usr1(&usr1);
	return 0;
}

/*
 * A process that stops being dumpable, as ssh-agent and gpg-agent make
 * themselves: lseek(-1, i) for i below n, PR_SET_DUMPABLE 0, then
 * lseek(-1, 1000 + i).  "wait" instead: not dumpable from the start,
 * "ready PID", and it waits to be killed.
 */
static int mode_undumpable(long n, int wait)
{
	long i;

	for (i = 0; i < n; i++)
		syscall(SYS_lseek, -1, i, SEEK_SET);
	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0))
		return perror("tracee: PR_SET_DUMPABLE"), 1;
	for (i = 0; i < n; i++)
		syscall(SYS_lseek, -1, 1000 + i, SEEK_SET);
	if (wait) {
		printf("ready %d\n", (int)getpid());
		fflush(stdout);
		for (;;)
			pause();
	}
	return 0;
}

static void getppid_handler(int sig)
{
	(void)sig;
	syscall(SYS_getppid);
}

static void *pause_forever(void *arg)
{
	(void)arg;
	pause();
	return NULL;
}

/* Whether thread tid is blocked in system call nr (/proc's view). */
static int in_call(pid_t tid, long nr)
{
	char path[64], buf[64];
	FILE *f;
	long now = -2;

	snprintf(path, sizeof(path), "/proc/self/task/%d/syscall", (int)tid);
	f = fopen(path, "r");
	if (f && fgets(buf, sizeof(buf), f))
		now = strtol(buf, NULL, 10);
	if (f)
		fclose(f);
	return now == nr;
}

static pid_t pause_tid;

static void *pause_noting_tid(void *arg)
{
	__atomic_store_n(&pause_tid, (pid_t)syscall(SYS_gettid), __ATOMIC_RELEASE);
	return pause_forever(arg);
}

/*
 * How calls end otherwise than by returning, as strace shows them: a
 * child killed by seccomp at getppid; a signal handled (its handler's
 * getppid, rt_sigreturn); then exit(3) while a second thread is in
 * pause().
 */
static int mode_strace_ends(void)
{
	struct sock_filter kill_getppid[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_getppid, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { 4, kill_getppid };
	struct rlimit no_core = { 0, 0 };
	pthread_t th;
	pid_t child = fork();

	if (child == 0) {
		setrlimit(RLIMIT_CORE, &no_core);
		prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
		prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog);
		syscall(SYS_getppid);
		_exit(0);
	}
	waitpid(child, NULL, 0);
	signal(SIGUSR1, getppid_handler);
	kill(getpid(), SIGUSR1);
	pthread_create(&th, NULL, pause_noting_tid, NULL);
	while (!__atomic_load_n(&pause_tid, __ATOMIC_ACQUIRE) ||
	       !in_call(pause_tid, SYS_pause))
		sched_yield();
	exit(3);
}

/* Calls whose arguments point to memory, for what trace shows of it:
 * binary bytes and a terminal's escape, a buffer past -s, memory that is
 * not mapped, a path longer than is copied, the structs shown. */
static void strace_memory_calls(int fd)
{
	static const char bytes[] = "hello\n\033[31mred\0tail";
	struct sockaddr_in in = { .sin_family = AF_INET, .sin_port = htons(9),
				  .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	struct sockaddr_un un = { .sun_family = AF_UNIX,
				  .sun_path = "/nonexistent-evtrace.sock" };
	struct timespec nap = { 0, 1000 };
	char buf[64], longpath[5001], cwd[4096];
	struct stat st;
	int s;

	syscall(SYS_write, fd, bytes, sizeof(bytes) - 1);
	syscall(SYS_lseek, fd, 0L, SEEK_SET);
	syscall(SYS_read, fd, buf, sizeof(buf));
	memset(buf, 'a', sizeof(buf));
	syscall(SYS_write, fd, buf, sizeof(buf));
	syscall(SYS_write, fd, (void *)1, 5);
	syscall(SYS_fstat, fd, &st);
	{	/* iovecs: five buffers (four shown), two filled, one unmapped */
		struct iovec w[5] = { { (void *)"ab", 2 }, { (void *)"cde", 3 },
				      { (void *)"f", 1 }, { (void *)"g", 1 },
				      { (void *)"h", 1 } };
		struct iovec r[2] = { { buf, 4 }, { buf + 4, 20 } };
		struct iovec bad = { (void *)1, 5 };

		syscall(SYS_writev, fd, w, 5);
		syscall(SYS_lseek, fd, 0L, SEEK_SET);
		syscall(SYS_readv, fd, r, 2);
		syscall(SYS_writev, fd, &bad, 1);
	}
	memset(longpath, 'x', sizeof(longpath) - 1);
	longpath[sizeof(longpath) - 1] = '\0';
	syscall(SYS_openat, AT_FDCWD, longpath, O_RDONLY);
	syscall(SYS_nanosleep, &nap, NULL);
	syscall(SYS_getcwd, cwd, sizeof(cwd));
	s = (int)syscall(SYS_socket, AF_INET, SOCK_DGRAM, 0);
	syscall(SYS_connect, s, &in, sizeof(in));
	syscall(SYS_close, s);
	s = (int)syscall(SYS_socket, AF_UNIX, SOCK_STREAM, 0);
	syscall(SYS_connect, s, &un, sizeof(un));
	syscall(SYS_close, s);
	if (fork() == 0) {
		/* On the stack: a string literal's page of the program's
		 * file may not be mapped in the child yet, which the kernel
		 * then shows as its address. */
		char path[] = "/bin/true", a0[] = "true", a1[] = "a", a2[] = "b",
		     a3[] = "c", a4[] = "d";
		char *argv[] = { a0, a1, a2, a3, a4, NULL };

		syscall(SYS_execve, path, argv, environ);
		_exit(127);
	}
	wait(NULL);
}

/*
 * System calls with known arguments, made directly (no C library
 * wrapper adding flags), for evtrace trace's notation; file is a path the
 * test may create.  Its output says what the calls returned.
 */
static int mode_strace_calls(const char *file)
{
	int fd, sock;
	void *p;

	syscall(SYS_openat, AT_FDCWD, "/nonexistent-evtrace", O_RDONLY | O_CLOEXEC);
	fd = (int)syscall(SYS_openat, AT_FDCWD, file, O_RDWR | O_CREAT | O_TRUNC, 0640);
	syscall(SYS_lseek, fd, 0L, SEEK_END);
	syscall(SYS_fcntl, fd, F_GETFL);
	syscall(SYS_close, -1);
	p = (void *)syscall(SYS_mmap, NULL, 4096L, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0L);
	syscall(SYS_mprotect, p, 4096L, PROT_NONE);
	syscall(SYS_munmap, p, 4096L);
	signal(SIGUSR2, SIG_IGN);
	syscall(SYS_kill, getpid(), SIGUSR2);
	sock = (int)syscall(SYS_socket, AF_INET6, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	syscall(SYS_close, sock);
	strace_memory_calls(fd);
	syscall(SYS_close, fd);
	printf("fd %d socket %d map %p\n", fd, sock, p);
	return 0;
}

static pthread_mutex_t strace_go_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t strace_go_cond = PTHREAD_COND_INITIALIZER;
static int strace_go;

static void *getppid_on_go(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&strace_go_lock);
	while (!strace_go)
		pthread_cond_wait(&strace_go_cond, &strace_go_lock);
	pthread_mutex_unlock(&strace_go_lock);
	syscall(SYS_getppid);
	return NULL;
}

/* Says "ready PID", waits for SIGUSR1, then a second thread calls
 * getppid() and this one makes the calls of strace-calls (for trace -p). */
static int mode_strace_calls_on_signal(const char *file)
{
	pthread_t th;
	sigset_t usr1;
	int sig;

	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &usr1, NULL);
	pthread_create(&th, NULL, getppid_on_go, NULL);
	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	sigwait(&usr1, &sig);
	pthread_mutex_lock(&strace_go_lock);
	strace_go = 1;
	pthread_cond_signal(&strace_go_cond);
	pthread_mutex_unlock(&strace_go_lock);
	pthread_join(th, NULL);
	return mode_strace_calls(file);
}

/* Hops between the first two CPUs it may run on, n times, tracing after
 * each hop the CPU it was moved to; then one ftrace_printk(). */
static int mode_migrate(int n)
{
	cpu_set_t allowed, one;
	int cpus[2], found = 0, c, i;

	if (sched_getaffinity(0, sizeof(allowed), &allowed))
		return 1;
	for (c = 0; c < CPU_SETSIZE && found < 2; c++)
		if (CPU_ISSET(c, &allowed))
			cpus[found++] = c;
	if (found < 2) {
		fprintf(stderr, "tracee: migrate needs two CPUs\n");
		return 1;
	}
	for (i = 0; i < n; i++) {
		CPU_ZERO(&one);
		CPU_SET(cpus[i % 2], &one);
		if (sched_setaffinity(0, sizeof(one), &one))
			return 1;
		trace_printk("hop %d to cpu %d\n", i, cpus[i % 2]);
		tried++;
	}
	ftrace_printk("hopped %d times\n", n);
	tried++;
	return 0;
}

/*
 * A forking server, driven by lines on stdin, each answered on stdout:
 * "exit N" forks N children that _exit at once ("forked N"); "event"
 * forks a child that writes one event, says "child PID" and sleeps until
 * killed; "dlopen LIB" the same, opening LIB instead (it registers
 * events, none enabled); "kill" ends those children.
 */
static int mode_forker(void)
{
	char line[PATH_MAX + 16];
	pid_t kept[64];
	int nkept = 0, n, i;

	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	while (fgets(line, sizeof(line), stdin)) {
		line[strcspn(line, "\n")] = '\0';
		if (sscanf(line, "exit %d", &n) == 1) {
			for (i = 0; i < n; i++) {
				pid_t child = fork();

				if (child == 0)
					_exit(0);
				if (child < 0)
					return 1;
				waitpid(child, NULL, 0);
			}
			printf("forked %d\n", n);
		} else if (sscanf(line, "write-exit %d", &n) == 1) {
			/* each writes its event, then _exits: no destructor */
			for (i = 0; i < n; i++) {
				pid_t child = fork();

				if (child == 0) {
					trace_printk("forker writer %d\n", (int)getpid());
					_exit(0);
				}
				if (child < 0)
					return 1;
				waitpid(child, NULL, 0);
			}
			printf("forked %d\n", n);
		} else if ((!strcmp(line, "event") || !strncmp(line, "dlopen ", 7)) &&
			   nkept < 64) {
			int up[2];
			char c = 0;

			if (pipe(up))
				return 1;
			kept[nkept] = fork();
			if (kept[nkept] == 0) {
				if (line[0] == 'e')
					trace_printk("forker child %d\n", (int)getpid());
				else if (!dlopen(line + 7, RTLD_NOW))
					_exit(1);
				if (write(up[1], "", 1) != 1)
					_exit(1);
				for (;;)
					pause();
			}
			if (read(up[0], &c, 1) != 1)
				return 1;
			close(up[0]);
			close(up[1]);
			printf("child %d\n", (int)kept[nkept++]);
		} else if (!strcmp(line, "kill")) {
			while (nkept > 0) {
				kill(kept[--nkept], SIGKILL);
				waitpid(kept[nkept], NULL, 0);
			}
			printf("killed\n");
		}
		fflush(stdout);
	}
	return 0;
}

/*
 * What a program's user may put in its messages and its thread's name to
 * reach whoever reads the trace: a window title (OSC 0), the clipboard
 * (OSC 52), colours through CSI as ESC [ and as C1 (UTF-8 and a lone
 * byte), a line of its own, a carriage return, a spreadsheet formula.
 */
static int mode_hostile_text(int wait)
{
	sigset_t usr1;

	if (wait)	/* "ready PID", and on at SIGUSR1 */
		ready_for_usr1(&usr1);
	prctl(PR_SET_NAME, "ev\033[31mil\302\233", 0, 0, 0);
	trace_printk("title %s\n", "\033]0;pwned\007");
	trace_printk("clip %s\n", "\033]52;c;cm0gLXJmIH4=\007");
	trace_printk("csi %s and %s\n", "\302\23331m", "\23332m");
	trace_printk("forged %s\n", "x\n          tracee-1       [000] 1.000000000: printk/x: forged");
	trace_printk("cr %s\n", "abc\rdef");
	trace_printk("=HYPERLINK(\"http://example.invalid\") %d\n", 1);
	tried = 6;
	return 0;
}

static void *thread_nothing(void *arg)
{
	return arg;
}

/*
 * n threads, each ended before the next starts, then a child that calls
 * lseek(-1, 4242): a tracer that follows children must not have spent
 * its room for them on the threads.
 */
static int mode_threads_then_fork(int n)
{
	pthread_t th;
	pid_t child;
	int i;

	for (i = 0; i < n; i++) {
		if (pthread_create(&th, NULL, thread_nothing, NULL))
			return 1;
		pthread_join(th, NULL);
	}
	child = fork();
	if (child == 0) {
		syscall(SYS_lseek, -1, 4242, SEEK_SET);
		_exit(0);
	}
	return child < 0 || waitpid(child, NULL, 0) != child;
}

/* n children alive at once, each calling lseek(-1, 100 + i) once all
 * are there (the pipe closed), then ending. */
static int mode_children_at_once(int n)
{
	int start[2], i;
	char c;

	if (pipe(start))
		return 1;
	for (i = 0; i < n; i++) {
		pid_t child = fork();

		if (child == 0) {
			close(start[1]);
			if (read(start[0], &c, 1) < 0)
				_exit(1);
			syscall(SYS_lseek, -1, 100 + i, SEEK_SET);
			_exit(0);
		}
		if (child < 0)
			return 1;
	}
	close(start[1]);
	close(start[0]);
	while (wait(NULL) > 0)
		;
	return 0;
}

/* Execs itself n times (no destructor runs at an exec), then says
 * "ready PID" and waits to be killed. */
static int mode_exec_chain(const char *self, int n)
{
	char left[16];

	trace_printk("image %d\n", n);
	if (n > 0) {
		snprintf(left, sizeof(left), "%d", n - 1);
		execl(self, self, "exec-chain", left, (char *)NULL);
		return perror("tracee: exec"), 1;
	}
	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	for (;;)
		pause();
}

/* A constructor of the program itself traces before main(), when asked. */
__attribute__((constructor)) static void early(void)
{
	if (getenv("TRACEE_CONSTRUCTOR"))
		trace_printk("constructor ran in %d\n", (int)getpid());
}

static int mode_two_sites(long n, int wait, int nthreads);

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	int ret = 2;

	if (!strcmp(mode, "threads") && argc == 4)
		ret = mode_threads(atoi(argv[2]), atoi(argv[3]));
	else if (!strcmp(mode, "syscalls") && argc == 3)
		ret = mode_syscalls(atoi(argv[2]));
	else if (!strcmp(mode, "syscalls-on-signal") && argc == 3)
		ret = mode_syscalls_on_signal(atoi(argv[2]));
	else if (!strcmp(mode, "hostile-text") && argc <= 3)
		ret = mode_hostile_text(argc == 3 && !strcmp(argv[2], "wait"));
	else if (!strcmp(mode, "threads-then-fork") && argc == 3)
		ret = mode_threads_then_fork(atoi(argv[2]));
	else if (!strcmp(mode, "children-at-once") && argc == 3)
		ret = mode_children_at_once(atoi(argv[2]));
	else if (!strcmp(mode, "exec-chain") && argc == 3)
		ret = mode_exec_chain("/proc/self/exe", atoi(argv[2]));
	else if (!strcmp(mode, "undumpable") && argc == 3)
		ret = mode_undumpable(strcmp(argv[2], "wait") ? atol(argv[2]) : 0,
				      !strcmp(argv[2], "wait"));
	else if (!strcmp(mode, "lseeks-on-signal") && argc == 3)
		ret = mode_lseeks_on_signal(atol(argv[2]));
	else if (!strcmp(mode, "strace-ends"))
		ret = mode_strace_ends();
	else if (!strcmp(mode, "strace-calls") && argc == 3)
		ret = mode_strace_calls(argv[2]);
	else if (!strcmp(mode, "strace-calls-on-signal") && argc == 3)
		ret = mode_strace_calls_on_signal(argv[2]);
	else if (!strcmp(mode, "concurrent") && argc == 3)
		ret = mode_concurrent(atoi(argv[2]));
	else if (!strcmp(mode, "sequential") && argc == 3)
		ret = mode_sequential(atoi(argv[2]));
	else if (!strcmp(mode, "types"))
		ret = mode_types();
	else if (!strcmp(mode, "fork"))
		ret = mode_fork(argv[0]);
	else if (!strcmp(mode, "fork-dlopen") && (argc == 4 || argc == 5))
		ret = mode_fork_dlopen((const char *const *)argv + 2,
				       argc == 5 ? atoi(argv[4]) : 1);
	else if (!strcmp(mode, "precision"))
		ret = mode_precision();
	else if (!strcmp(mode, "exec-child"))
		return mode_exec_child();
	else if (!strcmp(mode, "dlopen") && argc == 3)
		ret = mode_dlopen(argv[2]);
	else if (!strcmp(mode, "signal") && argc == 3)
		ret = mode_signal(atoi(argv[2]));
	else if (!strcmp(mode, "nested") && argc == 3)
		ret = mode_nested(atoi(argv[2]));
	else if (!strcmp(mode, "burst") && argc == 3)
		ret = mode_burst(atol(argv[2]));
	else if (!strcmp(mode, "burst-wait") && argc == 3)
		ret = mode_burst_wait(atol(argv[2]));
	else if (!strcmp(mode, "paced") && argc == 5)
		ret = mode_paced(atol(argv[2]), atol(argv[3]), atol(argv[4]));
	else if (!strcmp(mode, "crash") && argc == 3)
		ret = mode_crash(atoi(argv[2]));
	else if (!strcmp(mode, "crash_in_site") && argc == 3)
		ret = mode_crash_in_site(atoi(argv[2]));
	else if (!strcmp(mode, "churn"))
		ret = mode_churn();
	else if (!strcmp(mode, "wait"))
		ret = mode_wait();
	else if (!strcmp(mode, "forker"))
		ret = mode_forker();
	else if (!strcmp(mode, "spawn") && argc == 4)
		ret = mode_spawn(atoi(argv[2]), atoi(argv[3]));
	else if (!strcmp(mode, "dlopen-all") && argc >= 3)
		ret = mode_dlopen_all(argc - 2, argv + 2);
	else if (!strcmp(mode, "wait-dlopen") && argc == 3)
		ret = mode_wait_dlopen(argv[2]);
	else if (!strcmp(mode, "graceful") && argc == 4)
		ret = mode_graceful(atoi(argv[2]), atoi(argv[3]));
	else if (!strcmp(mode, "wait-unload") && argc == 3)
		ret = mode_wait_unload(argv[2]);
	else if (!strcmp(mode, "loop") && argc == 3)
		ret = mode_loop(atoi(argv[2]));
	else if (!strcmp(mode, "badformat"))
		ret = mode_badformat();
	else if (!strcmp(mode, "mismatch"))
		ret = mode_mismatch();
	else if (!strcmp(mode, "migrate") && argc == 3)
		ret = mode_migrate(atoi(argv[2]));
	else if (!strcmp(mode, "two-sites") && argc >= 3 && argc <= 5 &&
		 (argc == 3 || !strcmp(argv[3], "wait")))
		ret = mode_two_sites(atol(argv[2]), argc >= 4,
				     argc == 5 ? atoi(argv[4]) : 1);
	else
		fprintf(stderr, "tracee: unknown mode\n");
	if (ret == 0)
		printf("tried %ld\n", tried);
	return ret;
}

/* n events at two sites, "alpha" every third, "beta" the others, as fast
 * as it can, in each of nthreads threads: each site loses its own.
 * wait: first "ready PID", and the burst when SIGUSR1 comes. */
static long two_sites_n;

static void *two_sites_thread(void *arg)
{
	long i;

	(void)arg;
	for (i = 0; i < two_sites_n; i++) {
		if (i % 3 == 0)
			trace_printk("alpha %ld\n", i);
		else
			trace_printk("beta %ld\n", i);
	}
	return NULL;
}

static int mode_two_sites(long n, int wait, int nthreads)
{
	pthread_t th[64];
	sigset_t usr1;
	int sig, k;

	if (nthreads < 1 || nthreads > 64)
		return 2;
	if (wait) {
		sigemptyset(&usr1);
		sigaddset(&usr1, SIGUSR1);
		sigprocmask(SIG_BLOCK, &usr1, NULL);
		printf("ready %d\n", (int)getpid());
		fflush(stdout);
		sigwait(&usr1, &sig);
	}
	two_sites_n = n;
	if (nthreads == 1)
		two_sites_thread(NULL);
	for (k = 0; nthreads > 1 && k < nthreads; k++)
		pthread_create(&th[k], NULL, two_sites_thread, NULL);
	for (k = 0; nthreads > 1 && k < nthreads; k++)
		pthread_join(th[k], NULL);
	tried = n * nthreads;
	return 0;
}
