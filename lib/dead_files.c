/*
 * dead_files.c - control files whose process is gone, removed by the next
 * process of the run directory to start.
 *
 * A process removes its control file in its destructor, which never runs
 * when it is killed, crashes, or ends by _exit or an exec.  Such a file
 * is removed here when it is of no use to anyone: its process is gone,
 * and no collection but the default one is active in it (the destructor's
 * own rule).  A recording's engine drains and removes the files it
 * covers, and a flight recorder's buffers wait for `evtrace recover`, so
 * those stay.
 *
 * "Gone" is certain only from the lock (ctl_file.h).  The pid in the
 * file's name is a cheap first look (kill 0 says ESRCH in this pid
 * namespace); only then is the file opened and the lock tried.  A file of
 * this process's own pid is an earlier image's (an exec does not run
 * destructors), or a dead process's whose pid came back: the lock alone
 * tells.  A file never published (magic 0) is removed once its pid is
 * gone too (its maker locks it just after making it, so a live maker may
 * not hold the lock yet), or is this process's own (an earlier image).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "ctl_file.h"
#include "runtime.h"

/* The pid of a control file's name, <pid>-<n>.ctl, or 0. */
static pid_t name_pid(const char *name)
{
	char *end;
	long pid = strtol(name, &end, 10);
	size_t len = strlen(name);

	if (pid <= 0 || pid > INT32_MAX || *end != '-' || len < 5 ||
	    strcmp(name + len - 4, ".ctl"))
		return 0;
	return (pid_t)pid;
}

/* Whether the unlocked file fd of a dead process is wanted by no
 * collection (a file never published by its maker is no one's; one of a
 * major this library does not read, it cannot tell: kept). */
static bool unwanted(int fd)
{
	struct evt_ctl_header h;
	struct evt_ctl_slot slots[EVT_NSLOTS];

	if (pread(fd, &h, sizeof(h), 0) != (ssize_t)sizeof(h))
		return false;
	if (h.magic == 0)
		return true;
	if (h.magic != EVT_CTL_MAGIC || h.version < EVT_CTL_MAJOR_FIRST ||
	    h.version > EVT_CTL_MAJOR || h.header_size < EVT_CTL_HEADER_MIN_BYTES ||
	    h.nslots != EVT_NSLOTS || h.slots_off < h.header_size ||
	    pread(fd, slots, sizeof(slots), h.slots_off) != (ssize_t)sizeof(slots))
		return false;
	for (unsigned s = 1; s < EVT_NSLOTS; s++)
		if (slots[s].state != EVT_SLOT_FREE)
			return false;
	return true;
}

void evt__dead_files_remove(const struct evt_rundir *rd, unsigned look,
			    pid_t parent)
{
	int dfd = openat(rd->fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *dh = dfd < 0 ? NULL : fdopendir(dfd);
	struct dirent *e;
	pid_t me = getpid();
	unsigned seen = 0;

	if (!dh) {
		if (dfd >= 0)
			close(dfd);
		return;
	}
	while ((e = readdir(dh)) && (!look || seen++ < look)) {
		pid_t pid = name_pid(e->d_name);
		int fd;

		/* (a forked child's parent is alive: not looked at, so that
		 * the child's calls are its own and the file's, no kill) */
		if (!pid || pid == parent ||
		    (pid != me && (kill(pid, 0) == 0 || errno != ESRCH)))
			continue;
		fd = openat(rd->fd, e->d_name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
			    O_CLOEXEC);
		if (fd < 0)
			continue;
		/* (a file of this image's own is locked by it: left) */
		if (flock(fd, LOCK_EX | LOCK_NB) == 0 && unwanted(fd))
			evt_ctl_file_remove_dead(rd->fd, e->d_name, fd);
		close(fd);
	}
	closedir(dh);
}
