/*
 * syscall_names.h - system call names by number and numbers by name, for
 * this architecture
 * (syscall_names.c is generated from the kernel headers at build time).
 */
#ifndef EVT_ENGINE_SYSCALL_NAMES_H
#define EVT_ENGINE_SYSCALL_NAMES_H

/* "openat" for its number, or NULL for a number with no name. */
const char *evt_syscall_name(long nr);
/* The number of the call named name, or -1. */
long evt_syscall_nr(const char *name);

#endif
