/*
 * id_registry.c - a run directory's global event ids (id_registry.h): a
 * hash table from event hash to line number over an append-only file.
 */
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "event_ids.h"
#include "id_registry.h"
#include "report.h"

struct evt_id_registry {
	int fd;
	char path[EVT_RUNDIR_PATH_MAX + 16];
	char dir[EVT_RUNDIR_PATH_MAX];	/* the run directory */
	uint64_t parsed;		/* bytes of whole lines read */
	uint32_t lines;			/* the next id */
	uint64_t *keys;			/* hash table: hash -> id */
	uint32_t *ids;			/* EVT_NO_ID: a free slot */
	uint32_t nslots, used;
	bool reported;			/* that it could not give an id */
};

struct evt_id_registry *evt_id_registry_open(const struct evt_rundir *rd)
{
	struct evt_id_registry *r = calloc(1, sizeof(*r));
	char err[EVT_RUNDIR_PATH_MAX + 200];

	if (!r)
		return NULL;
	snprintf(r->path, sizeof(r->path), "%s/%s", rd->path, EVT_ID_REGISTRY_NAME);
	snprintf(r->dir, sizeof(r->dir), "%s", rd->path);
	r->fd = evt_rundir_openat(rd, EVT_ID_REGISTRY_NAME,
				  O_RDWR | O_CREAT | O_APPEND, 0600, err, sizeof(err));
	if (r->fd < 0) {
		evt_report("%s; event ids are this engine's own, from %u", err,
			   EVT_LOCAL_IDS);
		free(r);
		return NULL;
	}
	return r;
}

void evt_id_registry_close(struct evt_id_registry *r)
{
	if (!r)
		return;
	close(r->fd);
	free(r->keys);
	free(r->ids);
	free(r);
}

static int grow(struct evt_id_registry *r)
{
	uint32_t nslots = r->nslots ? r->nslots * 2 : 1024, i, s;
	uint64_t *keys = malloc(nslots * sizeof(*keys));
	uint32_t *ids = malloc(nslots * sizeof(*ids));

	if (!keys || !ids) {
		free(keys);
		free(ids);
		return -1;
	}
	memset(ids, 0xff, nslots * sizeof(*ids));
	for (i = 0; i < r->nslots; i++) {
		if (r->ids[i] == EVT_NO_ID)
			continue;
		for (s = (uint32_t)r->keys[i] & (nslots - 1); ids[s] != EVT_NO_ID;
		     s = (s + 1) & (nslots - 1))
			;
		keys[s] = r->keys[i];
		ids[s] = r->ids[i];
	}
	free(r->keys);
	free(r->ids);
	r->keys = keys;
	r->ids = ids;
	r->nslots = nslots;
	return 0;
}

/* The id of hash, or EVT_NO_ID. */
static uint32_t find(const struct evt_id_registry *r, uint64_t hash)
{
	uint32_t s;

	if (!r->nslots)
		return EVT_NO_ID;
	for (s = (uint32_t)hash & (r->nslots - 1); r->ids[s] != EVT_NO_ID;
	     s = (s + 1) & (r->nslots - 1))
		if (r->keys[s] == hash)
			return r->ids[s];
	return EVT_NO_ID;
}

/* Remembers that hash has id (the first line of a hash wins). */
static int remember(struct evt_id_registry *r, uint64_t hash, uint32_t id)
{
	uint32_t s;

	if ((r->used + 1) * 2 > r->nslots && grow(r))
		return -1;
	if (find(r, hash) != EVT_NO_ID)
		return 0;
	for (s = (uint32_t)hash & (r->nslots - 1); r->ids[s] != EVT_NO_ID;
	     s = (s + 1) & (r->nslots - 1))
		;
	r->keys[s] = hash;
	r->ids[s] = id;
	r->used++;
	return 0;
}

/* Reads the whole lines added since the last look (the caller holds a
 * lock).  0, or -1. */
static int catch_up(struct evt_id_registry *r)
{
	char buf[65536];
	struct stat st;

	if (fstat(r->fd, &st) || (uint64_t)st.st_size > EVT_ID_REGISTRY_MAX)
		return -1;
	while (r->parsed < (uint64_t)st.st_size) {
		ssize_t n = pread(r->fd, buf, sizeof(buf) - 1, (off_t)r->parsed);
		char *line = buf, *nl;

		if (n <= 0)
			return -1;
		buf[n] = '\0';
		while ((nl = memchr(line, '\n', (size_t)(buf + n - line)))) {
			uint64_t hash;
			char *end;

			*nl = '\0';
			errno = 0;
			hash = strtoull(line, &end, 16);
			if (!errno && end == line + 16 && *end == ' ' &&
			    remember(r, hash, r->lines))
				return -1;
			r->lines++;
			r->parsed += (uint64_t)(nl + 1 - line);
			line = nl + 1;
		}
		if (line == buf)	/* a line longer than buf: not ours */
			return -1;
	}
	return 0;
}

uint32_t evt_id_registry_get(struct evt_id_registry *r, uint64_t hash,
			     const char *path)
{
	char line[64 + 4096];
	uint32_t id = find(r, hash);
	int n, write_errno = 0;

	if (id != EVT_NO_ID)
		return id;
	if (flock(r->fd, LOCK_EX))
		return EVT_NO_ID;
	if (catch_up(r))
		goto out;
	id = find(r, hash);
	if (id != EVT_NO_ID)
		goto out;
	n = snprintf(line, sizeof(line), "%016" PRIx64 " %s\n", hash, path);
	if (n < 0 || (size_t)n >= sizeof(line) || strchr(path, '\n'))
		goto out;
	if (write(r->fd, line, (size_t)n) != n) {
		write_errno = errno;
		goto out;
	}
	if (catch_up(r) == 0)
		id = find(r, hash);
out:
	flock(r->fd, LOCK_UN);
	if (id == EVT_NO_ID && !r->reported && write_errno) {
		char why[2 * EVT_RUNDIR_PATH_MAX + 400];

		r->reported = true;
		evt_report("%s: cannot give %s an id: %s; this engine's new events "
			   "get ids of its own, from %u", r->path, path,
			   evt_rundir_strerror(r->dir, write_errno, why, sizeof(why)),
			   EVT_LOCAL_IDS);
	} else if (id == EVT_NO_ID && !r->reported) {
		r->reported = true;
		evt_report("%s: cannot give %s an id (unreadable, or more than %u "
			   "bytes); this engine's new events get ids of its own, "
			   "from %u", r->path, path, EVT_ID_REGISTRY_MAX, EVT_LOCAL_IDS);
	}
	return id;
}
