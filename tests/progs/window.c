/*
 * window.c - sites that write their own records into the thread's window
 * (bits/window.h), and those that call.  Built twice: as window, and with
 * EVT_NO_INLINE_WRITER as window_called, whose records must read the same.
 *
 *   window check N   N rounds of records of every kind; each printk
 *                    record's text is printed as printf makes it too
 *                    (spans, async spans and counters are the test's to
 *                    read back), and
 *                    then "inline I called C": the records that went into
 *                    the window and those that went through libevtrace
 *   window fork N    N records, a fork, N in the child while the parent
 *                    waits, N more in the parent; then "parent P child C";
 *                    before the fork the parent says whether its window is
 *                    lent, and the child, first, whether it has one
 *   window forkwait N  the same after "ready PID", once SIGUSR1 comes (a
 *                      "parent ready" record) and then SIGUSR2
 *
 * (A site killed inside its own write is named from its header, the
 * commit mark: crashed_and_killed_programs_keep_their_events.)
 */
#include <evtrace/evtrace.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

EVT_EVENT(window, typed,
	EVT_PROTO(long seq, const char *name),
	EVT_ARGS(seq, name),
	EVT_FIELDS(evt_integer(long, seq, seq), evt_string(name, name)))

static long inline_records, called_records;

#ifdef EVT__WINDOW
#ifndef EVT_NO_INLINE_WRITER
/* The window's records since it was lent: one more after an inline
 * write, and 0 after a write through libevtrace, which folds them in. */
static uint32_t window_records(void)
{
	return evt__window_1.word ? evt__window_1.records : 0;
}
#define CAN_INLINE 1
#endif
#endif
#ifndef CAN_INLINE
static uint32_t window_records(void)
{
	return 0;
}
#define CAN_INLINE 0
#endif

/* Counts where the record just written went: window_records() went up
 * by one (inline), or not (called). */
static void count(uint32_t before)
{
	if (window_records() == before + 1)
		inline_records++;
	else
		called_records++;
}

#define BOTH(...)							\
	do {								\
		uint32_t before_ = window_records();			\
		trace_printk(__VA_ARGS__);				\
		count(before_);						\
		printf(__VA_ARGS__);					\
	} while (0)

static int check(long n)
{
	static char name[16] = "kworker/0:1";
	static char *volatile null_string;
	char long_string[300];
	const char *volatile opaque = "opaque string";
	long i;

	memset(long_string, 'x', sizeof(long_string) - 1);
	long_string[sizeof(long_string) - 1] = '\0';
	for (i = 0; i < n; i++) {
		/* Every type a site may write itself. */
		BOTH("w %d %u %ld %lu %lld %llu %p %g %s %s %s\n", (int)-i,
		     (unsigned)i * 3u, -i * 100000L, (unsigned long)i << 40,
		     (long long)i - 7, (unsigned long long)i * 11, (void *)(i * 16 + 1),
		     (double)i / 4, name, opaque, i % 2 ? "odd" : "even");
		BOTH("char %c short %hd\n", 'a' + (int)(i % 26), (short)-i);
		BOTH("none\n");
		/* Through libevtrace: a float, a narrower conversion, a
		 * precision, NULL, a string cut at its bound. */
		BOTH("float %.2f\n", (float)i / 2);
		BOTH("narrow %hhd\n", (int)(i % 100));
		BOTH("precision [%.3s]\n", opaque);
		if (i % 8 == 0) {
			uint32_t before = window_records();

			trace_printk("null [%s] long %s\n", null_string, long_string);
			count(before);
			printf("null [(null)] long %.252s...\n", long_string);
		}
		{
			uint32_t before = window_records();

			trace_window_typed(i, name);
			count(before);
		}
		/* Spans, async spans and counters without arguments. */
		{
			uint32_t before = window_records();

			trace_span_begin("span");
			count(before);
			before = window_records();
			trace_counter("count", i * 3);
			count(before);
			before = window_records();
			trace_counter("real", (double)i / 8);
			count(before);
			before = window_records();
			trace_async_begin("async", i + 1);
			count(before);
			before = window_records();
			trace_async_end("async", i + 1);
			count(before);
			before = window_records();
			trace_span_end("span");
			count(before);
		}
	}
	printf("inline %ld called %ld\n", inline_records, called_records);
	return 0;
}

/* Records before and after a fork, and in the child while the parent
 * waits: the child must not write into the window its parent lent
 * (its packet is the parent's), nor the parent lose a record. */
static unsigned window_word(void)
{
#if CAN_INLINE
	return evt__window_1.word;
#else
	return 0;
#endif
}

static int forked(long n, int wait_usr1)
{
	long i;
	pid_t child;

	if (wait_usr1) {
		sigset_t sigs;
		int sig;

		sigemptyset(&sigs);
		sigaddset(&sigs, SIGUSR1);
		sigaddset(&sigs, SIGUSR2);
		sigprocmask(SIG_BLOCK, &sigs, NULL);
		printf("ready %d\n", (int)getpid());
		fflush(stdout);
		sigwait(&sigs, &sig);
		/* (the stream's first record: it reads this process) */
		trace_printk("parent ready\n");
		sigwait(&sigs, &sig);
	}
	for (i = 0; i < n; i++)
		trace_printk("parent before %ld\n", i);
	printf("parent window %s\n", window_word() ? "lent" : "none");
	fflush(stdout);
	child = fork();
	if (child < 0)
		return 1;
	if (child == 0) {
		printf("child window %s\n", window_word() ? "lent" : "none");
		fflush(stdout);
		for (i = 0; i < n; i++)
			trace_printk("child %ld\n", i);
		_exit(0);
	}
	waitpid(child, NULL, 0);
	for (i = 0; i < n; i++)
		trace_printk("parent after %ld\n", i);
	printf("parent %d child %d\n", (int)getpid(), (int)child);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "check"))
		return check(atol(argv[2]));
	if (argc == 3 && !strcmp(argv[1], "fork"))
		return forked(atol(argv[2]), 0);
	if (argc == 3 && !strcmp(argv[1], "forkwait"))
		return forked(atol(argv[2]), 1);
	fprintf(stderr, "usage: window check N | window fork N | window forkwait N\n");
	return 2;
}
