/*
 * syscall_text.h - a system call as strace shows it, from the kernel's
 * raw_syscalls records: its name, its arguments in strace's notation
 * (syscall_args.h) as the syscalls/sys_enter_<name> tracepoint's format
 * types and names them (read once per system call), its return value with
 * the errno's name.  The kernel records no user memory, so a pointer
 * shows as its address.
 */
#ifndef EVT_ENGINE_SYSCALL_TEXT_H
#define EVT_ENGINE_SYSCALL_TEXT_H

#include <stddef.h>
#include <stdint.h>

struct evt_syscall_text;

struct evt_syscall_text *evt_syscall_text_new(void);
void evt_syscall_text_free(struct evt_syscall_text *t);
/* "name" of nr, or "syscall_NNN" for one without a name; into out. */
const char *evt_syscall_text_name(long nr, char *out, size_t size);
/* "openat(AT_FDCWD, 0x7ffc12340000, O_RDONLY|O_CLOEXEC)". */
void evt_syscall_text_call(struct evt_syscall_text *t, long nr,
			   const uint64_t args[6], char *out, size_t size);
/* "3", "-1 ENOENT (No such file or directory)" or, for a call that
 * returns an address, "0x7f0012340000". */
void evt_syscall_text_ret(long nr, int64_t ret, char *out, size_t size);

#endif
