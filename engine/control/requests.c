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

int evt_request_send(const struct evt_rundir *rd, unsigned slot, bool enable,
		     const char *pattern, char *err, size_t err_size)
{
	static unsigned serial;
	struct timespec pause = { 0, 10 * 1000 * 1000 };
	char req[96], ans[96], text[EVT_RULES_PATTERN_MAX + 64];
	int tries, n;

	if (strlen(pattern) >= EVT_RULES_PATTERN_MAX || strchr(pattern, '\n'))
		return snprintf(err, err_size, "pattern too long"), -1;
	snprintf(req, sizeof(req), "slot-%u.req.%d-%u", slot, (int)getpid(), serial);
	snprintf(ans, sizeof(ans), "slot-%u.ans.%d-%u", slot, (int)getpid(), serial++);
	snprintf(text, sizeof(text), "%s %s\n", enable ? "enable" : "disable", pattern);
	unlinkat(rd->fd, ans, 0);
	if (put(rd, req, text, err, err_size))
		return -1;
	for (tries = 0; tries < 200; tries++) {
		nanosleep(&pause, NULL);
		if (get(rd, ans, text, sizeof(text)))
			continue;
		unlinkat(rd->fd, ans, 0);
		text[strcspn(text, "\n")] = '\0';
		if (sscanf(text, "ok %d", &n) == 1)
			return n;
		snprintf(err, err_size, "%s", strncmp(text, "error ", 6) ? text : text + 6);
		return -1;
	}
	unlinkat(rd->fd, req, 0);
	snprintf(err, err_size, "collection slot %u: its engine did not answer in 2 s",
		 slot);
	return -1;
}

void evt_requests_serve(const struct evt_rundir *rd, unsigned slot,
			evt_request_fn fn, void *ctx)
{
	int fd = openat(rd->fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *dh = fd < 0 ? NULL : fdopendir(fd);
	char prefix[32], text[EVT_RULES_PATTERN_MAX + 64], why[300], reply[400];
	struct dirent *d;
	size_t plen;

	if (!dh) {
		if (fd >= 0)
			close(fd);
		return;
	}
	plen = (size_t)snprintf(prefix, sizeof(prefix), "slot-%u.req.", slot);
	while ((d = readdir(dh))) {
		char ans[300], *pattern;
		size_t len = strlen(d->d_name);
		bool enable;
		int n;

		if (strncmp(d->d_name, prefix, plen) ||
		    (len > 4 && !strcmp(d->d_name + len - 4, ".tmp")) ||
		    len - plen > 64)
			continue;
		snprintf(ans, sizeof(ans), "slot-%u.ans.%s", slot, d->d_name + plen);
		if (get(rd, d->d_name, text, sizeof(text))) {
			unlinkat(rd->fd, d->d_name, 0);
			continue;
		}
		unlinkat(rd->fd, d->d_name, 0);
		text[strcspn(text, "\n")] = '\0';
		enable = !strncmp(text, "enable ", 7);
		pattern = strchr(text, ' ');
		if ((!enable && strncmp(text, "disable ", 8)) || !pattern) {
			snprintf(reply, sizeof(reply), "error a request that is not "
				 "'enable PATTERN' or 'disable PATTERN'\n");
		} else if (evt_pattern_check(pattern + 1, why, sizeof(why))) {
			snprintf(reply, sizeof(reply), "error pattern '%s': %s\n",
				 pattern + 1, why);
		} else {
			n = fn(ctx, enable, pattern + 1, why, sizeof(why));
			if (n < 0)
				snprintf(reply, sizeof(reply), "error %s\n", why);
			else
				snprintf(reply, sizeof(reply), "ok %d\n", n);
		}
		put(rd, ans, reply, why, sizeof(why));
	}
	closedir(dh);
}
