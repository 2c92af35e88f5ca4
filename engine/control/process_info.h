/*
 * process_info.h - whose a running process is and where its run
 * directory is, from /proc: for the engines that act on other users'
 * processes (evtraced, and root's evtrace).
 */
#ifndef EVT_ENGINE_PROCESS_INFO_H
#define EVT_ENGINE_PROCESS_INFO_H

#include <stddef.h>
#include <sys/types.h>

#include "rundir.h"

struct evt_process_info {
	pid_t pid;
	uid_t euid;			/* its run directory's owner */
	char user[64];			/* euid's name, or the number */
	char comm[16];
	/* $EVTRACE_RUNDIR in its environment, else the default of euid; ""
	 * when its environment could not be read (another user's) */
	char rundir[EVT_RUNDIR_PATH_MAX];
};

/* The variable key ("NAME=") in /proc/PID/environ, copied into out (""
 * when unset); -1 when the environment cannot be read. */
int evt_process_env(pid_t pid, const char *key, char *out, size_t size);
/* 0, or -1 with err set ("pid N: no such process"). */
int evt_process_info(pid_t pid, struct evt_process_info *p, char *err,
		     size_t err_size);

#endif
