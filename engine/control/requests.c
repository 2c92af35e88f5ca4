/*
 * requests.c - requests to a running collection, as files in the run
 * directory (see requests.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "layout.h"
#include "pattern.h"
#include "requests.h"
#include "rules.h"
#include "rules_files.h"

static int put(const struct evt_rundir *rd, const char *name, const char *text,
	       char *err, size_t err_size)
{
	return evt_rundir_put(rd, name, text, strlen(text), err, err_size);
}

/* Reads a small file whole, NUL-terminated; -1 when it cannot. */
static int get(const struct evt_rundir *rd, const char *name, char *buf,
	       size_t size)
{
	char err[PATH_MAX + 200];
	ssize_t n;
	int fd = evt_rundir_openat(rd, name, O_RDONLY, 0, err, sizeof(err));

	if (fd < 0)
		return -1;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return 0;
}

/* The answer to request "slot-<N>.<kind>.<id>": "slot-<N>.ans.<id>" for
 * the enable requests (named so before others came), else
 * "slot-<N>.ans.<kind>-<id>". */
static void answer_name(char *out, size_t size, unsigned slot, const char *kind,
			const char *id)
{
	if (!strcmp(kind, "req"))
		snprintf(out, size, "slot-%u.ans.%s", slot, id);
	else
		snprintf(out, size, "slot-%u.ans.%s-%s", slot, kind, id);
}

/* Sends text as a request of kind ("req", "win") to the engine of slot
 * and waits up to 2 s for its answer: as evt_request_send() returns. */
static int ask(const struct evt_rundir *rd, unsigned slot, const char *kind,
	       const char *text, char *err, size_t err_size)
{
	static unsigned serial;
	struct timespec pause = { 0, 10 * 1000 * 1000 };
	char req[96], ans[96], reply[EVT_RULES_PATTERN_MAX + 64];
	int tries, n;

	snprintf(req, sizeof(req), "slot-%u.%s.%d-%u", slot, kind, (int)getpid(),
		 serial++);
	answer_name(ans, sizeof(ans), slot, kind, strrchr(req, '.') + 1);
	unlinkat(rd->fd, ans, 0);
	if (put(rd, req, text, err, err_size))
		return -1;
	for (tries = 0; tries < 200; tries++) {
		nanosleep(&pause, NULL);
		if (get(rd, ans, reply, sizeof(reply)))
			continue;
		unlinkat(rd->fd, ans, 0);
		reply[strcspn(reply, "\n")] = '\0';
		if (sscanf(reply, "ok %d", &n) == 1)
			return n;
		snprintf(err, err_size, "%s", strncmp(reply, "error ", 6) ? reply :
			 reply + 6);
		return -1;
	}
	unlinkat(rd->fd, req, 0);
	snprintf(err, err_size, "collection %u: its engine did not answer in 2 s",
		 slot);
	return -1;
}

int evt_request_send(const struct evt_rundir *rd, unsigned slot, bool enable,
		     const char *pattern, char *err, size_t err_size)
{
	char text[EVT_RULES_PATTERN_MAX + 64];

	if (strlen(pattern) >= EVT_RULES_PATTERN_MAX || strchr(pattern, '\n'))
		return snprintf(err, err_size, "pattern too long"), -1;
	snprintf(text, sizeof(text), "%s %s\n", enable ? "enable" : "disable", pattern);
	return ask(rd, slot, "req", text, err, err_size);
}

int evt_window_request_send(const struct evt_rundir *rd, unsigned slot,
			    int64_t from_ns, const char *dir, char *err,
			    size_t err_size)
{
	char text[PATH_MAX + 64];

	if (dir[0] != '/' || strchr(dir, '\n') || strlen(dir) >= PATH_MAX)
		return snprintf(err, err_size, "%s: not an absolute path", dir), -1;
	snprintf(text, sizeof(text), "%lld %s\n", (long long)from_ns, dir);
	return ask(rd, slot, "win", text, err, err_size);
}

/* Answers the requests of kind waiting for slot, each text to handle,
 * which writes the reply. */
static void serve(const struct evt_rundir *rd, unsigned slot, const char *kind,
		  void (*handle)(char *text, char *reply, size_t reply_size,
				 void *ctx), void *ctx)
{
	int fd = openat(rd->fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *dh = fd < 0 ? NULL : fdopendir(fd);
	char prefix[32], text[PATH_MAX + 64], why[300], reply[PATH_MAX + 400];
	struct dirent *d;
	size_t plen;

	if (!dh) {
		if (fd >= 0)
			close(fd);
		return;
	}
	plen = (size_t)snprintf(prefix, sizeof(prefix), "slot-%u.%s.", slot, kind);
	while ((d = readdir(dh))) {
		char ans[300];
		size_t len = strlen(d->d_name);

		if (strncmp(d->d_name, prefix, plen) ||
		    (len > 4 && !strcmp(d->d_name + len - 4, ".tmp")) ||
		    len - plen > 64)
			continue;
		answer_name(ans, sizeof(ans), slot, kind, d->d_name + plen);
		if (get(rd, d->d_name, text, sizeof(text))) {
			unlinkat(rd->fd, d->d_name, 0);
			continue;
		}
		unlinkat(rd->fd, d->d_name, 0);
		text[strcspn(text, "\n")] = '\0';
		handle(text, reply, sizeof(reply), ctx);
		put(rd, ans, reply, why, sizeof(why));
	}
	closedir(dh);
}

struct serving {
	evt_request_fn select;
	evt_window_fn window;
	void *ctx;
};

static void handle_select(char *text, char *reply, size_t reply_size, void *ctx)
{
	const struct serving *sv = ctx;
	bool enable = !strncmp(text, "enable ", 7);
	char *pattern = strchr(text, ' '), why[300];
	int n;

	if ((!enable && strncmp(text, "disable ", 8)) || !pattern) {
		snprintf(reply, reply_size, "error a request that is not "
			 "'enable PATTERN' or 'disable PATTERN'\n");
	} else if (evt_pattern_check(pattern + 1, why, sizeof(why))) {
		snprintf(reply, reply_size, "error pattern '%s': %s\n",
			 pattern + 1, why);
	} else {
		n = sv->select(sv->ctx, enable, pattern + 1, why, sizeof(why));
		if (n < 0)
			snprintf(reply, reply_size, "error %s\n", why);
		else
			snprintf(reply, reply_size, "ok %d\n", n);
	}
}

static void handle_window(char *text, char *reply, size_t reply_size, void *ctx)
{
	const struct serving *sv = ctx;
	char *dir = strchr(text, ' '), *end, why[PATH_MAX + 300];
	long long from;

	errno = 0;
	from = strtoll(text, &end, 10);
	if (!dir || end != dir || errno || from < 0 || dir[1] != '/') {
		snprintf(reply, reply_size, "error a request that is not "
			 "'FROM_NS /DIR'\n");
	} else if (sv->window(sv->ctx, from, dir + 1, why, sizeof(why))) {
		snprintf(reply, reply_size, "error %s\n", why);
	} else {
		snprintf(reply, reply_size, "ok 0\n");
	}
}

void evt_requests_serve(const struct evt_rundir *rd, unsigned slot,
			evt_request_fn fn, void *ctx)
{
	struct serving sv = { .select = fn, .ctx = ctx };

	serve(rd, slot, "req", handle_select, &sv);
}

void evt_window_requests_serve(const struct evt_rundir *rd, unsigned slot,
			       evt_window_fn fn, void *ctx)
{
	struct serving sv = { .window = fn, .ctx = ctx };

	serve(rd, slot, "win", handle_window, &sv);
}
