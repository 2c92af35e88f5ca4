/*
 * container.h - a traced process in a container, seen from the host:
 * its own mount namespace (so its own /dev/shm and run directory, reached
 * here through /proc/PID/root) and often its own pid namespace (so its
 * control files name it by the pid it sees).  Root (or its user) on the
 * host traces it there, by the pid the host sees.
 */
#ifndef EVT_ENGINE_CONTAINER_H
#define EVT_ENGINE_CONTAINER_H

#include <stdint.h>
#include <sys/types.h>

#include "process_info.h"

struct evt_container {
	pid_t host_pid;			/* as we see it */
	pid_t pid;			/* as it sees itself (NSpid) */
	uint64_t pidns;			/* its pid namespace's inode */
	char cgroup[256];		/* its cgroup v2 path, or "" */
	char rundir[EVT_RUNDIR_PATH_MAX];	/* its run directory, seen
						 * from here */
};

/*
 * Whether process info->pid lives in another mount namespace than ours:
 * 1 with c filled, 0 when it shares ours (or its mount namespace cannot
 * be read), -1 with err set (its environment or pid namespace cannot be
 * read: not ours to trace).
 */
int evt_container_of(const struct evt_process_info *info,
		     struct evt_container *c, char *err, size_t err_size);
/* How many other mount namespaces than ours hold processes that have
 * libevtrace loaded (traced programs in containers).  A walk of /proc. */
unsigned evt_containers_traced(void);
/* The pid we see of the process that sees itself as pid in pid
 * namespace pidns, or 0 (gone, or not found).  A walk of /proc. */
pid_t evt_container_host_pid(uint64_t pidns, pid_t pid);

#endif
