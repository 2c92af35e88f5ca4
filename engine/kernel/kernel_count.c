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
#include "usdt_probes.h"

struct counter {
	char *path;
	long id;		/* the kernel's tracepoint id */
	int fd;
};

struct evt_kernel_count {
	struct counter *c;
	unsigned n;
	struct evt_usdt_set *usdt;	/* the uprobes of its usdt/ counters */
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

/* A counter of each uprobe the usdt/ patterns made, under the probe's
 * path (one probe may be in several places: their counts add up). */
static int open_usdt(struct evt_kernel_count *k, const char *const *patterns,
		     unsigned npatterns, const char *const *files, unsigned nfiles,
		     pid_t pid, bool on_exec, char *err, size_t err_size)
{
	struct counter *grown;
	unsigned i, n;

	if (evt_usdt_set_create(patterns, npatterns, files, nfiles, &k->usdt, err,
				err_size))
		return -1;
	n = evt_usdt_set_count(k->usdt);
	if (!n)
		return 0;
	if (!(grown = realloc(k->c, (k->n + n) * sizeof(*grown))))
		return snprintf(err, err_size, "out of memory"), -1;
	k->c = grown;
	for (i = 0; i < n; i++) {
		struct counter *c = &k->c[k->n];

		if (!(c->path = strdup(evt_usdt_set_path(k->usdt, i))))
			return snprintf(err, err_size, "out of memory"), -1;
		c->id = evt_kernel_event_id(evt_usdt_set_kernel_path(k->usdt, i), err,
					    err_size);
		if (open_counter(c, pid, on_exec, err, err_size)) {
			free(c->path);
			return -1;
		}
		k->n++;
	}
	return 0;
}

int evt_kernel_count_open(const char *const *patterns, unsigned npatterns,
			  const char *const *files, unsigned nfiles, pid_t pid,
			  bool on_exec, struct evt_kernel_count **out, char *err,
			  size_t err_size)
{
	struct evt_kernel_count *k = NULL;
	const char **tracefs = calloc(npatterns + 1, sizeof(*tracefs));
	char **paths = NULL;
	long *ids = NULL;
	unsigned n = 0, i, p, j, *chosen = NULL, nchosen = 0, ntracefs = 0;
	bool usdt = false;

	*out = NULL;
	if (!tracefs)
		return snprintf(err, err_size, "out of memory"), -1;
	for (p = 0; p < npatterns; p++) {
		usdt |= evt_is_usdt_path(patterns[p]);
		if (evt_is_kernel_path(patterns[p]) && !evt_is_usdt_path(patterns[p]))
			tracefs[ntracefs++] = patterns[p];
	}
	if (!ntracefs && !usdt) {
		free(tracefs);
		return 0;
	}
	if (ntracefs && evt_kernel_event_paths_any(&paths, &ids, &n, err, err_size)) {
		free(tracefs);
		return -1;
	}
	k = calloc(1, sizeof(*k));
	if (!k || !(k->c = calloc(n ? n : 1, sizeof(*k->c))))
		goto oom;
	if (ntracefs && evt_kernel_match(tracefs, ntracefs, paths,
					 n, &chosen, &nchosen, err, err_size))
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
	if (usdt && open_usdt(k, patterns, npatterns, files, nfiles, pid, on_exec,
			      err, err_size))
		goto fail;
	free(tracefs);
	free(chosen);
	evt_kernel_event_paths_free(paths, n);
	free(ids);
	*out = k;
	return 0;
oom:
	snprintf(err, err_size, "out of memory");
fail:
	free(tracefs);
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

	unsigned j;

	for (i = 0; k && i < k->n; i++) {
		uint64_t count, sum = 0;

		for (j = 0; j < i && strcmp(k->c[j].path, k->c[i].path); j++)
			;
		if (j < i)
			continue;	/* (added to the first of its path) */
		for (j = i; j < k->n; j++) {
			if (strcmp(k->c[j].path, k->c[i].path))
				continue;
			if (read(k->c[j].fd, &count, sizeof(count)) != sizeof(count))
				return snprintf(err, err_size, "%s: reading its counter: %s",
						k->c[j].path, strerror(errno)), -1;
			sum += count;
		}
		cb(k->c[i].path, sum, ctx);
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
	evt_usdt_set_destroy(k->usdt);	/* (its perf events closed above) */
	free(k->c);
	free(k);
}
