/*
 * syscall_args.h - the arguments of a system call in strace's notation:
 * flags and enums by their names (O_RDWR|O_CREAT, AT_FDCWD, PROT_READ,
 * MAP_PRIVATE, SIGTERM, AF_INET, ...), descriptors and pids signed, modes
 * in octal, pointers in hex.  Which names an argument takes is known from
 * the call and the argument's name in the kernel's syscalls/ formats.
 */
#ifndef EVT_ENGINE_SYSCALL_ARGS_H
#define EVT_ENGINE_SYSCALL_ARGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "event_format.h"

/* How an argument is shown. */
enum evt_arg_show {
	EVT_SHOW_SIGNED,	/* a C int or long, signed */
	EVT_SHOW_UNSIGNED,
	EVT_SHOW_HEX,		/* flags without names, ioctl requests */
	EVT_SHOW_OCTAL,		/* a mode */
	EVT_SHOW_POINTER,	/* 0x..., or NULL */
	EVT_SHOW_FD,		/* a descriptor: signed */
	EVT_SHOW_DIRFD,		/* AT_FDCWD, or a descriptor */
	EVT_SHOW_OPEN_FLAGS,	/* O_RDONLY|O_CLOEXEC */
	EVT_SHOW_AT_FLAGS,	/* AT_SYMLINK_NOFOLLOW|AT_EMPTY_PATH */
	EVT_SHOW_PROT,		/* PROT_READ|PROT_WRITE, PROT_NONE */
	EVT_SHOW_MAP_FLAGS,	/* MAP_PRIVATE|MAP_ANONYMOUS */
	EVT_SHOW_SIGNAL,	/* SIGTERM */
	EVT_SHOW_SIGMASK_HOW,	/* SIG_BLOCK */
	EVT_SHOW_FAMILY,	/* AF_INET */
	EVT_SHOW_SOCK_TYPE,	/* SOCK_STREAM|SOCK_CLOEXEC */
	EVT_SHOW_FCNTL_CMD,	/* F_GETFL */
	EVT_SHOW_WHENCE,	/* SEEK_SET */
	EVT_SHOW_CLONE_FLAGS,	/* CLONE_VM|CLONE_FS|...|SIGCHLD */
	EVT_SHOW_ACCESS_MODE,	/* F_OK, R_OK|W_OK */
	EVT_SHOW_FUTEX_OP,	/* FUTEX_WAIT_PRIVATE */
	EVT_SHOW_CLOCK,		/* CLOCK_MONOTONIC */
	EVT_SHOW_WAIT_OPTIONS,	/* WNOHANG|__WALL */
	EVT_SHOW_MADVISE,	/* MADV_DONTNEED */
	EVT_SHOW_SHUTDOWN,	/* SHUT_WR */
};

/*
 * How argument arg (the kernel's name for it) of system call call is
 * shown, given its C type from the format: pointer, signed, 32 bits wide.
 */
enum evt_arg_show evt_syscall_arg_show(const char *call, const char *arg,
				       bool pointer, bool is_signed,
				       unsigned bits);
/* Puts v as how says into out (snprintf's return). */
int evt_syscall_arg_put(enum evt_arg_show how, unsigned bits, uint64_t v,
			char *out, size_t size);
/* Whether open/openat's mode is shown for these flags (O_CREAT or
 * O_TMPFILE: strace leaves it out otherwise). */
bool evt_syscall_open_has_mode(uint64_t flags);
/* Whether fcntl's third argument means anything for cmd (strace leaves
 * it out for F_GETFL and the other getters). */
bool evt_syscall_fcntl_has_arg(uint64_t cmd);

/* ---- whole calls ---- */

#define EVT_SYSCALL_MAX_ARGS 6

/* What a system call's sys_enter format says of its arguments. */
struct evt_syscall_args {
	int nargs;
	bool open_mode;		/* open/openat: mode shown only with O_CREAT */
	bool fcntl_arg;		/* fcntl: the argument shown only where used */
	struct evt_syscall_arg {
		enum evt_arg_show how;
		unsigned bits;	/* of its C type */
	} a[EVT_SYSCALL_MAX_ARGS];
};

/* The arguments of call as the fields of its sys_enter format f say
 * (__syscall_nr skipped). */
void evt_syscall_args_describe(struct evt_syscall_args *a, const char *call,
			       const struct evt_event_format *f);
/* "name(args...)" into out, its length; a NULL: six in hex.  shown[i]
 * (shown NULL, or an entry NULL: none) is argument i's text instead of
 * its value (the memory it points to); with first, only the arguments
 * from first on and the ")" (a resumed call's rest). */
int evt_syscall_call_put(const char *name, const struct evt_syscall_args *a,
			 const uint64_t args[6], const char *const *shown,
			 unsigned first, char *out, size_t size);
/* A result: "3", "-1 ENOENT (No such file or directory)", or an address
 * in hex for the calls that return one. */
void evt_syscall_ret_put(const char *call, int64_t ret, char *out, size_t size);
/* A signal's delivery as strace shows it, without the fields its
 * siginfo has beyond the code: "--- SIGUSR1 {si_signo=SIGUSR1,
 * si_code=SI_USER} ---". */
void evt_syscall_signal_put(int sig, int code, char *out, size_t size);
/*
 * A syscalls/ event's record in the same notation: sys_enter_<name>'s as
 * the call ("openat(AT_FDCWD, 0x7ffd12340000, O_RDONLY)"), sys_exit_<name>'s
 * as its result ("<... openat resumed> = 3"), by the event's format f
 * (__syscall_nr first), as a trace keeps it.  A record that kept the
 * memory its call's arguments pointed to (the field
 * EVT_SYSCALL_MEMORY_FIELD, syscall_memory.h) shows it:
 * ("openat(AT_FDCWD, "/etc/passwd", O_RDONLY)", "<... read
 * resumed>"root:x:0:0:"..., 32) = 32"), the rest of a resumed call's
 * arguments by enter_f, its sys_enter format, when there is one.  The
 * text's length, or -1 when the record is not one of those.
 */
int evt_syscall_text_record(const char *event, const struct evt_event_format *f,
			    const struct evt_event_format *enter_f,
			    const uint8_t *payload, size_t size, char *out,
			    size_t out_size);

#endif
