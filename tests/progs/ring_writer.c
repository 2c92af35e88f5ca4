/*
 * ring_writer.c - lib/'s writer for unit_ring, which reads its buffer.
 * Reads commands from standard input, one per line, and answers each on
 * standard output once done:
 *
 *   write FROM N   events "n=FROM" .. "n=FROM+N-1" ("ok")
 *   handler FROM N the same, written in a SIGUSR1 handler ("ok")
 *   crash          an event whose string argument is unreadable: the
 *                  process dies inside the record (SIGSEGV)
 *
 * It says "ready" first, and exits at the end of its input.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include <evtrace/evtrace.h>

static long handler_from, handler_n;

static void write_events(long from, long n)
{
	long i;

	for (i = from; i < from + n; i++)
		trace_printk("n=%ld pad=%.*s\n", i, (int)(i % 23),
			     "abcdefghijklmnopqrstuvw");
}

static void on_usr1(int sig)
{
	(void)sig;
	write_events(handler_from, handler_n);
}

int main(void)
{
	char line[64];
	long from, n;

	setvbuf(stdout, NULL, _IOLBF, 0);
	signal(SIGUSR1, on_usr1);
	printf("ready\n");
	while (fgets(line, sizeof(line), stdin)) {
		if (sscanf(line, "write %ld %ld", &from, &n) == 2) {
			write_events(from, n);
			printf("ok\n");
		} else if (sscanf(line, "handler %ld %ld", &from, &n) == 2) {
			handler_from = from;
			handler_n = n;
			raise(SIGUSR1);
			printf("ok\n");
		} else if (!strcmp(line, "crash\n")) {
			char *page = mmap(NULL, 4096, PROT_NONE,
					  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

			trace_printk("n=%ld pad=%s\n", -1L, page);
			printf("not dead\n");
		}
	}
	return 0;
}
