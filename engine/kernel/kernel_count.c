/*
 * kernel_count.c - counting kernel tracepoints with perf_event_open (see
 * kernel_count.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kernel_count.h"
#include "kernel_events.h"
#include "pattern.h"
#include "perf_events.h"

struct counter {
	char *path;
	long id;		/* the kernel's tracepoint id */
	int fd;
};

struct evt_kernel_count {
	struct counter *c;
	unsigned n;
};

static int open_counter(struct counter *c, pid_t pid, bool on_exec, char *err,
			size_t err_size)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_TRACEPOINT, .size = sizeof(attr),
		.inherit = 1, .disabled = on_exec, .enable_on_exec = on_exec,
		.exclude_hv = 1,
	};
	if (c->id < 0)
		return -1;
	attr.config = (uint64_t)c->id;
	c->fd = evt_perf_open(&attr, pid, -1, -1);
	if (c->fd < 0) {
		evt_perf_refused(c->path, pid, "count", errno, err, err_size);
		return -1;
	}
	return 0;
}

int evt_kernel_count_open(const char *const *patterns, unsigned npatterns,
			  pid_t pid, bool on_exec, struct evt_kernel_count **out,
			  char *err, size_t err_size)
{
	struct evt_kernel_count *k = NULL;
	char **paths = NULL;
	long *ids = NULL;
	unsigned n = 0, i, p, j, *chosen = NULL, nchosen = 0;
	bool any = false;

	*out = NULL;
	for (p = 0; p < npatterns; p++) {
		if (evt_is_usdt_path(patterns[p]))
			return snprintf(err, err_size, "%s: counting USDT probes is not "
					"yet supported; record them (record -e %s)",
					patterns[p], patterns[p]), -1;
		any |= evt_is_kernel_path(patterns[p]);
	}
	if (!any)
		return 0;
	if (evt_kernel_event_paths_any(&paths, &ids, &n, err, err_size))
		return -1;
	k = calloc(1, sizeof(*k));
	if (!k || !(k->c = calloc(n ? n : 1, sizeof(*k->c))))
		goto oom;
	if (evt_kernel_match(patterns, npatterns, paths, n, &chosen, &nchosen,
			     err, err_size))
		goto fail;
	for (j = 0; j < nchosen; j++) {
		i = chosen[j];
		k->c[k->n].path = strdup(paths[i]);
		if (!k->c[k->n].path)
			goto oom;
		k->c[k->n].id = ids ? ids[i] :
			evt_kernel_event_id(paths[i], err, err_size);
		if (open_counter(&k->c[k->n], pid, on_exec, err, err_size)) {
			free(k->c[k->n].path);
			goto fail;
		}
		k->n++;
	}
	free(chosen);
	evt_kernel_event_paths_free(paths, n);
	free(ids);
	*out = k;
	return 0;
oom:
	snprintf(err, err_size, "out of memory");
fail:
	free(chosen);
	evt_kernel_event_paths_free(paths, n);
	free(ids);
	evt_kernel_count_close(k);
	return -1;
}

int evt_kernel_count_read(struct evt_kernel_count *k,
			  void (*cb)(const char *path, uint64_t count, void *ctx),
			  void *ctx, char *err, size_t err_size)
{
	unsigned i;

	for (i = 0; k && i < k->n; i++) {
		uint64_t count;

		if (read(k->c[i].fd, &count, sizeof(count)) != sizeof(count))
			return snprintf(err, err_size, "%s: reading its counter: %s",
					k->c[i].path, strerror(errno)), -1;
		cb(k->c[i].path, count, ctx);
	}
	return 0;
}

void evt_kernel_count_close(struct evt_kernel_count *k)
{
	unsigned i;

	if (!k)
		return;
	for (i = 0; i < k->n; i++) {
		close(k->c[i].fd);
		free(k->c[i].path);
	}
	free(k->c);
	free(k);
}
