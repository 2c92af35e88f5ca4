/*
 * kernel_capture.c - syscalls/ events from the eBPF program, with the
 * memory of their arguments (see kernel_capture.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel_capture.h"
#include "syscall_bpf.h"
#include "syscall_memory.h"
#include "syscall_names.h"

#define ENTRIES 4096	/* calls whose entry arguments are kept, by tid */

struct evt_kernel_capture {
	struct evt_syscall_bpf *bpf;
	const struct evt_kernel_event *ev;
	bool *has_memory;		/* [nev]: the event has the field */
	int enter_ev[EVT_CAP_NR_MAX], exit_ev[EVT_CAP_NR_MAX];	/* or -1 */
	/* An exit shows the arguments its entry had: the last entry of each
	 * tid, in a table where a tid that collides pushes another out. */
	struct entry {
		uint32_t tid;
		long nr;
		uint64_t args[EVT_CAP_NARGS];
	} entries[ENTRIES];
	pid_t *waiting;			/* until their exec */
	unsigned nwaiting, capwaiting;
	uint8_t *raw;
	size_t raw_cap;
	evt_kernel_capture_cb cb;
	void *ctx;
	long records;
	bool failed;
};

/* The number of the call a syscalls/ event names ("openat", "newfstat"
 * for fstat), or -1. */
static long nr_of(const char *call)
{
	long nr = evt_syscall_nr(call);

	return nr < 0 && !strncmp(call, "new", 3) ? evt_syscall_nr(call + 3) : nr;
}

/* The event's tracefs format with the memory field after the kernel's
 * fields (free it), or NULL. */
static char *with_memory_field(const struct evt_kernel_event *e)
{
	const char *text = e->tracefs_format, *at;
	unsigned end = 8, i;
	char line[128], *out;
	int n;

	if (!text || !(at = strstr(text, "\n\nprint fmt:")))
		return NULL;
	for (i = 0; i < e->format.nfields; i++)
		if ((unsigned)e->src[i].offset + e->src[i].size > end)
			end = (unsigned)e->src[i].offset + e->src[i].size;
	n = snprintf(line, sizeof(line), "\tfield:__data_loc uint8_t[] %s;"
		     "\toffset:%u;\tsize:4;\tsigned:0;\n",
		     EVT_SYSCALL_MEMORY_FIELD, (end + 3) & ~3u);
	out = malloc(strlen(text) + (size_t)n + 1);
	if (!out)
		return NULL;
	at++;
	memcpy(out, text, (size_t)(at - text));
	memcpy(out + (at - text), line, (size_t)n);
	strcpy(out + (at - text) + n, at);
	return out;
}

/* The event reparsed with the memory field; false when it cannot be
 * (then it stays as it was). */
static bool add_memory_field(struct evt_kernel_event *e)
{
	struct evt_kernel_event with;
	char *text = with_memory_field(e), err[300];
	const struct evt_field_format *last;
	bool ok;

	if (!text || evt_kernel_event_parse(e->path, text, strlen(text), &with, err,
					    sizeof(err))) {
		free(text);
		return false;
	}
	free(text);
	last = with.format.nfields ? &with.format.fields[with.format.nfields - 1] : NULL;
	ok = last && last->kind == EVT_FIELD_SEQUENCE &&
	     !strcmp(last->name, EVT_SYSCALL_MEMORY_FIELD) &&
	     with.format.nfields == e->format.nfields + 1;
	if (!ok) {
		evt_kernel_event_free(&with);
		return false;
	}
	evt_kernel_event_free(e);
	*e = with;
	return true;
}

/* Whether the call copies memory at its entry (enter) or its exit. */
static bool copies(const char *call, bool enter)
{
	struct evt_cap_spec sp;
	unsigned i;

	evt_syscall_memory_spec(call, &sp);
	for (i = 0; i < EVT_CAP_NARGS; i++)
		switch (sp.kind[i]) {
		case EVT_CAP_NONE:
			break;
		case EVT_CAP_BUF_OUT:
		case EVT_CAP_STRUCT_OUT:
		case EVT_CAP_STRING_OUT:
		case EVT_CAP_IOVEC_OUT:
			if (!enter)
				return true;
			break;
		default:
			if (enter)
				return true;
		}
	return false;
}

struct evt_kernel_capture *evt_kernel_capture_open(struct evt_kernel_event *ev,
						   unsigned nev, bool *taken,
						   unsigned buf_bytes,
						   unsigned ring_kib, char *err,
						   size_t err_size)
{
	struct evt_kernel_capture *c;
	const char *prefix = EVT_KERNEL_PREFIX "syscalls/sys_";
	uint8_t want[EVT_CAP_NR_MAX] = { 0 };
	unsigned i, any = 0;
	long nr;

	err[0] = '\0';
	for (i = 0; i < nev; i++)
		any += !strncmp(ev[i].path, prefix, strlen(prefix));
	if (!any)
		return NULL;
	if (getenv("EVTRACE_NO_EBPF")) {
		snprintf(err, err_size, "eBPF: not used ($EVTRACE_NO_EBPF is set)");
		return NULL;
	}
	if (!(c = calloc(1, sizeof(*c)))) {
		snprintf(err, err_size, "out of memory");
		return NULL;
	}
	memset(c->enter_ev, -1, sizeof(c->enter_ev));
	memset(c->exit_ev, -1, sizeof(c->exit_ev));
	c->ev = ev;
	if (!(c->has_memory = calloc(nev, sizeof(*c->has_memory)))) {
		free(c);
		snprintf(err, err_size, "out of memory");
		return NULL;
	}
	if (!(c->bpf = evt_syscall_bpf_open(buf_bytes, ring_kib, err, err_size))) {
		free(c->has_memory);
		free(c);
		return NULL;
	}
	/* The calls of the events, the ring carrying (and losing) only
	 * those, and the execs that end a wait for one (until_exec). */
	for (i = 0; i < nev; i++) {
		const char *name;
		bool enter;

		taken[i] = false;
		if (strncmp(ev[i].path, prefix, strlen(prefix)))
			continue;
		name = ev[i].path + strlen(prefix);
		enter = !strncmp(name, "enter_", 6);
		taken[i] = (enter || !strncmp(name, "exit_", 5)) &&
			   (nr = nr_of(name + (enter ? 6 : 5))) >= 0 &&
			   nr < EVT_CAP_NR_MAX;
		if (taken[i])
			want[nr] |= enter ? EVT_CAP_WANT_ENTER : EVT_CAP_WANT_EXIT;
	}
	if ((nr = nr_of("execve")) >= 0)
		want[nr] |= EVT_CAP_WANT_EXIT;
	if ((nr = nr_of("execveat")) >= 0)
		want[nr] |= EVT_CAP_WANT_EXIT;
	if (evt_syscall_bpf_want(c->bpf, want, err, err_size)) {
		memset(taken, 0, nev * sizeof(*taken));
		evt_kernel_capture_close(c);
		return NULL;
	}
	/* The field only where the call copies something on that side
	 * (getppid's records stay as the kernel has them). */
	for (i = 0; i < nev; i++) {
		const char *name;
		bool enter;

		if (!taken[i])
			continue;
		name = ev[i].path + strlen(prefix);
		enter = !strncmp(name, "enter_", 6);
		nr = nr_of(name + (enter ? 6 : 5));
		if (copies(evt_syscall_name(nr), enter) &&
		    !(c->has_memory[i] = taken[i] = add_memory_field(&ev[i])))
			continue;	/* perf's, without memory */
		(enter ? c->enter_ev : c->exit_ev)[nr] = (int)i;
	}
	return c;
}

int evt_kernel_capture_follow(struct evt_kernel_capture *c, pid_t pid,
			      bool until_exec, char *err, size_t err_size)
{
	if (until_exec) {
		if (c->nwaiting == c->capwaiting) {
			unsigned cap = c->capwaiting ? 2 * c->capwaiting : 8;
			pid_t *grown = realloc(c->waiting, cap * sizeof(*grown));

			if (!grown)
				return snprintf(err, err_size, "out of memory"), -1;
			c->waiting = grown;
			c->capwaiting = cap;
		}
		c->waiting[c->nwaiting++] = pid;
	}
	return evt_syscall_bpf_follow(c->bpf, pid, err, err_size);
}

int evt_kernel_capture_all(struct evt_kernel_capture *c, char *err,
			   size_t err_size)
{
	return evt_syscall_bpf_follow_all(c->bpf, err, err_size);
}

/* Whether the call is one of a process still before its exec: left out,
 * but for that exec's return, which ends the wait. */
static bool before_exec(struct evt_kernel_capture *c, const struct evt_cap_call *call)
{
	const char *name;
	unsigned i;

	for (i = 0; i < c->nwaiting && c->waiting[i] != (pid_t)call->pid; i++)
		;
	if (i == c->nwaiting)
		return false;
	name = evt_syscall_name(call->nr);
	if (call->type != EVT_CAP_EXIT || call->ret != 0 || !name ||
	    (strcmp(name, "execve") && strcmp(name, "execveat")))
		return true;
	c->waiting[i] = c->waiting[--c->nwaiting];
	return false;
}

/* room bytes of the raw record, the first zeroed ones of them, or
 * NULL. */
static uint8_t *raw_room(struct evt_kernel_capture *c, size_t room, size_t zeroed)
{
	if (room > c->raw_cap) {
		uint8_t *grown = realloc(c->raw, room);

		if (!grown)
			return NULL;
		c->raw = grown;
		c->raw_cap = room;
	}
	memset(c->raw, 0, zeroed);
	return c->raw;
}

/* The call's record in the kernel's layout of event e: its number, its
 * arguments or its result, then the memory field's bytes when it has
 * the field. */
static int put_record(struct evt_kernel_capture *c, unsigned event,
		      const struct evt_cap_call *call, const uint64_t *exit_args)
{
	const struct evt_kernel_event *e = &c->ev[event];
	const struct evt_kernel_field_src *mem = c->has_memory[event] ?
		&e->src[e->format.nfields - 1] : NULL;
	size_t fixed = 8, packed = 0;
	uint32_t loc, nr = (uint32_t)call->nr, i, arg = 0;
	uint16_t type = (uint16_t)e->id;
	uint8_t *raw;
	struct evt_kernel_capture_record r;

	for (i = 0; i < e->format.nfields; i++)
		if ((size_t)e->src[i].offset + e->src[i].size > fixed)
			fixed = (size_t)e->src[i].offset + e->src[i].size;
	raw = raw_room(c, fixed + EVT_SEQUENCE_MAX_BYTES, fixed);
	if (!raw)
		return -1;
	memcpy(raw, &type, 2);
	memcpy(raw + 4, &call->tid, 4);
	for (i = 0; i < e->format.nfields - (mem != NULL); i++) {
		const struct evt_kernel_field_src *s = &e->src[i];
		uint64_t v;

		if (!strcmp(e->format.fields[i].name, "__syscall_nr"))
			v = nr;
		else if (call->type == EVT_CAP_EXIT)
			v = (uint64_t)call->ret;
		else
			v = arg < EVT_CAP_NARGS ? call->args[arg++] : 0;
		if (s->how == EVT_KSRC_COPY && s->size <= 8)
			memcpy(raw + s->offset, &v, s->size);
	}
	if (mem) {
		packed = evt_syscall_memory_pack(call->mem, call->nmem, exit_args,
						 raw + fixed, EVT_SEQUENCE_MAX_BYTES);
		loc = (uint32_t)packed << 16 | (uint32_t)fixed;
		memcpy(raw + mem->offset, &loc, 4);
	}
	r = (struct evt_kernel_capture_record){
		.event = event, .pid = call->pid, .tid = call->tid, .cpu = call->cpu,
		.comm = call->comm, .monotonic_ns = (int64_t)call->ktime,
		.raw = raw, .raw_size = (uint32_t)(fixed + packed),
	};
	c->records++;
	return c->cb(c->ctx, &r);
}

/* evt_syscall_bpf_read's callback. */
static void on_call(void *ctx, const struct evt_cap_call *call)
{
	struct evt_kernel_capture *c = ctx;
	struct entry *en = &c->entries[call->tid % ENTRIES];
	const uint64_t *exit_args = NULL;
	int event;

	if (c->failed || call->nr < 0 || call->nr >= EVT_CAP_NR_MAX ||
	    (call->type != EVT_CAP_ENTER && call->type != EVT_CAP_EXIT) ||
	    before_exec(c, call))
		return;
	if (call->type == EVT_CAP_ENTER) {
		en->tid = call->tid;
		en->nr = call->nr;
		memcpy(en->args, call->args, sizeof(en->args));
		event = c->enter_ev[call->nr];
	} else {
		if (call->nmem && en->tid == call->tid && en->nr == call->nr)
			exit_args = en->args;
		event = c->exit_ev[call->nr];
	}
	if (event >= 0 && put_record(c, (unsigned)event, call, exit_args))
		c->failed = true;
}

long evt_kernel_capture_read(struct evt_kernel_capture *c,
			     evt_kernel_capture_cb cb, void *ctx, char *err,
			     size_t err_size)
{
	c->cb = cb;
	c->ctx = ctx;
	c->records = 0;
	c->failed = false;
	if (evt_syscall_bpf_read(c->bpf, on_call, c, err, err_size) < 0)
		return -1;
	if (c->failed) {
		if (!err[0])
			snprintf(err, err_size, "kernel/syscalls/: out of memory");
		return -1;
	}
	return c->records;
}

uint64_t evt_kernel_capture_lost(struct evt_kernel_capture *c)
{
	return evt_syscall_bpf_lost_calls(c->bpf);
}

uint64_t evt_kernel_capture_lost_tasks(struct evt_kernel_capture *c)
{
	return evt_syscall_bpf_lost_tasks(c->bpf);
}

int evt_kernel_capture_fd(struct evt_kernel_capture *c)
{
	return evt_syscall_bpf_fd(c->bpf);
}

void evt_kernel_capture_close(struct evt_kernel_capture *c)
{
	if (!c)
		return;
	evt_syscall_bpf_close(c->bpf);
	free(c->waiting);
	free(c->has_memory);
	free(c->raw);
	free(c);
}
