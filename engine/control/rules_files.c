/*
 * rules_files.c - rules files in the run directory; default.rules is
 * rewritten under default.lock (see rules_files.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

#include "pattern.h"
#include "rules_files.h"
#include "layout.h"
#include "report.h"
#include "rules.h"

#define RULES_FILE_MAX (EVT_RULES_MAX_PATTERNS * (EVT_RULES_PATTERN_MAX + 24) + 256)

/* Waits up to 2 s for the lock: another enable is quick, and a process
 * that holds it for good must not hang us. */
static int take_lock(const struct evt_rundir *rd, char *err, size_t err_size)
{
	struct timespec pause = { 0, 10 * 1000 * 1000 };
	int fd = evt_rundir_openat(rd, "default.lock", O_RDWR | O_CREAT, 0600,
				   err, err_size), tries;

	if (fd < 0)
		return -1;
	for (tries = 0; tries < 200; tries++) {
		if (flock(fd, LOCK_EX | LOCK_NB) == 0)
			return fd;
		nanosleep(&pause, NULL);
	}
	snprintf(err, err_size, "%s/default.lock: held by another process for "
		 "2 s; try again", rd->path);
	close(fd);
	return -1;
}

/* default.rules into r (none: empty rules); a bad one is empty rules,
 * said as the writer starting it again (writing) or as an error. */
static int load(const struct evt_rundir *rd, struct evt_rules *r, bool writing,
		char *err, size_t err_size)
{
	char why[200], *buf;
	ssize_t n;
	int fd = evt_rundir_openat(rd, "default.rules", O_RDONLY, 0, err, err_size);

	memset(r, 0, sizeof(*r));
	r->scope = EVT_SCOPE_ALL;
	r->packet_size = EVT_PACKET_DEFAULT_BYTES;
	r->packet_count = EVT_PACKETS_DEFAULT;
	if (fd < 0)
		return errno == ENOENT ? 0 : -1;
	buf = malloc(RULES_FILE_MAX);
	n = buf ? read(fd, buf, RULES_FILE_MAX) : -1;
	close(fd);
	if (!writing && (n < 0 || n == RULES_FILE_MAX ||
			 evt_rules_parse(buf, (size_t)n, r, why, sizeof(why)))) {
		snprintf(err, err_size, "%s/default.rules: %s", rd->path,
			 n < 0 || n == RULES_FILE_MAX ? "unreadable or too large" : why);
		free(buf);
		return -1;
	}
	if (n < 0 || n == RULES_FILE_MAX ||
	    evt_rules_parse(buf, (size_t)n, r, why, sizeof(why))) {
		/* Ours to write: a bad one is started again, and said. */
		evt_report("%s/default.rules: %s; starting it again",
			rd->path, n < 0 || n == RULES_FILE_MAX ? "unreadable or too large"
							       : why);
		memset(r, 0, sizeof(*r));
		r->scope = EVT_SCOPE_ALL;
		r->packet_size = EVT_PACKET_DEFAULT_BYTES;
		r->packet_count = EVT_PACKETS_DEFAULT;
	}
	free(buf);
	r->number = 0;
	return 0;
}

/* Lines of processes that are gone name nobody now. */
static void drop_dead(struct evt_rules *r)
{
	unsigned i, n;

	for (i = n = 0; i < r->npatterns; i++) {
		if (r->pid[i] && kill((pid_t)r->pid[i], 0) && errno == ESRCH)
			continue;
		evt_rules_move(r, n++, i);
	}
	r->npatterns = n;
}

int evt_rundir_put(const struct evt_rundir *rd, const char *name,
		   const char *text, size_t len, char *err, size_t err_size)
{
	char tmp[128];
	int fd;

	snprintf(tmp, sizeof(tmp), "%s.tmp", name);
	unlinkat(rd->fd, tmp, 0);
	fd = evt_rundir_openat(rd, tmp, O_WRONLY | O_CREAT | O_EXCL, 0600, err,
			       err_size);
	if (fd < 0)
		return -1;
	if (write(fd, text, len) != (ssize_t)len || close(fd) ||
	    renameat(rd->fd, tmp, rd->fd, name)) {
		char why[2 * EVT_RUNDIR_PATH_MAX + 400];

		snprintf(err, err_size, "%s/%s: %s", rd->path, name,
			 evt_rundir_strerror(rd->path, errno, why, sizeof(why)));
		unlinkat(rd->fd, tmp, 0);
		return -1;
	}
	return 0;
}

int evt_rules_publish(const struct evt_rundir *rd, const char *name,
		      const struct evt_rules *rules, char *err, size_t err_size)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int ret;

	if (!f || evt_rules_write(f, rules) || fclose(f)) {
		free(text);
		return snprintf(err, err_size, "out of memory"), -1;
	}
	ret = evt_rundir_put(rd, name, text, len, err, err_size);
	free(text);
	return ret;
}

int evt_selection_publish(const struct evt_rundir *rd, const char *name,
			  const struct evt_rules_head *head,
			  const struct evt_selection *sel, char *err,
			  size_t err_size)
{
	struct evt_rules *r;
	unsigned i;
	int ret;

	if (sel->npatterns > EVT_RULES_MAX_PATTERNS)
		return snprintf(err, err_size, "more than %d patterns",
				EVT_RULES_MAX_PATTERNS), -1;
	for (i = 0; i < sel->npatterns; i++)
		if (strlen(sel->patterns[i]) >= EVT_RULES_PATTERN_MAX)
			return snprintf(err, err_size, "pattern '%.40s...' longer "
					"than %d bytes", sel->patterns[i],
					EVT_RULES_PATTERN_MAX - 1), -1;
	r = calloc(1, sizeof(*r));
	if (!r)
		return snprintf(err, err_size, "out of memory"), -1;
	r->number = head->number;
	r->collection_id = head->collection_id;
	r->scope = head->scope;
	r->mode = head->mode;
	r->packet_size = head->packet_size;
	r->packet_count = head->packet_count;
	r->block_us = head->block_us;
	for (i = 0; i < sel->npatterns; i++)
		snprintf(r->patterns[r->npatterns++], EVT_RULES_PATTERN_MAX, "%s",
			 sel->patterns[i]);
	/* After them: the last line that names an event decides. */
	for (i = 0; i < sel->nexcludes && r->npatterns < EVT_RULES_MAX_PATTERNS; i++) {
		r->disable[r->npatterns] = 1;
		snprintf(r->patterns[r->npatterns++], EVT_RULES_PATTERN_MAX, "%s",
			 sel->excludes[i]);
	}
	ret = evt_rules_publish(rd, name, r, err, err_size);
	free(r);
	return ret;
}

/* default.rules changed by one line (rate: a rate line, else enable or
 * disable), under the lock. */
static int default_rules_line(const struct evt_rundir *rd, bool enable,
			      bool rate_line, uint32_t rate, uint32_t pid,
			      const char *pattern, char *err, size_t err_size)
{
	struct evt_rules *r = malloc(sizeof(*r));
	int lock, ret = -1;

	if (!r)
		return snprintf(err, err_size, "out of memory"), -1;
	lock = take_lock(rd, err, err_size);
	if (lock < 0)
		goto out;
	if (load(rd, r, true, err, err_size) == 0) {
		drop_dead(r);
		if ((rate_line ? evt_rules_add_rate(r, pid, pattern, rate, err, err_size) :
		     evt_rules_add(r, enable, pid, pattern, err, err_size)) == 0)
			ret = evt_rules_publish(rd, "default.rules", r, err, err_size);
	}
	close(lock);
out:
	free(r);
	return ret;
}

int evt_default_rules_kernel(const struct evt_rundir *rd, int pid,
			     struct evt_rules *r, char *err, size_t err_size)
{
	unsigned i, n = 0;

	if (load(rd, r, false, err, err_size))
		return -1;
	for (i = 0; i < r->npatterns; i++)
		if (evt_is_kernel_path(r->patterns[i]) && !r->is_rate[i] &&
		    (!r->pid[i] || (int)r->pid[i] == pid))
			evt_rules_move(r, n++, i);
	r->npatterns = n;
	return 0;
}

int evt_default_rules_add(const struct evt_rundir *rd, bool enable,
			  uint32_t pid, const char *pattern, char *err,
			  size_t err_size)
{
	return default_rules_line(rd, enable, false, 0, pid, pattern, err,
				  err_size);
}

struct evt_rules *evt_default_rules_read(const struct evt_rundir *rd)
{
	struct evt_rules *r = malloc(sizeof(*r));
	char err[300];

	if (r && load(rd, r, false, err, sizeof(err))) {
		free(r);
		return NULL;
	}
	return r;
}

bool evt_default_rules_rated(const struct evt_rundir *rd)
{
	struct evt_rules *r = malloc(sizeof(*r));
	char err[300];
	bool rated = false;
	unsigned i;

	if (r && load(rd, r, false, err, sizeof(err)) == 0)
		for (i = 0; i < r->npatterns && !rated; i++)
			rated = r->is_rate[i] && r->rate[i];
	free(r);
	return rated;
}

int evt_default_rules_rate(const struct evt_rundir *rd, uint32_t pid,
			   const char *pattern, uint32_t rate, char *err,
			   size_t err_size)
{
	return default_rules_line(rd, false, true, rate, pid, pattern, err,
				  err_size);
}
