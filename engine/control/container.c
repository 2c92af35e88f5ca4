/*
 * container.c - processes in other namespaces, from /proc (container.h).
 */
#include <dirent.h>
#include <stdbool.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "container.h"

static int ns_inode(pid_t pid, const char *ns, uint64_t *ino)
{
	char path[64];
	struct stat st;

	if (pid)
		snprintf(path, sizeof(path), "/proc/%d/ns/%s", (int)pid, ns);
	else
		snprintf(path, sizeof(path), "/proc/self/ns/%s", ns);
	if (stat(path, &st))
		return -1;
	*ino = (uint64_t)st.st_ino;
	return 0;
}

/* /proc/PID/name, to read lines from; NULL when it cannot be. */
static FILE *proc_file(pid_t pid, const char *name)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid, name);
	return fopen(path, "re");
}

/* The last pid of its NSpid line: the pid it sees itself by. */
static pid_t inner_pid(pid_t pid)
{
	char line[256];
	pid_t inner = 0;
	FILE *f;

	f = proc_file(pid, "status");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "NSpid:", 6)) {
			char *p = line + 6, *end;
			long v;

			for (;;) {
				v = strtol(p, &end, 10);
				if (end == p)
					break;
				inner = (pid_t)v;
				p = end;
			}
			break;
		}
	fclose(f);
	return inner;
}

static void cgroup_of(pid_t pid, char *out, size_t size)
{
	char line[512];
	FILE *f;

	out[0] = '\0';
	f = proc_file(pid, "cgroup");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "0::", 3)) {	/* cgroup v2 */
			line[strcspn(line, "\n")] = '\0';
			snprintf(out, size, "%s", line + 3);
			break;
		}
	fclose(f);
}

/* The uid the process sees for uid (ours), through its user namespace's
 * uid_map; uid itself when unmapped. */
static uid_t inner_uid(pid_t pid, uid_t uid)
{
	unsigned inside, outside, count;
	char line[128];
	uid_t inner = uid;
	FILE *f;

	f = proc_file(pid, "uid_map");
	if (!f)
		return uid;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%u %u %u", &inside, &outside, &count) == 3 &&
		    uid >= outside && uid - outside < count) {
			inner = inside + (uid - outside);
			break;
		}
	fclose(f);
	return inner;
}

/* Its run directory as it computes it (rundir.c), with the uid it sees. */
static int inner_rundir(const struct evt_process_info *info, char *out,
			size_t size, char *err, size_t err_size)
{
	char env[EVT_RUNDIR_PATH_MAX + 1], xdg[EVT_RUNDIR_PATH_MAX + 1];
	char home[EVT_RUNDIR_PATH_MAX + 1];

	if (evt_process_env(info->pid, "EVTRACE_RUNDIR=", env, sizeof(env)) ||
	    evt_process_env(info->pid, "XDG_RUNTIME_DIR=", xdg, sizeof(xdg)) ||
	    evt_process_env(info->pid, "HOME=", home, sizeof(home)))
		return snprintf(err, err_size, "pid %d: in another mount namespace, "
				"and its environment cannot be read, so neither "
				"where it is traced", (int)info->pid), -1;
	return evt_rundir_path_for(env, xdg[0] ? xdg : NULL, home[0] ? home : NULL,
				   inner_uid(info->pid, info->euid), out, size,
				   err, err_size);
}

int evt_container_of(const struct evt_process_info *info,
		     struct evt_container *c, char *err, size_t err_size)
{
	char rundir[EVT_RUNDIR_PATH_MAX];
	uint64_t mine, theirs;

	memset(c, 0, sizeof(*c));
	if (ns_inode(0, "mnt", &mine))
		return snprintf(err, err_size, "our mount namespace: %s",
				strerror(errno)), -1;
	/* One we may not inspect (a sandbox's init) is taken for ours: what
	 * follows says it is not traced here. */
	if (ns_inode(info->pid, "mnt", &theirs) || mine == theirs)
		return 0;
	if (inner_rundir(info, rundir, sizeof(rundir), err, err_size))
		return -1;
	c->host_pid = info->pid;
	c->pid = inner_pid(info->pid);
	if (!c->pid || ns_inode(info->pid, "pid", &c->pidns))
		return snprintf(err, err_size, "pid %d: its pid namespace cannot be "
				"read", (int)info->pid), -1;
	cgroup_of(info->pid, c->cgroup, sizeof(c->cgroup));
	if ((size_t)snprintf(c->rundir, sizeof(c->rundir), "/proc/%d/root%s",
			     (int)info->pid, rundir) >= sizeof(c->rundir))
		return snprintf(err, err_size, "pid %d: its run directory's path is "
				"too long", (int)info->pid), -1;
	return 1;
}

pid_t evt_container_host_pid(uint64_t pidns, pid_t pid)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	pid_t found = 0;

	if (!d)
		return 0;
	while (!found && (e = readdir(d))) {
		pid_t p = (pid_t)atoi(e->d_name);
		uint64_t ns;

		if (p > 0 && inner_pid(p) == pid && ns_inode(p, "pid", &ns) == 0 &&
		    ns == pidns)
			found = p;
	}
	closedir(d);
	return found;
}

/* Whether pid has libevtrace mapped. */
static bool traced(pid_t pid)
{
	char line[512];
	bool found = false;
	FILE *f;

	f = proc_file(pid, "maps");
	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f))
		found = strstr(line, "/libevtrace.so") != NULL;
	fclose(f);
	return found;
}

unsigned evt_containers_traced(void)
{
	uint64_t mine, seen[64];
	unsigned n = 0, i;
	struct dirent *e;
	DIR *d;

	if (ns_inode(0, "mnt", &mine) || !(d = opendir("/proc")))
		return 0;
	while ((e = readdir(d)) && n < 64) {
		pid_t p = (pid_t)atoi(e->d_name);
		uint64_t ns;

		if (p <= 0 || ns_inode(p, "mnt", &ns) || ns == mine)
			continue;
		for (i = 0; i < n && seen[i] != ns; i++)
			;
		if (i == n && traced(p))
			seen[n++] = ns;
	}
	closedir(d);
	return n;
}
