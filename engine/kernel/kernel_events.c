/*
 * kernel_events.c - kernel tracepoints by name and format (see
 * kernel_events.h), on libtracefs and libtraceevent.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <event-parse.h>
#include <tracefs.h>

#include "evtraced_client.h"
#include "kernel_events.h"
#include "pattern.h"

/* The tracefs directory, or NULL with err saying why none can be used. */
static const char *tracing_dir(char *err, size_t err_size)
{
	const char *dir = tracefs_tracing_dir();
	char events[4200];

	if (!dir) {
		snprintf(err, err_size, "kernel events: tracefs is not mounted "
			 "(as root: mount -t tracefs nodev /sys/kernel/tracing)");
		return NULL;
	}
	snprintf(events, sizeof(events), "%s/events", dir);
	if (access(events, R_OK | X_OK)) {
		int saved = errno;

		if (saved == EACCES)
			snprintf(err, err_size, "kernel events: %s: %s: tracefs lets "
				 "only root read the kernel's events (its mode is "
				 "0700); run as root, or start evtraced", events,
				 strerror(saved));
		else
			snprintf(err, err_size, "kernel events: %s: %s", events,
				 strerror(saved));
		errno = saved;
		return NULL;
	}
	return dir;
}

static int by_path(const void *a, const void *b)
{
	return strverscmp(*(char *const *)a, *(char *const *)b);
}

int evt_kernel_event_paths(char ***paths, unsigned *n, char *err,
			   size_t err_size)
{
	const char *dir = tracing_dir(err, err_size);
	char **systems, **events, **out = NULL;
	unsigned count = 0, cap = 0, i, j;

	*paths = NULL;
	*n = 0;
	if (!dir)
		return -1;
	systems = tracefs_event_systems(dir);
	if (!systems)
		return snprintf(err, err_size, "kernel events: cannot list the "
				"systems in %s/events", dir), -1;
	for (i = 0; systems[i]; i++) {
		events = tracefs_system_events(dir, systems[i]);
		for (j = 0; events && events[j]; j++) {
			if (count == cap) {
				char **grown;

				cap = cap ? cap * 2 : 1024;
				grown = realloc(out, cap * sizeof(*out));
				if (!grown)
					goto oom;
				out = grown;
			}
			if (asprintf(&out[count], EVT_KERNEL_PREFIX "%s/%s", systems[i],
				     events[j]) < 0)
				goto oom;
			count++;
		}
		tracefs_list_free(events);
	}
	tracefs_list_free(systems);
	if (count)
		qsort(out, count, sizeof(*out), by_path);
	*paths = out;
	*n = count;
	return 0;
oom:
	tracefs_list_free(events);
	tracefs_list_free(systems);
	evt_kernel_event_paths_free(out, count);
	return snprintf(err, err_size, "out of memory"), -1;
}

void evt_kernel_event_paths_free(char **paths, unsigned n)
{
	while (n)
		free(paths[--n]);
	free(paths);
}

int evt_kernel_match(const char *const *patterns, unsigned npatterns,
		     char *const *paths, unsigned npaths, unsigned **chosen,
		     unsigned *nchosen, char *err, size_t err_size)
{
	bool *want = calloc(npaths ? npaths : 1, sizeof(*want));
	unsigned p, i, n = 0;

	*chosen = NULL;
	*nchosen = 0;
	if (!want)
		return snprintf(err, err_size, "out of memory"), -1;
	for (p = 0; p < npatterns; p++) {
		bool matched = false;

		if (!evt_is_kernel_path(patterns[p]) || evt_is_usdt_path(patterns[p]))
			continue;	/* (usdt/: usdt_probes.h) */
		for (i = 0; i < npaths; i++)
			if (evt_pattern_match(patterns[p], paths[i]))
				matched = want[i] = true;
		if (!matched) {
			free(want);
			return snprintf(err, err_size, "%s: no such kernel event",
					patterns[p]), -1;
		}
	}
	for (i = 0; i < npaths; i++)
		n += want[i];
	*chosen = malloc((n ? n : 1) * sizeof(**chosen));
	if (!*chosen) {
		free(want);
		return snprintf(err, err_size, "out of memory"), -1;
	}
	for (i = 0; i < npaths; i++)
		if (want[i])
			(*chosen)[(*nchosen)++] = i;
	free(want);
	return 0;
}

long evt_kernel_event_id(const char *path, char *err, size_t err_size)
{
	char system[256], name[256], *text;
	long id = -1;
	int size;

	if (evt_kernel_split_path(path, system, name, err, err_size))
		return -1;
	text = tracefs_event_file_read(NULL, system, name, "id", &size);
	if (text)
		id = strtol(text, NULL, 10);
	free(text);
	if (id < 0)
		snprintf(err, err_size, "%s: its id cannot be read from tracefs", path);
	return id;
}

/* The type of an array's element: "char[16]" without "[16]", and a
 * __data_loc's without its keyword. */
char *evt_kernel_event_tracefs_format(const char *path, size_t *len, char *err,
				      size_t err_size)
{
	char system[256], name[256], *text;
	int size = 0;

	if (!tracing_dir(err, err_size) ||
	    evt_kernel_split_path(path, system, name, err, err_size))
		return NULL;
	/* Its own format file only: a system may have hundreds. */
	text = tracefs_event_file_read(NULL, system, name, "format", &size);
	if (!text) {
		snprintf(err, err_size, "%s: no such kernel event", path);
		errno = ENOENT;
		return NULL;
	}
	*len = (size_t)size;
	return text;
}

int evt_kernel_event_paths_any(char ***paths, long **ids, unsigned *n,
			       char *err, size_t err_size)
{
	*ids = NULL;
	if (evt_kernel_event_paths(paths, n, err, err_size) == 0)
		return 0;
	if (errno != EACCES || geteuid() == 0)
		return -1;
	return evt_remote_kernel_ids(paths, ids, n, err, err_size);
}

int evt_kernel_event_load(const char *path, struct evt_kernel_event *out,
			  char *err, size_t err_size)
{
	size_t len = 0;
	char *text = evt_kernel_event_tracefs_format(path, &len, err, err_size);
	int ret;

	memset(out, 0, sizeof(*out));
	if (!text && errno == EACCES && geteuid() != 0 &&
	    evt_remote_kernel_format(path, &text, &len, err, err_size))
		return -1;
	if (!text)
		return -1;
	ret = evt_kernel_event_parse(path, text, len, out, err, err_size);
	free(text);
	return ret;
}

int evt_kernel_event_format(const char *path, struct evt_event_format *out,
			    char *err, size_t err_size)
{
	struct evt_kernel_event e;

	memset(out, 0, sizeof(*out));
	if (evt_kernel_event_load(path, &e, err, err_size))
		return -1;
	*out = e.format;
	e.format = (struct evt_event_format){ 0 };
	evt_kernel_event_free(&e);
	return 0;
}
