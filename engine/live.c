/*
 * live.c - open the control files of live processes (see live.h).
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "live.h"

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strverscmp((*a)->d_name, (*b)->d_name);
}

int evt_rundir_open_live(const char *dir, int pid, struct evt_ctl ***out)
{
	struct dirent **names;
	struct evt_ctl **ctls;
	int n, i, count = 0;

	*out = NULL;
	n = scandir(dir, &names, NULL, by_name);
	if (n < 0)
		return errno == ENOENT ? 0 : -errno;
	ctls = calloc(n ? n : 1, sizeof(*ctls));
	if (!ctls)
		n = 0;
	for (i = 0; i < n; i++) {
		char path[PATH_MAX], err[PATH_MAX + 200];
		int p = evt_ctl_name_pid(names[i]->d_name);
		struct evt_ctl *c;
		int ret;

		if (p < 0 || (pid > 0 && p != pid))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]->d_name);
		ret = evt_ctl_open(path, &c, err, sizeof(err));
		if (ret) {
			/* Not yet published, or gone meanwhile: not an error. */
			if (ret != -EAGAIN && ret != -ENOENT)
				fprintf(stderr, "evtrace: %s\n", err);
			continue;
		}
		if (!evt_ctl_alive(c)) {
			evt_ctl_close(c);
			continue;
		}
		if (evt_ctl_refresh(c, err, sizeof(err)))
			fprintf(stderr, "evtrace: %s\n", err);
		ctls[count++] = c;
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	if (!ctls)
		return -ENOMEM;
	*out = ctls;
	return count;
}

void evt_rundir_close_all(struct evt_ctl **ctls, int n)
{
	int i;

	for (i = 0; i < n; i++)
		evt_ctl_close(ctls[i]);
	free(ctls);
}
