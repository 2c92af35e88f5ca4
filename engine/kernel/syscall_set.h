/*
 * syscall_set.h - which system calls strace's "-e trace=SPEC" names:
 * calls by name and classes (file, desc, process, network, memory,
 * signal, ipc; with or without strace's "%"), separated by commas, the
 * whole set negated by a leading "!".
 */
#ifndef EVT_ENGINE_SYSCALL_SET_H
#define EVT_ENGINE_SYSCALL_SET_H

#include <stdbool.h>
#include <stddef.h>

/* Numbers past this are never system calls of this architecture. */
#define EVT_SYSCALL_NR_MAX 1024

/*
 * Sets want[nr] for each system call spec names (want has
 * EVT_SYSCALL_NR_MAX entries; a call named twice is the same call).
 * file and desc are the calls whose kernel format has an argument named
 * as a path or a descriptor, and the calls that return a descriptor.
 * 0, or -1 with err set (an unknown call or class).
 */
int evt_syscall_set_parse(const char *spec, bool *want, char *err,
			  size_t err_size);

#endif
