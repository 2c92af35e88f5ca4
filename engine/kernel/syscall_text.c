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
#include "syscall_names.h"
#include "syscall_text.h"

#define MAX_ARGS 6

/* What the format of a system call's enter event says of its arguments. */
struct args {
	bool loaded;		/* tried: nargs < 0 when it has no format */
	int nargs;
	struct arg {
		char name[32];
		bool pointer, is_signed, hex, octal;
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

static void describe(struct arg *a, const struct evt_field_format *f)
{
	const char *type = f->type;

	snprintf(a->name, sizeof(a->name), "%s", f->name);
	a->pointer = strchr(type, '*') != NULL;
	a->bits = type_bits(type);
	a->is_signed = !a->pointer && !strstr(type, "unsigned") &&
		       strncmp(type, "u", 1) && strncmp(type, "__u", 3) &&
		       strcmp(type, "size_t") && strcmp(type, "umode_t");
	a->hex = strstr(f->name, "flags") || !strcmp(f->name, "prot") ||
		 !strcmp(f->name, "cmd") || !strcmp(f->name, "request");
	a->octal = !strcmp(type, "umode_t");
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
			describe(&a->a[a->nargs++], &e.format.fields[i]);
	evt_kernel_event_free(&e);
	return a;
}

static int put_value(char *out, size_t size, const struct arg *a, uint64_t v)
{
	if (a->bits == 32)
		v = a->is_signed ? (uint64_t)(int64_t)(int32_t)v : (uint32_t)v;
	if (a->pointer)
		return v ? snprintf(out, size, "0x%" PRIx64, v) :
			   snprintf(out, size, "NULL");
	if (a->octal)
		return snprintf(out, size, v ? "0%" PRIo64 : "0", v);
	if (a->hex)
		return snprintf(out, size, "0x%" PRIx64, v);
	if (a->is_signed)
		return snprintf(out, size, "%" PRId64, (int64_t)v);
	return snprintf(out, size, "%" PRIu64, v);
}

void evt_syscall_text_call(struct evt_syscall_text *t, long nr,
			   const uint64_t args[6], char *out, size_t size)
{
	const struct args *a = args_of(t, nr);
	char name[64];
	size_t n;
	int i;

	n = (size_t)snprintf(out, size, "%s(", evt_syscall_text_name(nr, name,
								      sizeof(name)));
	for (i = 0; i < (a ? a->nargs : MAX_ARGS) && n < size; i++) {
		if (i)
			n += (size_t)snprintf(out + n, size - n, ", ");
		if (n >= size)
			break;
		if (a) {
			n += (size_t)snprintf(out + n, size - n, "%s=", a->a[i].name);
			if (n < size)
				n += (size_t)put_value(out + n, size - n, &a->a[i], args[i]);
		} else {
			n += (size_t)snprintf(out + n, size - n, "0x%" PRIx64, args[i]);
		}
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
