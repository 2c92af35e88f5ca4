/*
 * evtraced_client.c - the client half of a session with evtraced (see
 * evtraced_client.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "evtraced_client.h"
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
	return evt_remote_call_fd(sock, r, -1, frame, ctx, err, err_size);
}

int evt_remote_call_fd(int sock, const struct evt_request *r, int fd,
		       void (*frame)(char kind, struct evt_wire *w, void *ctx),
		       void *ctx, char *err, size_t err_size)
{
	static char buf[EVT_PROTO_MAX_BODY + 1];
	char why[200];
	int len = evt_proto_format(r, buf, sizeof(buf));

	if (len < 0)
		return snprintf(err, err_size, "request too long for evtraced"), -1;
	if (evt_proto_send(sock, buf, (size_t)len, fd))
		return snprintf(err, err_size, "evtraced ended the session (%s)",
				errno == EPIPE || errno == ECONNRESET ? "did it stop?" :
				strerror(errno)), -1;
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

int evt_remote_open(const struct evt_request *r, char *err, size_t err_size)
{
	int sock = evt_daemon_connect();

	if (sock < 0)
		return snprintf(err, err_size, "pid %d is another user's: it is read "
				"through evtraced, and none is running (%s: %s)",
				r->pids[0], evt_daemon_socket_path(), strerror(errno)), -1;
	if (evt_remote_call(sock, r, NULL, NULL, err, err_size) < 0) {
		close(sock);
		return -1;
	}
	return sock;
}

/* The 'o' text of a command run by evtraced; its exit status, or -1. */
static int run_command(const struct evt_request *r, char **text, size_t *len,
		       char *err, size_t err_size)
{
	static char buf[EVT_PROTO_MAX_BODY + 1];
	int sock = evt_daemon_connect(), status = -1, n;
	FILE *out = open_memstream(text, len);
	char why[200];

	if (sock < 0 || !out) {
		snprintf(err, err_size, "kernel events: tracefs is root's, and "
			 "evtraced, which lists them to anyone, is not running "
			 "(%s: %s)", evt_daemon_socket_path(), strerror(errno));
		goto out;
	}
	n = evt_proto_format(r, buf, sizeof(buf));
	if (n < 0 || evt_proto_send(sock, buf, (size_t)n, -1)) {
		snprintf(err, err_size, "evtraced: %s", strerror(errno));
		goto out;
	}
	*err = '\0';
	for (;;) {
		long got = evt_proto_recv(sock, buf, NULL, ANSWER_TIMEOUT_MS, why,
					  sizeof(why));

		if (got < 1) {
			snprintf(err, err_size, "evtraced ended the connection (%s)",
				 got == -2 ? "did it stop?" : why);
			break;
		}
		if (buf[0] == 'o')
			fwrite(buf + 1, 1, (size_t)got - 1, out);
		else if (buf[0] == 'e')
			copy_error(buf + 1, err, err_size);
		else if (buf[0] == 'x') {
			status = atoi(buf + 1);
			break;
		}
	}
out:
	if (sock >= 0)
		close(sock);
	if (out)
		fclose(out);
	return status;
}

int evt_remote_kernel_format(const char *path, char **text, size_t *len,
			     char *err, size_t err_size)
{
	struct evt_request r = { .verb = EVT_VERB_FORMAT, .path = path,
				 .tracefs = true };

	*text = NULL;
	if (run_command(&r, text, len, err, err_size) != 0) {
		free(*text);
		*text = NULL;
		if (!*err)
			snprintf(err, err_size, "%s: evtraced could not read its "
				 "format", path);
		return -1;
	}
	return 0;
}

int evt_remote_kernel_ids(char ***paths, long **ids, unsigned *n, char *err,
			  size_t err_size)
{
	struct evt_request r = { .verb = EVT_VERB_LS, .path = "kernel/", .ids = true };
	char *text = NULL, *line, *save = NULL, path[512];
	unsigned cap = 0, count = 0;
	size_t len = 0;
	long id;

	*paths = NULL;
	*ids = NULL;
	*n = 0;
	if (run_command(&r, &text, &len, err, err_size) != 0) {
		free(text);
		if (!*err)
			snprintf(err, err_size, "evtraced could not list kernel events");
		return -1;
	}
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, "%*c %511s id=%ld", path, &id) != 2)
			continue;	/* a directory */
		if (count == cap) {
			char **p = realloc(*paths, (cap ? cap * 2 : 1024) * sizeof(*p));
			long *q = p ? realloc(*ids, (cap ? cap * 2 : 1024) * sizeof(*q)) : NULL;

			if (p)
				*paths = p;
			if (!q)
				goto oom;
			*ids = q;
			cap = cap ? cap * 2 : 1024;
		}
		(*paths)[count] = strdup(path);
		if (!(*paths)[count])
			goto oom;
		(*ids)[count++] = id;
	}
	free(text);
	*n = count;
	return 0;
oom:
	free(text);
	while (count)
		free((*paths)[--count]);
	free(*paths);
	free(*ids);
	*paths = NULL;
	*ids = NULL;
	return snprintf(err, err_size, "out of memory"), -1;
}
