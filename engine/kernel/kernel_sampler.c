/*
 * kernel_sampler.c - kernel tracepoints sampled with perf_event_open, in
 * time order, with their tasks (see kernel_sampler.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <stddef.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "clock_pairs.h"
#include "kernel_capture.h"
#include "kernel_print.h"
#include "kernel_sampler.h"
#include "usdt_probes.h"
#include "layout.h"
#include "perf_events.h"
#include "report.h"

#define SIDE_RING_BYTES	(64u << 10)	/* task names and forks, per CPU */

/* The sample_id of a non-sample record, at its end (sample_id_all). */
#define SAMPLE_TYPE (PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | \
		     PERF_SAMPLE_RAW)
struct sample_id {
	uint32_t pid, tid;
	uint64_t time;
	uint32_t cpu, res;
};

struct ring {
	int cpu;
	int ring_fd;		/* the event whose ring the others share */
	struct evt_perf_ring ring;
	int flush_fd;		/* ours, to make the kernel say what it lost */
	int side_fd;		/* task names and forks, in a ring of their own */
	struct evt_perf_ring side;
	uint64_t last_time;	/* handed over: times never go back */
};

struct task {
	uint32_t tid;		/* 0: a free entry */
	uint32_t pid;
	char comm[16];
};

/* Where a record in the batch comes from. */
enum from {
	FROM_RING,		/* a CPU's ring of samples */
	FROM_SIDE,		/* a CPU's ring of task names */
	FROM_CAPTURE,		/* the eBPF program (kernel_capture.h) */
};

/* A record read from a ring, waiting in the batch to be put in order. */
struct pending {
	uint64_t time;
	uint32_t cpu;		/* index into cpus */
	uint32_t seq;		/* ties keep ring order */
	uint8_t from;		/* enum from */
	size_t off;		/* its copy in the batch arena */
};

/* A captured record's copy in the batch arena, its raw bytes after it. */
struct captured {
	uint32_t event, pid, tid, cpu, raw_size;
	char comm[16];
	int64_t mono;
};

struct evt_kernel_sampler {
	struct evt_kernel_event *ev;
	unsigned nev;
	struct by_id { long id; unsigned index; } *by_id;
	struct ring *cpus;
	unsigned ncpus;
	int *fds;		/* the tracepoints', stopped at the end */
	unsigned nfds, capfds;
	/* The trace clock of the kernel's CLOCK_MONOTONIC times. */
	struct evt_clock_pairs clock;
	size_t ring_bytes;
	struct task *tasks;
	uint32_t task_cap, ntasks;	/* cap: a power of two */
	uint8_t *arena;
	size_t arena_used, arena_cap;
	struct pending *batch;
	unsigned nbatch, batch_cap;
	uint32_t reading;		/* the cpu whose ring is being read */
	uint8_t reading_from;		/* enum from */
	bool oom;
	/* The syscalls/ events taken by the eBPF program: their records
	 * go to a ring of their own after the CPUs', capture_ring. */
	struct evt_kernel_capture *capture;
	bool *taken;			/* [nev] */
	uint64_t capture_last_time, capture_lost, capture_lost_tasks;
	struct evt_usdt_set *usdt;	/* the uprobes of its usdt/ events */
};

static int64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* ---- whose a record is ---- */

static struct task *task_slot(struct evt_kernel_sampler *k, uint32_t tid)
{
	uint32_t i = (tid * 2654435761u) & (k->task_cap - 1);

	while (k->tasks[i].tid && k->tasks[i].tid != tid)
		i = (i + 1) & (k->task_cap - 1);
	return &k->tasks[i];
}

/* The entry for tid, made if need be; NULL when out of memory. */
static struct task *task_get(struct evt_kernel_sampler *k, uint32_t tid)
{
	struct task *t;

	if ((k->ntasks + 1) * 2 > k->task_cap) {
		struct task *old = k->tasks;
		uint32_t i, cap = k->task_cap;

		k->task_cap = cap ? cap * 2 : 256;
		k->tasks = calloc(k->task_cap, sizeof(*k->tasks));
		if (!k->tasks) {
			k->tasks = old;
			k->task_cap = cap;
			return NULL;
		}
		for (i = 0; i < cap; i++)
			if (old[i].tid)
				*task_slot(k, old[i].tid) = old[i];
		free(old);
	}
	t = task_slot(k, tid);
	if (!t->tid) {
		t->tid = tid;
		k->ntasks++;
	}
	return t;
}

/* A task first seen in a sample: its name now, if it still runs. */
static void task_learn(struct task *t, uint32_t pid)
{
	char path[64];
	ssize_t n = -1;
	int fd;

	t->pid = pid;
	snprintf(path, sizeof(path), "/proc/%u/task/%u/comm", pid, t->tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		n = read(fd, t->comm, sizeof(t->comm));
		close(fd);
	}
	if (n > 0)
		t->comm[strcspn(t->comm, "\n")] = '\0';
	else if (!t->comm[0])	/* gone: the name known before stays */
		snprintf(t->comm, sizeof(t->comm), "?");
}

/* A task attached while it runs: its process and name now, which a
 * sample read after it has exited could no longer find. */
static void task_attached(struct evt_kernel_sampler *k, pid_t tid)
{
	char path[64], line[128];
	unsigned tgid = 0;
	struct task *t;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)tid);
	if (!(f = fopen(path, "re")))
		return;
	while (fgets(line, sizeof(line), f) && sscanf(line, "Tgid: %u", &tgid) != 1)
		;
	fclose(f);
	if (tgid && (t = task_get(k, (uint32_t)tid)))
		task_learn(t, tgid);
}

/* ---- records, in order ---- */

static int by_id_cmp(const void *a, const void *b)
{
	long x = ((const struct by_id *)a)->id, y = ((const struct by_id *)b)->id;

	return x < y ? -1 : x > y;
}

/* Which of ours the raw record is, by its common_type; -1 if none. */
static int event_of(const struct evt_kernel_sampler *k, const uint8_t *raw,
		    uint32_t raw_size)
{
	struct by_id key = { 0 }, *hit;
	uint16_t type;

	if (raw_size < 2)
		return -1;
	memcpy(&type, raw, 2);
	key.id = type;
	hit = bsearch(&key, k->by_id, k->nev, sizeof(key), by_id_cmp);
	return hit ? (int)hit->index : -1;
}

/* A sample to the sink. */
static int take_sample(struct evt_kernel_sampler *k, unsigned ring,
		       const uint8_t *body, size_t size,
		       const struct evt_kernel_sink *sink)
{
	struct evt_kernel_sample s = { .ring = ring };
	struct ring *r = &k->cpus[ring];
	uint64_t mono;
	struct task *t;
	int e;

	if (size < 28)
		return 0;
	memcpy(&s.pid, body, 4);
	memcpy(&s.tid, body + 4, 4);
	memcpy(&mono, body + 8, 8);
	memcpy(&s.cpu, body + 16, 4);
	memcpy(&s.raw_size, body + 24, 4);
	s.raw = body + 28;
	if (s.raw_size > size - 28 || (e = event_of(k, s.raw, s.raw_size)) < 0)
		return 0;
	s.event = (unsigned)e;
	t = task_get(k, s.tid);
	if (t && t->pid != s.pid)
		task_learn(t, s.pid);
	s.comm = t ? t->comm : "?";
	s.monotonic_ns = (int64_t)mono;
	s.time = evt_clock_pairs_value(&k->clock, mono);
	if (s.time < r->last_time)	/* a nested hit stamped earlier, written later */
		s.time = r->last_time;
	r->last_time = s.time;
	return sink->sample(sink->ctx, &s);
}

/* A captured record to the sink, on the capture's ring. */
static int take_captured(struct evt_kernel_sampler *k, const struct captured *c,
			 const struct evt_kernel_sink *sink)
{
	struct evt_kernel_sample s = {
		.ring = k->ncpus, .cpu = c->cpu, .event = c->event, .pid = c->pid,
		.tid = c->tid, .comm = c->comm, .monotonic_ns = c->mono,
		.raw = (const uint8_t *)(c + 1), .raw_size = c->raw_size,
	};

	s.time = evt_clock_pairs_value(&k->clock, (uint64_t)c->mono);
	if (s.time < k->capture_last_time)	/* CPUs reserve in their order */
		s.time = k->capture_last_time;
	k->capture_last_time = s.time;
	return sink->sample(sink->ctx, &s);
}

/* One record, in time order: a sample, a loss, or news of tasks. */
static int take_record(struct evt_kernel_sampler *k, const struct pending *p,
		       const struct evt_kernel_sink *sink)
{
	const struct perf_event_header *h = (const void *)(k->arena + p->off);
	const uint8_t *body = (const uint8_t *)(h + 1);
	size_t size = h->size - sizeof(*h);
	struct task *t, *parent;
	uint32_t v[4];
	uint64_t lost;

	if (p->from == FROM_CAPTURE)
		return take_captured(k, (const struct captured *)h, sink);
	switch (h->type) {
	case PERF_RECORD_SAMPLE:
		return take_sample(k, p->cpu, body, size, sink);
	case PERF_RECORD_LOST:
		if (size < 16 || p->from == FROM_SIDE)
			return 0;	/* names lost: older ones stay */
		memcpy(&lost, body + 8, 8);
		return sink->lost(sink->ctx, p->cpu, lost, evt_clock_pairs_value(&k->clock, p->time),
				  (int64_t)p->time);
	case PERF_RECORD_COMM:
		if (size < 8 + sizeof(struct sample_id))
			return 0;
		memcpy(v, body, 8);
		if ((t = task_get(k, v[1]))) {
			t->pid = v[0];
			snprintf(t->comm, sizeof(t->comm), "%.*s",
				 (int)(size - 8 - sizeof(struct sample_id)),
				 (const char *)body + 8);
		}
		return 0;
	case PERF_RECORD_FORK:
		if (size < 16)
			return 0;
		memcpy(v, body, 16);	/* pid, ppid, tid, ptid */
		parent = task_get(k, v[3]);
		if (parent && !parent->comm[0])
			task_learn(parent, v[1]);
		t = task_get(k, v[2]);
		if (parent && t) {
			parent = task_slot(k, v[3]);	/* t's may have moved it */
			t->pid = v[0];
			memcpy(t->comm, parent->comm, sizeof(t->comm));
		}
		return 0;
	}
	return 0;
}

/* When a record happened (perf's clock), or 0 when it does not say. */
static uint64_t record_time(const struct perf_event_header *h)
{
	const uint8_t *body = (const uint8_t *)(h + 1);
	size_t size = h->size - sizeof(*h);
	uint64_t t = 0;

	if (h->type == PERF_RECORD_SAMPLE && size >= 16)
		memcpy(&t, body + 8, 8);
	else if (h->type != PERF_RECORD_SAMPLE && size >= sizeof(struct sample_id))
		memcpy(&t, body + size - sizeof(struct sample_id) +
		       offsetof(struct sample_id, time), 8);
	return t;
}

/* Room for a record of size bytes in the batch, at time: its copy's
 * place in the arena, or NULL (k->oom set). */
static void *batch_push(struct evt_kernel_sampler *k, uint64_t time, size_t size)
{
	void *at;

	if (k->nbatch == k->batch_cap) {
		unsigned cap = k->batch_cap ? k->batch_cap * 2 : 4096;
		struct pending *grown = realloc(k->batch, cap * sizeof(*grown));

		if (!grown) {
			k->oom = true;
			return NULL;
		}
		k->batch = grown;
		k->batch_cap = cap;
	}
	if (k->arena_used + size > k->arena_cap) {
		size_t cap = k->arena_cap ? k->arena_cap * 2 : 1u << 20;
		uint8_t *grown;

		while (cap < k->arena_used + size)
			cap *= 2;
		grown = realloc(k->arena, cap);
		if (!grown) {
			k->oom = true;
			return NULL;
		}
		k->arena = grown;
		k->arena_cap = cap;
	}
	at = k->arena + k->arena_used;
	k->batch[k->nbatch] = (struct pending){
		.time = time, .cpu = k->reading, .seq = k->nbatch,
		.from = k->reading_from, .off = k->arena_used,
	};
	k->arena_used += (size + 7) & ~(size_t)7;
	k->nbatch++;
	return at;
}

/* evt_perf_ring_read's callback: the record copied into the batch. */
static void batch_add(const struct perf_event_header *h, void *ctx)
{
	struct evt_kernel_sampler *k = ctx;
	void *at = batch_push(k, record_time(h), h->size);

	if (at)
		memcpy(at, h, h->size);
}

/* evt_kernel_capture_read's callback: the same for a captured record. */
static int batch_add_captured(void *ctx, const struct evt_kernel_capture_record *r)
{
	struct evt_kernel_sampler *k = ctx;
	struct captured *at = batch_push(k, (uint64_t)r->monotonic_ns,
					 sizeof(*at) + r->raw_size);

	if (!at)
		return 0;	/* (k->oom says it) */
	*at = (struct captured){ .event = r->event, .pid = r->pid, .tid = r->tid,
				 .cpu = r->cpu, .raw_size = r->raw_size,
				 .mono = r->monotonic_ns };
	snprintf(at->comm, sizeof(at->comm), "%s", r->comm);
	memcpy(at + 1, r->raw, r->raw_size);
	return 0;
}

static int pending_cmp(const void *a, const void *b)
{
	const struct pending *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/*
 * The kernel counts what a full ring loses and says so in a LOST record
 * only when it next writes to that ring, which may be never.  An event of
 * ours on the ring (a name change of this thread, on that CPU) makes it
 * write, so that the count is complete at the end.  Without one, losses
 * at the very end may go unsaid.
 */
static void open_flush(struct evt_kernel_sampler *k, struct ring *s)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE, .size = sizeof(attr),
		.config = PERF_COUNT_SW_DUMMY, .comm = 1, .sample_id_all = 1,
		.sample_type = SAMPLE_TYPE, .exclude_kernel = 1, .exclude_hv = 1,
		.use_clockid = 1, .clockid = CLOCK_MONOTONIC,
	};
	int fd = evt_perf_open(&attr, 0, s->cpu, -1);

	if (fd >= 0 && ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, s->ring_fd)) {
		close(fd);
		fd = -1;
	}
	s->flush_fd = fd;
	(void)k;
}

/* Has every ring write out its lost count: this thread renamed to its
 * own name on each CPU. */
static void flush_lost(struct evt_kernel_sampler *k)
{
	char name[16] = "";
	cpu_set_t old, one;
	unsigned i;

	if (sched_getaffinity(0, sizeof(old), &old) ||
	    prctl(PR_GET_NAME, name) < 0)
		return;
	for (i = 0; i < k->ncpus; i++) {
		if (k->cpus[i].flush_fd < 0 || k->cpus[i].cpu >= CPU_SETSIZE)
			continue;
		CPU_ZERO(&one);
		CPU_SET(k->cpus[i].cpu, &one);
		if (sched_setaffinity(0, sizeof(one), &one) == 0)
			prctl(PR_SET_NAME, name);
	}
	sched_setaffinity(0, sizeof(old), &old);
}

/*
 * Reads every ring into the batch and hands its records over in time
 * order.  The rings of task names and forks are read last: a fork's
 * record, on the side ring of the CPU that forked, is then in the batch
 * of any sample of its child read before it from another ring (read
 * first, the side ring could miss a fork that came after its reading,
 * and the child's samples went without its name).  How many there were,
 * or -1 with err set.
 */
static long read_rings(struct evt_kernel_sampler *k,
		       const struct evt_kernel_sink *sink, char *err,
		       size_t err_size)
{
	uint64_t lost;
	unsigned i;

	k->nbatch = 0;
	k->arena_used = 0;
	k->reading_from = FROM_RING;
	for (i = 0; i < k->ncpus; i++) {
		k->reading = i;
		if (k->cpus[i].ring_fd >= 0)
			evt_perf_ring_read(&k->cpus[i].ring, batch_add, k);
	}
	k->reading = k->ncpus;
	k->reading_from = FROM_CAPTURE;
	if (k->capture &&
	    evt_kernel_capture_read(k->capture, batch_add_captured, k, err,
				    err_size) < 0)
		return -1;
	k->reading_from = FROM_SIDE;
	for (i = 0; i < k->ncpus; i++) {
		k->reading = i;
		if (k->cpus[i].side_fd >= 0)
			evt_perf_ring_read(&k->cpus[i].side, batch_add, k);
	}
	if (k->oom) {	/* what was read is gone */
		k->oom = false;
		return snprintf(err, err_size, "kernel events: out of memory"), -1;
	}
	/* Each ring is in order but for nested hits; the rings, merged,
	 * give task names and forks in the order they happened. */
	if (k->nbatch)
		qsort(k->batch, k->nbatch, sizeof(*k->batch), pending_cmp);
	for (i = 0; i < k->nbatch; i++)
		if (take_record(k, &k->batch[i], sink))
			return -1;
	if (k->capture && (lost = evt_kernel_capture_lost(k->capture)) > k->capture_lost) {
		int64_t now = mono_ns();

		if (sink->lost(sink->ctx, k->ncpus, lost - k->capture_lost,
			       evt_clock_pairs_value(&k->clock, (uint64_t)now), now))
			return -1;
		k->capture_lost = lost;
	}
	/* (no count of events can say it: said as it happens) */
	if (k->capture &&
	    (lost = evt_kernel_capture_lost_tasks(k->capture)) > k->capture_lost_tasks) {
		evt_report("kernel/syscalls/: %llu new process%s not followed: the "
			   "eBPF program's map of followed processes is full; "
			   "their system calls are missing",
			   (unsigned long long)(lost - k->capture_lost_tasks),
			   lost - k->capture_lost_tasks == 1 ? "" : "es");
		k->capture_lost_tasks = lost;
	}
	return (long)k->nbatch;
}

long evt_kernel_sampler_drain(struct evt_kernel_sampler *k, bool final,
			      const struct evt_kernel_sink *sink, char *err,
			      size_t err_size)
{
	unsigned i;
	long n, more = 0;

	evt_clock_pairs_take(&k->clock, final);
	if (final)	/* the inherited events in children too */
		for (i = 0; i < k->nfds; i++)
			ioctl(k->fds[i], PERF_EVENT_IOC_DISABLE, 0);
	n = read_rings(k, sink, err, err_size);
	if (n >= 0 && final) {
		flush_lost(k);
		more = read_rings(k, sink, err, err_size);
	}
	return n < 0 || more < 0 ? -1 : n + more;
}

/* ---- opening ---- */

static int add_fd(struct evt_kernel_sampler *k, int fd)
{
	if (k->nfds + 1 >= k->capfds) {	/* one more for close_fds() */
		unsigned cap = k->capfds ? k->capfds * 2 : 64;
		int *grown = realloc(k->fds, cap * sizeof(*grown));

		if (!grown)
			return -1;
		k->fds = grown;
		k->capfds = cap;
	}
	k->fds[k->nfds++] = fd;
	return 0;
}

/* Opens attr for pid on s's CPU into the ring *ring_fd (mapped with
 * bytes when it is the first).  0, or -1 with err set. */
static int open_into(struct evt_kernel_sampler *k, struct ring *s,
		     struct perf_event_attr *attr, pid_t pid, const char *what,
		     int *ring_fd, struct evt_perf_ring *ring, size_t bytes,
		     char *err, size_t err_size)
{
	int fd = evt_perf_open(attr, pid, s->cpu, -1);

	if (fd < 0) {
		evt_perf_refused(what, pid, "record", errno, err, err_size);
		return -1;
	}
	if (add_fd(k, fd)) {
		close(fd);
		return snprintf(err, err_size, "out of memory"), -1;
	}
	if (*ring_fd < 0) {
		if (evt_perf_ring_map(ring, fd, bytes))
			return snprintf(err, err_size, "%s: the kernel's ring buffer "
					"on cpu %d: %s%s", what, s->cpu, strerror(errno),
					errno == EPERM ? " (the memory a user may lock for "
					"perf, kernel.perf_event_mlock_kb, is used up)" :
					""), -1;
		*ring_fd = fd;
	} else if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, *ring_fd)) {
		return snprintf(err, err_size, "%s: sharing the ring buffer of cpu "
				"%d: %s", what, s->cpu, strerror(errno)), -1;
	}
	return 0;
}

/*
 * Opens every event for pid (-1: anyone) on every CPU, into the CPUs'
 * rings, and an event that only tells of task names and forks into a
 * ring of its own: what a full ring loses is then only samples.
 */
static int open_events(struct evt_kernel_sampler *k, pid_t pid, bool on_exec,
		       char *err, size_t err_size)
{
	unsigned c, e;

	for (c = 0; c < k->ncpus; c++) {
		struct ring *s = &k->cpus[c];
		struct perf_event_attr attr = {
			.type = PERF_TYPE_SOFTWARE, .size = sizeof(attr),
			.config = PERF_COUNT_SW_DUMMY, .sample_type = SAMPLE_TYPE,
			.sample_id_all = 1, .inherit = pid >= 0,
			.disabled = on_exec, .enable_on_exec = on_exec,
			.use_clockid = 1, .clockid = CLOCK_MONOTONIC,
			.comm = 1, .task = 1, .exclude_kernel = 1, .exclude_hv = 1,
		};

		if (open_into(k, s, &attr, pid, "task names", &s->side_fd, &s->side,
			      SIDE_RING_BYTES, err, err_size))
			return -1;
		for (e = 0; e < k->nev; e++) {
			if (k->taken && k->taken[e])
				continue;	/* the eBPF program's */
			attr = (struct perf_event_attr){
				.type = PERF_TYPE_TRACEPOINT, .size = sizeof(attr),
				.config = (uint64_t)k->ev[e].id,
				.sample_period = 1, .sample_type = SAMPLE_TYPE,
				.sample_id_all = 1, .inherit = pid >= 0,
				.disabled = on_exec, .enable_on_exec = on_exec,
				.use_clockid = 1, .clockid = CLOCK_MONOTONIC,
				.watermark = 1,
				.wakeup_watermark = (uint32_t)(k->ring_bytes / 4),
			};
			bool first = s->ring_fd < 0;

			if (open_into(k, s, &attr, pid, k->ev[e].path, &s->ring_fd,
				      &s->ring, k->ring_bytes, err, err_size))
				return -1;
			if (first)
				open_flush(k, s);
		}
	}
	evt_clock_pairs_take(&k->clock, true);
	return 0;
}

int evt_kernel_sampler_task(struct evt_kernel_sampler *k, pid_t tid,
			    bool on_exec, char *err, size_t err_size)
{
	/* (the eBPF program first: once the perf events are open, all
	 * is, for one who counts them) */
	if ((k->capture && evt_kernel_capture_follow(k->capture, tid, on_exec, err,
						     err_size)) ||
	    open_events(k, tid, on_exec, err, err_size))
		return -1;
	if (!on_exec)
		task_attached(k, tid);
	return 0;
}

int evt_kernel_sampler_process(struct evt_kernel_sampler *k, pid_t pid,
			       char *err, size_t err_size)
{
	char dir[64];
	pid_t *done = NULL;
	size_t ndone = 0, cap = 0, i;
	bool added = true;
	int ret = 0;

	snprintf(dir, sizeof(dir), "/proc/%d/task", (int)pid);
	while (added && !ret) {
		DIR *d = opendir(dir);
		struct dirent *e;

		if (!d && errno == ENOENT && ndone)
			break;	/* it ended while its threads were attached */
		if (!d) {
			ret = snprintf(err, err_size, "pid %d: %s", (int)pid,
				       errno == ENOENT ? "no such process" :
				       strerror(errno));
			break;
		}
		added = false;
		while ((e = readdir(d)) && !ret) {
			pid_t tid = (pid_t)atoi(e->d_name);

			for (i = 0; i < ndone && done[i] != tid; i++)
				;
			if (tid <= 0 || i < ndone)
				continue;
			if (ndone == cap) {
				pid_t *grown = realloc(done, (cap = cap ? 2 * cap : 64) *
							     sizeof(*grown));

				if (!grown) {
					ret = snprintf(err, err_size, "out of memory");
					break;
				}
				done = grown;
			}
			done[ndone++] = tid;
			added = true;
			/* A thread that ended since the listing is no error. */
			if (evt_kernel_sampler_task(k, tid, false, err, err_size) &&
			    !kill(tid, 0))
				ret = -1;
		}
		closedir(d);
	}
	free(done);
	return ret ? -1 : 0;
}

int evt_kernel_sampler_all_cpus(struct evt_kernel_sampler *k, char *err,
				size_t err_size)
{
	return open_events(k, -1, false, err, err_size) ||
	       (k->capture && evt_kernel_capture_all(k->capture, err, err_size)) ?
	       -1 : 0;
}

int evt_kernel_sampler_capture(struct evt_kernel_sampler *k, unsigned buf_bytes,
			       char *err, size_t err_size)
{
	if (k->nfds)
		return snprintf(err, err_size, "kernel/syscalls/: the events are "
				"open already"), -1;
	if (!(k->taken = calloc(k->nev ? k->nev : 1, sizeof(*k->taken))))
		return snprintf(err, err_size, "out of memory"), -1;
	k->capture = evt_kernel_capture_open(k->ev, k->nev, k->taken, buf_bytes,
					     /* (one ring for all CPUs, its records
					      * larger than perf's: a recorder that
					      * looks every 20 ms keeps up with W5) */
					     (unsigned)(k->ring_bytes >> 10) * 8 * k->ncpus,
					     err, err_size);
	if (!k->capture) {
		free(k->taken);
		k->taken = NULL;
		return err[0] ? -1 : 0;
	}
	return 1;
}

/* The CPUs that are online, from "0-3,5". */
static int online_cpus(struct evt_kernel_sampler *k)
{
	char buf[4096] = "", *tok, *save = NULL;
	FILE *f = fopen("/sys/devices/system/cpu/online", "re");
	long max = sysconf(_SC_NPROCESSORS_CONF), a, b;

	if (f) {
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = '\0';
		fclose(f);
	}
	if (!buf[0] || max < 1)
		return -1;
	k->cpus = calloc((size_t)max, sizeof(*k->cpus));
	if (!k->cpus)
		return -1;
	for (tok = strtok_r(buf, ",\n", &save); tok; tok = strtok_r(NULL, ",\n", &save)) {
		if (sscanf(tok, "%ld-%ld", &a, &b) != 2)
			b = a = strtol(tok, NULL, 10);
		for (; a >= 0 && a <= b && k->ncpus < (unsigned)max; a++)
			k->cpus[k->ncpus++] = (struct ring){
				.cpu = (int)a, .ring_fd = -1, .flush_fd = -1,
				.side_fd = -1 };
	}
	return k->ncpus ? 0 : -1;
}

/*
 * The uprobe event at kernel_path loaded into e as the USDT probe path
 * (usdt/PROVIDER/NAME) it stands for: its format's name line says NAME,
 * so that a reader parses it under PROVIDER (evt_kernel_split_path).
 */
static int load_usdt(const char *kernel_path, const char *path,
		     struct evt_kernel_event *e, char *err, size_t err_size)
{
	const char *name = strrchr(path, '/') + 1, *line, *nl;
	char *text, *renamed;

	if (evt_kernel_event_load(kernel_path, e, err, err_size))
		return -1;
	text = e->tracefs_format;
	if (!(line = strstr(text, "name: ")) || !(nl = strchr(line, '\n'))) {
		snprintf(err, err_size, "%s: its format has no name line", path);
		return -1;
	}
	free(e->path);
	e->path = strdup(path);
	renamed = malloc(strlen(text) + strlen(name) + 8);
	if (!e->path || !renamed) {
		free(renamed);
		snprintf(err, err_size, "out of memory");
		return -1;
	}
	sprintf(renamed, "%.*sname: %s%s", (int)(line - text), text, name, nl);
	free(e->tracefs_format);
	e->tracefs_format = renamed;
	return 0;
}

int evt_kernel_sampler_create(const char *const *patterns, unsigned npatterns,
			      const struct evt_clock_calibration *clock,
			      uint32_t ring_kib, struct evt_kernel_sampler **out,
			      char *err, size_t err_size)
{
	return evt_kernel_sampler_create_probes(patterns, npatterns, NULL, 0, clock,
						ring_kib, out, err, err_size);
}

int evt_kernel_sampler_create_probes(const char *const *patterns, unsigned npatterns,
				     const char *const *files, unsigned nfiles,
				     const struct evt_clock_calibration *clock,
				     uint32_t ring_kib, struct evt_kernel_sampler **out,
				     char *err, size_t err_size)
{
	struct evt_kernel_sampler *k = NULL;
	struct evt_usdt_set *usdt = NULL;
	char **paths = NULL;
	long *ids = NULL;
	unsigned npaths = 0, *chosen = NULL, nchosen = 0, nusdt, i, p;
	struct rlimit rl;
	bool any = false, any_kernel = false;

	*out = NULL;
	for (p = 0; p < npatterns; p++) {
		any_kernel |= evt_is_kernel_path(patterns[p]) && !evt_is_usdt_path(patterns[p]);
		any |= evt_is_kernel_path(patterns[p]);
	}
	if (!any)
		return 0;
	if (any_kernel &&
	    (evt_kernel_event_paths_any(&paths, &ids, &npaths, err, err_size) ||
	     evt_kernel_match(patterns, npatterns, paths, npaths, &chosen, &nchosen,
			      err, err_size)))
		goto fail;
	if (evt_usdt_set_create(patterns, npatterns, files, nfiles, &usdt, err,
				err_size))
		goto fail;
	nusdt = evt_usdt_set_count(usdt);
	if (nchosen + nusdt > UINT16_MAX) {
		snprintf(err, err_size, "kernel events: %u of them; one recording "
			 "takes %u at most", nchosen + nusdt, UINT16_MAX);
		goto fail;
	}
	k = calloc(1, sizeof(*k));
	if (!k || !(k->ev = calloc(nchosen + nusdt + 1, sizeof(*k->ev))) ||
	    !(k->by_id = calloc(nchosen + nusdt + 1, sizeof(*k->by_id))))
		goto oom;
	k->usdt = usdt;
	usdt = NULL;
	for (i = 0; i < nchosen + nusdt; i++, k->nev++) {
		if (i < nchosen ?
		    evt_kernel_event_load(paths[chosen[i]], &k->ev[i], err, err_size) :
		    load_usdt(evt_usdt_set_kernel_path(k->usdt, i - nchosen),
			      evt_usdt_set_path(k->usdt, i - nchosen), &k->ev[i], err,
			      err_size))
			goto fail;
		k->by_id[i] = (struct by_id){ k->ev[i].id, i };
	}
	qsort(k->by_id, k->nev, sizeof(*k->by_id), by_id_cmp);
	evt_clock_pairs_init(&k->clock, clock);
	k->ring_bytes = (size_t)ring_kib << 10;
	if (online_cpus(k)) {
		snprintf(err, err_size, "kernel events: cannot tell which CPUs are online");
		goto fail;
	}
	/* An fd per event, CPU and task: as many as the limit allows. */
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	free(chosen);
	free(ids);
	evt_kernel_event_paths_free(paths, npaths);
	*out = k;
	return 0;
oom:
	snprintf(err, err_size, "out of memory");
fail:
	free(chosen);
	free(ids);
	evt_kernel_event_paths_free(paths, npaths);
	evt_kernel_sampler_destroy(k);
	evt_usdt_set_destroy(usdt);
	return -1;
}

void evt_kernel_sampler_wait(struct evt_kernel_sampler *k, int timeout_ms)
{
	struct pollfd pfd[64];
	unsigned i, n = 0;

	for (i = 0; i < k->ncpus && n < 64; i++)
		if (k->cpus[i].ring_fd >= 0)
			pfd[n++] = (struct pollfd){ .fd = k->cpus[i].ring_fd,
						    .events = POLLIN };
	if (k->capture && n < 64)
		pfd[n++] = (struct pollfd){ .fd = evt_kernel_capture_fd(k->capture),
					    .events = POLLIN };
	poll(pfd, n, timeout_ms);
}

unsigned evt_kernel_sampler_nevents(const struct evt_kernel_sampler *k)
{
	return k->nev;
}

const struct evt_kernel_event *evt_kernel_sampler_event(const struct evt_kernel_sampler *k,
							unsigned i)
{
	return &k->ev[i];
}

unsigned evt_kernel_sampler_nrings(const struct evt_kernel_sampler *k)
{
	return k->ncpus + (k->capture != NULL);
}

int evt_kernel_sampler_ring_cpu(const struct evt_kernel_sampler *k, unsigned ring)
{
	return ring < k->ncpus ? k->cpus[ring].cpu : -1;
}

static int int_cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return x < y ? -1 : x > y;
}

/*
 * Closing the last fd of a tracepoint's perf events unregisters it, and
 * the kernel then waits for an RCU grace period (20 to 30 ms on these
 * machines): seconds for hundreds of events (perf record -e 'syscalls:*'
 * spends 20 s so).  A child of ours takes the last references, keeping
 * nothing else open (no lock, no file of the trace), and drops them when
 * we have closed ours; we go on at once.
 */
static void close_fds(int *fds, unsigned n)
{
	int go[2], prev = -1;
	unsigned i;
	pid_t child;

	if (n >= 256 && pipe2(go, O_CLOEXEC) == 0) {
		child = fork();
		if (child == 0) {
			fds[n] = go[0];	/* (room for it was kept) */
			qsort(fds, n + 1, sizeof(*fds), int_cmp);
			for (i = 0; i <= n; i++) {
				if (fds[i] > prev + 1)
					close_range((unsigned)prev + 1,
						    (unsigned)fds[i] - 1, 0);
				prev = fds[i];
			}
			close_range((unsigned)prev + 1, ~0u, 0);
			while (read(go[0], &(char){ 0 }, 1) < 0 && errno == EINTR)
				;
			_exit(0);
		}
		close(go[0]);
		for (i = 0; i < n; i++)
			close(fds[i]);
		close(go[1]);	/* the child's read ends: its exit closes them */
		return;
	}
	for (i = 0; i < n; i++)
		close(fds[i]);
}

void evt_kernel_sampler_destroy(struct evt_kernel_sampler *k)
{
	unsigned i;

	if (!k)
		return;
	close_fds(k->fds, k->nfds);
	evt_kernel_capture_close(k->capture);
	free(k->taken);
	for (i = 0; i < k->ncpus; i++) {
		if (k->cpus[i].flush_fd >= 0)
			close(k->cpus[i].flush_fd);
		evt_perf_ring_unmap(&k->cpus[i].ring);
		evt_perf_ring_unmap(&k->cpus[i].side);
	}
	for (i = 0; k->ev && i < k->nev; i++)
		evt_kernel_event_free(&k->ev[i]);
	evt_usdt_set_destroy(k->usdt);	/* (their perf events closed above) */
	free(k->ev);
	free(k->by_id);
	free(k->cpus);
	free(k->fds);
	free(k->tasks);
	free(k->arena);
	free(k->batch);
	free(k);
}

struct evt_kernel_print *evt_kernel_sampler_printer(const struct evt_kernel_sampler *k)
{
	unsigned i, n = evt_kernel_sampler_nevents(k);
	char **paths = calloc(n ? n : 1, sizeof(char *));
	char **texts = calloc(n ? n : 1, sizeof(char *));
	struct evt_kernel_print *p = NULL;

	for (i = 0; paths && texts && i < n; i++) {
		const struct evt_kernel_event *e = evt_kernel_sampler_event(k, i);

		paths[i] = e->path;
		texts[i] = e->tracefs_format;
	}
	if (paths && texts)
		p = evt_kernel_print_new(paths, texts, n);
	free(paths);
	free(texts);
	return p;
}

long evt_kernel_sample_payload(const struct evt_kernel_sampler *k,
			       const struct evt_kernel_sample *s, uint8_t **buf,
			       size_t *cap)
{
	const struct evt_kernel_event *e = &k->ev[s->event];
	size_t max = evt_kernel_payload_max(e, s->raw_size);

	if (max > *cap) {
		uint8_t *grown = realloc(*buf, max);

		if (!grown)
			return -1;
		*buf = grown;
		*cap = max;
	}
	return evt_kernel_payload(e, s->raw, s->raw_size, *buf);
}

size_t evt_kernel_sample_text(const struct evt_kernel_sampler *k,
			      struct evt_kernel_print *p,
			      const struct evt_kernel_sample *s, const uint8_t *payload,
			      long payload_len, char *out, size_t out_size)
{
	int len = evt_kernel_print_raw(p, s->event, s->raw, s->raw_size,
				       (uint16_t)s->cpu, out, out_size);

	if (len >= 0)
		return strlen(out);
	if (payload_len < 0 ||
	    evt_event_format_render(&k->ev[s->event].format, payload,
				    (size_t)payload_len, out, out_size) < 0)
		snprintf(out, out_size, "(a record its format does not describe)");
	return strlen(out);
}
