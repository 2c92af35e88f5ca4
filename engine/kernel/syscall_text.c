/*
 * syscall_text.c - system calls as text (see syscall_text.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel_events.h"
#include "syscall_args.h"
#include "syscall_names.h"
#include "syscall_text.h"

#define MAX_ARGS 6

/* What the format of a system call's enter event says of its arguments. */
struct args {
	bool loaded;		/* tried: nargs < 0 when it has no format */
	int nargs;
	bool open_mode;		/* open/openat: mode shown only with O_CREAT */
	bool fcntl_arg;		/* fcntl: the argument shown only where used */
	struct arg {
		enum evt_arg_show how;
		unsigned bits;	/* of its C type */
	} a[MAX_ARGS];
};

struct evt_syscall_text {
	struct args *by_nr;
	long n;
};

struct evt_syscall_text *evt_syscall_text_new(void)
{
	return calloc(1, sizeof(struct evt_syscall_text));
}

void evt_syscall_text_free(struct evt_syscall_text *t)
{
	if (t)
		free(t->by_nr);
	free(t);
}

const char *evt_syscall_text_name(long nr, char *out, size_t size)
{
	const char *name = evt_syscall_name(nr);

	if (name)
		snprintf(out, size, "%s", name);
	else
		snprintf(out, size, "syscall_%ld", nr);
	return out;
}

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

static void describe(struct arg *a, const char *call,
		     const struct evt_field_format *f)
{
	const char *type = f->type;
	bool pointer = strchr(type, '*') != NULL;

	a->bits = type_bits(type);
	a->how = evt_syscall_arg_show(call, f->name, pointer,
				      !pointer && !strstr(type, "unsigned") &&
				      strncmp(type, "u", 1) && strncmp(type, "__u", 3) &&
				      strcmp(type, "size_t"), a->bits);
}

static const struct args *args_of(struct evt_syscall_text *t, long nr)
{
	char path[128], err[300], name[64];
	struct evt_kernel_event e;
	struct args *a;
	uint32_t i;

	if (nr < 0 || nr > 4096)
		return NULL;
	if (nr >= t->n) {
		struct args *grown = realloc(t->by_nr, (nr + 1) * sizeof(*grown));

		if (!grown)
			return NULL;
		memset(grown + t->n, 0, (nr + 1 - t->n) * sizeof(*grown));
		t->by_nr = grown;
		t->n = nr + 1;
	}
	a = &t->by_nr[nr];
	if (a->loaded)
		return a->nargs < 0 ? NULL : a;
	a->loaded = true;
	a->nargs = -1;
	snprintf(path, sizeof(path), "kernel/syscalls/sys_enter_%s",
		 evt_syscall_text_name(nr, name, sizeof(name)));
	if (!evt_syscall_name(nr) || evt_kernel_event_load(path, &e, err, sizeof(err)))
		return NULL;
	a->nargs = 0;
	for (i = 0; i < e.format.nfields && a->nargs < MAX_ARGS; i++)
		if (strcmp(e.format.fields[i].name, "__syscall_nr"))
			describe(&a->a[a->nargs++], name, &e.format.fields[i]);
	a->open_mode = (!strcmp(name, "open") || !strcmp(name, "openat")) &&
		       a->nargs >= 2 && a->a[a->nargs - 2].how == EVT_SHOW_OPEN_FLAGS &&
		       a->a[a->nargs - 1].how == EVT_SHOW_OCTAL;
	a->fcntl_arg = !strcmp(name, "fcntl") && a->nargs == 3 &&
		       a->a[1].how == EVT_SHOW_FCNTL_CMD;
	evt_kernel_event_free(&e);
	return a;
}

void evt_syscall_text_call(struct evt_syscall_text *t, long nr,
			   const uint64_t args[6], char *out, size_t size)
{
	const struct args *a = args_of(t, nr);
	char name[64];
	size_t n;
	int i, nargs = a ? a->nargs : MAX_ARGS;

	/* strace's open(at) shows the mode only when the flags use it. */
	if (a && a->open_mode && !evt_syscall_open_has_mode(args[nargs - 2]))
		nargs--;
	if (a && a->fcntl_arg && !evt_syscall_fcntl_has_arg(args[1]))
		nargs--;
	n = (size_t)snprintf(out, size, "%s(", evt_syscall_text_name(nr, name,
								      sizeof(name)));
	for (i = 0; i < nargs && n < size; i++) {
		if (i)
			n += (size_t)snprintf(out + n, size - n, ", ");
		if (n >= size)
			break;
		if (a)
			n += (size_t)evt_syscall_arg_put(a->a[i].how, a->a[i].bits,
							 args[i], out + n, size - n);
		else
			n += (size_t)snprintf(out + n, size - n, "%#" PRIx64, args[i]);
	}
	if (n < size)
		snprintf(out + n, size - n, ")");
}

static bool returns_address(long nr)
{
	static const char *const calls[] = { "mmap", "mremap", "brk", "shmat" };
	const char *name = evt_syscall_name(nr);
	size_t i;

	for (i = 0; name && i < sizeof(calls) / sizeof(*calls); i++)
		if (!strcmp(name, calls[i]))
			return true;
	return false;
}

void evt_syscall_text_ret(long nr, int64_t ret, char *out, size_t size)
{
	if (ret < 0 && ret >= -4095) {
		const char *name = strerrorname_np((int)-ret);

		if (name)
			snprintf(out, size, "-1 %s (%s)", name, strerror((int)-ret));
		else
			snprintf(out, size, "-1 errno %d", (int)-ret);
	} else if (returns_address(nr)) {
		snprintf(out, size, "0x%" PRIx64, (uint64_t)ret);
	} else {
		snprintf(out, size, "%" PRId64, ret);
	}
}
