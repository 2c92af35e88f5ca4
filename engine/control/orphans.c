/*
 * orphans.c - processes whose control file was removed (orphans.h).
 */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "orphans.h"
#include "quote.h"

#define DELETED " (deleted)"

int evt_rundir_orphan_file(const char *dir, pid_t pid, char *file, size_t size)
{
	size_t dlen = strlen(dir), tail = strlen(".ctl" DELETED);
	char path[64], line[PATH_MAX + 256];
	int found = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	if (!(f = fopen(path, "re")))
		return -1;
	while (found && fgets(line, sizeof(line), f)) {
		char *at = strchr(line, '/');
		size_t len;

		if (!at)
			continue;
		at[strcspn(at, "\n")] = '\0';
		len = strlen(at);
		/* <dir>/<pid>-<n>.ctl (deleted), the name in the directory */
		if (len > dlen + 1 + tail && !strncmp(at, dir, dlen) &&
		    at[dlen] == '/' && !strchr(at + dlen + 1, '/') &&
		    isdigit((unsigned char)at[dlen + 1]) &&
		    !strcmp(at + len - tail, ".ctl" DELETED)) {
			at[len - strlen(DELETED)] = '\0';
			snprintf(file, size, "%s", at);
			found = 0;
		}
	}
	fclose(f);
	return found;
}

/* cb for pid when it is one: 1, else 0. */
static unsigned one(const struct evt_rundir *rd, pid_t pid, evt_orphan_cb cb,
		    void *ctx)
{
	char file[PATH_MAX], comm[64] = "", safe[64], path[64];
	FILE *f;

	if (evt_rundir_orphan_file(rd->path, pid, file, sizeof(file)))
		return 0;
	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	if ((f = fopen(path, "re"))) {
		if (!fgets(comm, sizeof(comm), f))
			comm[0] = '\0';
		comm[strcspn(comm, "\n")] = '\0';
		fclose(f);
	}
	cb(pid, evt_printable(safe, sizeof(safe), comm), file, ctx);
	return 1;
}

unsigned evt_rundir_orphans(const struct evt_rundir *rd, pid_t pid,
			    evt_orphan_cb cb, void *ctx)
{
	struct dirent *e;
	unsigned n = 0;
	DIR *d;

	if (pid > 0)
		return one(rd, pid, cb, ctx);
	if (!(d = opendir("/proc")))
		return 0;
	while ((e = readdir(d)))
		if (atoi(e->d_name) > 0)
			n += one(rd, (pid_t)atoi(e->d_name), cb, ctx);
	closedir(d);
	return n;
}

const char *evt_rundir_why_untraced(const char *dir, pid_t pid, char *why,
				    size_t size)
{
	char file[PATH_MAX];

	if (evt_rundir_orphan_file(dir, pid, file, sizeof(file)))
		snprintf(why, size, "pid %d: no traced process with this pid in %s",
			 (int)pid, dir);
	else
		snprintf(why, size, "pid %d: its control file %s was removed while "
			 "it ran, not by evtrace: no engine finds it, and it runs "
			 "untraced until it starts again", (int)pid, file);
	return why;
}
