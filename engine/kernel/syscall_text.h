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
struct evt_kernel_event;

/* The syscalls/ entry event of call (sys_enter_<call>, or the kernel's
 * sys_enter_new<call> for fstat, stat, lstat, uname).  0, or -1 with err
 * set. */
int evt_syscall_enter_load(const char *call, struct evt_kernel_event *e,
			   char *err, size_t err_size);

struct evt_syscall_text *evt_syscall_text_new(void);
void evt_syscall_text_free(struct evt_syscall_text *t);
/* "name" of nr, or "syscall_NNN" for one without a name; into out. */
const char *evt_syscall_text_name(long nr, char *out, size_t size);
/* "openat(AT_FDCWD, 0x7ffc12340000, O_RDONLY|O_CLOEXEC)", or with the
 * memory an argument points to (shown[i]: syscall_memory.h; shown NULL,
 * or an entry NULL, for none) "openat(AT_FDCWD, "/etc/passwd", ...)". */
void evt_syscall_text_call(struct evt_syscall_text *t, long nr,
			   const uint64_t args[6], const char *const *shown,
			   char *out, size_t size);
/* A result's line begins "<... read resumed>", followed, when its exit
 * copied memory, by the arguments from the first such one on, as strace
 * shows them ("<... read resumed>"abc", 4096)"). */
void evt_syscall_text_resumed(struct evt_syscall_text *t, long nr,
			      const uint64_t args[6], const char *const *shown,
			      char *out, size_t size);
/* "3", "-1 ENOENT (No such file or directory)" or, for a call that
 * returns an address, "0x7f0012340000". */
void evt_syscall_text_ret(long nr, int64_t ret, char *out, size_t size);

#endif
