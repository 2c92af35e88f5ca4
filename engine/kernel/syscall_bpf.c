/*
 * syscall_bpf.c - the system call program loaded and read (see
 * syscall_bpf.h).  The program is built at build time and kept here as
 * bytes (syscall_capture_bpf.c, generated); libbpf loads it.
 */
#include <errno.h>
#include <poll.h>
#include <stddef.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel_events.h"
#include "syscall_bpf.h"
#include "syscall_memory.h"
#include "syscall_names.h"

#ifdef EVT_HAVE_BPF
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

extern const unsigned char evt_syscall_capture_bpf[];
extern const size_t evt_syscall_capture_bpf_size;

#define MEM_MAX (EVT_CAP_NARGS + EVT_CAP_VEC_MAX * 2)

/* The argument records of a call whose own record is still to come. */
struct pend {
	uint32_t tid;
	uint64_t ktime;
	unsigned n;
	struct evt_cap_bytes mem[MEM_MAX];
	uint8_t *store[MEM_MAX];
};

/* The programs of syscall_capture.bpf.c: system call entry and exit,
 * fork, a task's end, a signal's delivery. */
#define PROGRAMS 5

struct evt_syscall_bpf {
	struct bpf_object *obj;
	struct bpf_link *links[PROGRAMS];
	unsigned nlinks;
	struct ring_buffer *ring;
	int tasks_fd, lost_fd;
	struct pend *pends;
	size_t npends, cap;
	evt_syscall_bpf_cb cb;
	void *ctx;
	int calls;
};

/* libbpf's last complaint, for the message when loading fails. */
static char libbpf_said[256];

static int keep_message(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (level == LIBBPF_WARN) {
		vsnprintf(libbpf_said, sizeof(libbpf_said), fmt, ap);
		libbpf_said[strcspn(libbpf_said, "\n")] = '\0';
	}
	return 0;
}

static void pend_clear(struct pend *p)
{
	unsigned i;

	for (i = 0; i < p->n; i++)
		free(p->store[i]);
	p->n = 0;
}

static struct pend *pend_of(struct evt_syscall_bpf *b, uint32_t tid, bool make)
{
	size_t i;

	for (i = 0; i < b->npends; i++)
		if (b->pends[i].tid == tid)
			return &b->pends[i];
	if (!make)
		return NULL;
	if (b->npends == b->cap) {
		size_t cap = b->cap ? 2 * b->cap : 16;
		struct pend *grown = realloc(b->pends, cap * sizeof(*grown));

		if (!grown)
			return NULL;
		b->pends = grown;
		b->cap = cap;
	}
	memset(&b->pends[b->npends], 0, sizeof(*b->pends));
	b->pends[b->npends].tid = tid;
	return &b->pends[b->npends++];
}

static int on_record(void *ctx, void *data, size_t size)
{
	struct evt_syscall_bpf *b = ctx;
	const struct evt_cap_head *h = data;
	struct evt_cap_call call;
	struct pend *p;
	char comm[sizeof(h->comm) + 1];

	if (size < sizeof(*h) || h->len > size - sizeof(*h))
		return 0;
	p = pend_of(b, h->tid, h->type == EVT_CAP_ARG);
	if (p && p->n && p->ktime != h->ktime)
		pend_clear(p);	/* its call's record was lost */
	if (h->type == EVT_CAP_ARG) {
		uint8_t *copy = p && p->n < MEM_MAX ? malloc(h->len ? h->len : 1) : NULL;

		if (!copy)
			return 0;
		memcpy(copy, h + 1, h->len);
		p->ktime = h->ktime;
		p->store[p->n] = copy;
		p->mem[p->n++] = (struct evt_cap_bytes){ copy, h->len, h->flags,
							 (uint64_t)h->ret, h->arg };
		return 0;
	}
	memcpy(comm, h->comm, sizeof(h->comm));
	comm[sizeof(h->comm)] = '\0';
	call = (struct evt_cap_call){
		.type = h->type, .ktime = h->ktime, .pid = h->pid, .tid = h->tid,
		.comm = comm,
		.cpu = h->cpu, .nr = (long)h->nr, .ret = h->ret,
		.mem = p ? p->mem : NULL, .nmem = p ? p->n : 0,
	};
	if (h->type == EVT_CAP_ENTER && h->len >= sizeof(call.args))
		memcpy(call.args, h + 1, sizeof(call.args));
	b->cb(b->ctx, &call);
	b->calls++;
	if (p) {	/* (taken out: a fork-heavy program has tids by the
			 * thousand, and the search is linear) */
		pend_clear(p);
		*p = b->pends[--b->npends];
	}
	return 0;
}

/* Where a field is in a tracepoint's record, from its format (layouts
 * change: sched_process_fork's comms became __data_loc in 6.x). */
static int field_offset(const char *event, const char *field, unsigned *off,
			char *err, size_t err_size)
{
	struct evt_kernel_event e;
	uint32_t i;

	if (evt_kernel_event_load(event, &e, err, err_size))
		return -1;
	for (i = 0; i < e.format.nfields; i++)
		if (!strcmp(e.format.fields[i].name, field)) {
			*off = e.src[i].offset;
			evt_kernel_event_free(&e);
			return 0;
		}
	evt_kernel_event_free(&e);
	return snprintf(err, err_size, "%s has no %s", event, field), -1;
}

static int fill_tables(struct evt_syscall_bpf *b, unsigned buf_bytes, char *err,
		       size_t err_size)
{
	struct evt_cap_config cfg = { .buf_bytes = buf_bytes,
				      .owner = EVT_CAP_ANY_OWNER,
				      .owner_gid = EVT_CAP_ANY_OWNER };
	int spec_fd = bpf_object__find_map_fd_by_name(b->obj, "spec");
	int config_fd = bpf_object__find_map_fd_by_name(b->obj, "config");
	uint32_t nr, zero = 0;

	if (field_offset("kernel/sched/sched_process_fork", "child_pid",
			 &cfg.fork_child_off, err, err_size) ||
	    field_offset("kernel/signal/signal_deliver", "sig", &cfg.signal_sig_off,
			 err, err_size) ||
	    field_offset("kernel/signal/signal_deliver", "code",
			 &cfg.signal_code_off, err, err_size))
		return -1;
	/* (since 6.16; before it, the leader's end is the process's) */
	if (field_offset("kernel/sched/sched_process_exit", "group_dead",
			 &cfg.exit_group_dead_off, err, err_size))
		cfg.exit_group_dead_off = 0;
	for (nr = 0; nr < EVT_CAP_NR_MAX; nr++) {
		const char *name = evt_syscall_name(nr);
		struct evt_cap_spec sp;
		unsigned i;
		bool any = false;

		if (!name)
			continue;
		evt_syscall_memory_spec(name, &sp);
		for (i = 0; i < EVT_CAP_NARGS; i++)
			any |= sp.kind[i] != EVT_CAP_NONE;
		if (any && bpf_map_update_elem(spec_fd, &nr, &sp, BPF_ANY))
			return snprintf(err, err_size, "eBPF: its table: %s",
					strerror(errno)), -1;
	}
	if (bpf_map_update_elem(config_fd, &zero, &cfg, BPF_ANY))
		return snprintf(err, err_size, "eBPF: its settings: %s",
				strerror(errno)), -1;
	return 0;
}

struct evt_syscall_bpf *evt_syscall_bpf_open(unsigned buf_bytes,
					     unsigned ring_kib, char *err,
					     size_t err_size)
{
	struct evt_syscall_bpf *b = calloc(1, sizeof(*b));
	unsigned ring = 4096;
	struct bpf_program *prog;
	const char *tasks_max;

	if (!b) {
		snprintf(err, err_size, "out of memory");
		return NULL;
	}
	if (buf_bytes > EVT_CAP_BYTES_MAX)
		buf_bytes = EVT_CAP_BYTES_MAX;
	libbpf_said[0] = '\0';
	libbpf_set_print(keep_message);
	b->obj = bpf_object__open_mem(evt_syscall_capture_bpf,
				      evt_syscall_capture_bpf_size, NULL);
	if (!b->obj) {
		snprintf(err, err_size, "eBPF: cannot open the program: %s",
			 strerror(errno));
		goto fail;
	}
	while (ring < (1u << 30) && ring / 1024 < ring_kib)
		ring *= 2;
	bpf_map__set_max_entries(bpf_object__find_map_by_name(b->obj, "events"), ring);
	/* (the tests' way to fill the map of followed processes) */
	if ((tasks_max = secure_getenv("EVTRACE_BPF_TASKS_MAX")) && atoi(tasks_max) > 0)
		bpf_map__set_max_entries(bpf_object__find_map_by_name(b->obj, "tasks"),
					 (unsigned)atoi(tasks_max));
	if (bpf_object__load(b->obj)) {
		int e = errno;

		/* EPERM: no privilege; EACCES: the verifier's refusal */
		snprintf(err, err_size, "eBPF: the kernel refuses the program (%s)%s%s",
			 strerror(e), e == EPERM ?
			 ": it needs CAP_BPF and CAP_PERFMON (root)" :
			 e == EACCES ? ": its verifier refused it" : "",
			 libbpf_said[0] && e != EPERM ? "; libbpf: " : "");
		if (libbpf_said[0] && e != EPERM)
			snprintf(err + strlen(err), err_size - strlen(err), "%s", libbpf_said);
		goto fail;
	}
	if (fill_tables(b, buf_bytes, err, err_size))
		goto fail;
	bpf_object__for_each_program(prog, b->obj) {
		struct bpf_link *link = b->nlinks < PROGRAMS ? bpf_program__attach(prog) : NULL;

		if (!link) {
			snprintf(err, err_size, "eBPF: cannot attach %s: %s",
				 bpf_program__name(prog), strerror(errno));
			goto fail;
		}
		b->links[b->nlinks++] = link;
	}
	b->tasks_fd = bpf_object__find_map_fd_by_name(b->obj, "tasks");
	b->lost_fd = bpf_object__find_map_fd_by_name(b->obj, "lost");
	b->ring = ring_buffer__new(bpf_object__find_map_fd_by_name(b->obj, "events"),
				   on_record, b, NULL);
	if (!b->ring || b->tasks_fd < 0 || b->lost_fd < 0) {
		snprintf(err, err_size, "eBPF: cannot read its ring: %s", strerror(errno));
		goto fail;
	}
	return b;
fail:
	evt_syscall_bpf_close(b);
	return NULL;
}

static void *destroy_link(void *link)
{
	bpf_link__destroy(link);
	return NULL;
}

void evt_syscall_bpf_close(struct evt_syscall_bpf *b)
{
	pthread_t th[PROGRAMS];
	bool started[PROGRAMS] = { false };
	size_t i;

	if (!b)
		return;
	ring_buffer__free(b->ring);
	/* Each detach waits for an RCU grace period (75 ms seen): in
	 * parallel, they wait for one. */
	for (i = 0; i < b->nlinks; i++)
		started[i] = !pthread_create(&th[i], NULL, destroy_link, b->links[i]);
	for (i = 0; i < b->nlinks; i++) {
		if (started[i])
			pthread_join(th[i], NULL);
		else
			bpf_link__destroy(b->links[i]);
	}
	bpf_object__close(b->obj);
	for (i = 0; i < b->npends; i++)
		pend_clear(&b->pends[i]);
	free(b->pends);
	free(b);
}

/* Changes one of the program's settings: its offset in the config and
 * the value. */
static int set_config(struct evt_syscall_bpf *b, size_t off, uint32_t value,
		      char *err, size_t err_size)
{
	int fd = bpf_object__find_map_fd_by_name(b->obj, "config");
	struct evt_cap_config cfg;
	uint32_t zero = 0;

	if (bpf_map_lookup_elem(fd, &zero, &cfg))
		return snprintf(err, err_size, "eBPF: its settings: %s",
				strerror(errno)), -1;
	memcpy((char *)&cfg + off, &value, sizeof(value));
	if (bpf_map_update_elem(fd, &zero, &cfg, BPF_ANY))
		return snprintf(err, err_size, "eBPF: its settings: %s",
				strerror(errno)), -1;
	return 0;
}

int evt_syscall_bpf_owner(struct evt_syscall_bpf *b, uid_t uid, gid_t gid,
			  char *err, size_t err_size)
{
	/* (the gid first: the uid switches the check on) */
	return set_config(b, offsetof(struct evt_cap_config, owner_gid),
			  (uint32_t)gid, err, err_size) ||
	       set_config(b, offsetof(struct evt_cap_config, owner), (uint32_t)uid,
			  err, err_size) ? -1 : 0;
}

int evt_syscall_bpf_follow_all(struct evt_syscall_bpf *b, char *err,
			       size_t err_size)
{
	return evt_syscall_bpf_follow(b, 0, err, err_size);	/* (its key 0) */
}

int evt_syscall_bpf_want(struct evt_syscall_bpf *b, const uint8_t *want,
			 char *err, size_t err_size)
{
	int fd = bpf_object__find_map_fd_by_name(b->obj, "wanted");
	uint32_t nr;

	for (nr = 0; nr < EVT_CAP_NR_MAX; nr++)
		if (want[nr] && bpf_map_update_elem(fd, &nr, &want[nr], BPF_ANY))
			return snprintf(err, err_size, "eBPF: its table of calls: %s",
					strerror(errno)), -1;
	return set_config(b, offsetof(struct evt_cap_config, filter), 1, err,
			  err_size);
}

int evt_syscall_bpf_follow(struct evt_syscall_bpf *b, pid_t pid, char *err,
			   size_t err_size)
{
	uint32_t key = (uint32_t)pid;
	uint8_t one = 1;

	if (bpf_map_update_elem(b->tasks_fd, &key, &one, BPF_ANY))
		return snprintf(err, err_size, "eBPF: following pid %d: %s", (int)pid,
				strerror(errno)), -1;
	return 0;
}

int evt_syscall_bpf_fd(struct evt_syscall_bpf *b)
{
	return ring_buffer__epoll_fd(b->ring);
}

int evt_syscall_bpf_read(struct evt_syscall_bpf *b, evt_syscall_bpf_cb cb,
			 void *ctx, char *err, size_t err_size)
{
	int n;

	b->cb = cb;
	b->ctx = ctx;
	b->calls = 0;
	n = ring_buffer__consume(b->ring);
	if (n < 0)
		return snprintf(err, err_size, "eBPF: reading its ring: %s",
				strerror(-n)), -1;
	return b->calls;
}

int evt_syscall_bpf_wait(struct evt_syscall_bpf *b, int timeout_ms)
{
	struct pollfd pfd = { .fd = ring_buffer__epoll_fd(b->ring), .events = POLLIN };

	return poll(&pfd, 1, timeout_ms);
}

/* The sum over the CPUs of count which of the map "lost". */
static uint64_t lost_count(struct evt_syscall_bpf *b, uint32_t which)
{
	int ncpus = libbpf_num_possible_cpus(), i;
	uint64_t *v, sum = 0;

	if (ncpus <= 0 || !(v = calloc((size_t)ncpus, sizeof(*v))))
		return 0;
	if (!bpf_map_lookup_elem(b->lost_fd, &which, v))
		for (i = 0; i < ncpus; i++)
			sum += v[i];
	free(v);
	return sum;
}

uint64_t evt_syscall_bpf_lost(struct evt_syscall_bpf *b)
{
	return lost_count(b, EVT_CAP_LOST_ALL);
}

uint64_t evt_syscall_bpf_lost_calls(struct evt_syscall_bpf *b)
{
	return lost_count(b, EVT_CAP_LOST_CALLS);
}

uint64_t evt_syscall_bpf_lost_tasks(struct evt_syscall_bpf *b)
{
	return lost_count(b, EVT_CAP_LOST_TASKS);
}

#else	/* built without eBPF */

struct evt_syscall_bpf *evt_syscall_bpf_open(unsigned buf_bytes,
					     unsigned ring_kib, char *err,
					     size_t err_size)
{
	(void)buf_bytes;
	(void)ring_kib;
	snprintf(err, err_size, "eBPF: this evtrace was built without it "
		 "(clang and libbpf-dev were missing)");
	return NULL;
}

void evt_syscall_bpf_close(struct evt_syscall_bpf *b)
{
	(void)b;
}

int evt_syscall_bpf_owner(struct evt_syscall_bpf *b, uid_t uid, gid_t gid,
			  char *err, size_t err_size)
{
	(void)b;
	(void)uid;
	(void)gid;
	return snprintf(err, err_size, "eBPF: not built"), -1;
}

int evt_syscall_bpf_follow(struct evt_syscall_bpf *b, pid_t pid, char *err,
			   size_t err_size)
{
	(void)b;
	(void)pid;
	return snprintf(err, err_size, "eBPF: not built"), -1;
}

int evt_syscall_bpf_follow_all(struct evt_syscall_bpf *b, char *err,
			       size_t err_size)
{
	(void)b;
	return snprintf(err, err_size, "eBPF: not built"), -1;
}

int evt_syscall_bpf_want(struct evt_syscall_bpf *b, const uint8_t *want,
			 char *err, size_t err_size)
{
	(void)b;
	(void)want;
	return snprintf(err, err_size, "eBPF: not built"), -1;
}

int evt_syscall_bpf_fd(struct evt_syscall_bpf *b)
{
	(void)b;
	return -1;
}

int evt_syscall_bpf_read(struct evt_syscall_bpf *b, evt_syscall_bpf_cb cb,
			 void *ctx, char *err, size_t err_size)
{
	(void)b;
	(void)cb;
	(void)ctx;
	return snprintf(err, err_size, "eBPF: not built"), -1;
}

int evt_syscall_bpf_wait(struct evt_syscall_bpf *b, int timeout_ms)
{
	(void)b;
	(void)timeout_ms;
	return -1;
}

uint64_t evt_syscall_bpf_lost_calls(struct evt_syscall_bpf *b)
{
	(void)b;
	return 0;
}

uint64_t evt_syscall_bpf_lost(struct evt_syscall_bpf *b)
{
	(void)b;
	return 0;
}

uint64_t evt_syscall_bpf_lost_tasks(struct evt_syscall_bpf *b)
{
	(void)b;
	return 0;
}

#endif
