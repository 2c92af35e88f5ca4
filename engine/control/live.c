/*
 * live.c - open the control files of live processes (see live.h).
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <fcntl.h>
#include <unistd.h>

#include "ctl_file.h"
#include "live.h"
#include "policy.h"
#include "report.h"
#include "slots.h"

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strverscmp((*a)->d_name, (*b)->d_name);
}

static int open_ctls(const struct evt_rundir *rd, int pid, bool dead_too,
		     bool (*skip)(const char *name, void *ctx),
		     void (*refused)(const char *name, void *ctx), void *ctx,
		     struct evt_ctl ***out)
{
	struct dirent **names;
	struct evt_ctl **ctls;
	int n, i, count = 0;

	*out = NULL;
	n = scandirat(rd->fd, ".", &names, NULL, by_name);
	if (n < 0)
		return errno == ENOENT ? 0 : -errno;
	ctls = calloc(n ? n : 1, sizeof(*ctls));
	if (!ctls)
		n = 0;
	for (i = 0; i < n; i++) {
		char err[PATH_MAX + 200];
		int p = evt_ctl_name_pid(names[i]->d_name);
		struct evt_ctl *c;
		int ret;

		if (p < 0 || (pid > 0 && p != pid))
			continue;
		if (skip && skip(names[i]->d_name, ctx))
			continue;
		ret = evt_ctl_open(rd, names[i]->d_name, &c, err, sizeof(err));
		if (ret) {
			/* Not yet published, or gone meanwhile: not an error. */
			if (ret != -EAGAIN && ret != -ENOENT) {
				evt_report("%s", err);
				if (refused)
					refused(names[i]->d_name, ctx);
			}
			continue;
		}
		if (!dead_too && !evt_ctl_alive(c)) {
			evt_ctl_close(c);
			continue;
		}
		if (evt_ctl_refresh(c, err, sizeof(err)))
			evt_report("%s", err);
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

int evt_rundir_open_live(const struct evt_rundir *rd, int pid,
			 bool (*skip)(const char *name, void *ctx), void *ctx,
			 struct evt_ctl ***out)
{
	return open_ctls(rd, pid, false, skip, NULL, ctx, out);
}

int evt_rundir_open_all(const struct evt_rundir *rd, int pid,
			bool (*skip)(const char *name, void *ctx), void *ctx,
			struct evt_ctl ***out)
{
	return open_ctls(rd, pid, true, skip, NULL, ctx, out);
}

void evt_rundir_close_all(struct evt_ctl **ctls, int n)
{
	int i;

	for (i = 0; i < n; i++)
		evt_ctl_close(ctls[i]);
	free(ctls);
}

static bool collection_alive(const struct evt_rundir *rd, const struct evt_ctl *c)
{
	uint32_t s;

	for (s = 1; s < EVT_NSLOTS; s++)
		if (__atomic_load_n(&c->slots[s].state, __ATOMIC_ACQUIRE) &&
		    evt_slot_owned(rd, c, s))
			return true;
	return false;
}

int evt_rundir_sweep(const struct evt_rundir *rd)
{
	struct dirent **names;
	int n, i, removed = 0;

	if (evt_policy_guest())
		return 0;

	n = scandirat(rd->fd, ".", &names, NULL, NULL);
	if (n < 0)
		return 0;
	for (i = 0; i < n; i++) {
		const char *name = names[i]->d_name;
		char err[PATH_MAX + 200];
		struct evt_ctl *c;

		if (evt_ctl_name_pid(name) > 0 &&
		    evt_ctl_open(rd, name, &c, err, sizeof(err)) == 0) {
			if (evt_ctl_alive(c))
				evt_slot_release_orphans(rd, c);
			else if (!collection_alive(rd, c) &&
				 evt_ctl_file_remove_dead(rd->fd, name, c->fd))
				removed++;
			evt_ctl_close(c);
		} else if (!strncmp(name, "slot-", 5) &&
			   (strstr(name, ".req.") || strstr(name, ".ans.") ||
			    strstr(name, ".caps"))) {
			/* Requests (requests.h) to, or answers from, a
			 * collection that is gone; the caps it published
			 * (caps.h). */
			unsigned slot = 0;

			if (sscanf(name, "slot-%u.", &slot) == 1 &&
			    !evt_slot_held(rd, slot) && unlinkat(rd->fd, name, 0) == 0)
				removed++;
		} else if (!strncmp(name, "collection-", 11)) {
			/* A rules file: its collection's number is in it. */
			char text[64] = "";
			unsigned slot = 0;
			int fd = evt_rundir_openat(rd, name, O_RDONLY, 0, err,
						   sizeof(err));

			if (fd >= 0) {
				if (read(fd, text, sizeof(text) - 1) < 0)
					text[0] = '\0';
				close(fd);
			}
			unsigned long long id = 0;

			if (sscanf(text, "evtrace-rules 1\nnumber %u", &slot) == 1 &&
			    sscanf(name, "collection-%llu.", &id) == 1 &&
			    slot > 0 && slot < EVT_MAX_NUMBERS &&
			    !evt_slot_live(rd, slot, id) &&
			    unlinkat(rd->fd, name, 0) == 0)
				removed++;
		}
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return removed;
}

int evt_rundir_open_watched(const struct evt_rundir *rd, int pid, bool dead_too,
			    bool (*skip)(const char *name, void *ctx),
			    void (*refused)(const char *name, void *ctx),
			    void *ctx, struct evt_ctl ***out)
{
	return open_ctls(rd, pid, dead_too, skip, refused, ctx, out);
}
