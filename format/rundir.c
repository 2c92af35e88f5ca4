/*
 * rundir.c - the run directory's path, and checked opens in it (see
 * rundir.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/fsuid.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "regular_file.h"
#include "rundir.h"

/* Whether path is a directory of uid's that nobody else may write. */
static bool owned_dir(const char *path, uid_t uid)
{
	struct stat st;

	return lstat(path, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == uid &&
	       !(st.st_mode & (S_IWGRP | S_IWOTH));
}

/* The pointer file in a user's home, into path; false when home is not
 * a usable absolute path. */
static bool pointer_path(const char *home, char *path, size_t size)
{
	return home && home[0] == '/' &&
	       (size_t)snprintf(path, size, "%s/.evtrace-rundir", home) < size;
}

/*
 * The directory $HOME/.evtrace-rundir names, into out: a file of uid's
 * that nobody else may write, naming /dev/shm/evtrace-<uid>-<16 hex
 * digits>, a directory of uid's that nobody else may write.  0, or -1.
 */
static int pointed(uid_t uid, const char *home, char *out, size_t out_size)
{
	char path[EVT_RUNDIR_PATH_MAX + 32], text[128], prefix[64];
	struct stat st;
	size_t plen, i;
	ssize_t n;
	int fd;

	if (!pointer_path(home, path, sizeof(path)))
		return -1;
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_uid != uid ||
	    (st.st_mode & (S_IWGRP | S_IWOTH)) ? -1 : read(fd, text, sizeof(text) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	text[n] = '\0';
	text[strcspn(text, "\n")] = '\0';
	plen = (size_t)snprintf(prefix, sizeof(prefix), "/dev/shm/evtrace-%u-",
				(unsigned)uid);
	if (strncmp(text, prefix, plen) || strlen(text) != plen + 16)
		return -1;
	for (i = plen; i < plen + 16; i++)
		if (!strchr("0123456789abcdef", text[i]))
			return -1;
	if (!owned_dir(text, uid) || strlen(text) >= out_size)
		return -1;
	snprintf(out, out_size, "%s", text);
	return 0;
}

int evt_rundir_default(uid_t uid, const char *xdg, const char *home, char *out,
		       size_t out_size, char *why, size_t why_size)
{
	char fallback[EVT_RUNDIR_PATH_MAX];
	struct stat st;

	snprintf(out, out_size, "/dev/shm/evtrace-%u", (unsigned)uid);
	if (lstat(out, &st) || (S_ISDIR(st.st_mode) && st.st_uid == uid))
		return 0;	/* missing (made when needed), or the user's */
	if (uid == 0)
		snprintf(fallback, sizeof(fallback), "/run/evtrace-0");
	else if (xdg && xdg[0] == '/' && strlen(xdg) < sizeof(fallback) - 16 &&
		 owned_dir(xdg, uid))
		snprintf(fallback, sizeof(fallback), "%s/evtrace", xdg);
	else if (pointed(uid, home, fallback, sizeof(fallback)))
		fallback[0] = '\0';
	if (why)
		snprintf(why, why_size, "%s is %s", out,
			 S_ISDIR(st.st_mode) ? "another user's directory" :
			 "not a directory");
	if (!fallback[0])
		return -1;
	snprintf(out, out_size, "%s", fallback);
	return 1;
}

/*
 * A user without $XDG_RUNTIME_DIR (a service, cron, su) whose default
 * another user took: a directory in /dev/shm under a name nobody could
 * make first (random), named in $HOME/.evtrace-rundir (the file written
 * whole, by rename), so that the user's engines find it.  Two processes
 * making it at once: the one whose name the file holds at the end wins,
 * the other's goes.  0, or -1 (no home of the user's, or no room).
 */
static int make_pointed(uid_t uid, const char *home, char *out, size_t out_size)
{
	char path[EVT_RUNDIR_PATH_MAX + 32], tmp[EVT_RUNDIR_PATH_MAX + 64];
	char dir[64], line[80];
	uint64_t r;
	int fd, ok;

	if (!pointer_path(home, path, sizeof(path)) || !owned_dir(home, uid) ||
	    getentropy(&r, sizeof(r)))
		return -1;
	snprintf(dir, sizeof(dir), "/dev/shm/evtrace-%u-%016llx", (unsigned)uid,
		 (unsigned long long)r);
	if (mkdir(dir, 0700))
		return -1;
	snprintf(tmp, sizeof(tmp), "%s.%d.tmp", path, (int)getpid());
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		rmdir(dir);
		return -1;
	}
	snprintf(line, sizeof(line), "%s\n", dir);
	ok = write(fd, line, strlen(line)) == (ssize_t)strlen(line);
	if (close(fd) || !ok || rename(tmp, path)) {
		unlink(tmp);
		rmdir(dir);
		return -1;
	}
	if (pointed(uid, home, out, out_size))
		return rmdir(dir), -1;
	if (strcmp(out, dir))
		rmdir(dir);	/* another's came last */
	return 0;
}

int evt_rundir_default_made(uid_t uid, const char *xdg, const char *home,
			    char *out, size_t out_size, char *why, size_t why_size)
{
	int kind = evt_rundir_default(uid, xdg, home, out, out_size, why, why_size);

	if (kind < 0 && uid != 0 && !make_pointed(uid, home, out, out_size))
		return 2;
	return kind > 0 && mkdir(out, 0700) == 0 ? 2 : kind;
}

int evt_rundir_path_for(const char *env, const char *xdg, const char *home,
			uid_t uid, char *out, size_t out_size, char *err,
			size_t err_size)
{
	if (!env || !*env) {
		evt_rundir_default(uid, xdg, home, out, out_size, NULL, 0);
		return 0;
	}
	if (env[0] != '/') {
		snprintf(err, err_size, "EVTRACE_RUNDIR '%.200s': not an absolute path",
			 env);
		return -1;
	}
	if (strlen(env) >= EVT_RUNDIR_PATH_MAX || strlen(env) >= out_size) {
		snprintf(err, err_size, "EVTRACE_RUNDIR '%.80s...': longer than %d bytes",
			 env, EVT_RUNDIR_PATH_MAX - 1);
		return -1;
	}
	snprintf(out, out_size, "%s", env);
	return 0;
}

int evt_rundir_path(char *out, size_t out_size, char *err, size_t err_size)
{
	return evt_rundir_path_for(secure_getenv("EVTRACE_RUNDIR"),
				   secure_getenv("XDG_RUNTIME_DIR"), secure_getenv("HOME"),
				   geteuid(), out, out_size, err, err_size);
}

/* "DIR[/NAME]: why; refused", errno set; returns -1. */
static int __attribute__((format(printf, 6, 7)))
refuse(char *err, size_t err_size, const char *dir, const char *name,
       int errnum, const char *fmt, ...)
{
	char why[200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	snprintf(err, err_size, "%s%s%s: %s; refused", dir, name ? "/" : "",
		 name ? name : "", why);
	errno = errnum;
	return -1;
}

/* "DIR[/NAME]: strerror(errnum)", closing fd when given; errno kept. */
static int fail(char *err, size_t err_size, const char *dir, const char *name,
		int errnum, int fd)
{
	snprintf(err, err_size, "%s%s%s: %s", dir, name ? "/" : "",
		 name ? name : "", strerror(errnum));
	if (fd >= 0)
		close(fd);
	errno = errnum;
	return -1;
}

static uid_t expected_owner = (uid_t)-1;

void evt_rundir_expect_owner(uid_t uid)
{
	expected_owner = uid;
}

int evt_rundir_open(struct evt_rundir *rd, const char *path, int flags,
		    char *err, size_t err_size)
{
	uid_t me = geteuid();
	char mine[EVT_RUNDIR_PATH_MAX];
	struct stat st;
	int fd;

	rd->fd = -1;
	/* Root enters another user's directory only when told to by path. */
	evt_rundir_default(me, NULL, NULL, mine, sizeof(mine), NULL, 0);
	if (!strcmp(path, mine))
		flags &= ~EVT_RUNDIR_ROOT_ENTERS;
	if (strlen(path) >= sizeof(rd->path)) {
		snprintf(err, err_size, "%.80s...: path too long", path);
		errno = ENAMETOOLONG;
		return -1;
	}
	snprintf(rd->path, sizeof(rd->path), "%s", path);
	if ((flags & EVT_RUNDIR_CREATE) && mkdir(path, 0700) && errno != EEXIST)
		return fail(err, err_size, path, NULL, errno, -1);
	fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		int saved = errno;

		if ((saved == ELOOP || saved == ENOTDIR) && lstat(path, &st) == 0)
			return refuse(err, err_size, path, NULL, ENOTDIR,
				      "%s, not a directory", evt_file_kind(st.st_mode));
		return fail(err, err_size, path, NULL, saved, -1);
	}
	if (fstat(fd, &st))
		return fail(err, err_size, path, NULL, errno, fd);
	/* What was checked by name is checked again on what was opened. */
	if ((flags & EVT_RUNDIR_ROOT_ENTERS) && expected_owner != (uid_t)-1 &&
	    st.st_uid != expected_owner) {
		close(fd);
		return refuse(err, err_size, path, NULL, EPERM,
			      "owned by uid %u, not by uid %u, the user of the "
			      "process it was found by: not followed",
			      (unsigned)st.st_uid, (unsigned)expected_owner);
	}
	if (st.st_uid != me && !(me == 0 && (flags & EVT_RUNDIR_ROOT_ENTERS))) {
		close(fd);
		return refuse(err, err_size, path, NULL, EPERM,
			      "owned by uid %u, not by uid %u (someone else made it: "
			      "have it removed, or set EVTRACE_RUNDIR)",
			      (unsigned)st.st_uid, (unsigned)me);
	}
	if (st.st_mode & (S_IWGRP | S_IWOTH)) {
		close(fd);
		return refuse(err, err_size, path, NULL, EPERM,
			      "writable by group or others (mode %04o)",
			      (unsigned)st.st_mode & 07777);
	}
	rd->fd = fd;
	rd->owner = st.st_uid;
	rd->group = st.st_gid;
	return 0;
}

void evt_rundir_close(struct evt_rundir *rd)
{
	if (rd->fd >= 0)
		close(rd->fd);
	rd->fd = -1;
}

static int check_file(const struct evt_rundir *rd, int fd, const char *name,
		      char *err, size_t err_size)
{
	struct stat st;

	if (fstat(fd, &st)) {
		snprintf(err, err_size, "%s/%s: %s", rd->path, name, strerror(errno));
		return -1;
	}
	if (!S_ISREG(st.st_mode))
		return refuse(err, err_size, rd->path, name, EINVAL,
			      "%s, not a regular file", evt_file_kind(st.st_mode));
	if (st.st_uid != rd->owner)
		return refuse(err, err_size, rd->path, name, EPERM,
			      "owned by uid %u, not by uid %u, the run directory's owner",
			      (unsigned)st.st_uid, (unsigned)rd->owner);
	if (st.st_mode & (S_IWGRP | S_IWOTH))
		return refuse(err, err_size, rd->path, name, EPERM,
			      "writable by group or others (mode %04o)",
			      (unsigned)st.st_mode & 07777);
	return 0;
}

int evt_rundir_openat(const struct evt_rundir *rd, const char *name, int flags,
		      mode_t mode, char *err, size_t err_size)
{
	struct stat st;
	int fd, saved;

	fd = openat(rd->fd, name, flags | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, mode);
	if (fd < 0) {
		saved = errno;
		if ((saved == ELOOP || saved == ENXIO || saved == EISDIR) &&
		    fstatat(rd->fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0)
			return refuse(err, err_size, rd->path, name, saved,
				      "%s, not a regular file", evt_file_kind(st.st_mode));
		return fail(err, err_size, rd->path, name, saved, -1);
	}
	/* Root making a file in a user's directory leaves it to the user,
	 * by its fd: acting as someone else (evtraced's worker acts as its
	 * client), it would be theirs.  Only a file this call made. */
	if ((flags & O_CREAT) && geteuid() == 0 && fstat(fd, &st) == 0 &&
	    st.st_uid != rd->owner && st.st_uid == (uid_t)setfsuid((uid_t)-1) &&
	    fchown(fd, rd->owner, rd->group) && errno != EPERM)
		return fail(err, err_size, rd->path, name, errno, fd);
	if (check_file(rd, fd, name, err, err_size)) {
		saved = errno;
		close(fd);
		errno = saved;
		return -1;
	}
	return fd;
}

/* The mount point of the file system dir is on, into out: the last
 * directory up from dir on the same device. */
static void mount_point(const char *dir, char *out, size_t size)
{
	struct stat st, up;
	char *slash;

	snprintf(out, size, "%s", dir);
	if (stat(out, &st))
		return;
	while ((slash = strrchr(out, '/')) && slash != out) {
		*slash = '\0';
		if (stat(out, &up) || up.st_dev != st.st_dev) {
			*slash = '/';
			return;
		}
	}
	if (slash == out && stat("/", &up) == 0 && up.st_dev == st.st_dev)
		snprintf(out, size, "/");
}

const char *evt_rundir_full(const char *dir, char *buf, size_t size)
{
	char mnt[PATH_MAX];
	struct statvfs v;

	mount_point(dir, mnt, sizeof(mnt));
	if (statvfs(dir, &v))
		memset(&v, 0, sizeof(v));
	snprintf(buf, size, "the file system of %s, mounted on %s, is full: "
		 "%llu MiB, %llu MiB free; free some, set EVTRACE_RUNDIR to a "
		 "directory on a larger one, or record with smaller buffers "
		 "(--packets, --packet-size)", dir, mnt,
		 (unsigned long long)((uint64_t)v.f_blocks * v.f_frsize >> 20),
		 (unsigned long long)((uint64_t)v.f_bavail * v.f_frsize >> 20));
	return buf;
}

const char *evt_rundir_strerror(const char *dir, int e, char *buf,
				size_t size)
{
	char full[PATH_MAX * 2 + 300];

	if (e != ENOSPC && e != EDQUOT)
		return strerror(e);
	snprintf(buf, size, "%s (%s)", strerror(e),
		 evt_rundir_full(dir, full, sizeof(full)));
	return buf;
}

/* By hand: the library reads it in signal handlers too. */
uint64_t evt_rundir_lock_id(const char *text)
{
	const char *p = strstr(text, "\nid ");
	uint64_t id = 0;

	if (!p)
		return 0;
	for (p += 4; *p >= '0' && *p <= '9'; p++) {
		if (id > (UINT64_MAX - 9) / 10)
			return 0;
		id = id * 10 + (uint64_t)(*p - '0');
	}
	return *p == '\n' || !*p ? id : 0;
}
