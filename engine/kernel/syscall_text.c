/*
 * syscall_text.c - system calls as text (see syscall_text.h).
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel_events.h"
#include "syscall_args.h"
#include "syscall_names.h"
#include "syscall_text.h"

/* What the format of a system call's enter event says of its arguments,
 * read once. */
struct args {
	bool loaded;		/* tried: a.nargs < 0 when it has no format */
	struct evt_syscall_args a;
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

	if (name) {
		size_t n = strlen(name) < size ? strlen(name) : size - 1;

		memcpy(out, name, n);	/* (snprintf's cost, per line) */
		out[n] = '\0';
	} else {
		snprintf(out, size, "syscall_%ld", nr);
	}
	return out;
}

int evt_syscall_enter_load(const char *call, struct evt_kernel_event *e,
			   char *err, size_t err_size)
{
	char path[128];

	snprintf(path, sizeof(path), "kernel/syscalls/sys_enter_%s", call);
	if (!evt_kernel_event_load(path, e, err, err_size))
		return 0;
	/* fstat, stat, lstat, uname: their events are the kernel's names */
	snprintf(path, sizeof(path), "kernel/syscalls/sys_enter_new%s", call);
	return evt_kernel_event_load(path, e, err, err_size);
}

static const struct evt_syscall_args *args_of(struct evt_syscall_text *t, long nr)
{
	char err[300], name[64];
	struct evt_kernel_event e;
	struct args *a;

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
		return a->a.nargs < 0 ? NULL : &a->a;
	a->loaded = true;
	a->a.nargs = -1;
	if (!evt_syscall_name(nr) ||
	    evt_syscall_enter_load(evt_syscall_text_name(nr, name, sizeof(name)), &e,
				   err, sizeof(err)))
		return NULL;
	evt_syscall_args_describe(&a->a, name, &e.format);
	evt_kernel_event_free(&e);
	return &a->a;
}

void evt_syscall_text_call(struct evt_syscall_text *t, long nr,
			   const uint64_t args[6], const char *const *shown,
			   char *out, size_t size)
{
	char name[64];

	evt_syscall_call_put(evt_syscall_text_name(nr, name, sizeof(name)),
			     args_of(t, nr), args, shown, 0, out, size);
}

void evt_syscall_text_resumed(struct evt_syscall_text *t, long nr,
			      const uint64_t args[6], const char *const *shown,
			      char *out, size_t size)
{
	char name[64];
	unsigned first;
	int n;

	evt_syscall_text_name(nr, name, sizeof(name));
	n = snprintf(out, size, "<... %s resumed>", name);
	for (first = 0; shown && first < 6 && !shown[first]; first++)
		;
	if (shown && first < 6 && n >= 0 && (size_t)n < size)
		evt_syscall_call_put(name, args_of(t, nr), args, shown, first,
				     out + n, size - (size_t)n);
}

void evt_syscall_text_ret(long nr, int64_t ret, char *out, size_t size)
{
	evt_syscall_ret_put(evt_syscall_name(nr), ret, out, size);
}

