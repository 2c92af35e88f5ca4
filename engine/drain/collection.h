/*
 * collection.h - a recording collection: a slot in every process it
 * covers, drained into a CTF trace directory.
 *
 * It claims a number in the run directory (slots.h), publishes its rules
 * there for processes to apply at registration (each takes a slot for
 * it) or takes a slot in running processes it attaches to, follows the
 * run directory for their control files, and copies whole packets of its
 * slots, without
 * decoding them, into one stream file per thread buffer.  The metadata and
 * the index are rewritten whenever new processes or events appear.
 */
#ifndef EVT_ENGINE_COLLECTION_H
#define EVT_ENGINE_COLLECTION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "clock.h"
#include "relay.h"

struct evt_collection_opts {
	const char *what;		/* for others who find the slot taken */
	const char *rundir;		/* path; opened and checked (rundir.h) */
	const char *output;		/* trace directory */
	/*
	 * Scope.  No pids: the processes that apply its rules, named to them
	 * by $EVTRACE_COLLECTION (a command and its process tree).  Else
	 * these running processes, attached to, and the children they fork
	 * (and the images those exec, from when the recorder sees them).
	 */
	const int *pids;
	unsigned npids;
	/* Or every process of the run directory, running or started later
	 * (its rules are of scope all). */
	bool all;
	const char *const *patterns;
	unsigned npatterns;
	/* Events none of its patterns take, whatever names them (record
	 * --keep gives these to a collection of their own). */
	const char *const *excludes;
	unsigned nexcludes;
	uint32_t mode;			/* enum evt_buffer_mode; counting
					 * (EVT_MODE_COUNT) writes no trace:
					 * output is not used */
	uint32_t packet_size;
	uint32_t packet_count;
	/* Discard mode: a writer that finds its buffer full waits up to
	 * this for the recorder instead of dropping (0: it drops). */
	uint32_t block_us;
	/* Discard mode: a site that takes more than this percentage of a
	 * thread's buffer in a second is capped in its process (0: never;
	 * evt_collection_guarded says which). */
	unsigned guard_percent;
	/* With pids: a pid whose process is not traced is no error (its
	 * kernel events are what is wanted); the recording then runs while
	 * one of the pids does. */
	bool untraced_ok;
	uint32_t kernel_ring_kib;	/* 0: the default */
	/* Bytes of a buffer the syscalls/ events keep of the memory their
	 * arguments point to (kernel_record.h), 0: addresses only. */
	uint32_t syscall_memory;
	/* The files whose USDT probes the usdt/ patterns name (the
	 * command's executable and libraries, or the pids' mapped files). */
	const char *const *usdt_files;
	unsigned nusdt_files;
	/*
	 * Recover (with one pid, no patterns): instead of a new collection,
	 * take over the collection that a recorder which is gone left in
	 * that process's control files (its number adopt_slot, or 0: the only one
	 * so left), with its mode and buffers, and read what they hold.  The
	 * run directory is not swept first, which would remove the control
	 * file of a process that is gone.
	 */
	bool recover;
	uint32_t adopt_slot;		/* a number; also snapshot's */
	/*
	 * Snapshot: of the running --overwrite recording of number
	 * adopt_slot (or the only one in o.pids[0], or in the run
	 * directory): what its buffers hold now, read without touching
	 * them; the recording goes on.  Finish at once.
	 */
	bool snapshot;
	/* Snapshot: only packets that end after this CLOCK_MONOTONIC time
	 * (0: all the buffers hold). */
	int64_t snapshot_since_ns;
	/* Snapshot taken in the recording's own process (a trigger's
	 * window): the recording's clock calibration
	 * (evt_collection_calibration()), taken instead of measuring the
	 * clock's rate anew, which sleeps 20 ms; NULL: measured. */
	const struct evt_clock_calibration *calibration;
	/* record --keep's collection: the number of the recording whose
	 * pinned sites it holds, + 1 (said in its slots for snapshot). */
	uint32_t keep_of;
	/*
	 * Overwrite mode: an exited thread's buffer is read at the end of
	 * the recording, not when the thread exits, so that snapshots taken
	 * meanwhile (record --trigger's windows) still hold its events; the
	 * process cannot give it to a new thread until then.
	 */
	bool hold_exited;
	/* With hold_exited: a process that died is let go of (its control
	 * file removed) this many ms after the recorder saw it dead, not at
	 * once, so that a window due meanwhile still reads its buffers. */
	uint32_t hold_dead_ms;
	/* Streamed to this relay (discard mode), besides the trace
	 * directory, or instead of it when output is NULL. */
	const struct evt_relay_opts *relay;
	/* The run directory is a container's, seen from the host: its pid
	 * namespace's inode (0: not) and cgroup, said in the trace's index
	 * with the pid the host sees of each process. */
	uint64_t container_pidns;
	const char *container_cgroup;
};

struct evt_collection_stats {
	uint64_t packets;
	uint64_t bytes;
	uint64_t lost;			/* recorded in the trace */
	uint64_t overwritten;		/* of lost: what a flight recorder's
					 * buffers overwrote, by design */
	uint64_t lost_unbuffered;	/* no buffer could be had */
	uint64_t wakeups;		/* sleeps a writer ended */
	uint64_t step_offs;		/* times the recorder left a writer's
					 * CPU (collection.c) */
	uint32_t processes;
	uint64_t kernel_events;		/* kernel tracepoint records */
	uint64_t events_at_least;	/* drained: every packet's events but
					 * each buffer's latest (whose count
					 * the next packet's header tells) */
	uint64_t relay_packets;		/* taken by the relay */
	uint64_t relay_refused;		/* not queued for it: no room */
	uint64_t relay_unsent;		/* still queued (now; at the end) */
	uint32_t relay_sessions;	/* relay sessions it made */
	uint32_t unfollowed;		/* processes it could not follow (each
					 * reported): their lost events are
					 * not counted, being unknown */
};

struct evt_collection;

/*
 * Patterns may name kernel events (kernel/...): a recording samples them
 * with perf_event_open (kernel_record.h) in the processes it attaches to,
 * in a command through evt_collection_kernel_command(), or, with all, on
 * every CPU.  Counting leaves them to kernel_count.h.
 *
 * 0, or -1 with err set, and errno EBUSY when every collection number of
 * the run directory is taken.
 */
int evt_collection_create(const struct evt_collection_opts *opts,
			  struct evt_collection **out, char *err,
			  size_t err_size);
/* The file to name in $EVTRACE_COLLECTION for covered processes: a name
 * in the run directory. */
const char *evt_collection_rules_name(const struct evt_collection *c);
/* A snapshot: the number of the recording's --keep collection, or 0. */
uint32_t evt_collection_keep_number(const struct evt_collection *c);
/* Its number in the run directory (what snapshot --collection names). */
uint32_t evt_collection_number(const struct evt_collection *c);
/* Its trace clock's calibration, for a snapshot taken in this process
 * (evt_collection_opts.calibration); it lasts while c does. */
const struct evt_clock_calibration *evt_collection_calibration(const struct evt_collection *c);
/* How many of its processes still run (an attached recording ends when
 * none does). */
unsigned evt_collection_running(const struct evt_collection *c);
/* Discovers new processes and drains closed packets; returns how much it
 * did (packets copied, processes found or let go of: poll again soon when
 * not 0), or -1 on an output error (err set). */
int evt_collection_poll(struct evt_collection *c, char *err, size_t err_size);
/*
 * Sleeps up to timeout_ms, less when a covered thread's buffer is half
 * full (in discard mode its writer wakes the futex word of our slot, for
 * up to 128 processes, by futex_waitv) or, without such a wake-up, when
 * the run directory changes.
 */
void evt_collection_wait(struct evt_collection *c, int timeout_ms);
/* Something the caller reads in done() (record --trigger's stream) had
 * work: evt_collection_run() looks again soon rather than backing off. */
void evt_collection_hurry(struct evt_collection *c);
/* The next poll looks at the run directory for processes, whatever its
 * inotify watch said (as it does each second anyway). */
void evt_collection_rescan(struct evt_collection *c);
/*
 * The drain loop: polls, and waits between polls (1 ms while data flows,
 * backing off to 20 ms when idle, less when a writer wakes it), until
 * done() says to stop (asked before each poll).  0, or -1 on an output
 * error (err set; the recording has stopped, see poll).
 */
int evt_collection_run(struct evt_collection *c,
		       bool (*done)(struct evt_collection *c, void *ctx),
		       void *ctx, char *err, size_t err_size);
/* What the recording has drained so far, lost events included (for a
 * status line; the final numbers come from evt_collection_finish). */
void evt_collection_progress(const struct evt_collection *c,
			     struct evt_collection_stats *out);
/* Events its processes' writers counted as lost so far in its buffers
 * (a flight recorder's too, which drains nothing until it ends), and
 * those of threads that found no buffer. */
uint64_t evt_collection_lost_now(const struct evt_collection *c);
/*
 * The kernel events of a window that a snapshot of this flight recorder
 * wrote into the directory window: the packets of the recording's kernel
 * streams reaching past from_mono_ns (CLOCK_MONOTONIC; 0: the window's
 * earliest packet start) up to now, copied into window, whose index and
 * metadata are written again to describe them.  Nothing without kernel
 * events.  0, or -1 with err set.
 */
int evt_collection_kernel_window(struct evt_collection *c, const char *window,
				 int64_t from_mono_ns, char *err, size_t err_size);
/* Whether a kernel event of the recording that pattern names has the
 * field: 1, 0 (none has it), or -1 (the pattern names none). */
int evt_collection_kernel_field(const struct evt_collection *c,
				const char *pattern, const char *field);
/* Reads the kernel events its rings hold now and writes them out (their
 * watcher sees them), touching nothing else.  0, or -1 with err set. */
int evt_collection_kernel_flush(struct evt_collection *c, char *err,
				size_t err_size);
/* A kernel event the recording wrote, as evt_collection_watch_kernel()
 * hands it over while the collection drains. */
struct evt_kernel_seen {
	const char *path;
	const struct evt_event_layout *layout;
	const uint8_t *payload;
	size_t payload_size;
	int64_t monotonic_ns;
	uint32_t pid, tid;
};
/* Calls cb for each kernel event the recording writes from now on
 * (record --trigger on kernel events); cb NULL stops it.  0, or -1 when
 * it records none. */
int evt_collection_watch_kernel(struct evt_collection *c,
				void (*cb)(const struct evt_kernel_seen *s,
					   void *ctx), void *ctx);
/* Stops: disables its events, drains everything, writes the metadata,
 * frees the slot.  0, or -1 with err set. */
int evt_collection_finish(struct evt_collection *c,
			  struct evt_collection_stats *stats, char *err,
			  size_t err_size);
/*
 * Counting: calls cb for every event the patterns name in the processes
 * counted so far (by global id, in path order), with how many times it
 * happened until now, 0 included.  0, or -1 when out of memory.
 */
typedef void (*evt_count_cb)(uint32_t id, const char *path, uint64_t count,
			     void *ctx);
int evt_collection_counts(struct evt_collection *c, evt_count_cb cb, void *ctx);
/*
 * Adds or removes a pattern (or, pattern NULL, a global id) of what it
 * wants, applied at once in its processes and published for later ones.
 * After an add, returns how many events of its processes it wants now;
 * 0 after a remove; or -1 with err set.
 */
int evt_collection_select(struct evt_collection *c, bool add,
			  const char *pattern, uint32_t id, char *err,
			  size_t err_size);
/*
 * What process pid of the collection, found dead, was writing when it
 * died: "thread T was writing PATH" for each thread that had begun a
 * record and not committed it (a library since 0.1.13 says), joined by
 * "; ", into buf.  Its length; 0 when none.
 */
size_t evt_collection_died_writing(const struct evt_collection *c, int pid,
				   char *buf, size_t size);
/*
 * What it lost so far as the writers named it, most first: cb for each
 * site (path NULL: sites not named) and cause (enum evt_loss_cause).  The
 * losses they did not name (a signal handler's write dropped, a thread
 * that ended before it could say) are the rest of the stats' lost.
 */
typedef void (*evt_loss_cb)(const char *path, unsigned cause, uint64_t count,
			    void *ctx);
void evt_collection_losses(struct evt_collection *c, evt_loss_cb cb, void *ctx);
/* The sites --guard capped: path, pid, the rate set and the share of a
 * thread's buffer they had taken in a second. */
typedef void (*evt_guard_cb)(const char *path, uint32_t pid, uint32_t rate,
			     unsigned share, void *ctx);
void evt_collection_guarded(struct evt_collection *c, evt_guard_cb cb, void *ctx);
/* Caps the events pattern names in its processes at rate a second per
 * thread (0: no cap); how many, or -1 with err set. */
int evt_collection_set_rate(struct evt_collection *c, const char *pattern,
			    uint32_t rate, char *err, size_t err_size);
/* Calls cb for every distinct event met so far, by global id. */
int evt_collection_events(struct evt_collection *c,
			  void (*cb)(uint32_t id, const char *path,
				     const char *format, void *ctx),
			  void *ctx);
/* The same, with each printk site's function (NULL: none). */
int evt_collection_sites(struct evt_collection *c,
			 void (*cb)(uint32_t id, const char *path,
				    const char *format, const char *func,
				    void *ctx),
			 void *ctx);
void evt_collection_destroy(struct evt_collection *c);
/* Records its kernel events in the command about to exec as pid (and the
 * children it forks), from its exec on.  0, or -1 with err set. */
int evt_collection_kernel_command(struct evt_collection *c, int pid, char *err,
				  size_t err_size);

#endif
