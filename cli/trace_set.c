/*
 * trace_set.c - find the trace directories below a path, without
 * following symbolic links (a tree may hold links that loop), to a depth
 * that covers a relay's <host>/<session>/... layout with room to spare.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "trace_set.h"
#include "trace_names.h"

#define MAX_DEPTH 12

static int push(struct trace_set *s, const char *dir)
{
	char **grown = realloc(s->dirs, (s->n + 1) * sizeof(*grown));

	if (!grown)
		return -1;
	s->dirs = grown;
	s->dirs[s->n] = strdup(dir);
	if (!s->dirs[s->n])
		return -1;
	s->n++;
	return 0;
}

static bool is_trace(const char *dir)
{
	char path[PATH_MAX];
	struct stat st;

	snprintf(path, sizeof(path), "%s/metadata", dir);
	return !stat(path, &st) && S_ISREG(st.st_mode);
}

static int keep_dir(const struct dirent *d)
{
	return d->d_name[0] != '.' &&
	       (d->d_type == DT_DIR || d->d_type == DT_UNKNOWN);
}

/* The trace directories below dir, sorted by name at each level. */
static int walk(struct trace_set *s, const char *dir, int depth)
{
	struct dirent **names;
	char path[PATH_MAX];
	struct stat st;
	int n, i, ret = 0;

	if (is_trace(dir))
		return push(s, dir);
	if (depth >= MAX_DEPTH)
		return 0;
	n = scandir(dir, &names, keep_dir, alphasort);
	if (n < 0)
		return 0;	/* unreadable: not ours to query */
	for (i = 0; i < n; i++) {
		if (!ret && (size_t)snprintf(path, sizeof(path), "%s/%s", dir,
					     names[i]->d_name) < sizeof(path) &&
		    !lstat(path, &st) && S_ISDIR(st.st_mode))
			ret = walk(s, path, depth + 1);
		free(names[i]);
	}
	free(names);
	return ret;
}

int trace_set_add(struct trace_set *s, const char *arg, char *err, size_t err_size)
{
	size_t before = s->n;
	struct stat st;

	if (stat(arg, &st) || !S_ISDIR(st.st_mode)) {
		snprintf(err, err_size, "%s: no such trace directory", arg);
		return -1;
	}
	if (walk(s, arg, 0)) {
		snprintf(err, err_size, "out of memory");
		return -1;
	}
	if (s->n == before) {
		snprintf(err, err_size, "%s: no trace in it or below it (a trace "
			 "directory holds a metadata file)", arg);
		return -1;
	}
	return 0;
}

char *trace_set_host(const char *dir)
{
	char path[PATH_MAX], buf[65536], *at, *end;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/metadata", dir);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0)
		return NULL;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	at = strstr(buf, "hostname = \"");
	if (!at)
		return NULL;
	at += 12;
	end = strchr(at, '"');
	return end ? strndup(at, (size_t)(end - at)) : NULL;
}

void trace_set_free(struct trace_set *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		free(s->dirs[i]);
	free(s->dirs);
	free(s->offsets_ns);
	s->dirs = NULL;
	s->offsets_ns = NULL;
	s->n = 0;
}
