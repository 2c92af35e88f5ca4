/*
 * rundir.c - the run directory's path and creation (see rundir.h).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rundir.h"

void evt_rundir_path(char *out, size_t out_size)
{
	const char *env = getenv("EVTRACE_RUNDIR");

	if (env && *env)
		snprintf(out, out_size, "%s", env);
	else
		snprintf(out, out_size, "/dev/shm/evtrace/%u", (unsigned)getuid());
}

int evt_rundir_make(const char *dir)
{
	char tmp[PATH_MAX], *p;

	if (snprintf(tmp, sizeof(tmp), "%s", dir) >= (int)sizeof(tmp))
		return errno = ENAMETOOLONG, -1;
	for (p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, 0755) && errno != EEXIST)
			return -1;
		*p = '/';
	}
	if (mkdir(tmp, 0700) && errno != EEXIST)
		return -1;
	return 0;
}
