/*
 * trace_dir.c - a trace directory being written, safely (see trace_dir.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ctf_metadata.h"
#include "regular_file.h"
#include "policy.h"
#include "trace_dir.h"
#include "trace_index.h"
#include "trace_names.h"

/* Whether the trace directory was removed.  A file of ours that vanished
 * means someone is removing it (rm -r takes the files first): they are
 * given up to 200 ms to finish. */
static bool dir_removed(const struct evt_trace_dir *d, int errnum)
{
	struct timespec tick = { 0, 10 * 1000 * 1000 };
	struct stat st;
	int i;

	for (i = 0; i < 20; i++) {
		if (d->fd < 0 || fstat(d->fd, &st))
			return false;
		if (st.st_nlink == 0)
			return true;
		if (errnum != ENOENT)
			return false;
		nanosleep(&tick, NULL);
	}
	return false;
}

void evt_trace_dir_error(const struct evt_trace_dir *d, int sub, const char *name,
			 int errnum, char *err, size_t err_size)
{
	snprintf(err, err_size, "%s/%s%s: %s%s", d->path, sub ? "evtrace/" : "",
		 name, strerror(errnum),
		 dir_removed(d, errnum) ? " (the trace directory was removed)" :
		 errnum == ENOENT ? " (a file of the trace directory was removed)" : "");
}

/* Names an old trace may hold: what evtrace writes there. */
static bool ours(const char *name, bool sub)
{
	if (sub)
		return !strcmp(name, EVT_TRACE_INDEX) ||
		       !strcmp(name, EVT_TRACE_INDEX EVT_TRACE_TMP_SUFFIX);
	/* (query's cache of the trace, and what a killed query left) */
	return !strcmp(name, EVT_TRACE_METADATA) ||
	       !strcmp(name, EVT_TRACE_METADATA EVT_TRACE_TMP_SUFFIX) ||
	       !strncmp(name, EVT_TRACE_STREAM_PREFIX, sizeof(EVT_TRACE_STREAM_PREFIX) - 1) ||
	       !strncmp(name, EVT_TRACE_QUERY_PREFIX, sizeof(EVT_TRACE_QUERY_PREFIX) - 1);
}

/*
 * Checks that every entry of dirfd is one evtrace writes and, with
 * remove, removes them (unlinkat removes a symlink, never what it points
 * to).  *entries counts them.
 */
static int check_entries(int dirfd, bool sub, const char *path, bool remove,
			 unsigned *entries, char *err, size_t err_size)
{
	struct dirent *e;
	int pass, fd;
	DIR *dh;

	for (pass = 0; pass < (remove ? 2 : 1); pass++) {
		fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		dh = fd < 0 ? NULL : fdopendir(fd);
		if (!dh) {
			snprintf(err, err_size, "%s: %s", path, strerror(errno));
			if (fd >= 0)
				close(fd);
			return -1;
		}
		*entries = 0;
		while ((e = readdir(dh))) {
			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") ||
			    (!sub && !strcmp(e->d_name, EVT_TRACE_SUBDIR)))
				continue;
			if (!ours(e->d_name, sub)) {
				snprintf(err, err_size, "%s: holds %.100s, which evtrace "
					 "did not write; remove it or choose another "
					 "directory with -o", path, e->d_name);
				closedir(dh);
				return -1;
			}
			(*entries)++;
			if (pass == 1 && unlinkat(dirfd, e->d_name, 0) && errno != ENOENT) {
				snprintf(err, err_size, "%s/%s: %s", path, e->d_name,
					 strerror(errno));
				closedir(dh);
				return -1;
			}
		}
		closedir(dh);
	}
	return 0;
}

/* Opens dirfd/name, a directory that must be the caller's. */
static int open_own_dir(int dirfd, const char *name, const char *path,
			char *err, size_t err_size)
{
	struct stat st;
	int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0) {
		if ((errno == ELOOP || errno == ENOTDIR) &&
		    fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0)
			snprintf(err, err_size, "%s: %s, not a directory; refused", path,
				 evt_file_kind(st.st_mode));
		else
			snprintf(err, err_size, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) || st.st_uid != evt_policy_output_uid()) {
		snprintf(err, err_size, "%s: owned by uid %u, not by uid %u: a trace "
			 "is replaced only by its owner; remove it or choose another "
			 "directory with -o", path, (unsigned)st.st_uid,
			 (unsigned)evt_policy_output_uid());
		close(fd);
		return -1;
	}
	/* Others could put their files in the trace, or take its own away,
	 * while it is written (a trace directory is made 0700). */
	if (st.st_mode & (S_IWGRP | S_IWOTH)) {
		snprintf(err, err_size, "%s: writable by others (mode %04o): another "
			 "user could replace the trace's files; 'chmod go-w %s', or "
			 "choose another directory with -o", path,
			 (unsigned)(st.st_mode & 07777), path);
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * An existing directory at path (its fd): an empty one, or an evtrace
 * trace of the caller's holding only trace files; anything else is
 * refused.  *kept counts the files of the trace; with remove they are
 * removed, evtrace/ too.
 */
static int check_old(int fd, const char *path, bool remove, unsigned *kept,
		     char *err, size_t err_size)
{
	char sub_path[PATH_MAX + 16];
	unsigned top, below = 0;
	struct stat st;
	bool trace = fstatat(fd, EVT_TRACE_SUBDIR, &st, AT_SYMLINK_NOFOLLOW) == 0;

	snprintf(sub_path, sizeof(sub_path), "%s/" EVT_TRACE_SUBDIR, path);
	if (!trace) {
		int dfd = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		DIR *dh = dfd < 0 ? NULL : fdopendir(dfd);
		struct dirent *e;
		bool empty = true;

		while (dh && (e = readdir(dh)))
			empty &= !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..");
		if (dh)
			closedir(dh);
		else if (dfd >= 0)
			close(dfd);
		if (!empty) {
			snprintf(err, err_size, "%s: exists and is not an evtrace "
				 "trace; remove it or choose another directory with -o",
				 path);
			return -1;
		}
		*kept = 0;
		return 0;
	}
	if (check_entries(fd, false, path, remove, &top, err, err_size))
		return -1;
	{
		int sub_fd = open_own_dir(fd, EVT_TRACE_SUBDIR, sub_path, err, err_size);

		if (sub_fd < 0)
			return -1;
		if (check_entries(sub_fd, true, sub_path, remove, &below, err,
				  err_size)) {
			close(sub_fd);
			return -1;
		}
		close(sub_fd);
	}
	if (remove && unlinkat(fd, EVT_TRACE_SUBDIR, AT_REMOVEDIR)) {
		snprintf(err, err_size, "%s: %s", sub_path, strerror(errno));
		return -1;
	}
	*kept = top + below;
	return 0;
}

/*
 * The trace at path becomes path.old, as perf.data becomes perf.data.old:
 * a path.old there before goes, if it is a trace of the caller's.
 */
static int keep_as_old(const char *path, char *err, size_t err_size)
{
	char old[PATH_MAX + 8];
	size_t n = strlen(path);
	struct stat st;
	unsigned files;
	int fd;

	while (n > 1 && path[n - 1] == '/')
		n--;
	snprintf(old, sizeof(old), "%.*s.old", (int)n, path);
	if (fstatat(AT_FDCWD, old, &st, AT_SYMLINK_NOFOLLOW) == 0) {
		int bad;

		fd = open_own_dir(AT_FDCWD, old, old, err, err_size);
		if (fd < 0)
			return -1;
		/* all checked before anything goes */
		bad = check_old(fd, old, false, &files, err, err_size) ||
		      check_old(fd, old, true, &files, err, err_size);
		close(fd);
		if (bad)
			return -1;
		if (rmdir(old)) {
			snprintf(err, err_size, "%s: %s", old, strerror(errno));
			return -1;
		}
	} else if (errno != ENOENT) {
		snprintf(err, err_size, "%s: %s", old, strerror(errno));
		return -1;
	}
	if (rename(path, old)) {
		snprintf(err, err_size, "%s: cannot keep the trace there as %s: %s",
			 path, old, strerror(errno));
		return -1;
	}
	return 0;
}

int evt_trace_dir_open(struct evt_trace_dir *d, const char *path, char *err,
		       size_t err_size)
{
	char sub_path[PATH_MAX + 16];
	unsigned files;
	bool fresh;

	d->fd = d->sub_fd = -1;
	snprintf(d->path, sizeof(d->path), "%s", path);
	snprintf(sub_path, sizeof(sub_path), "%s/" EVT_TRACE_SUBDIR, path);
	fresh = mkdir(path, 0700) == 0;
	if (!fresh && errno != EEXIST) {
		snprintf(err, err_size, "%s: %s", path, strerror(errno));
		return -1;
	}
	d->fd = open_own_dir(AT_FDCWD, path, path, err, err_size);
	if (d->fd < 0)
		return -1;
	/* An old trace is kept as path.old; an empty one (a recording that
	 * failed at its start leaves evtrace/ alone) or an empty directory
	 * is used. */
	if (!fresh && check_old(d->fd, path, false, &files, err, err_size))
		goto fail;
	if (!fresh && files) {
		evt_trace_dir_close(d);
		if (keep_as_old(path, err, err_size))
			return -1;
		if (mkdir(path, 0700)) {
			snprintf(err, err_size, "%s: %s", path, strerror(errno));
			return -1;
		}
		d->fd = open_own_dir(AT_FDCWD, path, path, err, err_size);
		if (d->fd < 0)
			return -1;
	} else if (!fresh && check_old(d->fd, path, true, &files, err, err_size))
		goto fail;
	if (mkdirat(d->fd, EVT_TRACE_SUBDIR, 0700) && errno != EEXIST) {
		snprintf(err, err_size, "%s: %s", sub_path, strerror(errno));
		goto fail;
	}
	d->sub_fd = open_own_dir(d->fd, EVT_TRACE_SUBDIR, sub_path, err, err_size);
	if (d->sub_fd < 0)
		goto fail;
	return 0;
fail:
	evt_trace_dir_close(d);
	return -1;
}

int evt_trace_dir_add_to(struct evt_trace_dir *d, const char *path, char *err,
			 size_t err_size)
{
	char sub_path[PATH_MAX + 16];

	snprintf(d->path, sizeof(d->path), "%s", path);
	snprintf(sub_path, sizeof(sub_path), "%s/" EVT_TRACE_SUBDIR, path);
	d->sub_fd = -1;
	d->fd = open_own_dir(AT_FDCWD, path, path, err, err_size);
	if (d->fd >= 0)
		d->sub_fd = open_own_dir(d->fd, EVT_TRACE_SUBDIR, sub_path, err, err_size);
	if (d->sub_fd < 0) {
		evt_trace_dir_close(d);
		return -1;
	}
	return 0;
}

int evt_trace_dir_keep_old(const char *path, char *err, size_t err_size)
{
	unsigned files = 0;
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC), bad;

	if (fd < 0)
		return 0;	/* none, or not a directory: open says it */
	close(fd);
	fd = open_own_dir(AT_FDCWD, path, path, err, err_size);
	if (fd < 0)
		return -1;
	bad = check_old(fd, path, false, &files, err, err_size);
	close(fd);
	if (bad)
		return -1;
	return files ? keep_as_old(path, err, err_size) : 0;
}

void evt_trace_dir_undo(const char *path, bool made, bool kept_old)
{
	char old[PATH_MAX + 8];
	size_t n;
	struct stat st;
	int fd;

	if (!path || (!made && !kept_old))
		return;
	fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0) {
		unlinkat(fd, EVT_TRACE_METADATA, 0);
		unlinkat(fd, EVT_TRACE_INDEX_PATH, 0);
		unlinkat(fd, EVT_TRACE_SUBDIR, AT_REMOVEDIR);
		close(fd);
		rmdir(path);	/* only when nothing else is there */
	}
	if (!kept_old)
		return;
	n = strlen(path);
	while (n > 1 && path[n - 1] == '/')
		n--;
	snprintf(old, sizeof(old), "%.*s.old", (int)n, path);
	if (lstat(path, &st) && errno == ENOENT)
		rename(old, path);
}

void evt_trace_dir_close(struct evt_trace_dir *d)
{
	if (d->sub_fd >= 0)
		close(d->sub_fd);
	if (d->fd >= 0)
		close(d->fd);
	d->fd = d->sub_fd = -1;
}

int evt_trace_dir_create(const struct evt_trace_dir *d, int sub, const char *name,
			 char *err, size_t err_size)
{
	int fd = openat(sub ? d->sub_fd : d->fd, name,
			O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);

	if (fd < 0)
		evt_trace_dir_error(d, sub, name, errno, err, err_size);
	return fd;
}

int evt_trace_dir_replace(const struct evt_trace_dir *d, int sub, const char *name,
			  int (*write)(FILE *f, void *ctx), void *ctx,
			  char *err, size_t err_size)
{
	int dirfd = sub ? d->sub_fd : d->fd, fd, saved;
	char tmp[NAME_MAX + 1];
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s" EVT_TRACE_TMP_SUFFIX, name);
	unlinkat(dirfd, tmp, 0);
	fd = evt_trace_dir_create(d, sub, tmp, err, err_size);
	if (fd < 0)
		return -1;
	f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		goto fail;
	}
	errno = 0;
	if (write(f, ctx) | ferror(f)) {
		saved = errno ? errno : EIO;
		fclose(f);
		errno = saved;
		goto fail;
	}
	if (fclose(f) || renameat(dirfd, tmp, dirfd, name))
		goto fail;
	return 0;
fail:
	saved = errno;
	evt_trace_dir_error(d, sub, tmp, saved, err, err_size);
	unlinkat(dirfd, tmp, 0);
	errno = saved;
	return -1;
}

static int write_index(FILE *f, void *ctx)
{
	return evt_trace_index_write(f, ctx);
}

static int write_metadata(FILE *f, void *ctx)
{
	char host[256] = "unknown";

	gethostname(host, sizeof(host) - 1);
	return evt_ctf_metadata_write(f, ctx, host);
}

int evt_trace_dir_describe(const struct evt_trace_dir *d,
			   const struct evt_trace_index *ix, char *err,
			   size_t err_size)
{
	/* The index first: a reader that finds the metadata finds it. */
	return evt_trace_dir_replace(d, 1, EVT_TRACE_INDEX, write_index, (void *)ix, err,
				     err_size) ||
	       evt_trace_dir_replace(d, 0, EVT_TRACE_METADATA, write_metadata, (void *)ix,
				     err, err_size) ? -1 : 0;
}
