/*
 * syscall_set.c - strace's "-e trace=" sets (see syscall_set.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel_events.h"
#include "syscall_names.h"
#include "syscall_set.h"
#include "syscall_text.h"

static const char *const process_calls[] = {
	"fork", "vfork", "clone", "clone3", "execve", "execveat", "exit",
	"exit_group", "wait4", "waitid", "kill", "tkill", "tgkill",
	"rt_sigqueueinfo", "rt_tgsigqueueinfo", "pidfd_open",
	"pidfd_send_signal", "unshare", NULL,
};
static const char *const network_calls[] = {
	"socket", "socketpair", "bind", "connect", "listen", "accept",
	"accept4", "getsockname", "getpeername", "sendto", "recvfrom",
	"sendmsg", "recvmsg", "sendmmsg", "recvmmsg", "setsockopt",
	"getsockopt", "shutdown", NULL,
};
static const char *const memory_calls[] = {
	"brk", "mmap", "munmap", "mremap", "mprotect", "pkey_mprotect",
	"madvise", "process_madvise", "mlock", "mlock2", "munlock",
	"mlockall", "munlockall", "msync", "mincore", "mbind",
	"set_mempolicy", "get_mempolicy", "migrate_pages", "move_pages",
	"remap_file_pages", "shmat", "shmdt", NULL,
};
static const char *const signal_calls[] = {
	"rt_sigaction", "rt_sigprocmask", "rt_sigreturn", "rt_sigpending",
	"rt_sigsuspend", "rt_sigtimedwait", "rt_sigqueueinfo",
	"rt_tgsigqueueinfo", "sigaltstack", "kill", "tkill", "tgkill",
	"signalfd", "signalfd4", "pause", "pidfd_send_signal", NULL,
};
static const char *const ipc_calls[] = {
	"msgget", "msgsnd", "msgrcv", "msgctl", "semget", "semop", "semctl",
	"semtimedop", "shmget", "shmat", "shmctl", "shmdt", NULL,
};
/* Calls whose result is a new descriptor (desc, beside those taking one). */
static const char *const fd_results[] = {
	"open", "openat", "openat2", "creat", "socket", "socketpair", "pipe",
	"pipe2", "dup", "dup2", "dup3", "eventfd", "eventfd2", "epoll_create",
	"epoll_create1", "memfd_create", "timerfd_create", "signalfd",
	"signalfd4", "inotify_init", "inotify_init1", "fanotify_init",
	"accept", "accept4", "userfaultfd", "pidfd_open", "pidfd_getfd",
	"perf_event_open", "open_tree", "fsopen", "fsmount", "fspick",
	"io_uring_setup", "memfd_secret", "landlock_create_ruleset", NULL,
};
static const char *const path_args[] = {
	"filename", "pathname", "path", "oldname", "newname", "dir_name",
	"specialfile", "library", NULL,
};
static const char *const fd_args[] = {
	"fd", "dfd", "oldfd", "newfd", "epfd", "fd_in", "fd_out", "in_fd",
	"out_fd", "fildes", "olddfd", "newdfd", "dirfd", NULL,
};

static bool listed(const char *const *list, const char *name)
{
	for (; *list; list++)
		if (!strcmp(*list, name))
			return true;
	return false;
}

/* Whether the kernel's format of the call has an argument in names;
 * -1 when the formats cannot be read. */
static int has_arg(const char *call, const char *const *names, char *err,
		   size_t err_size)
{
	struct evt_kernel_event e;
	char why[300];
	uint32_t i;
	int found = 0;

	if (evt_syscall_enter_load(call, &e, why, sizeof(why))) {
		/* A call without a syscalls/ event (some have none) is in
		 * no class that asks; unreadable tracefs fails. */
		if (evt_kernel_event_load("kernel/syscalls/sys_enter_close", &e, why,
					  sizeof(why))) {
			snprintf(err, err_size, "the classes file and desc need the "
				 "kernel's syscalls/ formats: %s", why);
			return -1;
		}
		evt_kernel_event_free(&e);
		return 0;
	}
	for (i = 0; i < e.format.nfields && !found; i++)
		found = listed(names, e.format.fields[i].name);
	evt_kernel_event_free(&e);
	return found;
}

static int add_class(const char *class, bool *want, char *err, size_t err_size)
{
	const char *const *list = NULL;
	long nr;

	if (!strcmp(class, "process"))
		list = process_calls;
	else if (!strcmp(class, "network") || !strcmp(class, "net"))
		list = network_calls;
	else if (!strcmp(class, "memory"))
		list = memory_calls;
	else if (!strcmp(class, "signal"))
		list = signal_calls;
	else if (!strcmp(class, "ipc"))
		list = ipc_calls;
	else if (!strcmp(class, "none"))
		return 0;
	else if (strcmp(class, "file") && strcmp(class, "desc") && strcmp(class, "all"))
		return 1;
	for (nr = 0; nr < EVT_SYSCALL_NR_MAX; nr++) {
		const char *name = evt_syscall_name(nr);
		int in;

		if (!name)
			continue;
		if (list)
			in = listed(list, name);
		else if (!strcmp(class, "all"))
			in = 1;
		else if (!strcmp(class, "file"))
			in = has_arg(name, path_args, err, err_size);
		else
			in = listed(fd_results, name) ||
			     has_arg(name, fd_args, err, err_size);
		if (in < 0)
			return -1;
		want[nr] |= in;
	}
	return 0;
}

int evt_syscall_set_parse(const char *spec, bool *want, char *err,
			  size_t err_size)
{
	bool negate = *spec == '!';
	char *copy = strdup(spec + negate), *save = NULL, *tok;
	long nr;
	int ret = 0;

	if (!copy)
		return snprintf(err, err_size, "out of memory"), -1;
	if (!strspn(copy, "abcdefghijklmnopqrstuvwxyz0123456789_%")) {
		free(copy);
		return snprintf(err, err_size, "trace=%s: name a system call or a "
				"class", spec), -1;
	}
	memset(want, 0, EVT_SYSCALL_NR_MAX * sizeof(*want));
	for (tok = strtok_r(copy, ",", &save); tok && !ret;
	     tok = strtok_r(NULL, ",", &save)) {
		const char *name = tok + (*tok == '%');
		int r = add_class(name, want, err, err_size);

		if (r < 0) {
			ret = -1;
		} else if (r > 0 && *tok == '%') {
			snprintf(err, err_size, "trace=%s: no such class (file, desc, "
				 "process, network, memory, signal, ipc)", tok);
			ret = -1;
		} else if (r > 0) {
			if ((nr = evt_syscall_nr(name)) < 0) {
				snprintf(err, err_size, "trace=%s: no system call or class "
					 "of that name (classes: file, desc, process, "
					 "network, memory, signal, ipc)", tok);
				ret = -1;
			} else {
				want[nr] = true;
			}
		}
	}
	if (!ret && negate)
		for (nr = 0; nr < EVT_SYSCALL_NR_MAX; nr++)
			want[nr] = !want[nr];
	free(copy);
	return ret;
}
