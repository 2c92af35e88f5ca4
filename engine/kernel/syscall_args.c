/*
 * syscall_args.c - system call arguments in strace's notation (see
 * syscall_args.h).  The names are this architecture's, from the C
 * library's headers; a value with bits no name covers shows them in hex
 * after the names (O_RDONLY|0x40000000).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/futex.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "syscall_args.h"
#include "syscall_fields.h"
#include "syscall_memory.h"

struct name {
	uint64_t value;
	const char *name;
};

#define N(x) { (uint64_t)(x), #x }
#define COUNT(a) (sizeof(a) / sizeof(*(a)))

static const struct name open_flags[] = {
	N(O_CREAT), N(O_EXCL), N(O_NOCTTY), N(O_TRUNC), N(O_APPEND),
	N(O_NONBLOCK), N(O_DSYNC), N(O_ASYNC), N(O_DIRECT), N(O_LARGEFILE),
	N(O_DIRECTORY), N(O_NOFOLLOW), N(O_NOATIME), N(O_CLOEXEC),
	N(O_PATH), N(O_TMPFILE), N(O_SYNC),
};
static const struct name at_flags[] = {
	N(AT_SYMLINK_NOFOLLOW), N(AT_REMOVEDIR), N(AT_SYMLINK_FOLLOW),
	N(AT_NO_AUTOMOUNT), N(AT_EMPTY_PATH), N(AT_EACCESS),
};
static const struct name prot[] = {
	N(PROT_READ), N(PROT_WRITE), N(PROT_EXEC), N(PROT_GROWSDOWN),
	N(PROT_GROWSUP),
};
static const struct name map_flags[] = {
	N(MAP_FIXED), N(MAP_ANONYMOUS), N(MAP_GROWSDOWN), N(MAP_DENYWRITE),
	N(MAP_EXECUTABLE), N(MAP_LOCKED), N(MAP_NORESERVE), N(MAP_POPULATE),
	N(MAP_NONBLOCK), N(MAP_STACK), N(MAP_HUGETLB), N(MAP_SYNC),
	N(MAP_FIXED_NOREPLACE), N(MAP_32BIT),
};
static const struct name map_type[] = {
	N(MAP_SHARED), N(MAP_PRIVATE), N(MAP_SHARED_VALIDATE),
};
static const struct name sigmask_how[] = {
	N(SIG_BLOCK), N(SIG_UNBLOCK), N(SIG_SETMASK),
};
static const struct name families[] = {
	N(AF_UNSPEC), N(AF_UNIX), N(AF_INET), N(AF_INET6), N(AF_NETLINK),
	N(AF_PACKET), N(AF_BLUETOOTH), N(AF_ALG), N(AF_VSOCK), N(AF_KEY),
	N(AF_APPLETALK), N(AF_X25), N(AF_CAN), N(AF_TIPC), N(AF_XDP),
};
static const struct name sock_types[] = {
	N(SOCK_STREAM), N(SOCK_DGRAM), N(SOCK_RAW), N(SOCK_RDM),
	N(SOCK_SEQPACKET), N(SOCK_DCCP), N(SOCK_PACKET),
};
static const struct name sock_flags[] = {
	N(SOCK_NONBLOCK), N(SOCK_CLOEXEC),
};
static const struct name fcntl_cmds[] = {
	N(F_DUPFD), N(F_GETFD), N(F_SETFD), N(F_GETFL), N(F_SETFL),
	N(F_GETLK), N(F_SETLK), N(F_SETLKW), N(F_SETOWN), N(F_GETOWN),
	N(F_SETSIG), N(F_GETSIG), N(F_SETOWN_EX), N(F_GETOWN_EX),
	N(F_OFD_GETLK), N(F_OFD_SETLK), N(F_OFD_SETLKW), N(F_SETLEASE),
	N(F_GETLEASE), N(F_NOTIFY), N(F_DUPFD_CLOEXEC), N(F_SETPIPE_SZ),
	N(F_GETPIPE_SZ), N(F_ADD_SEALS), N(F_GET_SEALS),
};
static const struct name whence[] = {
	N(SEEK_SET), N(SEEK_CUR), N(SEEK_END), N(SEEK_DATA), N(SEEK_HOLE),
};
static const struct name clone_flags[] = {
	N(CLONE_VM), N(CLONE_FS), N(CLONE_FILES), N(CLONE_SIGHAND),
	N(CLONE_PIDFD), N(CLONE_PTRACE), N(CLONE_VFORK), N(CLONE_PARENT),
	N(CLONE_THREAD), N(CLONE_NEWNS), N(CLONE_SYSVSEM), N(CLONE_SETTLS),
	N(CLONE_PARENT_SETTID), N(CLONE_CHILD_CLEARTID), N(CLONE_DETACHED),
	N(CLONE_UNTRACED), N(CLONE_CHILD_SETTID), N(CLONE_NEWCGROUP),
	N(CLONE_NEWUTS), N(CLONE_NEWIPC), N(CLONE_NEWUSER), N(CLONE_NEWPID),
	N(CLONE_NEWNET), N(CLONE_IO),
};
static const struct name access_modes[] = {
	N(R_OK), N(W_OK), N(X_OK),
};
static const struct name futex_ops[] = {
	N(FUTEX_WAIT), N(FUTEX_WAKE), N(FUTEX_FD), N(FUTEX_REQUEUE),
	N(FUTEX_CMP_REQUEUE), N(FUTEX_WAKE_OP), N(FUTEX_LOCK_PI),
	N(FUTEX_UNLOCK_PI), N(FUTEX_TRYLOCK_PI), N(FUTEX_WAIT_BITSET),
	N(FUTEX_WAKE_BITSET), N(FUTEX_WAIT_REQUEUE_PI),
	N(FUTEX_CMP_REQUEUE_PI), N(FUTEX_LOCK_PI2),
};
static const struct name clocks[] = {
	N(CLOCK_REALTIME), N(CLOCK_MONOTONIC), N(CLOCK_PROCESS_CPUTIME_ID),
	N(CLOCK_THREAD_CPUTIME_ID), N(CLOCK_MONOTONIC_RAW),
	N(CLOCK_REALTIME_COARSE), N(CLOCK_MONOTONIC_COARSE), N(CLOCK_BOOTTIME),
	N(CLOCK_REALTIME_ALARM), N(CLOCK_BOOTTIME_ALARM), N(CLOCK_TAI),
};
static const struct name wait_options[] = {
	N(WNOHANG), N(WUNTRACED), N(WEXITED), N(WCONTINUED), N(WNOWAIT),
	N(__WNOTHREAD), N(__WALL), N(__WCLONE),
};
static const struct name madvise_advice[] = {
	N(MADV_NORMAL), N(MADV_RANDOM), N(MADV_SEQUENTIAL), N(MADV_WILLNEED),
	N(MADV_DONTNEED), N(MADV_FREE), N(MADV_REMOVE), N(MADV_DONTFORK),
	N(MADV_DOFORK), N(MADV_MERGEABLE), N(MADV_UNMERGEABLE),
	N(MADV_HUGEPAGE), N(MADV_NOHUGEPAGE), N(MADV_DONTDUMP),
	N(MADV_DODUMP), N(MADV_WIPEONFORK), N(MADV_KEEPONFORK), N(MADV_COLD),
	N(MADV_PAGEOUT), N(MADV_HWPOISON),
};
static const struct name shutdown_how[] = {
	N(SHUT_RD), N(SHUT_WR), N(SHUT_RDWR),
};

/* The name of v, or a number when none has it. */
static int put_enum(const struct name *t, size_t n, uint64_t v, bool is_signed,
		    char *out, size_t size)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (t[i].value == v)
			return snprintf(out, size, "%s", t[i].name);
	return is_signed ? snprintf(out, size, "%" PRId64, (int64_t)v) :
			   snprintf(out, size, "%#" PRIx64, v);
}

/* The names of v's bits after what out holds already (n bytes, first:
 * nothing yet), and the rest in hex; "0" for nothing at all. */
static int put_flags(const struct name *t, size_t nt, uint64_t v, int n,
		     bool first, char *out, size_t size)
{
	size_t i;

	for (i = 0; i < nt && v; i++) {
		if (t[i].value && (v & t[i].value) == t[i].value) {
			n += snprintf(out + n, (size_t)n < size ? size - (size_t)n : 0,
				      "%s%s", first ? "" : "|", t[i].name);
			v &= ~t[i].value;
			first = false;
		}
	}
	if (v || first)
		n += snprintf(out + n, (size_t)n < size ? size - (size_t)n : 0,
			      first ? "%#" PRIx64 : "|%#" PRIx64, v);
	return n;
}

static int put_signal(uint64_t v, char *out, size_t size)
{
	int sig = (int)v;
	const char *abbrev = sig > 0 ? sigabbrev_np(sig) : NULL;

	if (abbrev)
		return snprintf(out, size, "SIG%s", abbrev);
	if (sig >= SIGRTMIN && sig <= SIGRTMAX)
		return snprintf(out, size, "SIGRT_%d", sig - SIGRTMIN);
	return snprintf(out, size, "%d", sig);
}

static int put_open_flags(uint64_t v, char *out, size_t size)
{
	static const struct name acc[] = { N(O_RDONLY), N(O_WRONLY), N(O_RDWR) };
	uint64_t mode = v & O_ACCMODE, rest = v & ~(uint64_t)O_ACCMODE;
	int n = put_enum(acc, COUNT(acc), mode, false, out, size);

	/* O_SYNC holds O_DSYNC's bit, O_TMPFILE O_DIRECTORY's: the wider
	 * name first. */
	if ((rest & O_TMPFILE) == O_TMPFILE) {
		n += snprintf(out + n, (size_t)n < size ? size - (size_t)n : 0,
			      "|O_TMPFILE");
		rest &= ~(uint64_t)O_TMPFILE;
	}
	if ((rest & O_SYNC) == O_SYNC) {
		n += snprintf(out + n, (size_t)n < size ? size - (size_t)n : 0,
			      "|O_SYNC");
		rest &= ~(uint64_t)O_SYNC;
	}
	return rest ? put_flags(open_flags, COUNT(open_flags), rest, n, false, out,
				size) : n;
}

static int put_map_flags(uint64_t v, char *out, size_t size)
{
	int n = put_enum(map_type, COUNT(map_type), v & MAP_TYPE, false, out, size);

	v &= ~(uint64_t)MAP_TYPE;
	return v ? put_flags(map_flags, COUNT(map_flags), v, n, false, out, size) : n;
}

static int put_sock_type(uint64_t v, char *out, size_t size)
{
	uint64_t flags = v & (SOCK_NONBLOCK | SOCK_CLOEXEC);
	int n = put_enum(sock_types, COUNT(sock_types), v & ~flags, false, out, size);

	return flags ? put_flags(sock_flags, COUNT(sock_flags), flags, n, false,
				 out, size) : n;
}

/* clone's flags hold the child's exit signal in their low byte. */
static int put_clone_flags(uint64_t v, char *out, size_t size)
{
	uint64_t sig = v & CSIGNAL;
	int n = 0;

	v &= ~(uint64_t)CSIGNAL;
	if (v)
		n = put_flags(clone_flags, COUNT(clone_flags), v, 0, true, out, size);
	if (sig || !v) {
		if (n)
			n += snprintf(out + n, (size_t)n < size ? size - (size_t)n : 0, "|");
		n += put_signal(sig, out + n, (size_t)n < size ? size - (size_t)n : 0);
	}
	return n;
}

static int put_futex_op(uint64_t v, char *out, size_t size)
{
	uint64_t cmd = v & FUTEX_CMD_MASK;
	int n = put_enum(futex_ops, COUNT(futex_ops), cmd, false, out, size);

	if (v & FUTEX_PRIVATE_FLAG)
		n += snprintf(out + n, (size_t)n < size ? size - (size_t)n : 0,
			      "_PRIVATE");
	if (v & FUTEX_CLOCK_REALTIME)
		n += snprintf(out + n, (size_t)n < size ? size - (size_t)n : 0,
			      "|FUTEX_CLOCK_REALTIME");
	return n;
}

bool evt_syscall_fcntl_has_arg(uint64_t cmd)
{
	switch ((int)cmd) {
	case F_GETFD: case F_GETFL: case F_GETOWN: case F_GETSIG:
	case F_GETLEASE: case F_GETPIPE_SZ: case F_GET_SEALS:
		return false;
	}
	return true;
}

bool evt_syscall_open_has_mode(uint64_t flags)
{
	return (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE;
}

static bool is(const char *s, const char *a, const char *b)
{
	return !strcmp(s, a) || (b && !strcmp(s, b));
}

static bool ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), m = strlen(tail);

	return n >= m && !strcmp(s + n - m, tail);
}

enum evt_arg_show evt_syscall_arg_show(const char *call, const char *arg,
				       bool pointer, bool is_signed,
				       unsigned bits)
{
	/* Addresses the kernel types unsigned long. */
	if (pointer || is(arg, "addr", "start") || is(arg, "brk", "new_addr") ||
	    is(arg, "old_addr", NULL) || (is(call, "ioctl", NULL) && is(arg, "arg", NULL)))
		return EVT_SHOW_POINTER;
	if (is(arg, "dfd", "olddfd") || is(arg, "newdfd", "dirfd"))
		return EVT_SHOW_DIRFD;
	if (is(arg, "fd", "oldfd") || is(arg, "newfd", "epfd") ||
	    is(arg, "fd_in", "fd_out") || is(arg, "fildes", "out_fd") ||
	    is(arg, "in_fd", NULL))
		return EVT_SHOW_FD;
	if (is(call, "open", "openat") && is(arg, "flags", NULL))
		return EVT_SHOW_OPEN_FLAGS;
	if (is(arg, "mode", "umode") && is(call, "access", "faccessat"))
		return EVT_SHOW_ACCESS_MODE;
	if (is(call, "faccessat2", NULL) && is(arg, "mode", NULL))
		return EVT_SHOW_ACCESS_MODE;
	if ((is(arg, "flag", "flags") || is(arg, "at_flags", NULL)) &&
	    (ends_with(call, "at") || ends_with(call, "at2") ||
	     is(call, "statx", "name_to_handle_at") || is(call, "open_tree", NULL)) &&
	    !is(call, "openat", NULL))
		return EVT_SHOW_AT_FLAGS;
	if (is(arg, "prot", NULL))
		return EVT_SHOW_PROT;
	if (is(call, "mmap", NULL) && is(arg, "flags", NULL))
		return EVT_SHOW_MAP_FLAGS;
	if (is(arg, "sig", "signum") || (is(arg, "signal", NULL) && !pointer))
		return EVT_SHOW_SIGNAL;
	if (is(call, "rt_sigprocmask", NULL) && is(arg, "how", NULL))
		return EVT_SHOW_SIGMASK_HOW;
	if (is(call, "socket", "socketpair") && is(arg, "family", NULL))
		return EVT_SHOW_FAMILY;
	if (is(call, "socket", "socketpair") && is(arg, "type", NULL))
		return EVT_SHOW_SOCK_TYPE;
	if (is(call, "fcntl", NULL) && is(arg, "cmd", NULL))
		return EVT_SHOW_FCNTL_CMD;
	if (is(arg, "whence", "origin"))
		return EVT_SHOW_WHENCE;
	if (is(call, "clone", NULL) && is(arg, "clone_flags", NULL))
		return EVT_SHOW_CLONE_FLAGS;
	if (is(call, "futex", NULL) && is(arg, "op", NULL))
		return EVT_SHOW_FUTEX_OP;
	if (is(arg, "which_clock", "clockid"))
		return EVT_SHOW_CLOCK;
	if (is(call, "wait4", "waitid") && is(arg, "options", NULL))
		return EVT_SHOW_WAIT_OPTIONS;
	if (is(call, "madvise", "process_madvise") && is(arg, "behavior", NULL))
		return EVT_SHOW_MADVISE;
	if (is(call, "shutdown", NULL) && is(arg, "how", NULL))
		return EVT_SHOW_SHUTDOWN;
	if (is(arg, "mode", NULL) && (strstr(call, "open") || strstr(call, "mkdir") ||
				     strstr(call, "chmod") || strstr(call, "mknod") ||
				     is(call, "creat", NULL)))
		return EVT_SHOW_OCTAL;
	if (strstr(arg, "flags") || is(arg, "cmd", "request"))
		return EVT_SHOW_HEX;
	/* Pids, counts and results the kernel types unsigned are still
	 * what the program passed: an int -1 shows as -1. */
	if (is_signed || bits == 32)
		return EVT_SHOW_SIGNED;
	return EVT_SHOW_UNSIGNED;
}

/*
 * Text appended as snprintf would (cut to fit out's size bytes, NUL
 * ended; the length it wanted returned), without parsing a format: a
 * trace prints these by the hundred thousand a second.
 */
static int put_text(char *out, size_t size, const char *s, size_t len)
{
	if (size) {
		size_t fit = len < size ? len : size - 1;

		memcpy(out, s, fit);
		out[fit] = '\0';
	}
	return (int)len;
}

/* v in decimal (signed: as int64_t) or, hex, as %#x. */
static int put_number(char *out, size_t size, uint64_t v, bool is_signed,
		      bool hex)
{
	char buf[24], *at = buf + sizeof(buf);
	bool minus = is_signed && (int64_t)v < 0;

	if (minus)
		v = -v;
	do {
		*--at = "0123456789abcdef"[hex ? v % 16 : v % 10];
		v = hex ? v / 16 : v / 10;
	} while (v);
	if (hex && !(at[0] == '0' && at + 1 == buf + sizeof(buf))) {
		*--at = 'x';
		*--at = '0';
	}
	if (minus)
		*--at = '-';
	return put_text(out, size, at, (size_t)(buf + sizeof(buf) - at));
}

int evt_syscall_arg_put(enum evt_arg_show how, unsigned bits, uint64_t v,
			char *out, size_t size)
{
	/* A descriptor is an int even where the kernel takes a long (mmap). */
	if ((bits == 32 && how != EVT_SHOW_UNSIGNED && how != EVT_SHOW_POINTER) ||
	    how == EVT_SHOW_FD || how == EVT_SHOW_DIRFD)
		v = (uint64_t)(int64_t)(int32_t)v;
	else if (bits == 32)
		v = (uint32_t)v;
	switch (how) {
	case EVT_SHOW_POINTER:
		return v ? put_number(out, size, v, false, true) :
			   put_text(out, size, "NULL", 4);
	case EVT_SHOW_DIRFD:
		if ((int)v == AT_FDCWD)
			return put_text(out, size, "AT_FDCWD", 8);
		/* fall through */
	case EVT_SHOW_FD:
	case EVT_SHOW_SIGNED:
		return put_number(out, size, v, true, false);
	case EVT_SHOW_UNSIGNED:
		return put_number(out, size, v, false, false);
	case EVT_SHOW_HEX:
		return put_number(out, size, v, false, true);
	case EVT_SHOW_OCTAL:
		return snprintf(out, size, "%#" PRIo64, v & 07777777);
	case EVT_SHOW_OPEN_FLAGS:
		return put_open_flags(v & 0xffffffff, out, size);
	case EVT_SHOW_AT_FLAGS:
		return put_flags(at_flags, COUNT(at_flags), v & 0xffffffff, 0, true,
				 out, size);
	case EVT_SHOW_PROT:
		if (!v)
			return snprintf(out, size, "PROT_NONE");
		return put_flags(prot, COUNT(prot), v, 0, true, out, size);
	case EVT_SHOW_MAP_FLAGS:
		return put_map_flags(v & 0xffffffff, out, size);
	case EVT_SHOW_SIGNAL:
		return put_signal(v, out, size);
	case EVT_SHOW_SIGMASK_HOW:
		return put_enum(sigmask_how, COUNT(sigmask_how), v, true, out, size);
	case EVT_SHOW_FAMILY:
		return put_enum(families, COUNT(families), v, true, out, size);
	case EVT_SHOW_SOCK_TYPE:
		return put_sock_type(v & 0xffffffff, out, size);
	case EVT_SHOW_FCNTL_CMD:
		return put_enum(fcntl_cmds, COUNT(fcntl_cmds), v, true, out, size);
	case EVT_SHOW_WHENCE:
		return put_enum(whence, COUNT(whence), v & 0xffffffff, true, out, size);
	case EVT_SHOW_CLONE_FLAGS:
		return put_clone_flags(v, out, size);
	case EVT_SHOW_ACCESS_MODE:
		if (!v)
			return snprintf(out, size, "F_OK");
		return put_flags(access_modes, COUNT(access_modes), v & 0xffffffff, 0,
				 true, out, size);
	case EVT_SHOW_FUTEX_OP:
		return put_futex_op(v & 0xffffffff, out, size);
	case EVT_SHOW_CLOCK:
		return put_enum(clocks, COUNT(clocks), v, true, out, size);
	case EVT_SHOW_WAIT_OPTIONS:
		return put_flags(wait_options, COUNT(wait_options), v & 0xffffffff, 0,
				 true, out, size);
	case EVT_SHOW_MADVISE:
		return put_enum(madvise_advice, COUNT(madvise_advice), v, true, out, size);
	case EVT_SHOW_SHUTDOWN:
		return put_enum(shutdown_how, COUNT(shutdown_how), v, true, out, size);
	}
	return snprintf(out, size, "%#" PRIx64, v);
}

/* ---- whole calls ---- */

static bool is_word(const char *type, const char *word)
{
	size_t n = strlen(word);
	const char *p = type;

	while ((p = strstr(p, word))) {
		if ((p == type || p[-1] == ' ') && (!p[n] || p[n] == ' '))
			return true;
		p += n;
	}
	return false;
}

/* How wide the C type is: the kernel stores every argument as a long. */
static unsigned type_bits(const char *type)
{
	static const char *const narrow[] = {
		"int", "pid_t", "uid_t", "gid_t", "qid_t", "mqd_t", "clockid_t",
		"key_t", "rwf_t", "umode_t", "u32", "s32", "__u32", "__s32",
		"old_uid_t", "old_gid_t",
	};
	size_t i;

	if (is_word(type, "long") || strchr(type, '*'))
		return 64;
	for (i = 0; i < sizeof(narrow) / sizeof(*narrow); i++)
		if (is_word(type, narrow[i]))
			return 32;
	return 64;
}

static void describe(struct evt_syscall_arg *a, const char *call,
		     const struct evt_field_format *f)
{
	/* (an argument whose copied bytes took its field's place) */
	bool copied = f->kind == EVT_FIELD_STRING || f->kind == EVT_FIELD_SEQUENCE;
	const char *type = copied ? "void *" : f->type;
	bool pointer = strchr(type, '*') != NULL;

	a->bits = type_bits(type);
	a->how = evt_syscall_arg_show(call, f->name, pointer,
				      !pointer && !strstr(type, "unsigned") &&
				      strncmp(type, "u", 1) && strncmp(type, "__u", 3) &&
				      strcmp(type, "size_t"), a->bits);
}

/* The arguments of call as the fields of its sys_enter format say. */
void evt_syscall_args_describe(struct evt_syscall_args *a, const char *call,
			       const struct evt_event_format *f)
{
	uint32_t i;

	a->nargs = 0;
	for (i = 0; i < f->nfields && a->nargs < EVT_SYSCALL_MAX_ARGS &&
		    strcmp(f->fields[i].name, EVT_SYSCALL_CAPTURE_FIELD); i++)
		if (strcmp(f->fields[i].name, "__syscall_nr") &&
		    strcmp(f->fields[i].name, EVT_SYSCALL_MEMORY_FIELD))
			describe(&a->a[a->nargs++], call, &f->fields[i]);
	a->open_mode = (!strcmp(call, "open") || !strcmp(call, "openat")) &&
		       a->nargs >= 2 && a->a[a->nargs - 2].how == EVT_SHOW_OPEN_FLAGS &&
		       a->a[a->nargs - 1].how == EVT_SHOW_OCTAL;
	a->fcntl_arg = !strcmp(call, "fcntl") && a->nargs == 3 &&
		       a->a[1].how == EVT_SHOW_FCNTL_CMD;
}

int evt_syscall_call_put(const char *name, const struct evt_syscall_args *a,
			 const uint64_t args[6], const char *const *shown,
			 unsigned first, char *out, size_t size)
{
	size_t n = 0;
	int i, nargs = a ? a->nargs : EVT_SYSCALL_MAX_ARGS;

	/* strace's open(at) shows the mode only when the flags use it. */
	if (a && a->open_mode && !evt_syscall_open_has_mode(args[nargs - 2]))
		nargs--;
	if (a && a->fcntl_arg && !evt_syscall_fcntl_has_arg(args[1]))
		nargs--;
	if (size)
		out[0] = '\0';
	if (!first) {
		n = (size_t)put_text(out, size, name, strlen(name));
		if (n < size)
			n += (size_t)put_text(out + n, size - n, "(", 1);
	}
	for (i = (int)first; i < nargs && n < size; i++) {
		if (i > (int)first)
			n += (size_t)put_text(out + n, size - n, ", ", 2);
		if (n >= size)
			break;
		if (shown && shown[i])
			n += (size_t)put_text(out + n, size - n, shown[i], strlen(shown[i]));
		else if (a)
			n += (size_t)evt_syscall_arg_put(a->a[i].how, a->a[i].bits,
							 args[i], out + n, size - n);
		else
			n += (size_t)put_number(out + n, size - n, args[i], false, true);
	}
	if (n < size)
		n += (size_t)put_text(out + n, size - n, ")", 1);
	return n < size ? (int)n : (int)size - 1;
}

/* si_code's names: those any signal may have, and those of one signal
 * (their values overlap from one signal to another). */
static const struct name si_codes[] = {
	N(SI_USER), N(SI_KERNEL), N(SI_QUEUE), N(SI_TIMER), N(SI_MESGQ),
	N(SI_ASYNCIO), N(SI_SIGIO), N(SI_TKILL),
};
static const struct name sigchld_codes[] = {
	N(CLD_EXITED), N(CLD_KILLED), N(CLD_DUMPED), N(CLD_TRAPPED),
	N(CLD_STOPPED), N(CLD_CONTINUED),
};
static const struct name sigsegv_codes[] = {
	N(SEGV_MAPERR), N(SEGV_ACCERR), N(SEGV_BNDERR), N(SEGV_PKUERR),
};
static const struct name sigbus_codes[] = {
	N(BUS_ADRALN), N(BUS_ADRERR), N(BUS_OBJERR),
};
static const struct name sigfpe_codes[] = {
	N(FPE_INTDIV), N(FPE_INTOVF), N(FPE_FLTDIV), N(FPE_FLTOVF),
	N(FPE_FLTUND), N(FPE_FLTRES), N(FPE_FLTINV), N(FPE_FLTSUB),
};
static const struct name sigill_codes[] = {
	N(ILL_ILLOPC), N(ILL_ILLOPN), N(ILL_ILLADR), N(ILL_ILLTRP),
	N(ILL_PRVOPC), N(ILL_PRVREG), N(ILL_COPROC), N(ILL_BADSTK),
};
static const struct name sigsys_codes[] = {
	{ 1, "SYS_SECCOMP" },
};

void evt_syscall_signal_put(int sig, int code, char *out, size_t size)
{
	static const struct { int sig; const struct name *t; size_t n; } own[] = {
		{ SIGCHLD, sigchld_codes, COUNT(sigchld_codes) },
		{ SIGSEGV, sigsegv_codes, COUNT(sigsegv_codes) },
		{ SIGBUS, sigbus_codes, COUNT(sigbus_codes) },
		{ SIGFPE, sigfpe_codes, COUNT(sigfpe_codes) },
		{ SIGILL, sigill_codes, COUNT(sigill_codes) },
		{ SIGSYS, sigsys_codes, COUNT(sigsys_codes) },
	};
	const struct name *t = si_codes;
	size_t nt = COUNT(si_codes), i;
	char name[32], what[48];

	for (i = 0; code > 0 && code != SI_KERNEL && i < COUNT(own); i++)
		if (own[i].sig == sig) {
			t = own[i].t;
			nt = own[i].n;
		}
	put_signal((uint64_t)(unsigned)sig, name, sizeof(name));
	put_enum(t, nt, (uint64_t)(int64_t)code, true, what, sizeof(what));
	snprintf(out, size, "--- %s {si_signo=%s, si_code=%s} ---", name, name, what);
}

static bool returns_address(const char *name)
{
	static const char *const calls[] = { "mmap", "mremap", "brk", "shmat" };
	size_t i;

	for (i = 0; name && i < sizeof(calls) / sizeof(*calls); i++)
		if (!strcmp(name, calls[i]))
			return true;
	return false;
}

void evt_syscall_ret_put(const char *call, int64_t ret, char *out, size_t size)
{
	/* The kernel's own, which a signal's handling turns into a restart
	 * or EINTR before the program sees them. */
	static const char *const restart[] = {
		"ERESTARTSYS (To be restarted if SA_RESTART is set)",
		"ERESTARTNOINTR (To be restarted)",
		"ERESTARTNOHAND (To be restarted if no handler)",
		"ENOIOCTLCMD (Inappropriate ioctl for device)",
		"ERESTART_RESTARTBLOCK (Interrupted by signal)",
	};

	if (ret <= -512 && ret >= -516) {
		snprintf(out, size, "? %s", restart[-ret - 512]);
	} else if (ret < 0 && ret >= -4095) {
		const char *err = strerrorname_np((int)-ret);

		if (err)
			snprintf(out, size, "-1 %s (%s)", err, strerror((int)-ret));
		else
			snprintf(out, size, "-1 errno %d", (int)-ret);
	} else if (returns_address(call)) {
		if (ret)
			put_number(out, size, (uint64_t)ret, false, true);
		else
			put_text(out, size, "0x0", 3);
	} else {
		put_number(out, size, (uint64_t)ret, true, false);
	}
}

/* An integer field of 1 to 8 bytes, sign-extended when it is signed. */
static uint64_t field_value(const struct evt_field_format *fd, const uint8_t *p)
{
	unsigned bytes = fd->size_bits / 8;
	uint64_t v = 0;

	memcpy(&v, p, bytes > 8 ? 8 : bytes);
	if (fd->is_signed && bytes < 8 && (v >> (bytes * 8 - 1)) & 1)
		v |= ~0ull << (bytes * 8);
	return v;
}

/* The resumed call's text without its entry's format: the arguments
 * from the first shown to the last, the others in hex. */
static int resumed_bare(const uint64_t args[6], const char *const *shown,
			unsigned first, char *out, size_t size)
{
	unsigned last = 5, i;
	size_t n = 0;

	while (last > first && !shown[last])
		last--;
	for (i = first; i <= last && n < size; i++) {
		if (i > first)
			n += (size_t)put_text(out + n, size - n, ", ", 2);
		if (n >= size)
			break;
		if (shown[i])
			n += (size_t)put_text(out + n, size - n, shown[i], strlen(shown[i]));
		else
			n += (size_t)put_number(out + n, size - n, args[i], false, true);
	}
	if (n < size)
		n += (size_t)put_text(out + n, size - n, ")", 1);
	return n < size ? (int)n : (int)size - 1;
}

/* A syscalls/ record's text from its values: the call, or its result
 * with what its exit copied. */
static int record_text(const char *call, bool enter,
		       const struct evt_event_format *f,
		       const struct evt_event_format *enter_f,
		       const uint64_t values[EVT_SYSCALL_MAX_ARGS], unsigned nvalues,
		       const struct evt_cap_bytes *mem, int nmem,
		       const uint64_t args[EVT_SYSCALL_MAX_ARGS], bool have_args,
		       char *out, size_t out_size)
{
	char *texts[6] = { 0 };
	struct evt_syscall_args a;
	unsigned first;
	int n = -1;

	if (nmem > 0)	/* (-s was applied when it was copied) */
		evt_syscall_memory_texts(call, mem, (unsigned)nmem, UINT32_MAX, texts);
	if (enter) {
		evt_syscall_args_describe(&a, call, f);
		n = evt_syscall_call_put(call, &a, values, nmem > 0 ?
					 (const char *const *)texts : NULL, 0,
					 out, out_size);
		goto out;
	}
	if (nvalues != 1)
		goto out;
	n = snprintf(out, out_size, "<... %s resumed>", call);
	for (first = 0; first < 6 && !texts[first]; first++)
		;
	if (have_args && first < 6 && n >= 0 && (size_t)n < out_size) {
		if (enter_f) {
			evt_syscall_args_describe(&a, call, enter_f);
			n += evt_syscall_call_put(call, &a, args,
						  (const char *const *)texts, first,
						  out + n, out_size - (size_t)n);
		} else {
			n += resumed_bare(args, (const char *const *)texts, first,
					  out + n, out_size - (size_t)n);
		}
	}
	if (n >= 0 && (size_t)n + 3 < out_size) {
		memcpy(out + n, " = ", 4);
		evt_syscall_ret_put(call, (int64_t)values[0], out + n + 3,
				    out_size - (size_t)n - 3);
	}
	n = (int)strlen(out);
out:
	evt_syscall_memory_texts_free(texts);
	return n;
}

/* A record whose copied memory is in fields of its own (syscall_fields.h,
 * since 0.1.13); -2 when f is not so laid out. */
static int fields_text(const char *call, bool enter,
		       const struct evt_event_format *f,
		       const struct evt_event_format *enter_f,
		       const uint8_t *payload, size_t size, char *out,
		       size_t out_size)
{
	struct evt_capf roles[EVT_CAPF_FIELDS_MAX];
	struct evt_capf_read *r;
	int n, got;

	if (f->nfields > EVT_CAPF_FIELDS_MAX)
		return -2;
	got = evt_capf_roles(call, enter, f, roles);
	if (got <= 0)
		return got ? -1 : -2;
	if (!(r = malloc(sizeof(*r))))
		return -1;
	n = evt_capf_read(f, roles, payload, size, r) ? -1 :
	    record_text(call, enter, f, enter_f, r->values, r->nvalues, r->mem,
			(int)r->nmem, r->args, r->have_args, out, out_size);
	free(r);
	return n;
}

int evt_syscall_text_record(const char *event, const struct evt_event_format *f,
			    const struct evt_event_format *enter_f,
			    const uint8_t *payload, size_t size, char *out,
			    size_t out_size)
{
	bool enter = !strncmp(event, "sys_enter_", 10);
	const char *call = event + (enter ? 10 : 9);
	uint64_t values[EVT_SYSCALL_MAX_ARGS] = { 0 }, args[EVT_SYSCALL_MAX_ARGS] = { 0 };
	struct evt_cap_bytes mem[EVT_CAP_NARGS + 2 * EVT_CAP_VEC_MAX];
	const uint8_t *memory = NULL;
	size_t at = 0, memory_len = 0;
	bool have_args = false;
	unsigned n = 0;
	uint32_t i, count;
	int nmem = 0;
	long len;

	if ((!enter && strncmp(event, "sys_exit_", 9)) || !f->nfields ||
	    strcmp(f->fields[0].name, "__syscall_nr"))
		return -1;
	nmem = fields_text(call, enter, f, enter_f, payload, size, out, out_size);
	if (nmem != -2)
		return nmem;
	nmem = 0;
	for (i = 0; i < f->nfields; i++, at += (size_t)len) {
		const struct evt_field_format *fd = &f->fields[i];

		len = evt_event_field_bytes(fd, payload + at, size - at);
		if (len < 0)
			return -1;
		if (fd->kind == EVT_FIELD_SEQUENCE &&
		    !strcmp(fd->name, EVT_SYSCALL_MEMORY_FIELD) && len >= 4) {
			memcpy(&count, payload + at, 4);
			memory = payload + at + 4;
			memory_len = (size_t)len - 4;
			continue;
		}
		if (fd->kind != EVT_FIELD_INTEGER)
			return -1;
		if (i && n < EVT_SYSCALL_MAX_ARGS)
			values[n++] = field_value(fd, payload + at);
	}
	/* A trace of 0.1.8 to 0.1.12: the memory in a field of its own
	 * encoding. */
	if (memory)
		nmem = evt_syscall_memory_unpack(memory, memory_len, mem,
						 sizeof(mem) / sizeof(*mem), args,
						 &have_args);
	return record_text(call, enter, f, enter_f, values, n, mem, nmem, args,
			   have_args, out, out_size);
}
