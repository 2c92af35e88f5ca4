/*
 * own_rundir.c - a run directory of a command's own, for a recording or
 * count of a command that found every collection number of the user's
 * taken (cli.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "collection.h"
#include "ctl_file.h"
#include "rundir.h"

/* Makes rundir/record-PID; rundir becomes it.  0, or -1 with err set. */
static int own_rundir(char *rundir, size_t size, char *err, size_t err_size)
{
	char name[32], path[EVT_RUNDIR_PATH_MAX];
	struct evt_rundir rd;

	snprintf(name, sizeof(name), "record-%d", (int)getpid());
	if ((size_t)snprintf(path, sizeof(path), "%s/%s", rundir, name) >= sizeof(path))
		return snprintf(err, err_size, "%s/%s: too long a path", rundir,
				name), -1;
	if (evt_rundir_open(&rd, rundir, 0, err, err_size))
		return -1;
	if (mkdirat(rd.fd, name, 0700) && errno != EEXIST) {
		snprintf(err, err_size, "%s: %s", path, strerror(errno));
		evt_rundir_close(&rd);
		return -1;
	}
	evt_rundir_close(&rd);
	snprintf(rundir, size, "%s", path);
	return 0;
}

void cli_own_rundir_remove(const char *path)
{
	char err[PATH_MAX + 300];
	struct evt_rundir rd;
	struct dirent *e;
	bool busy = false;
	DIR *d;

	if (evt_rundir_open(&rd, path, 0, err, sizeof(err)))
		return;
	d = fdopendir(dup(rd.fd));
	while (d && (e = readdir(d))) {
		size_t n = strlen(e->d_name);
		int fd;

		if (e->d_name[0] == '.')
			continue;
		if (n > 4 && !strcmp(e->d_name + n - 4, ".ctl")) {
			fd = openat(rd.fd, e->d_name, O_RDONLY | O_NOFOLLOW |
				    O_NONBLOCK | O_CLOEXEC);
			/* its process runs on, or its name is another's now */
			if (fd >= 0 && !evt_ctl_file_remove_dead(rd.fd, e->d_name, fd))
				busy = true;
			if (fd >= 0) {
				close(fd);
				continue;
			}
		}
		unlinkat(rd.fd, e->d_name, 0);
	}
	if (d)
		closedir(d);
	evt_rundir_close(&rd);
	if (!busy)
		rmdir(path);
	else
		fprintf(stderr, "evtrace: note: %s stays: a process traced there "
			"runs on (ls -p PID reaches it)\n", path);
}

int cli_collection_create(const char *cmd, struct evt_collection_opts *o,
			  bool command, char *rundir, size_t size,
			  struct evt_collection **c, bool *own)
{
	char err[PATH_MAX + 300], shared[EVT_RUNDIR_PATH_MAX];

	*own = false;
	o->rundir = rundir;
	if (!evt_collection_create(o, c, err, sizeof(err)))
		return 0;
	if (errno != EBUSY || !command || o->npids || o->all)
		return cli_error(cmd, "%s", err), -1;
	snprintf(shared, sizeof(shared), "%s", rundir);
	if (own_rundir(rundir, size, err, sizeof(err)) ||
	    evt_collection_create(o, c, err, sizeof(err)))
		return cli_error(cmd, "%s", err), -1;
	*own = true;
	fprintf(stderr, "evtrace: %s: note: every collection number of %s is "
		"in use, so this %s and its command use a run directory of their "
		"own, %s (ls, stream and record -p reach its processes by their "
		"pids)\n", cmd, shared, strcmp(cmd, "count") ? "recording" :
		"count", rundir);
	return 0;
}
