/*
 * hop - a message passed from machine to machine, for --align: each hop
 * is an async span whose begin is the message sent and whose end is the
 * message received.
 *
 *   hop first N   sends messages 0..N-1 on stdout (async/ab begins), a
 *                 millisecond apart
 *   hop middle    receives them on stdin (async/ab ends) and passes each
 *                 on (async/bc begins)
 *   hop last      receives them (async/bc ends)
 * Each message sent first and received in the middle is also a typed
 * event, hop/sent and hop/got, whose field msg is its number.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <evtrace/evtrace.h>

EVT_EVENT(hop, sent, EVT_PROTO(uint64_t msg), EVT_ARGS(msg),
	  EVT_FIELDS(evt_integer(uint64_t, msg, msg)))
EVT_EVENT(hop, got, EVT_PROTO(uint64_t msg), EVT_ARGS(msg),
	  EVT_FIELDS(evt_integer(uint64_t, msg, msg)))

int main(int argc, char **argv)
{
	unsigned long id;
	long i, n;

	if (argc == 3 && !strcmp(argv[1], "first")) {
		n = atol(argv[2]);
		for (i = 0; i < n; i++) {
			trace_async_begin("ab", (uint64_t)i);
			trace_hop_sent((uint64_t)i);
			printf("%ld\n", i);
			fflush(stdout);
			usleep(1000);
		}
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "middle")) {
		while (scanf("%lu", &id) == 1) {
			trace_async_end("ab", id);
			trace_hop_got(id);
			trace_async_begin("bc", id);
			printf("%lu\n", id);
			fflush(stdout);
		}
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "last")) {
		while (scanf("%lu", &id) == 1)
			trace_async_end("bc", id);
		return 0;
	}
	fprintf(stderr, "usage: hop first N | hop middle | hop last\n");
	return 2;
}
