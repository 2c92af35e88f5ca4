/*
 * consumer_remote.c - the client half of a consumer session with
 * evtraced.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "consumer_remote.h"
#include "process_info.h"

/* A frame may take this long to come: a read of many records is many. */
#define ANSWER_TIMEOUT_MS 10000

bool evt_remote_needed(int pid)
{
	struct evt_process_info info;
	char err[300];

	return pid > 0 && geteuid() != 0 &&
	       !evt_process_info(pid, &info, err, sizeof(err)) &&
	       info.euid != geteuid();
}

/* The daemon's error text without "evtrace: <verb>: " and the newline. */
static void copy_error(const char *text, char *err, size_t err_size)
{
	const char *p = text;

	if (!strncmp(p, "evtrace: ", 9) && strchr(p + 9, ':') &&
	    strchr(p + 9, ':')[1] == ' ')
		p = strchr(p + 9, ':') + 2;
	snprintf(err, err_size, "%s", p);
	err[strcspn(err, "\n")] = '\0';
}

int evt_remote_call(int sock, const struct evt_request *r,
		    void (*frame)(char kind, struct evt_wire *w, void *ctx),
		    void *ctx, char *err, size_t err_size)
{
	static char buf[EVT_PROTO_MAX_BODY + 1];
	char why[200];
	int len = evt_proto_format(r, buf, sizeof(buf));

	if (len < 0)
		return snprintf(err, err_size, "request too long for evtraced"), -1;
	if (evt_proto_send(sock, buf, (size_t)len, -1))
		return snprintf(err, err_size, "evtraced: %s", strerror(errno)), -1;
	for (;;) {
		long n = evt_proto_recv(sock, buf, NULL, ANSWER_TIMEOUT_MS, why,
					sizeof(why));
		struct evt_wire w = { buf + 1, 0, n > 0 ? (size_t)n - 1 : 0, false };

		if (n < 1)
			return snprintf(err, err_size, "evtraced ended the session (%s)",
					n == -2 ? "did it stop?" : why), -1;
		if (buf[0] == 'a')
			return atoi(buf + 1);
		if (buf[0] == 'e')
			return copy_error(buf + 1, err, err_size), -1;
		if (frame)
			frame(buf[0], &w, ctx);
	}
}

int evt_remote_open(int pid, bool count, char *err, size_t err_size)
{
	struct evt_request r = {
		.verb = EVT_VERB_CONSUME, .npids = 1, .pids = { pid }, .count = count,
	};
	int sock = evt_daemon_connect();

	if (sock < 0)
		return snprintf(err, err_size, "pid %d is another user's: it is read "
				"through evtraced, and none is running (%s: %s)", pid,
				evt_daemon_socket_path(), strerror(errno)), -1;
	if (evt_remote_call(sock, &r, NULL, NULL, err, err_size) < 0) {
		close(sock);
		return -1;
	}
	return sock;
}
