/*
 * collection_local.h - what the files of a recording collection share:
 * its state (struct evt_collection, a followed process, an output
 * stream) and the functions one file calls in another.  Not for use
 * outside engine/drain/ (collection.h is the interface).
 *
 * Reader side of the buffer protocol of lib/write.c: acquire produced (or
 * commit), copy the packet's header out of shared memory and check it,
 * write the patched header and the records (straight from the mapping),
 * then release consumed so the writer may reuse the packet.  In overwrite
 * mode nothing is consumed: buffers are read once, when their thread or
 * process is gone or the recording ends, oldest surviving packet first.
 * Every value read from the control file is checked before use.
 */
#ifndef EVT_ENGINE_COLLECTION_LOCAL_H
#define EVT_ENGINE_COLLECTION_LOCAL_H

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
#include "caps.h"
#include "policy.h"
#include "printk_format.h"
#include "rules_files.h"
#include "live.h"
#include "lost_record.h"
#include "report.h"
#include "ring.h"
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

static inline int64_t now_ms(void)
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
	/* A snapshot: the buffer's copy, taken with every other buffer's
	 * before any is written (evt__coll_freeze), and what the copy saw */
	uint8_t *frozen;
	uint64_t frozen_produced, frozen_reused;
	uint32_t frozen_commit;
};

struct tracked {
	struct evt_ctl *ctl;
	uint32_t slot;		/* the collection's slot in the process */
	uint32_t cls;		/* its stream class, EVT_NO_CLASS before any */
	uint32_t serial;	/* processes tracked before it: names files */
	uint32_t slot_gen;
	uint32_t nindexed;	/* events given a global id */
	uint32_t enabled_upto;	/* events the selection was applied to */
	uint32_t applied_gen;	/* of the selection, when applied to all */
	uint32_t *gids;		/* [nindexed], by local id */
	bool dead;
	bool done;		/* fully drained after its process died */
	int64_t done_ms;	/* when (o.hold_dead_ms) */
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
	uint32_t number;	/* in the run directory (slots.h) */
	uint32_t heartbeat;	/* --block=inf: beat() */
	int full_pid;		/* the last process whose slots were all
				 * taken, and what was said of it */
	char full[1280];
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
	pid_t *orphans;		/* said: their control files were removed */
	unsigned norphans;
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
	uint32_t kernel_events_at;	/* the first kernel event in ix */
	bool hurry;		/* evt_collection_hurry() */
	/* evt_collection_watch_kernel()'s */
	void (*kernel_seen)(const struct evt_kernel_seen *s, void *ctx);
	void *kernel_seen_ctx;
	uint64_t packets_at_wake;
	/* Streamed to a relay (relay.h), besides or instead of c->out. */
	struct evt_relay *relay;
	struct evt_index_marks relay_sent;	/* of ix, in its metadata */
	int64_t snapshot_ms;	/* the last clock snapshot taken */
	uint64_t since_value;	/* snapshot_since_ns as a trace clock value */
	uint32_t keep_number;	/* a snapshot: the recording's --keep
				 * collection's number */
	int64_t clock_offset_ns;	/* $EVTRACE_CLOCK_OFFSET (tests) */
	int64_t clock_refined_ns;	/* evt_clock_refine_every() */
	int64_t relay_horizon_ms;
	struct class_layouts {	/* ix.events index by local id, per class */
		uint32_t *ix;
		uint32_t n;
	} *layouts;
	uint32_t nlayouts;
	/* The rate caps it set (--guard's, evt_collection_set_rate()'s):
	 * its own, published for ls, lifted when it ends (caps.h). */
	struct evt_caps caps;
	/* --guard (collection_guard.c): bytes per thread and site in the
	 * second, and the sites capped. */
	struct guard {
		struct guard_use *uses;
		size_t n, cap;
		struct guard_cap {
			uint32_t pid, id, gid, rate;
			unsigned share;
		} *capped;
		unsigned ncapped;
	} guard;
	/* What it lost by site and cause (collection_loss.c). */
	struct loss_tally {
		uint32_t gid;	/* EVT_NO_ID: not named */
		uint8_t cause;
		uint64_t count;
	} *losses;
	unsigned nlosses;
	/* Records begun and not committed by processes that died
	 * (collection_died.c): ix.events index of each. */
	struct died {
		int pid, tid;
		uint32_t event;
	} *died;
	unsigned ndied;
};

struct layout_ctx {
	const struct evt_collection *c;
	uint32_t cls;
};

/* Whether a trace directory is written (else only a relay gets it). */
static inline bool local(const struct evt_collection *c)
{
	return c->o.output != NULL;
}

/* collection_died.c: the event of a record a dead process's thread had
 * begun after the committed records of its open packet p */
void evt__coll_died_writing(struct evt_collection *c, const struct tracked *t,
			    const struct evt_ring *r,
			    const struct evt_ring_packet *p);

/* collection.c: its life (create, slot, scope, run, finish) */
bool evt__coll_in_scope(const struct evt_collection *c, int pid);
void evt__coll_add_scope(struct evt_collection *c, int pid);

/* collection_track.c: processes whose control file was removed while
 * they ran, among every process (-a) or those attached: said and counted
 * as unfollowed, each once (at the start and at the end) */
void evt__coll_orphans(struct evt_collection *c);

/* collection_index.c: trace classes and the index */
int evt__coll_flush_index(struct evt_collection *c, char *err, size_t err_size);
const struct evt_event_layout *evt__coll_layout_of(void *ctx, uint16_t id);
int evt__coll_index_events(struct evt_collection *c, struct tracked *t);

/* collection_track.c: the processes it follows */
void evt__coll_unfollowed(struct evt_collection *c, uint32_t pid,
			  const char *path, const char *why);
bool evt__coll_track(struct evt_collection *c, const char *name, ino_t ino);
void evt__coll_discover(struct evt_collection *c);
void evt__coll_release(struct evt_collection *c, struct tracked *t);
bool evt__coll_wanted(const struct evt_collection *c, const struct tracked *t,
		       uint32_t i);
void evt__coll_apply_selection(struct evt_collection *c, struct tracked *t);

/* collection_drain.c: packets out of buffers into the outputs */
int evt__coll_output_failed(struct evt_collection *c, char *err,
			    size_t err_size);
int evt__coll_drain(struct evt_collection *c, bool final, char *err,
		    size_t err_size);

/* collection_stepoff.c: off a writer's CPU */
void evt__coll_step_off_writer(struct evt_collection *c, int pid, int tid);
void evt__coll_step_back(struct evt_collection *c, bool now);

/* collection_clock.c: the host and clock snapshots of the index */
int evt__coll_clock_start(struct evt_collection *c, char *err, size_t err_size);
void evt__coll_clock_tick(struct evt_collection *c);
void evt__coll_clock_end(struct evt_collection *c);

/* collection_guard.c: a whole packet's records counted for --guard */
/* A snapshot: every buffer of its processes copied at once, before any
 * is written (up to FREEZE_MAX_BYTES; the rest are copied as they are
 * written). */
void evt__coll_freeze(struct evt_collection *c);
/* The caps it set end with the recording: lifted where they are
 * still the rate it set. */
void evt__coll_guard_lift(struct evt_collection *c);
void evt__coll_guard_packet(struct evt_collection *c, struct tracked *t,
			    const struct evt_packet_header *h, const uint8_t *pkt,
			    uint32_t content);

/* collection_loss.c: the sites a packet after a loss names */
void evt__coll_tally_lost(struct evt_collection *c, const struct tracked *t,
			  const uint8_t *pkt, uint32_t content);
/* ... and one the recorder names itself (out of memory: not tallied, the
 * total stays right). */
/* The events the processes' buffers hold that were not written, counted
 * against their sites for cause (the recording stops: write_error). */
void evt__coll_tally_unwritten(struct evt_collection *c, uint8_t cause);
void evt__coll_tally_one(struct evt_collection *c, const struct tracked *t,
			 const struct evt_lost_entry *e);

/* collection_count.c: counting collections */
void evt__coll_count_tbuf(struct evt_collection *c, struct tracked *t,
			  uint32_t i, bool final);

#endif
