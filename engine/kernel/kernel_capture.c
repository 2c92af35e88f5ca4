/*
 * kernel_capture.c - syscalls/ events from the eBPF program, with the
 * memory of their arguments (see kernel_capture.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel_capture.h"
#include "syscall_bpf.h"
#include "syscall_fields.h"
#include "syscall_memory.h"
#include "syscall_names.h"

#define ENTRIES 4096	/* calls whose entry arguments are kept, by tid */

/* A call and the arguments its entry had (an exit's, or NULL). */
struct evt_kernel_capture_call_view {
	const struct evt_cap_call *call;
	const uint64_t *exit_args;
};

struct evt_kernel_capture {
	struct evt_syscall_bpf *bpf;
	const struct evt_kernel_event *ev;
	struct evt_capf **roles;	/* [nev]: of the fields of an event
					 * with copied memory (syscall_fields.h),
					 * else NULL */
	unsigned nev;
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

/* The names of call's arguments, from its entry's format (names[i]
 * NULL where not known); how many, or 0. */
static unsigned entry_names(const char *event_name, char *names[EVT_CAP_NARGS])
{
	struct evt_kernel_event enter;
	char path[320], err[300];
	unsigned i, n = 0;

	memset(names, 0, EVT_CAP_NARGS * sizeof(*names));
	snprintf(path, sizeof(path), EVT_KERNEL_PREFIX "syscalls/sys_enter_%s",
		 event_name);
	if (evt_kernel_event_load(path, &enter, err, sizeof(err)))
		return 0;
	for (i = 1; i < enter.format.nfields && n < EVT_CAP_NARGS; i++)
		names[n++] = strdup(enter.format.fields[i].name);
	evt_kernel_event_free(&enter);
	return n;
}

/*
 * The event (of call, its name in the kernel's event name) reparsed with
 * its copied memory as fields (syscall_fields.h), and the roles of its
 * fields; NULL when it cannot be (then it stays as it was).
 */
static struct evt_capf *add_capture_fields(struct evt_kernel_event *e,
					   const char *call, const char *event_name,
					   bool enter)
{
	struct evt_kernel_event with;
	char *names[EVT_CAP_NARGS], *text = NULL, err[300];
	struct evt_capf *roles = NULL;
	unsigned nargs = enter ? 0 : entry_names(event_name, names), i;

	if (e->tracefs_format)
		text = evt_capf_format_text(e->tracefs_format, call, enter, &e->format,
					    nargs ? names : NULL,
					    nargs ? nargs : EVT_CAP_NARGS);
	for (i = 0; !enter && i < nargs; i++)
		free(names[i]);
	if (!text || evt_kernel_event_parse(e->path, text, strlen(text), &with, err,
					    sizeof(err))) {
		free(text);
		return NULL;
	}
	free(text);
	if (!(roles = calloc(with.format.nfields, sizeof(*roles))) ||
	    evt_capf_roles(call, enter, &with.format, roles) != 1) {
		free(roles);
		evt_kernel_event_free(&with);
		return NULL;
	}
	evt_kernel_event_free(e);
	*e = with;
	return roles;
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
	c->nev = nev;
	if (!(c->roles = calloc(nev, sizeof(*c->roles)))) {
		free(c);
		snprintf(err, err_size, "out of memory");
		return NULL;
	}
	if (!(c->bpf = evt_syscall_bpf_open(buf_bytes, ring_kib, err, err_size))) {
		free(c->roles);
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
		    !(taken[i] = (c->roles[i] = add_capture_fields(&ev[i],
					evt_syscall_name(nr), name + (enter ? 6 : 5),
					enter)) != NULL))
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

/* The piece of call's memory of argument code arg, or NULL. */
static const struct evt_cap_bytes *piece_of(const struct evt_kernel_capture_call_view *v,
					    unsigned code)
{
	unsigned i;

	for (i = 0; i < v->call->nmem; i++)
		if (v->call->mem[i].arg == code)
			return &v->call->mem[i];
	return NULL;
}

/* What a field of the capture layout holds for the call (roles). */
static uint64_t capture_value(const struct evt_kernel_capture_call_view *v,
			      const struct evt_capf *r)
{
	const struct evt_cap_bytes *m;
	uint64_t value = 0;
	unsigned k, n;

	switch (r->role) {
	case EVT_CAPF_ARG:
		return v->call->args[r->arg];
	case EVT_CAPF_MARK:
		return v->call->type == EVT_CAP_ENTER || v->exit_args;
	case EVT_CAPF_ENTRY_ARG:
		return v->exit_args ? v->exit_args[r->arg] : 0;
	case EVT_CAPF_ADDR:
		if (v->call->type == EVT_CAP_ENTER)
			return v->call->args[r->arg];
		if (v->exit_args)
			return v->exit_args[r->arg];
		m = piece_of(v, r->arg);
		return m ? m->addr : 0;
	case EVT_CAPF_FLAGS:
		if (r->elem >= 0) {
			m = piece_of(v, 8u * (unsigned)(r->elem + 1) + r->arg);
			return m ? m->flags : 0;
		}
		m = piece_of(v, r->arg);
		value = m ? m->flags : 0;
		/* an argv's "more": its last element's */
		for (k = 0; k < EVT_CAP_VEC_MAX; k++)
			if ((m = piece_of(v, 8 * (k + 1) + r->arg)))
				value |= m->flags & EVT_CAP_MORE;
		return value;
	case EVT_CAPF_COUNT:
		for (k = n = 0; k < EVT_CAP_VEC_MAX; k++)
			n += piece_of(v, 8 * (k + 1) + r->arg) != NULL;
		return n;
	case EVT_CAPF_LEN:
		m = piece_of(v, 8u * (unsigned)(r->elem + 1) + r->arg);
		if (m && m->len >= 8)
			memcpy(&value, m->bytes, 8);
		return value;
	default:
		return 0;
	}
}

/*
 * The call's record in the kernel's layout of event e: its number, its
 * arguments or its result, and, in an event with copied memory, the
 * fields that hold it (syscall_fields.h), their bytes after the fixed
 * part.  A piece is EVT_CAP_BYTES_MAX bytes at most, and a call has few:
 * DYNAMIC_MAX is never reached (a __data_loc's offset is 16 bits).
 */
#define DYNAMIC_MAX (56u << 10)
_Static_assert(EVT_CAP_BYTES_MAX <= EVT_SEQUENCE_MAX_BYTES,
	       "a piece fits its field whole");

static int put_record(struct evt_kernel_capture *c, unsigned event,
		      const struct evt_cap_call *call, const uint64_t *exit_args)
{
	const struct evt_kernel_event *e = &c->ev[event];
	const struct evt_capf *roles = c->roles[event];
	const struct evt_kernel_capture_call_view v = { call, exit_args };
	size_t fixed = 8, dyn = 0;
	uint32_t nr = (uint32_t)call->nr, i, arg = 0;
	uint16_t type = (uint16_t)e->id;
	uint8_t *raw;
	struct evt_kernel_capture_record r;

	for (i = 0; i < e->format.nfields; i++)
		if ((size_t)e->src[i].offset + e->src[i].size > fixed)
			fixed = (size_t)e->src[i].offset + e->src[i].size;
	raw = raw_room(c, fixed + DYNAMIC_MAX, fixed);
	if (!raw)
		return -1;
	memcpy(raw, &type, 2);
	memcpy(raw + 4, &call->tid, 4);
	for (i = 0; i < e->format.nfields; i++) {
		const struct evt_kernel_field_src *s = &e->src[i];
		const struct evt_cap_bytes *m;
		uint64_t value;
		uint32_t len, loc, skip;

		if (!strcmp(e->format.fields[i].name, "__syscall_nr"))
			value = nr;
		else if (roles && roles[i].role != EVT_CAPF_KERNEL)
			value = capture_value(&v, &roles[i]);
		else if (call->type == EVT_CAP_EXIT)
			value = (uint64_t)call->ret;
		else
			value = arg < EVT_CAP_NARGS ? call->args[arg++] : 0;
		if (s->how == EVT_KSRC_COPY) {
			if (s->size <= 8)
				memcpy(raw + s->offset, &value, s->size);
			continue;
		}
		/* Copied memory: the piece's bytes (an iovec element's
		 * after its iov_len). */
		m = roles && roles[i].role == EVT_CAPF_CONTENT ?
		    piece_of(&v, roles[i].elem < 0 ? roles[i].arg :
			     8u * (unsigned)(roles[i].elem + 1) + roles[i].arg) : NULL;
		skip = m && roles[i].elem >= 0 && m->len >= 8 &&
		       e->format.fields[i].kind == EVT_FIELD_SEQUENCE ? 8 : 0;
		len = m && !(m->flags & EVT_CAP_FAULT) ? m->len - skip : 0;
		if (len > DYNAMIC_MAX - dyn)
			len = (uint32_t)(DYNAMIC_MAX - dyn);
		if (len > EVT_SEQUENCE_MAX_BYTES)
			len = EVT_SEQUENCE_MAX_BYTES;
		if (len)
			memcpy(raw + fixed + dyn, m->bytes + skip, len);
		loc = (uint32_t)len << 16 | (uint32_t)(fixed + dyn);
		memcpy(raw + s->offset, &loc, 4);
		dyn += len;
	}
	r = (struct evt_kernel_capture_record){
		.event = event, .pid = call->pid, .tid = call->tid, .cpu = call->cpu,
		.comm = call->comm, .monotonic_ns = (int64_t)call->ktime,
		.raw = raw, .raw_size = (uint32_t)(fixed + dyn),
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
	for (unsigned i = 0; c->roles && i < c->nev; i++)
		free(c->roles[i]);
	free(c->roles);
	free(c->raw);
	free(c);
}
