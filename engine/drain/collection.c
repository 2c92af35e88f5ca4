/*
 * collection.c - record a collection into a trace directory (see
 * collection.h).
 *
 * Reader side of the buffer protocol of lib/write.c: acquire produced (or
 * commit), copy the packet's header out of shared memory and check it,
 * write the patched header and the records (straight from the mapping),
 * then release consumed so the writer may reuse the packet.  In overwrite mode
 * nothing is consumed: buffers are read once, when their thread or process
 * is gone or the recording ends, oldest surviving packet first.  Every
 * value read from the control file is checked before use.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/futex.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/inotify.h>
#include <sys/syscall.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "collection.h"
#include "ctl.h"
#include "event_ids.h"
#include "id_registry.h"
#include "kernel_record.h"
#include "layout.h"
#include "packet_pieces.h"
#include "pattern.h"
#include "relay.h"
#include "relay_out.h"
#include "rules.h"
#include "policy.h"
#include "printk_format.h"
#include "rules_files.h"
#include "live.h"
#include "report.h"
#include "requests.h"
#include "selection.h"
#include "slots.h"
#include "stream_classes.h"
#include "trace_dir.h"
#include "trace_index.h"

/* How often a poll scans the run directory without an inotify event, and
 * checks that a process still runs. */
#define RESCAN_MS 1000
/* At the end, how long what is queued for a relay may take to go. */
#define RELAY_FINISH_MS 10000
#define ALIVE_CHECK_MS 5

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

struct out_stream {
	uint32_t epoch;		/* 0: nothing drained yet */
	int fd;
	uint64_t next_seq;
	uint64_t extra_lost;	/* overwritten before they could be read */
	uint64_t last_discarded;
	uint64_t last_ts;
	uint64_t lost_base;	/* lost before its file began (a class move) */
	uint64_t first_event;	/* of the last packet copied; ~0 before any */
	/* Whole packets, and the open packet in pieces as flushed (discard
	 * mode, at most every FLUSH_MS). */
	struct evt_pieces pieces;
	int64_t flushed_ms;
	uint64_t allocated;	/* bytes of the buffer made the file's */
	off_t size;		/* bytes of whole packets in the file */
	bool finished;
	char name[80];		/* its file, in the trace directory */
	struct evt_relay_out relay;
};

struct tracked {
	struct evt_ctl *ctl;
	uint32_t cls;		/* its stream class, EVT_NO_CLASS before any */
	uint32_t serial;	/* processes tracked before it: names files */
	uint32_t slot_gen;
	uint32_t nindexed;	/* events given a global id */
	uint32_t enabled_upto;	/* events the selection was applied to */
	uint32_t applied_gen;	/* of the selection, when applied to all */
	uint32_t *gids;		/* [nindexed], by local id */
	bool dead;
	bool done;		/* fully drained after its process died */
	int64_t alive_checked_ms;
	char name[64];
	ino_t ino;
	struct out_stream *streams;	/* [h.max_tbufs] */
};

struct evt_collection {
	struct evt_collection_opts o;
	struct evt_rundir rd;
	struct evt_trace_dir out;
	char rules_name[64];
	uint32_t slot;
	uint64_t id;
	int lock_fd;
	int inotify_fd;
	uint32_t clock_kind;
	struct evt_trace_index ix;
	struct evt_event_ids ids;
	struct evt_stream_classes classes;
	struct evt_selection sel;	/* the events it wants */
	uint64_t *totals;	/* counting: by global id, what was added up */
	uint32_t ntotals;
	bool index_dirty;
	struct tracked *tracked;
	unsigned ntracked;
	int *scope;		/* attached: pids whose new images we take */
	unsigned nscope;
	struct foreign {	/* control files of other collections */
		ino_t ino;
		bool present;	/* in the last scan of the directory */
		char name[64];
	} *foreign;
	unsigned nforeign;
	struct evt_collection_stats stats;
	int64_t last_discover_ms;
	bool unpublished;	/* a control file seen is to be looked at again */
	bool futex_waitv_ok;	/* false once the kernel said ENOSYS */
	bool woken;		/* the last wait ended early */
	/* Stepping off a writer's CPU (evt_collection_run only). */
	bool may_move;
	cpu_set_t affinity;	/* as it was when the run began */
	int64_t step_checked_ms;
	int64_t stepped_until_ms;	/* 0: not stepped off */
	bool finishing;		/* the last look: report what is out of reach */
	bool failed;		/* the output failed: recording stopped */
	char err[PATH_MAX + 200];	/* what an output error was */
	uint64_t released;	/* processes let go of */
	uint64_t allocations;	/* of pages ahead of writers */
	struct evt_kernel_record *kernel;	/* its kernel events, or NULL */
	int *kernel_pids;	/* attached to, untraced ones included */
	unsigned nkernel_pids;
	bool kernel_class;	/* the index has the kernel's stream class */
	uint64_t packets_at_wake;
	/* Streamed to a relay (relay.h), besides or instead of c->out. */
	struct evt_relay *relay;
	uint32_t relay_streams, relay_events;	/* of ix, in its metadata */
	int64_t relay_horizon_ms;
	struct class_layouts {	/* ix.events index by local id, per class */
		uint32_t *ix;
		uint32_t n;
	} *layouts;
	uint32_t nlayouts;
};

/* Whether a trace directory is written (else only a relay gets it). */
static bool local(const struct evt_collection *c)
{
	return c->o.output != NULL;
}

static int claim_slot(struct evt_collection *c, char *err, size_t err_size)
{
	int s = evt_slot_claim(&c->rd, c->o.what ? c->o.what : "evtrace",
			       &c->lock_fd, err, err_size);

	if (s < 0)
		return -1;
	c->slot = (uint32_t)s;
	return 0;
}

static int write_rules(struct evt_collection *c, char *err, size_t err_size)
{
	const struct evt_rules_head head = {
		.slot = c->slot, .collection_id = c->id,
		.scope = c->o.all ? EVT_SCOPE_ALL : EVT_SCOPE_TREE,
		.mode = c->o.mode, .packet_size = c->o.packet_size,
		.packet_count = c->o.packet_count, .block_us = c->o.block_us,
	};

	snprintf(c->rules_name, sizeof(c->rules_name), "collection-%" PRIu64
		 ".rules", c->id);
	return evt_selection_publish(&c->rd, c->rules_name, &head, &c->sel, err,
				     err_size);
}

static bool in_scope(const struct evt_collection *c, int pid)
{
	unsigned i;

	for (i = 0; i < c->nscope; i++)
		if (c->scope[i] == pid)
			return true;
	return false;
}

static void add_scope(struct evt_collection *c, int pid)
{
	int *grown;

	if (!c->o.npids || in_scope(c, pid))
		return;
	grown = realloc(c->scope, (c->nscope + 1) * sizeof(*grown));
	if (!grown)
		return;
	c->scope = grown;
	c->scope[c->nscope++] = pid;
}

static void discover(struct evt_collection *c);

/* Takes up the slot in the processes named; each must be found. */
static int attach(struct evt_collection *c, char *err, size_t err_size)
{
	unsigned i, k;

	c->scope = calloc(c->o.npids, sizeof(*c->scope));
	if (!c->scope)
		return snprintf(err, err_size, "out of memory"), -1;
	for (i = 0; i < c->o.npids; i++)
		if (!in_scope(c, c->o.pids[i]))
			c->scope[c->nscope++] = c->o.pids[i];
	discover(c);
	for (i = 0; i < c->o.npids; i++) {
		for (k = 0; k < c->ntracked; k++)
			if ((int)c->tracked[k].ctl->h.pid == c->o.pids[i])
				break;
		if (k == c->ntracked && !c->o.untraced_ok) {
			snprintf(err, err_size, "pid %d: no traced process with "
				 "this pid in %s", c->o.pids[i], c->rd.path);
			for (k = 0; k < c->ntracked; k++)
				evt_slot_detach(c->tracked[k].ctl, c->slot);
			return -1;
		}
	}
	return 0;
}

/* The kernel events of every thread of a running process (and of the
 * children they fork from now on). */
static int kernel_attach(struct evt_collection *c, int pid, char *err,
			 size_t err_size)
{
	char path[64];
	struct dirent *d;
	DIR *dir;
	int *grown = realloc(c->kernel_pids, (c->nkernel_pids + 1) * sizeof(*grown));

	if (!grown)
		return snprintf(err, err_size, "out of memory"), -1;
	c->kernel_pids = grown;
	c->kernel_pids[c->nkernel_pids++] = pid;
	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	dir = opendir(path);
	if (!dir)
		return snprintf(err, err_size, "pid %d: %s", pid,
				errno == ENOENT ? "no such process" : strerror(errno)), -1;
	while ((d = readdir(dir))) {
		int tid = atoi(d->d_name);

		if (tid > 0 && evt_kernel_record_task(c->kernel, tid, false, err,
						      err_size)) {
			closedir(dir);
			return -1;
		}
	}
	closedir(dir);
	return 0;
}

int evt_collection_kernel_command(struct evt_collection *c, int pid, char *err,
				  size_t err_size)
{
	return !c->kernel ? 0 :
	       evt_kernel_record_task(c->kernel, pid, true, err, err_size);
}

/*
 * Recover and snapshot read a slot another engine set up: its collection
 * id, mode and buffer geometry are taken from the control files of
 * o.pids[0] (snapshot: or of every process), so that track() finds them
 * ours as they are.  Recover wants a slot whose recorder is gone, and
 * takes its lock; snapshot one whose recorder runs, in overwrite mode,
 * and leaves it to it.
 */
static int adopt_slot(struct evt_collection *c, char *err, size_t err_size)
{
	bool running = c->o.snapshot;
	int pid = c->o.npids ? c->o.pids[0] : 0;
	struct evt_ctl **ctls = NULL;
	uint32_t s, found = 0, count = 0;
	char who[32] = "the run directory";
	int n, i, ret = -1;

	if (pid)
		snprintf(who, sizeof(who), "pid %d", pid);
	n = evt_rundir_open_all(&c->rd, pid, NULL, NULL, &ctls);
	if (n <= 0) {
		snprintf(err, err_size, "%s: no control file in %s%s", who,
			 c->rd.path, running ? "" : " (a process that is gone "
			 "leaves one only while it has buffers no engine read, "
			 "until the next engine starts)");
		goto out;
	}
	for (i = 0; i < n; i++)
		for (s = 1; s < EVT_NSLOTS && !ctls[i]->shrank; s++) {
			const struct evt_ctl_slot *sl = &ctls[i]->slots[s];

			if (__atomic_load_n(&sl->state, __ATOMIC_ACQUIRE) !=
			    EVT_SLOT_ACTIVE || evt_slot_held(&c->rd, s) != running ||
			    (c->o.adopt_slot && s != c->o.adopt_slot) ||
			    (running && sl->mode != EVT_MODE_OVERWRITE))
				continue;
			if (found != s)
				count++;
			found = s;
			c->id = sl->collection_id;
			c->o.mode = sl->mode;
			c->o.packet_size = sl->packet_size;
			c->o.packet_count = sl->packet_count;
		}
	if (!count) {
		if (running)
			snprintf(err, err_size, "%s: no running --overwrite recording%s "
				 "(a snapshot is of a flight recorder; evtrace ls%s "
				 "names the collections)", who, c->o.adopt_slot ?
				 " in that slot" : "", pid ? " -p PID" : "");
		else
			snprintf(err, err_size, "%s: no buffers left by a recorder "
				 "that is gone%s (a running recorder reads its own; "
				 "see evtrace ls -p %d)", who, c->o.adopt_slot ?
				 " in that slot" : "", pid);
		goto out;
	}
	if (count > 1) {
		snprintf(err, err_size, "%s: several %s; choose one with %s", who,
			 running ? "running --overwrite recordings" :
			 "recorders that are gone left buffers",
			 running ? "--collection" : "--slot");
		goto out;
	}
	if (c->o.mode != EVT_MODE_DISCARD && c->o.mode != EVT_MODE_OVERWRITE) {
		snprintf(err, err_size, "%s: slot %u was counting, not recording: "
			 "there are no events to recover", who, found);
		goto out;
	}
	if (evt_buffer_config_check(c->o.packet_size, c->o.packet_count, err,
				    err_size))
		goto out;
	c->slot = found;
	if (running) {
		ret = 0;
		goto out;
	}
	c->lock_fd = evt_rundir_slot_lock(&c->rd, found, err, err_size);
	if (c->lock_fd < 0)
		goto out;
	if (flock(c->lock_fd, LOCK_EX | LOCK_NB)) {
		snprintf(err, err_size, "slot %u: taken by another engine meanwhile",
			 found);
		goto out;
	}
	{	/* who holds it now, for others who find it taken */
		char line[256];
		int len = snprintf(line, sizeof(line), "%d %s\n", (int)getpid(),
				   c->o.what ? c->o.what : "evtrace recover");

		if (ftruncate(c->lock_fd, 0) == 0 && len > 0)
			(void)!pwrite(c->lock_fd, line, (size_t)len < sizeof(line) ?
				      (size_t)len : sizeof(line) - 1, 0);
	}
	ret = 0;
out:
	if (n > 0)
		evt_rundir_close_all(ctls, n);
	return ret;
}

int evt_collection_create(const struct evt_collection_opts *opts,
			  struct evt_collection **out, char *err,
			  size_t err_size)
{
	struct evt_collection *c = calloc(1, sizeof(*c));

	*out = NULL;
	if (!c)
		return snprintf(err, err_size, "out of memory"), -1;
	c->o = *opts;
	c->lock_fd = c->inotify_fd = -1;
	c->rd.fd = c->out.fd = c->out.sub_fd = -1;
	for (unsigned i = 0; i < opts->npatterns; i++)
		if (evt_selection_change(&c->sel, true, opts->patterns[i], 0, err,
					 err_size))
			goto out_free;
	c->futex_waitv_ok = true;
	if (evt_buffer_config_check(opts->packet_size, opts->packet_count, err,
				    err_size))
		goto out_free;
	/* Recover and snapshot read what is there: they make nothing (no
	 * directory, no id registry) where there is nothing to adopt. */
	if (evt_rundir_open(&c->rd, opts->rundir, EVT_RUNDIR_ROOT_ENTERS |
			    (opts->recover || opts->snapshot ? 0 : EVT_RUNDIR_CREATE),
			    err, err_size))
		goto out_free;
	if (!opts->recover && !opts->snapshot)
		evt_rundir_sweep(&c->rd);
	if (getrandom(&c->id, sizeof(c->id), 0) != sizeof(c->id) || !c->id)
		c->id = ((uint64_t)getpid() << 32) ^ (uint64_t)time(NULL);
	if (opts->recover || opts->snapshot ? adopt_slot(c, err, err_size) :
	    claim_slot(c, err, err_size))
		goto out_free;
	c->ids.registry = evt_id_registry_open(&c->rd);
	if (opts->snapshot)	/* every process of the recording */
		c->o.npids = 0;
	c->clock_kind = evt_clock_detect();
	if (evt_clock_calibrate(c->clock_kind, &c->ix.clock)) {
		snprintf(err, err_size, "cannot calibrate the trace clock");
		goto out_free;
	}
	/* Kernel events named wrong fail before a trace directory exists. */
	if (opts->mode != EVT_MODE_COUNT &&
	    (evt_kernel_record_create(opts->patterns, opts->npatterns, &c->ix.clock,
				      opts->packet_size, opts->kernel_ring_kib
				      ? opts->kernel_ring_kib : EVT_KERNEL_RING_KIB_DEFAULT,
				      &c->kernel, err, err_size) ||
	     (c->kernel && evt_kernel_record_describe(c->kernel, &c->ix) < 0)))
		goto out_free;
	c->kernel_class = c->kernel != NULL;
	if (c->kernel && opts->all && evt_kernel_record_all_cpus(c->kernel, err,
								 err_size))
		goto out_free;
	for (unsigned i = 0; c->kernel && i < opts->npids; i++)
		if (kernel_attach(c, opts->pids[i], err, err_size))
			goto out_free;
	if (opts->mode != EVT_MODE_COUNT && local(c) &&
	    evt_trace_dir_open(&c->out, opts->output, err, err_size))
		goto out_free;
	if (opts->relay && evt_relay_start(opts->relay, &c->relay, err, err_size))
		goto out_free;
	if (c->relay && c->kernel)
		evt_kernel_record_relay(c->kernel, c->relay);
	c->relay_streams = c->relay_events = UINT32_MAX;
	c->inotify_fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	if (c->inotify_fd >= 0 &&
	    inotify_add_watch(c->inotify_fd, c->rd.path, IN_CREATE | IN_MOVED_TO) < 0) {
		close(c->inotify_fd);	/* then the run directory is scanned each poll */
		c->inotify_fd = -1;
	}
	if (!opts->recover && !opts->snapshot && write_rules(c, err, err_size))
		goto out_free;
	c->index_dirty = true;
	if (c->o.npids && attach(c, err, err_size))
		goto out_free;
	*out = c;
	return 0;
out_free:
	evt_collection_destroy(c);
	return -1;
}

unsigned evt_collection_running(const struct evt_collection *c)
{
	unsigned k, n = 0;

	for (k = 0; k < c->ntracked; k++)
		n += !c->tracked[k].dead && !c->tracked[k].done;
	/* Attached for kernel events only: until the process is gone. */
	for (k = 0; n == 0 && k < c->nkernel_pids; k++)
		n += kill(c->kernel_pids[k], 0) == 0 || errno == EPERM;
	return n;
}

const char *evt_collection_rules_name(const struct evt_collection *c)
{
	return c->rules_name;
}

static int flush_index(struct evt_collection *c, char *err, size_t err_size)
{
	if (!c->index_dirty || c->o.mode == EVT_MODE_COUNT)
		return 0;
	if (local(c) && evt_trace_dir_describe(&c->out, &c->ix, err, err_size))
		return -1;
	if (c->relay)
		evt_relay_out_metadata(c->relay, &c->ix, c->o.relay->hostname,
				       &c->relay_streams, &c->relay_events);
	c->index_dirty = false;
	return 0;
}

/* Describes local id L of class cls in the index (and so the metadata). */
static int describe(struct evt_collection *c, uint32_t cls, uint32_t L)
{
	const struct evt_global_event *g =
		evt_event_ids_at(&c->ids, c->classes.v[cls].gids[L]);
	struct evt_event_desc *e;
	char why[300];
	void *grown = realloc(c->ix.events,
			      (c->ix.nevents + 1) * sizeof(*c->ix.events));

	if (!grown)
		return -1;
	c->ix.events = grown;
	e = &c->ix.events[c->ix.nevents];
	memset(e, 0, sizeof(*e));
	e->sid = cls;
	e->id = L;
	e->path = strdup(g->path);
	/* A refused printk site never writes: described with no format, so
	 * that the trace's readers take it. */
	e->format = strdup(g->kind == EVT_KIND_PRINTK && !g->nargs &&
			   evt_printk_problems(g->format, why, sizeof(why)) ?
			   "" : g->format);
	/* Its own copy: the layout owns memory. */
	if (!e->path || !e->format ||
	    evt_event_layout_load(&e->layout, g->kind, e->format, g->types,
				  g->nargs, why, sizeof(why))) {
		free(e->path);
		free(e->format);
		return -1;
	}
	if (cls >= c->nlayouts) {
		struct class_layouts *more = realloc(c->layouts,
						     (cls + 1) * sizeof(*more));

		if (!more)
			goto fail;
		memset(more + c->nlayouts, 0,
		       (cls + 1 - c->nlayouts) * sizeof(*more));
		c->layouts = more;
		c->nlayouts = cls + 1;
	}
	if (L >= c->layouts[cls].n) {
		uint32_t *more = realloc(c->layouts[cls].ix, (L + 1) * sizeof(*more));

		if (!more)
			goto fail;
		memset(more + c->layouts[cls].n, 0xff,
		       (L + 1 - c->layouts[cls].n) * sizeof(*more));
		c->layouts[cls].ix = more;
		c->layouts[cls].n = L + 1;
	}
	c->layouts[cls].ix[L] = c->ix.nevents;
	c->ix.nevents++;
	c->index_dirty = true;
	return 0;
fail:
	evt_event_layout_free(&e->layout);
	free(e->path);
	free(e->format);
	return -1;
}

struct layout_ctx {
	const struct evt_collection *c;
	uint32_t cls;
};

/* The layout of event id of a class, for the relay's pieces. */
static const struct evt_event_layout *layout_of(void *ctx, uint16_t id)
{
	const struct layout_ctx *x = ctx;
	const struct class_layouts *cl;

	if (x->cls >= x->c->nlayouts)
		return NULL;
	cl = &x->c->layouts[x->cls];
	return id < cl->n && cl->ix[id] < x->c->ix.nevents ?
	       &x->c->ix.events[cl->ix[id]].layout : NULL;
}

/* The stream classes of processes in the index (the kernel's is not
 * one): their sids are 0, 1, ... as the classes are numbered. */
static uint32_t process_classes(const struct evt_collection *c)
{
	return c->ix.nstreams - c->kernel_class;
}

static int add_stream_class(struct evt_collection *c, const struct tracked *t)
{
	struct evt_stream_class *sc = realloc(c->ix.streams,
					      (c->ix.nstreams + 1) * sizeof(*sc));

	if (!sc)
		return -1;
	c->ix.streams = sc;
	sc = &c->ix.streams[c->ix.nstreams];
	memset(sc, 0, sizeof(*sc));
	sc->sid = process_classes(c);
	c->ix.nstreams++;
	sc->pid = t->ctl->h.pid;
	memcpy(sc->comm, t->ctl->h.comm, 16);
	sc->comm[16] = '\0';
	c->index_dirty = true;
	return 0;
}

/* Packets of another class go to other files: each file is one CTF
 * stream, of one class.  Lost counts start again with the file (an open
 * packet partly flushed goes on there, in pieces). */
static void start_new_files(struct evt_collection *c, struct tracked *t)
{
	uint32_t i;

	for (i = 0; i < t->ctl->h.max_tbufs; i++) {
		struct out_stream *st = &t->streams[i];

		if (st->fd >= 0 && st->epoch)
			close(st->fd);
		if (c->relay)
			evt_relay_out_end(c->relay, &st->relay);
		st->fd = -1;
		st->size = 0;
		st->lost_base = st->last_discarded;
	}
}

/* Gives the process's new events their global ids and the process the
 * stream class they agree with; describes what is new to that class. */
static int index_events(struct evt_collection *c, struct tracked *t)
{
	struct evt_ctl *ctl = t->ctl;
	uint32_t cls, L, described;

	if (t->nindexed == ctl->nevents && t->cls != EVT_NO_CLASS)
		return 0;
	if (ctl->nevents > t->nindexed) {
		uint32_t *grown = realloc(t->gids, ctl->nevents * sizeof(*grown));

		if (!grown)
			return -1;
		t->gids = grown;
	}
	for (; t->nindexed < ctl->nevents; t->nindexed++) {
		t->gids[t->nindexed] = evt_event_ids_get(&c->ids,
							 &ctl->events[t->nindexed]);
		if (t->gids[t->nindexed] == EVT_NO_ID)
			return -1;
	}
	if (c->o.mode == EVT_MODE_COUNT) {	/* nothing to describe */
		if (c->ids.n > c->ntotals) {
			uint64_t *grown = realloc(c->totals, c->ids.n * sizeof(*grown));

			if (!grown)
				return -1;
			memset(grown + c->ntotals, 0,
			       (c->ids.n - c->ntotals) * sizeof(*grown));
			c->totals = grown;
			c->ntotals = c->ids.n;
		}
		return 0;
	}
	cls = evt_stream_classes_place(&c->classes, t->cls, t->gids,
				       t->nindexed, &described);
	if (cls == EVT_NO_CLASS)
		return -1;
	if (cls == process_classes(c) && add_stream_class(c, t))
		return -1;
	if (t->cls != EVT_NO_CLASS && cls != t->cls)
		start_new_files(c, t);
	t->cls = cls;
	for (L = described; L < c->classes.v[cls].len; L++)
		if (describe(c, cls, L))
			return -1;
	return 0;
}

/*
 * Whether the file name, inode ino, was looked at already.  A name comes
 * back for another process (an exec'd image whose first file was let go
 * of, a pid reused): a file we removed is forgotten then, one gone from
 * the directory at the next scan, and the inode tells the rest apart.
 */
static bool seen(struct evt_collection *c, const char *name, ino_t ino)
{
	unsigned i;

	for (i = 0; i < c->nforeign; i++)
		if (c->foreign[i].ino == ino && !strcmp(c->foreign[i].name, name))
			return c->foreign[i].present = true;
	for (i = 0; i < c->ntracked; i++)
		if (c->tracked[i].ino == ino && !strcmp(c->tracked[i].name, name))
			return true;
	return false;
}

static void remember_foreign(struct evt_collection *c, const char *name,
			     ino_t ino)
{
	struct foreign *grown = realloc(c->foreign,
					(c->nforeign + 1) * sizeof(*grown));

	if (!grown)
		return;
	c->foreign = grown;
	grown[c->nforeign].ino = ino;
	grown[c->nforeign].present = true;
	snprintf(grown[c->nforeign].name, sizeof(grown->name), "%s", name);
	c->nforeign++;
}

/* A process that cannot be followed further: said, and counted. */
static void unfollowed(struct evt_collection *c, uint32_t pid, const char *path,
		       const char *why)
{
	evt_report("pid %u: %s: %s; its events from then on are "
		"missing, in a number nobody knows", pid, path, why);
	c->stats.unfollowed++;
}

/*
 * Whether the process is ours: it took up our slot itself (our rules),
 * or a fork copied it, or it is in an attached collection's scope and
 * we take the slot up in it now.
 */
static bool ours(struct evt_collection *c, struct evt_ctl *ctl)
{
	struct evt_ctl_slot *slot = &ctl->slots[c->slot];

	if (__atomic_load_n(&slot->state, __ATOMIC_ACQUIRE) == EVT_SLOT_ACTIVE &&
	    slot->collection_id == c->id)
		return true;
	if (c->failed || c->finishing || (!c->o.all && !c->o.npids) ||
	    (!c->o.all && !in_scope(c, (int)ctl->h.pid)) || !evt_ctl_alive(ctl))
		return false;
	evt_slot_attach(ctl, c->slot, c->id, c->o.block_us, c->o.mode,
			c->o.packet_size, c->o.packet_count);
	return true;
}

/* Starts following control file name, or sets it aside for good; false
 * when it is to be looked at again (not published yet, or fds or memory
 * ran short: those that drained processes give back).  While finishing,
 * a process still out of reach is reported. */
static bool track(struct evt_collection *c, const char *name, ino_t ino)
{
	char err[PATH_MAX + 200];
	struct evt_ctl_slot *slot;
	struct evt_ctl *ctl;
	struct tracked *t;
	void *grown;
	int ret;

	ret = evt_ctl_open(&c->rd, name, &ctl, err, sizeof(err));
	if (ret == -EAGAIN)
		return false;	/* not published yet: next time */
	if (ret == -EMFILE || ret == -ENFILE || ret == -ENOMEM) {
		if (!c->finishing)
			return false;
		snprintf(err, sizeof(err), "%s/%s", c->rd.path, name);
		unfollowed(c, (uint32_t)evt_ctl_name_pid(name), err,
			   strerror(-ret));
		remember_foreign(c, name, ino);
		return true;
	}
	if (ret) {
		if (ret != -ENOENT)
			evt_report("%s", err);
		remember_foreign(c, name, ino);
		return true;
	}
	if (!ours(c, ctl)) {
		evt_ctl_close(ctl);
		remember_foreign(c, name, ino);
		return true;
	}
	slot = &ctl->slots[c->slot];
	if (ctl->h.clock_kind != c->clock_kind) {
		evt_report("%s: uses another trace clock; skipped",
			ctl->path);
		evt_ctl_close(ctl);
		remember_foreign(c, name, ino);
		return true;
	}
	grown = realloc(c->tracked, (c->ntracked + 1) * sizeof(*c->tracked));
	if (!grown) {
		evt_ctl_close(ctl);
		return false;
	}
	c->tracked = grown;
	t = &c->tracked[c->ntracked];
	memset(t, 0, sizeof(*t));
	t->streams = calloc(ctl->h.max_tbufs ? ctl->h.max_tbufs : 1,
			    sizeof(*t->streams));
	if (!t->streams) {
		evt_ctl_close(ctl);
		return false;
	}
	t->ctl = ctl;
	t->cls = EVT_NO_CLASS;
	t->serial = c->stats.processes;
	t->slot_gen = slot->gen;
	snprintf(t->name, sizeof(t->name), "%s", name);
	t->ino = ino;
	c->ntracked++;
	c->stats.processes++;
	add_scope(c, (int)ctl->h.pid);
	return true;
}

static void discover(struct evt_collection *c)
{
	int fd = openat(c->rd.fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct dirent *d;
	unsigned i, n;
	DIR *dh = fd < 0 ? NULL : fdopendir(fd);

	c->unpublished = false;
	if (!dh) {
		if (fd >= 0)
			close(fd);
		return;
	}
	for (i = 0; i < c->nforeign; i++)
		c->foreign[i].present = false;
	while ((d = readdir(dh)))
		if (evt_ctl_name_pid(d->d_name) > 0 &&
		    !seen(c, d->d_name, d->d_ino) && !track(c, d->d_name, d->d_ino))
			c->unpublished = true;
	closedir(dh);
	/* Forget the files that are gone: their names may come back. */
	for (i = n = 0; i < c->nforeign; i++)
		if (c->foreign[i].present)
			c->foreign[n++] = c->foreign[i];
	c->nforeign = n;
}

/* Appends a packet, given as a header and a body, to buffer i's stream. */
static int out_write(struct evt_collection *c, struct tracked *t, uint32_t i,
		     struct out_stream *st, const void *head, size_t head_len,
		     const void *body, size_t body_len)
{
	struct iovec iov[2] = {
		{ (void *)head, head_len },
		{ (void *)body, body_len },
	};
	struct iovec *v = iov;
	int nv = body_len ? 2 : 1, saved;

	if (st->fd < 0) {
		/* Named by the serial too: a file name in the run directory
		 * may come back for another process; and by the class, which
		 * the process may change.  (The relay's streams too.) */
		if (i == t->ctl->h.max_tbufs)
			snprintf(st->name, sizeof(st->name),
				 "stream_%.*s_%u_%u_unbuffered",
				 (int)strcspn(t->name, "."), t->name, t->serial,
				 t->cls);
		else
			snprintf(st->name, sizeof(st->name),
				 "stream_%.*s_%u_%u_%u_%u",
				 (int)strcspn(t->name, "."), t->name, t->serial,
				 t->cls, i, st->epoch);
		if (!local(c)) {
			st->size += head_len + body_len;
			return 0;
		}
		st->fd = evt_trace_dir_create(&c->out, 0, st->name, c->err,
					      sizeof(c->err));
		if (st->fd < 0)
			return -1;
	}
	while (nv) {
		ssize_t n = writev(st->fd, v, nv);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			/* No torn packet: what was written of it goes. */
			saved = errno;
			evt_trace_dir_error(&c->out, 0, st->name, saved, c->err,
					    sizeof(c->err));
			if (ftruncate(st->fd, st->size) == 0)
				lseek(st->fd, st->size, SEEK_SET);
			errno = saved;
			return -1;
		}
		while (nv && (size_t)n >= v->iov_len) {
			n -= v->iov_len;
			v++;
			nv--;
		}
		if (nv) {
			v->iov_base = (uint8_t *)v->iov_base + n;
			v->iov_len -= n;
		}
	}
	st->size += head_len + body_len;
	return 0;
}

/*
 * Writes packet number seq (content bytes given, or its own when 0): the
 * header from a checked, patched copy, the records straight from shared
 * memory, which the writer does not touch until the packet is consumed.
 * flush: the open packet, of which only what no flush wrote before goes,
 * as a packet of its own (packet_pieces.h).  (A process that truncates
 * its file makes write() fail with EFAULT, not the engine crash.)  1 when
 * written, 0 when skipped, -1 on error.
 */
static int copy_packet(struct evt_collection *c, struct tracked *t, uint32_t i,
		       struct out_stream *st, const uint8_t *pkt,
		       uint32_t packet_size, uint64_t seq, uint32_t commit,
		       bool flush)
{
	struct layout_ctx x = { c, t->cls };
	struct evt_packet_header h, out;
	off_t before = st->size;
	struct evt_piece pc;
	uint16_t cpu;
	size_t content;

	memcpy(&h, pkt, sizeof(h));
	if (t->ctl->shrank)
		return 0;	/* read as zeroes: drain() reports it */
	if (h.magic != EVT_PACKET_MAGIC || h.packet_seq_num != seq) {
		evt_report("%s: buffer %u packet %" PRIu64
			": bad header; rest of this buffer skipped",
			t->ctl->path, i, seq);
		st->finished = true;
		return 0;
	}
	if (commit) {	/* the open packet: close it in the copy */
		h.content_size = (uint64_t)commit * 8;
		h.timestamp_end = evt_clock_now(c->clock_kind, &cpu);
	}
	content = h.content_size / 8;
	if (h.content_size % 8 || content < sizeof(h) || content > packet_size) {
		evt_report("%s: buffer %u packet %" PRIu64
			": content size out of bounds; rest of this buffer skipped",
			t->ctl->path, i, seq);
		st->finished = true;
		return 0;
	}
	if (content == sizeof(h) && h.events_discarded == 0)
		return 0;	/* nothing in it */
	h.stream_id = t->cls;
	h.events_discarded += st->extra_lost;
	st->last_discarded = h.events_discarded;
	h.events_discarded -= st->lost_base;
	if (!evt_pieces_cut(&st->pieces, &h, pkt, (uint32_t)content, flush,
			    layout_of, &x, &pc)) {
		if (!flush)
			evt_pieces_forget(&st->pieces);	/* all of it went */
		/* The relay may still miss a piece its queue refused. */
		if (c->relay)
			evt_relay_out_packet(c->relay, &st->relay, st->name, &h,
					     pkt, (uint32_t)content, flush,
					     layout_of, &x);
		return 0;
	}
	memcpy(&out, pc.head, sizeof(out));
	st->last_ts = out.timestamp_end;
	if (out_write(c, t, i, st, pc.head, pc.head_len, pc.body,
		      pc.body_len)) {
		if (errno != EFAULT)
			return -1;
		t->ctl->shrank = 1;	/* the kernel met the truncation */
		return 0;
	}
	if (t->ctl->shrank) {	/* it shrank while copied: zeroes went out */
		if (ftruncate(st->fd, before) == 0)
			lseek(st->fd, before, SEEK_SET);
		st->size = before;
		return 0;
	}
	evt_pieces_done(&st->pieces, &pc);
	if (c->relay)
		evt_relay_out_packet(c->relay, &st->relay, st->name, &h, pkt,
				     (uint32_t)content, flush, layout_of, &x);
	c->stats.packets++;
	c->stats.bytes += pc.head_len + pc.body_len;
	/* The packet before this one held the events between their first
	 * counts (a writer's count, checked: never counted backwards). */
	if (st->first_event != UINT64_MAX && out.first_event > st->first_event)
		c->stats.events_at_least += out.first_event - st->first_event;
	st->first_event = out.first_event;
	return 1;
}

/* A header-only packet, for the relay too. */
static void relay_header_only(struct evt_collection *c, struct out_stream *st,
			      const struct evt_packet_header *h)
{
	if (c->relay) {
		evt_pieces_forget(&st->relay.pieces);	/* a packet of its own */
		evt_relay_out_packet(c->relay, &st->relay, st->name, h,
				     (const uint8_t *)h, sizeof(*h), false,
				     NULL, NULL);
	}
}

/* A header-only packet carrying the final lost count. */
static int write_lost_packet(struct evt_collection *c, struct tracked *t,
			     uint32_t i, struct out_stream *st,
			     const struct evt_ctl_tbuf *d, uint64_t total)
{
	struct evt_packet_header h = {
		.magic = EVT_PACKET_MAGIC, .stream_id = t->cls,
		.timestamp_begin = st->last_ts, .timestamp_end = st->last_ts,
		.content_size = sizeof(h) * 8, .packet_size = sizeof(h) * 8,
		.packet_seq_num = st->pieces.seq,
		.events_discarded = total - st->lost_base,
		.pid = t->ctl->h.pid, .tid = d->tid,
	};

	memcpy(h.comm, d->comm, sizeof(h.comm));
	st->last_discarded = total;
	if (out_write(c, t, i, st, &h, sizeof(h), NULL, 0))
		return -1;
	st->pieces.seq++;
	relay_header_only(c, st, &h);
	return 0;
}

/*
 * Events a process dropped because it could not get a buffer for this
 * slot (memory bound reached) belong to no thread: they go into a stream
 * of their own, as a header-only packet, so that every reader counts them.
 */
static int write_unbuffered_lost(struct evt_collection *c, struct tracked *t)
{
	uint64_t n = __atomic_load_n(&t->ctl->slots[c->slot].nobuf_lost,
				     __ATOMIC_RELAXED);
	struct out_stream st = { .fd = -1, .epoch = 0 };
	struct evt_packet_header h = {
		.magic = EVT_PACKET_MAGIC, .stream_id = t->cls,
		.content_size = sizeof(h) * 8, .packet_size = sizeof(h) * 8,
		.events_discarded = n, .pid = t->ctl->h.pid, .tid = t->ctl->h.pid,
	};
	uint16_t cpu;
	int ret;

	if (!n)
		return 0;
	h.timestamp_begin = h.timestamp_end = evt_clock_now(c->clock_kind, &cpu);
	memcpy(h.comm, t->ctl->h.comm, sizeof(h.comm));
	ret = out_write(c, t, t->ctl->h.max_tbufs, &st, &h, sizeof(h), NULL, 0);
	if (st.fd >= 0)
		close(st.fd);
	if (!ret && c->relay) {
		relay_header_only(c, &st, &h);
		evt_relay_out_end(c->relay, &st.relay);
	}
	c->stats.lost_unbuffered += n;
	return ret;
}

/*
 * Discard mode: the open packet written as far as it was committed, at
 * most every FLUSH_MS, so that what a slow writer wrote reaches the trace
 * directory within a second (report works on a running recording; a
 * killed recorder loses the last second at most).  The writer never
 * touches what is below commit, nor reuses a packet not consumed.
 */
#define FLUSH_MS 500

/* A flush opens a stream file early: only with fds to spare, for the
 * processes still to be taken on (the lowest free fd well below the
 * limit). */
static bool fds_to_spare(const struct evt_collection *c)
{
	struct rlimit rl;
	int probe = fcntl(c->rd.fd, F_DUPFD_CLOEXEC, 0);

	if (probe < 0)
		return false;
	close(probe);
	return getrlimit(RLIMIT_NOFILE, &rl) == 0 &&
	       (rl.rlim_cur == RLIM_INFINITY || (rlim_t)probe + 32 < rl.rlim_cur);
}
static int flush_open_packet(struct evt_collection *c, struct tracked *t,
			     uint32_t i, struct out_stream *st,
			     const struct evt_ctl_tbuf *d, const uint8_t *packets,
			     uint32_t size, uint32_t count, uint64_t produced)
{
	int64_t now = now_ms();
	uint32_t commit;

	if (now - st->flushed_ms < FLUSH_MS)
		return 0;
	st->flushed_ms = now;
	if (st->fd < 0 && !fds_to_spare(c))
		return 0;	/* its file waits for its first whole packet */
	/* Pairs with the writer's release of commit. */
	commit = __atomic_load_n(&d->commit, __ATOMIC_ACQUIRE);
	if (commit <= sizeof(struct evt_packet_header) || commit > size ||
	    __atomic_load_n(&d->produced, __ATOMIC_ACQUIRE) != produced)
		return 0;	/* nothing, or whole soon */
	return copy_packet(c, t, i, st, packets + (produced % count) * size,
			   size, produced, commit, true) < 0 ? -1 : 0;
}

/* A buffer read to its end: its final lost count out, its file closed. */
static int end_stream(struct evt_collection *c, struct tracked *t, uint32_t i,
		      struct out_stream *st, const struct evt_ctl_tbuf *d)
{
	uint64_t total_lost = d->lost + __atomic_load_n(&d->nested_lost,
						       __ATOMIC_RELAXED) +
			      st->extra_lost;

	if (total_lost > st->last_discarded &&
	    write_lost_packet(c, t, i, st, d, total_lost))
		return -1;
	c->stats.lost += st->last_discarded;
	st->finished = true;
	if (st->fd >= 0) {
		close(st->fd);
		st->fd = -1;
	}
	if (c->relay)
		evt_relay_out_end(c->relay, &st->relay);
	return 0;
}

/*
 * Snapshot (overwrite mode, the recording running on): buffer i copied
 * whole out of shared memory first, then written from the copy: the
 * packets its writer did not reach during the copy, oldest first (those
 * before counted as overwritten, as a recording's end counts them), and
 * the open packet up to its commit.  Nothing in the control file is
 * written.  A writer that finished a packet during the copy makes it
 * copy again (three times at most, then the open packet is left out).
 */
static int snapshot_tbuf(struct evt_collection *c, struct tracked *t,
			 uint32_t i, struct out_stream *st,
			 const uint8_t *packets, uint32_t size, uint32_t count)
{
	struct evt_ctl_tbuf *d = &t->ctl->tbufs[i];
	uint64_t produced, after, seq, lo;
	uint32_t commit = 0;
	uint8_t *copy = malloc((size_t)size * count);
	int tries, ret = 0;

	if (!copy)
		return 0;	/* this buffer is left out */
	for (tries = 0; ; tries++) {
		produced = __atomic_load_n(&d->produced, __ATOMIC_ACQUIRE);
		commit = __atomic_load_n(&d->commit, __ATOMIC_ACQUIRE);
		memcpy(copy, packets, (size_t)size * count);
		after = __atomic_load_n(&d->produced, __ATOMIC_ACQUIRE);
		if (after == produced || tries == 2)
			break;
	}
	if (after != produced)
		commit = 0;	/* the open packet moved on while copied */
	/* Packets whose place the writer reused during the copy are gone. */
	lo = after >= count - 1 ? after - (count - 1) : 0;
	if (lo < produced) {
		const struct evt_packet_header *h = (const void *)
			(copy + (lo % count) * size);

		st->extra_lost = h->first_event;
	}
	for (seq = lo; seq < produced && !st->finished && ret >= 0; seq++)
		ret = copy_packet(c, t, i, st, copy + (seq % count) * size, size,
				  seq, 0, false);
	if (ret >= 0 && !st->finished && commit > sizeof(struct evt_packet_header) &&
	    commit <= size)
		ret = copy_packet(c, t, i, st, copy + (produced % count) * size,
				  size, produced, commit, false);
	free(copy);
	if (ret < 0)
		return -1;
	if (end_stream(c, t, i, st, d))
		return -1;
	return 0;
}

/*
 * A writer's first pass through its buffer pays a page fault for each
 * page, and more when the fault must also allocate the page (3-4 us
 * against 1.7 on some virtual machines).  The recorder allocates the
 * pages ALLOCATE_AHEAD bytes ahead of the writer's packet, off its path,
 * so that the writer's own faults only map them; from the writer's second
 * packet on, so that the many threads that write a few events do not
 * each get a whole buffer.  Pages the writer has not reached yet may so
 * be allocated early, ALLOCATE_AHEAD at most per buffer; they are charged
 * to the recorder's memory cgroup.  The file is never made longer (a
 * process may have shrunk it).
 */
#define ALLOCATE_AHEAD (2u << 20)

static void allocate_ahead(struct evt_collection *c, struct tracked *t,
			   struct out_stream *st, const uint8_t *packets,
			   uint32_t size, uint32_t count, uint64_t produced)
{
	uint64_t total = (uint64_t)size * count, want;

	if (st->allocated >= total || c->o.snapshot || produced == 0)
		return;
	want = produced >= count ? total :
	       (produced + 1) * (uint64_t)size + ALLOCATE_AHEAD;
	if (want > total)
		want = total;
	if (want <= st->allocated)
		return;
	fallocate(t->ctl->fd, FALLOC_FL_KEEP_SIZE,
		  (off_t)(packets - t->ctl->base) + (off_t)st->allocated,
		  (off_t)(want - st->allocated));
	st->allocated = want;	/* failed: the writer's faults allocate */
	c->allocations++;
}

/*
 * The scheduler now and then puts the recorder on the CPU of a writer
 * at full speed (a wake-up there, a balance); the recorder then drains
 * only between the writer's time slices, milliseconds apart, in which a
 * buffer of 1 MiB overflows (one writer at full speed lost 5-7% of its
 * events that way on 2 CPUs, none with the two pinned apart).  So a
 * recorder that finds a buffer a quarter full looks where its writer runs
 * (every STEP_CHECK_MS at most) and, when that is its own CPU, leaves it:
 * its affinity, less that CPU, for STEP_OFF_MS.  Only the CLI's recorder
 * (evt_collection_run), never a consumer's thread.
 */
#define STEP_CHECK_MS 10
#define STEP_OFF_MS 1000

/* The CPU a task last ran on (field 39 of its stat), or -1. */
static int task_cpu(int pid, int tid)
{
	char path[64], buf[1024], *p;
	ssize_t n;
	int fd, field;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", pid, tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	p = strrchr(buf, ')');	/* the name may hold spaces, not a ')' last */
	for (field = 3; p && field <= 39; field++)
		p = strchr(p + 1, ' ');
	return p ? atoi(p + 1) : -1;
}

static void step_off_writer(struct evt_collection *c, int pid, int tid)
{
	int64_t now = now_ms();
	int theirs;
	cpu_set_t set;

	if (!c->may_move || now - c->step_checked_ms < STEP_CHECK_MS)
		return;
	c->step_checked_ms = now;
	theirs = task_cpu(pid, tid);
	if (theirs < 0 || theirs >= CPU_SETSIZE || theirs != sched_getcpu())
		return;
	set = c->affinity;
	CPU_CLR(theirs, &set);
	if (CPU_COUNT(&set) && sched_setaffinity(0, sizeof(set), &set) == 0) {
		c->stepped_until_ms = now + STEP_OFF_MS;
		c->stats.step_offs++;
	}
}

/* The affinity the run began with, once the step is over (or now). */
static void step_back(struct evt_collection *c, bool now)
{
	if (c->stepped_until_ms && (now || now_ms() >= c->stepped_until_ms)) {
		sched_setaffinity(0, sizeof(c->affinity), &c->affinity);
		c->stepped_until_ms = 0;
	}
}

/* Drains buffer i of t; final: take the open packet too.  0 or -1. */
static int drain_tbuf(struct evt_collection *c, struct tracked *t, uint32_t i,
		      bool final)
{
	struct evt_ctl *ctl = t->ctl;
	struct evt_ctl_tbuf *d = &ctl->tbufs[i];
	struct out_stream *st = &t->streams[i];
	uint32_t state = __atomic_load_n(&d->state, __ATOMIC_ACQUIRE);
	uint32_t epoch, size, count, commit;
	uint64_t produced, seq, first;
	const uint8_t *packets;
	bool exited;
	int ret;

	if (state != EVT_TBUF_OWNED && state != EVT_TBUF_EXITED)
		return 0;
	/* Pairs with the writer's release of epoch. */
	epoch = __atomic_load_n(&d->epoch, __ATOMIC_ACQUIRE);
	if (d->slot != c->slot || d->slot_gen != t->slot_gen) {
		uint32_t was = EVT_TBUF_EXITED;

		/* Of this slot under a former owner (its thread found the
		 * slot taken over): nobody will read it, the process may
		 * have it back. */
		if (d->slot == c->slot && state == EVT_TBUF_EXITED && !t->dead &&
		    !c->o.snapshot)
			__atomic_compare_exchange_n(&d->state, &was,
						    EVT_TBUF_FREE, 0,
						    __ATOMIC_RELEASE,
						    __ATOMIC_RELAXED);
		return 0;
	}
	if (st->epoch != epoch) {
		if (st->epoch && st->fd >= 0)
			close(st->fd);
		if (c->relay)
			evt_relay_out_end(c->relay, &st->relay);
		memset(st, 0, sizeof(*st));
		st->fd = -1;
		st->epoch = epoch;
		st->first_event = UINT64_MAX;
	}
	if (st->finished)
		return 0;
	packets = evt_ctl_tbuf_packets(ctl, d, &size, &count);
	if (!packets) {
		evt_report("%s: buffer %u: geometry out of bounds; skipped",
			ctl->path, i);
		st->finished = true;
		return 0;
	}
	if (c->o.snapshot)
		return final ? snapshot_tbuf(c, t, i, st, packets, size, count) : 0;
	exited = state == EVT_TBUF_EXITED || t->dead;
	final = final || exited;
	/* Pairs with the writer's release of produced. */
	produced = __atomic_load_n(&d->produced, __ATOMIC_ACQUIRE);
	if (!final)
		allocate_ahead(c, t, st, packets, size, count, produced);
	if (c->o.mode == EVT_MODE_OVERWRITE) {
		if (!final)
			return 0;
		first = produced >= count - 1 ? produced - (count - 1) : 0;
		if (first > st->next_seq) {
			const struct evt_packet_header *h = (const void *)
				(packets + (first % count) * size);
			st->extra_lost = h->first_event;
			st->next_seq = first;
		}
	} else if (produced < st->next_seq || produced - st->next_seq > count) {
		evt_report("%s: buffer %u: produced count %" PRIu64
			" impossible; skipped", ctl->path, i, produced);
		st->finished = true;
		return 0;
	}
	if (c->o.mode == EVT_MODE_DISCARD && produced - st->next_seq >= count / 4)
		step_off_writer(c, (int)ctl->h.pid, (int)d->tid);
	for (seq = st->next_seq; seq < produced && !st->finished; seq++) {
		ret = copy_packet(c, t, i, st,
				  packets + (seq % count) * size, size,
				  seq, 0, false);
		if (ret < 0)
			return -1;
		st->next_seq = seq + 1;
		if (c->o.mode == EVT_MODE_DISCARD)
			evt_ctl_tbuf_consumed(d, st->next_seq);
	}
	if (!final && !st->finished && c->o.mode == EVT_MODE_DISCARD)
		return flush_open_packet(c, t, i, st, d, packets, size, count,
					 produced);
	if (!final || st->finished)
		return 0;
	/* Pairs with the writer's release of commit. */
	commit = __atomic_load_n(&d->commit, __ATOMIC_ACQUIRE);
	if (commit > sizeof(struct evt_packet_header) && commit <= size &&
	    __atomic_load_n(&d->produced, __ATOMIC_ACQUIRE) == produced) {
		ret = copy_packet(c, t, i, st,
				  packets + (produced % count) * size,
				  size, produced, commit, false);
		if (ret < 0)
			return -1;
		st->next_seq = produced + 1;
	}
	if (end_stream(c, t, i, st, d))
		return -1;
	if (state == EVT_TBUF_EXITED && !t->dead)
		/* Its thread is gone and its data out: the process may reuse it. */
		__atomic_store_n(&d->state, EVT_TBUF_FREE, __ATOMIC_RELEASE);
	return 0;
}

/* Whether any collection besides ours is active in this control file. */
static bool others_active(const struct evt_ctl *ctl, uint32_t slot)
{
	uint32_t s;

	for (s = 1; s < EVT_NSLOTS; s++)
		if (s != slot && __atomic_load_n(&ctl->slots[s].state,
						 __ATOMIC_ACQUIRE))
			return true;
	return false;
}

/*
 * Lets go of a process drained for the last time: its streams, its
 * mapping and fd, and, once it is dead and no other collection wants it,
 * its control file, so that memory and fds stay flat however many
 * processes come and go.
 */
static void release(struct evt_collection *c, struct tracked *t)
{
	uint32_t i;

	for (i = 0; i < t->ctl->h.max_tbufs; i++)
		if (t->streams[i].epoch && t->streams[i].fd >= 0)
			close(t->streams[i].fd);
	free(t->streams);
	t->streams = NULL;
	free(t->gids);
	t->gids = NULL;
	if (t->dead && !t->ctl->shrank && !c->o.snapshot) {
		__atomic_store_n(&t->ctl->slots[c->slot].state, EVT_SLOT_FREE,
				 __ATOMIC_RELEASE);
		if (!others_active(t->ctl, c->slot) &&
		    unlinkat(c->rd.fd, t->ctl->name, 0) == 0)
			t->name[0] = '\0';	/* the name may come back */
	}
	evt_ctl_close(t->ctl);
	t->ctl = NULL;
	c->released++;
}

/*
 * The trace cannot be written (a full disk, its directory removed): the
 * recording stops where its output is whole.  Its events are switched off
 * and its slot freed in every process, which run on untraced; no process
 * joins it any more.  Returns -1 with the error (c->err) in err.
 */
static int output_failed(struct evt_collection *c, char *err, size_t err_size)
{
	unsigned k;
	uint32_t id;

	if (!c->failed) {
		c->failed = true;
		evt_kernel_record_destroy(c->kernel);	/* its events stop */
		c->kernel = NULL;
		unlinkat(c->rd.fd, c->rules_name, 0);
		c->rules_name[0] = '\0';
		for (k = 0; k < c->ntracked; k++) {
			struct tracked *t = &c->tracked[k];

			if (!t->ctl)
				continue;
			for (id = 0; id < t->ctl->nevents; id++)
				evt_ctl_set_enable(t->ctl, id, c->slot, false);
			if (!t->ctl->shrank)
				__atomic_store_n(&t->ctl->slots[c->slot].state,
						 EVT_SLOT_FREE, __ATOMIC_RELEASE);
			t->dead = t->dead || !evt_ctl_alive(t->ctl);
			release(c, t);
		}
	}
	snprintf(err, err_size, "%s", c->err);
	return -1;
}

/* Whether it wants event i of process t: selected, and, when it
 * records, allowed by the engine's policy. */
static bool wanted(const struct evt_collection *c, const struct tracked *t,
		   uint32_t i)
{
	const struct evt_ctl_event *e = &t->ctl->events[i];

	return evt_selection_wants(&c->sel, evt_event_ids_public(&c->ids, t->gids[i]),
				   e->path) &&
	       (c->o.mode == EVT_MODE_COUNT || evt_policy_may_record(e));
}

/*
 * The selection is a rule: it covers events registered later (dlopen), and
 * when it changes, every event again.  A process that applied the
 * patterns itself at registration finds them applied.  Needs the global
 * ids of index_events().
 */
static void apply_selection(struct evt_collection *c, struct tracked *t)
{
	struct evt_ctl *ctl = t->ctl;
	uint32_t i, from = t->enabled_upto, upto = t->nindexed;

	if (t->applied_gen != c->sel.gen) {
		from = 0;
		t->applied_gen = c->sel.gen;
	}
	for (i = from; i < upto && !ctl->shrank; i++) {
		bool want = wanted(c, t, i);

		if (want != evt_ctl_enabled(ctl, ctl->events[i].id, c->slot))
			evt_ctl_set_enable(ctl, ctl->events[i].id, c->slot, want);
	}
	t->enabled_upto = upto;
}

/* Adds thread buffer d's counters into sums, by global id. */
static void add_counters(const struct tracked *t, const struct evt_ctl_tbuf *d,
			 uint64_t *sums)
{
	uint32_t n, L;
	const uint64_t *v = evt_ctl_tbuf_counters(t->ctl, d, &n);

	if (!v)
		return;		/* out of bounds: nothing to trust */
	if (n > t->nindexed)
		n = t->nindexed;	/* not registered: not ours to count */
	for (L = 0; L < n && !t->ctl->shrank; L++) {
		uint64_t x = __atomic_load_n(&v[L], __ATOMIC_RELAXED);

		if (x)
			sums[t->gids[L]] += x;
	}
}

/*
 * Counting: a thread's counters are added up for good once its thread let
 * go of them (and given back to the process), or its process is gone, or
 * the count ends; until then they are read where they are.
 */
static void count_tbuf(struct evt_collection *c, struct tracked *t, uint32_t i,
		       bool final)
{
	struct evt_ctl_tbuf *d = &t->ctl->tbufs[i];
	uint32_t state = __atomic_load_n(&d->state, __ATOMIC_ACQUIRE);
	uint32_t was = EVT_TBUF_EXITED;

	if ((state != EVT_TBUF_OWNED && state != EVT_TBUF_EXITED) ||
	    d->slot != c->slot)
		return;
	if (d->slot_gen == t->slot_gen &&
	    (state == EVT_TBUF_EXITED || t->dead || final))
		add_counters(t, d, c->totals);
	else if (state != EVT_TBUF_EXITED)
		return;
	if (state == EVT_TBUF_EXITED && !t->dead)
		__atomic_compare_exchange_n(&d->state, &was, EVT_TBUF_FREE, 0,
					    __ATOMIC_RELEASE, __ATOMIC_RELAXED);
}

int evt_collection_counts(struct evt_collection *c, evt_count_cb cb, void *ctx)
{
	uint64_t *sums = calloc(c->ntotals ? c->ntotals : 1, sizeof(*sums));
	uint32_t g, i, *order;
	unsigned k;

	order = calloc(c->ntotals ? c->ntotals : 1, sizeof(*order));
	if (!sums || !order) {
		free(sums);
		free(order);
		return -1;
	}
	if (c->ntotals)
		memcpy(sums, c->totals, c->ntotals * sizeof(*sums));
	for (k = 0; k < c->ntracked; k++) {
		struct tracked *t = &c->tracked[k];
		uint32_t n;

		if (t->done || !t->ctl)
			continue;
		n = evt_ctl_tbufs_used(t->ctl);
		for (i = 0; i < n && !t->ctl->shrank; i++) {
			const struct evt_ctl_tbuf *d = &t->ctl->tbufs[i];

			if (__atomic_load_n(&d->state, __ATOMIC_ACQUIRE) == EVT_TBUF_OWNED &&
			    d->slot == c->slot && d->slot_gen == t->slot_gen)
				add_counters(t, d, sums);
		}
	}
	for (g = 0; g < c->ntotals; g++)
		order[g] = g;
	/* By path: the order of ls.  Few events; an insertion sort. */
	for (g = 1; g < c->ntotals; g++)
		for (i = g; i > 0 && strverscmp(c->ids.events[order[i - 1]].path,
					    c->ids.events[order[i]].path) > 0; i--) {
			uint32_t x = order[i];

			order[i] = order[i - 1];
			order[i - 1] = x;
		}
	for (g = 0; g < c->ntotals; g++) {
		const struct evt_global_event *e = &c->ids.events[order[g]];

		if (evt_selection_wants(&c->sel, e->public_id, e->path))
			cb(e->public_id, e->path, sums[order[g]], ctx);
	}
	free(sums);
	free(order);
	return 0;
}

/*
 * Tells the relay's live readers how far every stream is known: whatever
 * was committed before the last flush of each open packet went out, and
 * a flush comes every FLUSH_MS; RELAY_SLACK_MS more covers a writer
 * between its clock and its commit.
 */
#define RELAY_SLACK_MS 200

static void relay_horizon(struct evt_collection *c, uint64_t pass_start,
			  int64_t now)
{
	/* Kernel packets go out a second old at most (packet_writer.c). */
	uint64_t back = (uint64_t)((c->kernel ? 1000 : FLUSH_MS) + RELAY_SLACK_MS) *
			c->ix.clock.freq_hz / 1000;

	c->relay_horizon_ms = now;
	if (pass_start > back)
		evt_relay_horizon(c->relay, pass_start - back);
}

static int drain(struct evt_collection *c, bool final, char *err,
		 size_t err_size)
{
	uint64_t before = c->stats.packets + c->released + c->stats.processes +
			  c->allocations;
	int64_t now = now_ms();
	uint64_t pass_start = 0;
	unsigned k;
	uint32_t i, n;
	uint16_t cpu;

	if (c->relay)
		pass_start = evt_clock_now(c->clock_kind, &cpu);

	/* Events first: no packet goes out before the metadata that
	 * describes its stream and events is on disk. */
	for (k = 0; k < c->ntracked; k++) {
		struct tracked *t = &c->tracked[k];
		char why[PATH_MAX + 200];

		if (t->done)
			continue;
		/* Liveness costs a flock: not every round. */
		if (!t->dead && (final || now - t->alive_checked_ms >= ALIVE_CHECK_MS)) {
			t->alive_checked_ms = now;
			if (!evt_ctl_alive(t->ctl))
				t->dead = true;
		}
		if (evt_ctl_refresh(t->ctl, why, sizeof(why)))
			evt_report("%s", why);
		if (index_events(c, t)) {
			snprintf(err, err_size, "out of memory");
			return -1;
		}
		if (!c->finishing && !c->failed && !c->o.snapshot)
			apply_selection(c, t);
	}
	if (flush_index(c, c->err, sizeof(c->err)))
		return output_failed(c, err, err_size);
	for (k = 0; k < c->ntracked; k++) {
		struct tracked *t = &c->tracked[k];

		if (t->done)
			continue;
		n = evt_ctl_tbufs_used(t->ctl);
		for (i = 0; i < n && !t->ctl->shrank; i++)
			if (c->o.mode == EVT_MODE_COUNT)
				count_tbuf(c, t, i, final);
			else if (drain_tbuf(c, t, i, final))
				return output_failed(c, err, err_size);
		if (t->ctl->shrank) {
			unfollowed(c, t->ctl->h.pid, t->ctl->path,
				   "the control file shrank under the recorder");
			t->done = true;
		} else if ((t->dead || final) && c->o.mode == EVT_MODE_COUNT) {
			t->done = true;
			c->stats.lost_unbuffered += __atomic_load_n(
				&t->ctl->slots[c->slot].nobuf_lost, __ATOMIC_RELAXED);
		} else if (t->dead || final) {
			t->done = true;
			if (write_unbuffered_lost(c, t))
				return output_failed(c, err, err_size);
		}
		if (t->done && (t->dead || t->ctl->shrank))
			release(c, t);
	}
	if (c->kernel) {
		long got = evt_kernel_record_drain(c->kernel, &c->out, final,
						   c->err, sizeof(c->err));

		if (got < 0)
			return output_failed(c, err, err_size);
		before -= got > 0;
	}
	if (c->relay && !final && now - c->relay_horizon_ms >= FLUSH_MS)
		relay_horizon(c, pass_start, now);
	return (int)(c->stats.packets + c->released + c->stats.processes +
		     c->allocations - before);
}

/* `evtrace enable/disable --collection N` (requests.h). */
static int answer(void *ctx, bool enable, const char *pattern, char *err,
		  size_t err_size)
{
	struct evt_collection *c = ctx;

	if (!enable && !evt_selection_has_pattern(&c->sel, pattern))
		return evt_selection_not_there(&c->sel, c->slot, pattern, err,
					       err_size);
	return evt_collection_select(c, enable, pattern, 0, err, err_size);
}

int evt_collection_poll(struct evt_collection *c, char *err, size_t err_size)
{
	char buf[4096];

	bool changed = c->inotify_fd < 0;
	int64_t now = now_ms();

	if (c->failed)
		return output_failed(c, err, err_size);
	while (c->relay && evt_relay_message(c->relay, buf, sizeof(buf)))
		evt_report("%s", buf);
	if (c->inotify_fd >= 0)
		while (read(c->inotify_fd, buf, sizeof(buf)) > 0)
			changed = true;
	/* Scanning the run directory costs system calls each time; inotify
	 * says when to, with a full scan each second in case it missed. */
	if (changed || c->unpublished || now - c->last_discover_ms >= RESCAN_MS) {
		discover(c);
		if (!c->failed && !c->finishing)
			evt_requests_serve(&c->rd, c->slot, answer, c);
		c->last_discover_ms = now;
	}
	return drain(c, false, err, err_size);
}

static void wait_inotify(struct evt_collection *c, int timeout_ms)
{
	struct pollfd pfd = { .fd = c->inotify_fd, .events = POLLIN };

	poll(&pfd, pfd.fd >= 0, timeout_ms);
}

void evt_collection_wait(struct evt_collection *c, int timeout_ms)
{
	struct futex_waitv w[FUTEX_WAITV_MAX];
	struct timespec deadline;
	unsigned k, n = 0;
	long r;

	/* A wake that brought nothing to drain (a process zeroing its word
	 * on purpose, say) does not get to end the next wait early. */
	if (c->woken && c->stats.packets == c->packets_at_wake) {
		c->woken = false;
		wait_inotify(c, timeout_ms);
		return;
	}
	c->woken = false;
	if (c->o.mode == EVT_MODE_DISCARD && c->futex_waitv_ok) {
		for (k = 0; k < c->ntracked && n < FUTEX_WAITV_MAX; k++) {
			struct tracked *t = &c->tracked[k];
			uint32_t *word;

			if (t->dead || t->done)
				continue;
			word = &t->ctl->slots[c->slot].waiting;
			/* Pairs with the writer's exchange: it sees 1 and
			 * wakes us, or the kernel sees its 0 and returns. */
			__atomic_store_n(word, 1, __ATOMIC_SEQ_CST);
			w[n++] = (struct futex_waitv){
				.val = 1, .uaddr = (uintptr_t)word,
				.flags = FUTEX_32,
			};
		}
	}
	if (n == 0) {
		wait_inotify(c, timeout_ms);
		return;
	}
	clock_gettime(CLOCK_MONOTONIC, &deadline);
	deadline.tv_nsec += (long)(timeout_ms % 1000) * 1000000;
	deadline.tv_sec += timeout_ms / 1000 + deadline.tv_nsec / 1000000000;
	deadline.tv_nsec %= 1000000000;
	r = syscall(SYS_futex_waitv, w, n, 0, &deadline, CLOCK_MONOTONIC);
	if (r >= 0 || errno == EAGAIN) {
		c->stats.wakeups++;
		c->woken = true;
		c->packets_at_wake = c->stats.packets;
	} else if (errno == ENOSYS) {
		c->futex_waitv_ok = false;
		wait_inotify(c, timeout_ms);
	}
	for (k = 0; k < n; k++)
		__atomic_store_n((uint32_t *)(uintptr_t)w[k].uaddr, 0,
				 __ATOMIC_RELAXED);
}

/* The engine's wait between drains: short while data flows, longer idle. */
#define POLL_MIN_MS 1
#define POLL_MAX_MS 20

int evt_collection_run(struct evt_collection *c,
		       bool (*done)(struct evt_collection *c, void *ctx),
		       void *ctx, char *err, size_t err_size)
{
	int idle_ms = POLL_MIN_MS, max_ms = POLL_MAX_MS, n;

	c->may_move = sched_getaffinity(0, sizeof(c->affinity), &c->affinity) == 0;
	/* Writers that wait for us (--block) are not kept waiting by our
	 * own back-off: look at least twice in their wait. */
	if (c->o.block_us && c->o.block_us / 2000 < POLL_MAX_MS)
		max_ms = c->o.block_us / 2000 ? (int)(c->o.block_us / 2000) : POLL_MIN_MS;
	while (!done(c, ctx)) {
		step_back(c, false);
		n = evt_collection_poll(c, err, err_size);
		if (n < 0)
			return -1;
		/* While data flows, look again soon: a thread's default
		 * buffer (1 MiB) fills in milliseconds at full speed.  When
		 * idle, back off to POLL_MAX_MS, or until a buffer half full
		 * wakes us.  (Halving the wait instead saved a little CPU at
		 * low rates, cost some at high ones and lost events once.) */
		if (n > 0) {
			idle_ms = POLL_MIN_MS;
		} else {
			evt_collection_wait(c, idle_ms);
			idle_ms = idle_ms * 2 > max_ms ? max_ms : idle_ms * 2;
		}
	}
	step_back(c, true);
	return 0;
}

void evt_collection_progress(const struct evt_collection *c,
			     struct evt_collection_stats *out)
{
	unsigned k;
	uint32_t i;

	*out = c->stats;	/* streams finished, and all packets */
	for (k = 0; k < c->ntracked; k++) {
		const struct tracked *t = &c->tracked[k];

		if (!t->streams || !t->ctl)
			continue;
		for (i = 0; i < t->ctl->h.max_tbufs; i++)
			if (t->streams[i].epoch && !t->streams[i].finished)
				out->lost += t->streams[i].last_discarded;
	}
	if (c->relay) {
		struct evt_relay_stats rs;

		evt_relay_progress(c->relay, &rs);
		out->relay_packets = rs.packets;
		out->relay_refused = rs.refused;
		out->relay_unsent = rs.unsent;
		out->relay_sessions = rs.connections;
	}
}

int evt_collection_finish(struct evt_collection *c,
			  struct evt_collection_stats *stats, char *err,
			  size_t err_size)
{
	struct timespec settle = { 0, 10 * 1000 * 1000 };
	unsigned k;
	uint32_t id;
	int ret;

	if (stats)
		*stats = c->stats;
	if (c->failed)
		return output_failed(c, err, err_size);
	unlinkat(c->rd.fd, c->rules_name, 0);
	/* Processes put off for want of fds: drain and let go of the dead,
	 * which gives fds back, and take on more while that helps. */
	for (;;) {
		unsigned had = c->ntracked;

		if (drain(c, false, err, err_size) < 0)
			return -1;
		discover(c);
		if (!c->unpublished || c->ntracked == had)
			break;
	}
	c->finishing = true;
	discover(c);
	for (k = 0; k < c->ntracked && !c->o.snapshot; k++) {
		struct evt_ctl *ctl = c->tracked[k].ctl;

		for (id = 0; ctl && id < ctl->nevents; id++)
			evt_ctl_set_enable(ctl, id, c->slot, false);
	}
	if (!c->o.snapshot)
		nanosleep(&settle, NULL);	/* let writes in flight finish */
	/* The frequency measured over the whole recording, not 20 ms. */
	if (evt_clock_refine(&c->ix.clock) == 0)
		c->index_dirty = true;
	ret = drain(c, true, err, err_size);
	for (k = 0; k < c->ntracked; k++) {
		struct tracked *t = &c->tracked[k];

		if (t->ctl && !t->ctl->shrank && !c->o.snapshot)
			__atomic_store_n(&t->ctl->slots[c->slot].state,
					 EVT_SLOT_FREE, __ATOMIC_RELEASE);
	}
	if (c->relay) {
		struct evt_relay_stats rs;

		evt_relay_finish(c->relay, RELAY_FINISH_MS, &rs);
		c->relay = NULL;
		c->stats.relay_packets = rs.packets;
		c->stats.relay_refused = rs.refused;
		c->stats.relay_unsent = rs.unsent;
		c->stats.relay_sessions = rs.connections;
	}
	if (stats) {
		struct evt_kernel_record_stats ks;

		evt_kernel_record_stats(c->kernel, &ks);
		*stats = c->stats;
		stats->packets += ks.packets;
		stats->bytes += ks.bytes;
		stats->lost += ks.lost;
		stats->kernel_events = ks.events;
	}
	return ret < 0 ? -1 : 0;
}

void evt_collection_destroy(struct evt_collection *c)
{
	unsigned k;

	if (!c)
		return;
	if (c->relay)
		evt_relay_finish(c->relay, 0, NULL);
	for (k = 0; k < c->ntracked; k++)
		if (c->tracked[k].ctl)
			release(c, &c->tracked[k]);
	for (k = 0; k < c->nlayouts; k++)
		free(c->layouts[k].ix);
	free(c->layouts);
	free(c->tracked);
	evt_kernel_record_destroy(c->kernel);
	free(c->kernel_pids);
	free(c->totals);
	free(c->scope);
	free(c->foreign);
	evt_trace_index_free(&c->ix);
	evt_event_ids_free(&c->ids);
	evt_stream_classes_free(&c->classes);
	evt_selection_free(&c->sel);
	evt_trace_dir_close(&c->out);
	if (c->rules_name[0])
		unlinkat(c->rd.fd, c->rules_name, 0);
	evt_rundir_close(&c->rd);
	if (c->lock_fd >= 0)
		close(c->lock_fd);
	if (c->inotify_fd >= 0)
		close(c->inotify_fd);
	free(c);
}

int evt_collection_select(struct evt_collection *c, bool add,
			  const char *pattern, uint32_t id, char *err,
			  size_t err_size)
{
	unsigned k, n = 0;
	uint32_t i;

	if (evt_selection_change(&c->sel, add, pattern, id, err, err_size))
		return -1;
	/* Processes that start from now on apply the new rules. */
	if (c->rules_name[0] && write_rules(c, err, err_size))
		return -1;
	for (k = 0; k < c->ntracked; k++) {
		struct tracked *t = &c->tracked[k];

		if (t->done || !t->ctl || index_events(c, t))
			continue;
		apply_selection(c, t);
		for (i = 0; add && i < t->nindexed; i++)
			n += wanted(c, t, i);
	}
	return (int)n;
}

int evt_collection_events(struct evt_collection *c,
			  void (*cb)(uint32_t id, const char *path,
				     const char *format, void *ctx),
			  void *ctx)
{
	return evt_event_ids_each(&c->ids, cb, ctx);
}
