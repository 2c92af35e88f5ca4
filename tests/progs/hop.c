/*
 * hop - a message passed from machine to machine, for --align: each hop
 * is an async span whose begin is the message sent and whose end is the
 * message received.
 *
 *   hop first N [WAIT...]  sends messages 0..N-1 on stdout (async/ab
 *                 begins), a millisecond apart, once every file WAIT is
 *                 there: the next hops have started, so that a message's
 *                 time on the pipe is its own, not a late hop's start
 *   hop middle [READY]  makes the file READY, then receives them on stdin
 *                 (async/ab ends) and passes each on (async/bc begins)
 *   hop last [READY]    the same, receiving them (async/bc ends)
 * Each message sent first and received in the middle is also a typed
 * event, hop/sent and hop/got, whose field msg is its number.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <evtrace/evtrace.h>

EVT_EVENT(hop, sent, EVT_PROTO(uint64_t msg), EVT_ARGS(msg),
	  EVT_FIELDS(evt_integer(uint64_t, msg, msg)))
EVT_EVENT(hop, got, EVT_PROTO(uint64_t msg), EVT_ARGS(msg),
	  EVT_FIELDS(evt_integer(uint64_t, msg, msg)))

/* Waits for path to be made (by the hop it names), a minute at most. */
static int wait_for_file(const char *path)
{
	int ms;

	for (ms = 0; access(path, F_OK); ms++) {
		if (ms == 60000) {
			fprintf(stderr, "hop: %s was not made in a minute\n", path);
			return -1;
		}
		usleep(1000);
	}
	return 0;
}

static int make_file(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);

	if (fd < 0) {
		perror(path);
		return -1;
	}
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long id;
	long i, n;

	if (argc >= 3 && !strcmp(argv[1], "first")) {
		n = atol(argv[2]);
		for (i = 3; i < argc; i++)
			if (wait_for_file(argv[i]))
				return 1;
		for (i = 0; i < n; i++) {
			trace_async_begin("ab", (uint64_t)i);
			trace_hop_sent((uint64_t)i);
			printf("%ld\n", i);
			fflush(stdout);
			usleep(1000);
		}
		return 0;
	}
	if ((argc == 2 || argc == 3) && !strcmp(argv[1], "middle")) {
		if (argc == 3 && make_file(argv[2]))
			return 1;
		while (scanf("%lu", &id) == 1) {
			trace_async_end("ab", id);
			trace_hop_got(id);
			trace_async_begin("bc", id);
			printf("%lu\n", id);
			fflush(stdout);
		}
		return 0;
	}
	if ((argc == 2 || argc == 3) && !strcmp(argv[1], "last")) {
		if (argc == 3 && make_file(argv[2]))
			return 1;
		while (scanf("%lu", &id) == 1)
			trace_async_end("bc", id);
		return 0;
	}
	fprintf(stderr, "usage: hop first N [WAIT...] | hop middle [READY] | hop last [READY]\n");
	return 2;
}
