/*
 * typed.c - emits typed events with known values, extremes included.
 *   typed rows     three rows from the program, one from its library
 *   typed count N  N rows with u32 = 0..N-1 (order and counts)
 *   typed wait     registers, prints "ready", waits for stdin to close
 *   typed serve    prints "ready"; for each number N read on stdin, emits
 *                  N rows (u32 counting on from 0) each followed by the
 *                  printk "secret <u32>", and prints "done <rows so far>"
 *   typed threads  the same, but each of the N rows from a thread of its
 *                  own, the N threads alive at once
 */
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <evtrace/evtrace.h>

#include "typed_events.h"

static uint16_t big_seq[3000];
static char long_text[301];
static char max_text[256];

static void rows(void)
{
	static const uint16_t three[3] = { 1, 2, 65535 };
	struct row r = { 0 };
	unsigned i;

	r.text = "";
	r.real = 0.0;
	trace_typed_all(&r, 0);				/* zeros, empty text */

	r = (struct row){ UINT8_MAX, INT8_MIN, UINT16_MAX, INT16_MIN,
			  UINT32_MAX, INT32_MIN, UINT64_MAX, INT64_MIN,
			  -1, true, -1.5e-300, "abcdefgh", { INT32_MIN, 0, INT32_MAX },
			  max_text, three, 3 };
	for (i = 0; i < sizeof(max_text) - 1; i++)
		max_text[i] = 'm';
	trace_typed_all(&r, 0);				/* minimums, maximal text */

	r = (struct row){ 0, INT8_MAX, 0, INT16_MAX, 0, INT32_MAX, 0, INT64_MAX,
			  7, false, 3.25, "ab", { 1, 2, 3 }, long_text,
			  big_seq, 3000 };
	for (i = 0; i < sizeof(long_text) - 1; i++)
		long_text[i] = 'l';
	for (i = 0; i < 3000; i++)
		big_seq[i] = (uint16_t)i;
	trace_typed_all(&r, 0);				/* cut text and sequence */

	r = (struct row){ .u32 = 42, .i32 = 300, .color = 1, .text = "from the library" };
	typed_lib_emit(&r);
}

static pthread_barrier_t all_there;

/* One row, u32 *arg, once every thread of the batch is there. */
static void *row_thread(void *arg)
{
	struct row r = { .text = "shared", .u32 = *(uint32_t *)arg };

	pthread_barrier_wait(&all_there);
	trace_typed_all(&r, 0);
	pthread_barrier_wait(&all_there);
	return NULL;
}

static int serve(bool threads)
{
	struct row r = { .text = "shared" };
	uint32_t seq = 0, seqs[256];
	pthread_t th[256];
	char line[64];

	printf("ready\n");
	fflush(stdout);
	while (fgets(line, sizeof(line), stdin)) {
		unsigned long n = strtoul(line, NULL, 10), i;

		if (threads && n > 256)
			return 2;
		if (threads)
			pthread_barrier_init(&all_there, NULL, (unsigned)n);
		for (i = 0; i < n; i++, seq++) {
			r.u32 = seq;
			if (!threads) {
				trace_typed_all(&r, 0);
				trace_printk("secret %u\n", seq);
				continue;
			}
			seqs[i] = seq;
			if (pthread_create(&th[i], NULL, row_thread, &seqs[i]))
				return 1;
		}
		for (i = 0; threads && i < n; i++)
			pthread_join(th[i], NULL);
		if (threads)
			pthread_barrier_destroy(&all_there);
		printf("done %u\n", seq);
		fflush(stdout);
	}
	return 0;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "rows";

	if (!strcmp(mode, "rows")) {
		rows();
	} else if (!strcmp(mode, "count") && argc > 2) {
		unsigned long n = strtoul(argv[2], NULL, 10), i;
		struct row r = { .text = "x" };

		for (i = 0; i < n; i++) {
			r.u32 = (uint32_t)i;
			trace_typed_all(&r, 0);
		}
	} else if (!strcmp(mode, "wait")) {
		char c;

		printf("ready\n");
		fflush(stdout);
		while (read(0, &c, 1) > 0)
			;
		rows();
	} else if (!strcmp(mode, "serve") || !strcmp(mode, "threads")) {
		return serve(!strcmp(mode, "threads"));
	} else {
		fprintf(stderr, "usage: typed rows|count N|wait|serve|threads\n");
		return 2;
	}
	return 0;
}
