/*
 * collection.c - record a collection into a trace directory (see
 * collection.h): its life: a slot claimed or adopted, its rules
 * published, the processes in its scope attached, the runs of drains,
 * the end, and what it is asked (collection_local.h holds what its files
 * share).
 */
#include "collection_local.h"
#include "orphans.h"
#include "slot_owner.h"
#include "tree.h"

static int claim_slot(struct evt_collection *c, char *err, size_t err_size)
{
	int n = evt_slot_claim(&c->rd, c->id, c->o.what ? c->o.what : "evtrace",
			       &c->lock_fd, err, err_size);

	if (n < 0)
		return -1;
	c->number = (uint32_t)n;
	return 0;
}
static int write_rules(struct evt_collection *c, char *err, size_t err_size)
{
	const struct evt_rules_head head = {
		.number = c->number, .collection_id = c->id,
		.scope = c->o.all ? EVT_SCOPE_ALL : EVT_SCOPE_TREE,
		.mode = c->o.mode, .packet_size = c->o.packet_size,
		.packet_count = c->o.packet_count, .block_us = c->o.block_us,
	};

	snprintf(c->rules_name, sizeof(c->rules_name), "collection-%" PRIu64
		 ".rules", c->id);
	return evt_selection_publish(&c->rd, c->rules_name, &head, &c->sel, err,
				     err_size);
}
bool evt__coll_in_scope(const struct evt_collection *c, int pid)
{
	unsigned i;

	for (i = 0; i < c->nscope; i++)
		if (c->scope[i] == pid)
			return true;
	return false;
}
void evt__coll_add_scope(struct evt_collection *c, int pid)
{
	int *grown;

	if (!c->o.npids || evt__coll_in_scope(c, pid))
		return;
	grown = realloc(c->scope, (c->nscope + 1) * sizeof(*grown));
	if (!grown)
		return;
	c->scope = grown;
	c->scope[c->nscope++] = pid;
}
/* Takes up the slot in the processes named; each must be found. */
static int attach(struct evt_collection *c, char *err, size_t err_size)
{
	unsigned i, k;

	c->scope = calloc(c->o.npids, sizeof(*c->scope));
	if (!c->scope)
		return snprintf(err, err_size, "out of memory"), -1;
	for (i = 0; i < c->o.npids; i++)
		if (!evt__coll_in_scope(c, c->o.pids[i]))
			c->scope[c->nscope++] = c->o.pids[i];
	evt__coll_discover(c);
	for (i = 0; i < c->o.npids; i++) {
		for (k = 0; k < c->ntracked; k++)
			if ((int)c->tracked[k].ctl->h.pid == c->o.pids[i])
				break;
		if (k == c->ntracked && !c->o.untraced_ok) {
			if (c->full_pid == c->o.pids[i])
				snprintf(err, err_size, "%s", c->full);
			else
				evt_rundir_why_untraced(c->rd.path, c->o.pids[i],
							err, err_size);
			for (k = 0; k < c->ntracked; k++)
				evt_slot_detach(c->tracked[k].ctl,
						c->tracked[k].slot);
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
	int *grown = realloc(c->kernel_pids, (c->nkernel_pids + 1) * sizeof(*grown));

	if (!grown)
		return snprintf(err, err_size, "out of memory"), -1;
	c->kernel_pids = grown;
	c->kernel_pids[c->nkernel_pids++] = pid;
	return evt_kernel_record_process(c->kernel, pid, err, err_size);
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
 * o.pids[0] (snapshot: or of every process), so that evt__coll_track() finds them
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
	uint64_t found_id = 0;
	char who[32] = "the run directory";
	int n, i, ret = -1;

	if (pid)
		snprintf(who, sizeof(who), "pid %d", pid);
	n = evt_rundir_open_all(&c->rd, pid, NULL, NULL, &ctls);
	if (n < 0) {
		snprintf(err, err_size, "%s: the control files of %s: %s", who,
			 c->rd.path, strerror(-n));
		goto out;
	}
	if (n == 0) {
		snprintf(err, err_size, "%s: no control file in %s%s", who,
			 c->rd.path, running ? "" : " (a process that is gone "
			 "leaves one only while it has buffers no engine read, "
			 "until the next engine starts)");
		goto out;
	}
	for (i = 0; i < n; i++)
		for (s = 1; s < EVT_NSLOTS && !ctls[i]->shrank; s++) {
			const struct evt_ctl_slot *sl = &ctls[i]->slots[s];
			uint32_t number = evt_slot_number(ctls[i], s);

			if (__atomic_load_n(&sl->state, __ATOMIC_ACQUIRE) !=
			    EVT_SLOT_ACTIVE ||
			    evt_slot_owned(&c->rd, ctls[i], s) != running ||
			    (c->o.adopt_slot && number != c->o.adopt_slot) ||
			    (running && sl->mode != EVT_MODE_OVERWRITE))
				continue;
			/* An engine acting for a client without privilege takes
			 * only what such an engine recorded (CAP_ANY events). */
			if (evt_policy_guest() && number < EVT_GUEST_NUMBER_FIRST)
				continue;
			/* A recording's pinned sites go with it. */
			if (running && __atomic_load_n(&sl->keep_of, __ATOMIC_RELAXED) &&
			    !c->o.adopt_slot)
				continue;
			if (found_id != sl->collection_id)
				count++;
			found = number;
			found_id = sl->collection_id;
			c->o.mode = sl->mode;
			c->o.packet_size = sl->packet_size;
			c->o.packet_count = sl->packet_count;
		}
	if (!count) {
		if (running && evt_policy_guest())
			snprintf(err, err_size, "%s: no running --overwrite recording "
				 "made through evtraced for a user without privilege "
				 "towards it%s (only those hold events flagged CAP_ANY "
				 "alone, which a snapshot of yours may take)", who,
				 c->o.adopt_slot ? " of that number" : "");
		else if (running)
			snprintf(err, err_size, "%s: no running --overwrite recording%s "
				 "(a snapshot is of a flight recorder; evtrace ls%s "
				 "names the collections)", who, c->o.adopt_slot ?
				 " of that number" : "", pid ? " -p PID" : "");
		else
			snprintf(err, err_size, "%s: no buffers left by a recorder "
				 "that is gone%s (a running recorder reads its own; "
				 "see evtrace ls -p %d)", who, c->o.adopt_slot ?
				 " of that number" : "", pid);
		goto out;
	}
	if (count > 1) {
		snprintf(err, err_size, "%s: several %s; choose one with %s", who,
			 running ? "running --overwrite recordings" :
			 "recorders that are gone left buffers",
			 running ? "--collection" : "--slot");
		goto out;
	}
	for (i = 0; running && i < n; i++)	/* its --keep collection's */
		for (s = 1; s < EVT_NSLOTS && !ctls[i]->shrank; s++)
			if (__atomic_load_n(&ctls[i]->slots[s].keep_of,
					    __ATOMIC_RELAXED) == found + 1 &&
			    __atomic_load_n(&ctls[i]->slots[s].state,
					    __ATOMIC_ACQUIRE) == EVT_SLOT_ACTIVE)
				c->keep_number = evt_slot_number(ctls[i], s);
	if (c->o.mode != EVT_MODE_DISCARD && c->o.mode != EVT_MODE_OVERWRITE) {
		snprintf(err, err_size, "%s: collection %u was counting, not "
			 "recording: there are no events to recover", who, found);
		goto out;
	}
	if (evt_buffer_config_check(c->o.packet_size, c->o.packet_count, err,
				    err_size))
		goto out;
	c->number = found;
	c->id = found_id;
	if (running) {
		ret = 0;
		goto out;
	}
	c->lock_fd = evt_rundir_slot_lock(&c->rd, found, err, err_size);
	if (c->lock_fd < 0)
		goto out;
	if (evt_slot_lock_take(c->lock_fd)) {
		snprintf(err, err_size, "collection %u: taken by another engine "
			 "meanwhile", found);
		goto out;
	}
	/* who holds it now, for others who find it taken */
	evt_slot_lock_describe(c->lock_fd, c->id, c->o.what ? c->o.what :
			       "evtrace recover");
	ret = 0;
out:
	if (n >= 0)	/* (the array too when it holds none) */
		evt_rundir_close_all(ctls, n);
	return ret;
}
int evt_collection_create(const struct evt_collection_opts *opts,
			  struct evt_collection **out, char *err,
			  size_t err_size)
{
	struct evt_collection *c = calloc(1, sizeof(*c));
	bool busy = false;

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
	for (unsigned i = 0; i < opts->nexcludes; i++)
		if (evt_selection_exclude(&c->sel, opts->excludes[i])) {
			snprintf(err, err_size, "'%s': too many patterns, or too long",
				 opts->excludes[i]);
			goto out_free;
		}
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
	    claim_slot(c, err, err_size)) {
		busy = errno == EBUSY;
		goto out_free;
	}
	c->ids.registry = evt_id_registry_open(&c->rd);
	if (opts->snapshot)	/* every process of the recording */
		c->o.npids = 0;
	c->clock_kind = evt_clock_detect();
	if (opts->snapshot && opts->calibration &&
	    opts->calibration->kind == c->clock_kind)
		c->ix.clock = *opts->calibration;	/* the recording's own */
	else if (evt_clock_calibrate(c->clock_kind, &c->ix.clock)) {
		snprintf(err, err_size, "cannot calibrate the trace clock");
		goto out_free;
	}
	if (evt__coll_clock_start(c, err, err_size))
		goto out_free;
	/* Kernel events named wrong fail before a trace directory exists. */
	c->kernel_events_at = c->ix.nevents;
	if (opts->mode != EVT_MODE_COUNT &&
	    (evt_kernel_record_create(opts->patterns, opts->npatterns, opts->usdt_files,
				      opts->nusdt_files, &c->ix.clock,
				      opts->packet_size, opts->kernel_ring_kib
				      ? opts->kernel_ring_kib : EVT_KERNEL_RING_KIB_DEFAULT,
				      opts->syscall_memory, &c->kernel, err, err_size) ||
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
	c->relay_sent.streams = UINT32_MAX;
	/* A snapshot reads what is there, once: no watch, whose close waits
	 * for the kernel's grace period (up to 650 ms on a loaded machine
	 * here, for each trigger's window). */
	if (!opts->snapshot)
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
	evt__coll_orphans(c);	/* (those there before: said at once) */
	*out = c;
	return 0;
out_free:
	evt_collection_destroy(c);
	errno = busy ? EBUSY : EINVAL;
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
uint32_t evt_collection_number(const struct evt_collection *c)
{
	return c->number;
}

const struct evt_clock_calibration *evt_collection_calibration(const struct evt_collection *c)
{
	return &c->ix.clock;
}
uint32_t evt_collection_keep_number(const struct evt_collection *c)
{
	return c->keep_number;
}

const char *evt_collection_rules_name(const struct evt_collection *c)
{
	return c->rules_name;
}
/* `evtrace enable/disable --collection N` (requests.h). */
static int answer(void *ctx, bool enable, const char *pattern, char *err,
		  size_t err_size)
{
	struct evt_collection *c = ctx;

	/* Its kernel stream class was described when it started. */
	if (evt_is_kernel_path(pattern))
		return snprintf(err, err_size, "%s: the kernel events of a recording "
				"or count are those it started with (-e kernel/...); "
				"a stream or consumer takes them while it runs",
				pattern), -1;
	if (!enable && !evt_selection_has_pattern(&c->sel, pattern))
		return evt_selection_not_there(&c->sel, c->number, pattern, err,
					       err_size);
	return evt_collection_select(c, enable, pattern, 0, err, err_size);
}
/* --block=inf: writers wait while this moves in their slot (layout.h). */
static void beat(struct evt_collection *c)
{
	unsigned k;

	c->heartbeat++;
	for (k = 0; k < c->ntracked; k++) {
		struct tracked *t = &c->tracked[k];

		if (t->ctl && !t->dead && !t->ctl->shrank)
			__atomic_store_n(&t->ctl->slots[t->slot].heartbeat,
					 c->heartbeat, __ATOMIC_RELAXED);
	}
}
/* `evtrace snapshot` asks for the kernel events of its window. */
static int window_answer(void *ctx, int64_t from_ns, const char *dir, char *err,
			 size_t err_size)
{
	return evt_collection_kernel_window(ctx, dir, from_ns, err, err_size);
}
int evt_collection_poll(struct evt_collection *c, char *err, size_t err_size)
{
	char buf[4096];

	bool changed = c->inotify_fd < 0;
	int64_t now = now_ms();

	if (c->failed)
		return evt__coll_output_failed(c, err, err_size);
	while (c->relay && evt_relay_message(c->relay, buf, sizeof(buf)))
		evt_report("%s", buf);
	if (c->inotify_fd >= 0)
		while (read(c->inotify_fd, buf, sizeof(buf)) > 0)
			changed = true;
	/* Scanning the run directory costs system calls each time; inotify
	 * says when to, with a full scan each second in case it missed. */
	if (changed || c->unpublished || now - c->last_discover_ms >= RESCAN_MS) {
		evt__coll_discover(c);
		if (!c->failed && !c->finishing) {
			evt_requests_serve(&c->rd, c->number, answer, c);
			evt_window_requests_serve(&c->rd, c->number, window_answer, c);
		}
		c->last_discover_ms = now;
	}
	if (c->o.mode != EVT_MODE_COUNT)
		evt__coll_clock_tick(c);
	if (c->o.block_us == EVT_BLOCK_INF)
		beat(c);
	return evt__coll_drain(c, false, err, err_size);
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

	/* A wake that brought nothing to evt__coll_drain (a process zeroing its word
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
			word = &t->ctl->slots[t->slot].waiting;
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

void evt_collection_hurry(struct evt_collection *c)
{
	c->hurry = true;
}

void evt_collection_rescan(struct evt_collection *c)
{
	c->last_discover_ms = now_ms() - RESCAN_MS;
}

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
		evt__coll_step_back(c, false);
		n = evt_collection_poll(c, err, err_size);
		if (n < 0)
			return -1;
		/* While data flows, look again soon: a thread's default
		 * buffer (1 MiB) fills in milliseconds at full speed.  When
		 * idle, back off to POLL_MAX_MS, or until a buffer half full
		 * wakes us.  (Halving the wait instead saved a little CPU at
		 * low rates, cost some at high ones and lost events once.) */
		if (n > 0 || c->hurry) {
			idle_ms = POLL_MIN_MS;
			c->hurry = false;
		} else {
			evt_collection_wait(c, idle_ms);
			idle_ms = idle_ms * 2 > max_ms ? max_ms : idle_ms * 2;
		}
	}
	evt__coll_step_back(c, true);
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
		return evt__coll_output_failed(c, err, err_size);
	/* A snapshot freezes what every buffer holds now, then writes. */
	if (c->o.snapshot)
		evt__coll_freeze(c);
	unlinkat(c->rd.fd, c->rules_name, 0);
	/* Processes put off for want of fds: drain and let go of the dead,
	 * which gives fds back, and take on more while that helps. */
	for (;;) {
		unsigned had = c->ntracked;

		if (evt__coll_drain(c, false, err, err_size) < 0)
			return -1;
		evt__coll_discover(c);
		if (!c->unpublished || c->ntracked == had)
			break;
	}
	c->finishing = true;
	evt__coll_discover(c);
	evt__coll_orphans(c);
	for (k = 0; k < c->ntracked && !c->o.snapshot; k++) {
		struct evt_ctl *ctl = c->tracked[k].ctl;

		for (id = 0; ctl && id < ctl->nevents; id++)
			evt_ctl_set_enable(ctl, id, c->tracked[k].slot, false);
	}
	evt__coll_guard_lift(c);
	if (!c->o.snapshot)
		nanosleep(&settle, NULL);	/* let writes in flight finish */
	/* The frequency measured over the whole recording, a last snapshot;
	 * and the trace says it was not cut short. */
	evt__coll_clock_end(c);
	c->ix.complete = true;
	c->index_dirty = true;
	ret = evt__coll_drain(c, true, err, err_size);
	for (k = 0; k < c->ntracked; k++) {
		struct tracked *t = &c->tracked[k];

		if (t->ctl && !c->o.snapshot)
			evt_slot_detach(t->ctl, t->slot);
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
			evt__coll_release(c, &c->tracked[k]);
	for (k = 0; k < c->nlayouts; k++)
		free(c->layouts[k].ix);
	free(c->layouts);
	free(c->tracked);
	evt_kernel_record_destroy(c->kernel);
	free(c->kernel_pids);
	free(c->totals);
	free(c->losses);
	free(c->died);
	free(c->guard.uses);
	free(c->guard.capped);
	free(c->scope);
	free(c->foreign);
	free(c->orphans);
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
int evt_collection_set_rate(struct evt_collection *c, const char *pattern,
			    uint32_t rate, char *err, size_t err_size)
{
	unsigned k, n = 0;
	int e;

	for (k = 0; k < c->ntracked; k++) {
		if (!c->tracked[k].ctl || c->tracked[k].dead)
			continue;
		n += evt_tree_set_rate(c->tracked[k].ctl, pattern, rate, &c->caps, &e);
		if (e)
			return snprintf(err, err_size, "%s: %s",
					c->tracked[k].ctl->path, strerror(e)), -1;
	}
	evt_caps_publish(&c->rd, c->number, &c->caps);
	return (int)n;
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

		if (t->done || !t->ctl || evt__coll_index_events(c, t))
			continue;
		evt__coll_apply_selection(c, t);
		for (i = 0; add && i < t->nindexed; i++)
			n += evt__coll_wanted(c, t, i);
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

int evt_collection_sites(struct evt_collection *c,
			 void (*cb)(uint32_t id, const char *path,
				    const char *format, const char *func,
				    void *ctx),
			 void *ctx)
{
	return evt_event_ids_each_site(&c->ids, cb, ctx);
}
