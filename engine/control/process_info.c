/*
 * process_info.c - a process's owner and run directory, from /proc.
 */
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "process_info.h"

/* The effective uid on the "Uid:" line of /proc/PID/status. */
static int read_euid(pid_t pid, uid_t *euid)
{
	char path[64], line[256];
	unsigned r, e;
	FILE *f;
	int ret = -1;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Uid: %u %u", &r, &e) == 2) {
			*euid = e;
			ret = 0;
			break;
		}
	fclose(f);
	if (ret)
		errno = ESRCH;
	return ret;
}

int evt_process_env(pid_t pid, const char *key, char *out, size_t size)
{
	char path[64], buf[8192];
	size_t have = 0, k = strlen(key);
	ssize_t n;
	int fd;

	*out = '\0';
	snprintf(path, sizeof(path), "/proc/%d/environ", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	/* Entries are NUL-terminated; keep the partial last one in buf. */
	while ((n = read(fd, buf + have, sizeof(buf) - 1 - have)) > 0) {
		char *entry = buf, *end = buf + have + n, *nul;

		while ((nul = memchr(entry, '\0', (size_t)(end - entry)))) {
			if ((size_t)(nul - entry) >= k && !memcmp(entry, key, k))
				snprintf(out, size, "%s", entry + k);
			entry = nul + 1;
		}
		have = (size_t)(end - entry);
		if (have == sizeof(buf) - 1)
			have = 0;	/* an entry longer than buf: not ours */
		memmove(buf, entry, have);
	}
	close(fd);
	return n < 0 ? -1 : 0;
}

int evt_process_info(pid_t pid, struct evt_process_info *p, char *err,
		     size_t err_size)
{
	char env[EVT_RUNDIR_PATH_MAX + 1], xdg[EVT_RUNDIR_PATH_MAX + 1];
	char home[EVT_RUNDIR_PATH_MAX + 1];
	char path[64], buf[1024];
	struct passwd pw, *found = NULL;
	FILE *f;

	memset(p, 0, sizeof(*p));
	p->pid = pid;
	if (read_euid(pid, &p->euid))
		return snprintf(err, err_size, "pid %d: no such process", (int)pid), -1;
	if (getpwuid_r(p->euid, &pw, buf, sizeof(buf), &found) == 0 && found)
		snprintf(p->user, sizeof(p->user), "%s", pw.pw_name);
	else
		snprintf(p->user, sizeof(p->user), "%u", (unsigned)p->euid);
	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	f = fopen(path, "re");
	if (f) {
		if (fgets(p->comm, sizeof(p->comm), f))
			p->comm[strcspn(p->comm, "\n")] = '\0';
		fclose(f);
	}
	/* The process found its run directory as rundir.c does, from these
	 * two (the fallback of a planted default needs the second). */
	if (evt_process_env(pid, "EVTRACE_RUNDIR=", env, sizeof(env)) == 0 &&
	    evt_process_env(pid, "XDG_RUNTIME_DIR=", xdg, sizeof(xdg)) == 0 &&
	    evt_process_env(pid, "HOME=", home, sizeof(home)) == 0 &&
	    evt_rundir_path_for(env, xdg[0] ? xdg : NULL, home[0] ? home : NULL,
				p->euid, p->rundir, sizeof(p->rundir), err, err_size))
		return -1;
	return 0;
}
