/*
 * evtrace/consumer.h - read the events of running programs from your own
 * tool: the userspace twin of perf_event_open() with
 * PERF_EVENT_IOC_ADD_TP.
 *
 * A consumer is a collection of its own: it takes one of the run
 * directory's collection slots, switches on in the processes it covers
 * the events it adds (by path pattern or by global id), and reads them,
 * decoded, as they are written; or, in counting mode, counts them.  Other
 * collections (recordings, streams, other consumers) keep their own
 * events.  When the consumer is closed, or its process dies, its events
 * are switched off.
 *
 * Link with -levtrace-consumer (pkg-config evtrace-consumer).  A consumer
 * reads the caller's own processes (its run directory, $EVTRACE_RUNDIR or
 * /dev/shm/evtrace-<euid>); root may name another user's run directory,
 * and reads another user's pid in the run directory it uses.
 * A consumer of another user's process (attr.pid, no attr.rundir) is
 * served by evtraced (`evtrace daemon`, at $EVTRACE_DAEMON_SOCKET or
 * /run/evtrace/evtraced.sock) within its permission rules: counting any
 * event, recording (or keeping as a flight recorder) only events flagged
 * CAP_ANY unless the caller is the process's user or in the group it
 * opted into; an add it refuses fails with a message naming the event
 * and the rule.
 * A consumer in relay mode hands nothing over: it streams the events it
 * adds to an lttng-relayd (LTTng 2.11 or later), live, as `evtrace record
 * --relay` does, from a thread of its own; babeltrace2 reads them there.
 * A consumer in flight mode hands nothing over either: it is a flight
 * recorder, as `evtrace record --overwrite` is, whose buffers keep the
 * newest events, and evt_consumer_window() writes what they hold as a
 * trace directory when the tool asks (when something went wrong).
 * None of these functions may be called from a signal handler; one
 * consumer is not to be used by two threads at once.
 */
#ifndef EVTRACE_CONSUMER_H
#define EVTRACE_CONSUMER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct evt_consumer;

enum evt_consumer_mode {
	EVT_CONSUMER_RECORD = 0,	/* read each event with its fields */
	EVT_CONSUMER_COUNT = 1,		/* count events, write no records */
	EVT_CONSUMER_RELAY = 2,		/* since 0.1.3: stream them to a relay */
	EVT_CONSUMER_FLIGHT = 3,	/* since 0.1.6: keep the newest, write
					 * them on demand */
};

/* block_ms: wait as long as the consumer lives (since 0.1.7). */
#define EVT_CONSUMER_BLOCK_INF 0xffffffffu

/* What evt_consumer_open() is to do.  Zero it, then set size. */
struct evt_consumer_attr {
	uint32_t size;			/* sizeof(struct evt_consumer_attr) */
	uint32_t mode;			/* enum evt_consumer_mode */
	/* 0: every process of the run directory, those started later too;
	 * else this running process and the children it forks. */
	int pid;
	/* The run directory; NULL: $EVTRACE_RUNDIR or the default. */
	const char *rundir;
	/* Who holds the slot, as `evtrace ls` and a refused collection say
	 * it (at most 200 bytes); NULL: "a consumer, pid <its pid>". */
	const char *name;
	/* Since 0.1.2, record (and relay) mode: a traced thread whose
	 * buffer is full waits up to this many milliseconds (at most 1000)
	 * for the consumer to read, instead of dropping the event; 0: it
	 * drops (counted); EVT_CONSUMER_BLOCK_INF (since 0.1.7): it waits
	 * as long as the consumer lives, and drops once the consumer has
	 * not read for a second (not reading, stopped or gone), or when
	 * the write is in a signal handler.
	 * A wait that runs out makes it drop until the consumer reads
	 * again.  For a process of another user read through evtraced,
	 * only with privilege towards it (a stranger may not set its
	 * pace). */
	uint32_t block_ms;
	/*
	 * Since 0.1.3, relay mode: the lttng-relayd to stream to,
	 * "HOST[:PORT[:DATA_PORT]]" (ports 5342 and 5343 unless given;
	 * "[ADDRESS]" for IPv6); the session and host names it files the
	 * recording under (NULL: "evtrace" and this machine's name; 1 to 64
	 * letters, digits, '.', '_' or '-'), live at
	 * net://HOST/host/<hostname>/<session>; and how many MiB of packets
	 * may wait for it (1 to 4096; 0: 64): a packet that does not fit is
	 * dropped, its events counted as lost in the trace.  A relay that
	 * cannot be reached, fails, or stops answering for 5 s is tried again
	 * (1 s later, then up to every 8 s), each new connection a new trace
	 * on the relay.  Block_ms applies too.
	 */
	const char *relay;
	const char *relay_session;
	const char *relay_hostname;
	uint32_t relay_buffer_mib;
	/*
	 * Since 0.1.4: where the engine's messages about this consumer go
	 * (a process it cannot follow, a control file it refused, the
	 * relay's news), one call a message, without a trailing newline,
	 * on the thread that called the consumer's function; NULL: standard
	 * error, as "evtrace: <message>".
	 */
	void (*report)(const char *message, void *ctx);
	void *report_ctx;
};

/* How a field's value is given. */
enum evt_value_type {
	EVT_VALUE_INT = 1,		/* value.i: signed integers, enums */
	EVT_VALUE_UINT,			/* value.u: unsigned, bools, pointers */
	EVT_VALUE_DOUBLE,		/* value.d */
	EVT_VALUE_STRING,		/* value.s, NUL-terminated */
	EVT_VALUE_ARRAY,		/* value.array: integers, packed */
};

/* One field of an event: a typed event's field, or a printk argument
 * (arg0, arg1, ...; a '*' width or precision is an argument of its own). */
struct evt_field {
	const char *name;
	enum evt_value_type type;
	const char *label;		/* an enum's name of the value, or NULL */
	union {
		int64_t i;
		uint64_t u;
		double d;
		const char *s;
		struct {
			const void *data;	/* count elements, little endian */
			uint32_t count;
			uint8_t elem_bytes;	/* 1, 2, 4 or 8 */
			uint8_t is_signed;
		} array;
	} value;
};

/*
 * An event as evt_consumer_read() hands it over; valid during the call.
 * lost > 0 makes it a notice instead: that many events of this thread were
 * dropped before the next (its buffer was full); path and fields are then
 * NULL.
 */
struct evt_consumer_record {
	uint32_t id;			/* global id; UINT32_MAX: a kernel event */
	const char *path;		/* printk/<module>/<file>/<line>, ... */
	const char *format;		/* printk format, or the format text */
	int64_t time_ns;		/* CLOCK_MONOTONIC */
	uint32_t pid, tid;
	uint16_t cpu;
	const char *comm;		/* the thread's name */
	uint64_t lost;
	const struct evt_field *fields;
	unsigned nfields;
	const char *text;		/* as `evtrace report` prints it */
	size_t text_len;		/* (a printk %c of 0 puts a NUL in it) */
};

typedef void (*evt_consumer_record_cb)(const struct evt_consumer_record *r,
				       void *ctx);
typedef void (*evt_consumer_count_cb)(uint32_t id, const char *path,
				      uint64_t count, void *ctx);
typedef void (*evt_consumer_event_cb)(uint32_t id, const char *path,
				      const char *format, void *ctx);

/*
 * Opens a consumer, with no event added yet.  0, or -1 with a message in
 * err: every slot taken (naming who holds each), a run directory that
 * fails its checks, pid not a traced process of the run directory.
 */
int evt_consumer_open(const struct evt_consumer_attr *attr,
		      struct evt_consumer **out, char *err, size_t err_size);

/*
 * Adds the events a path pattern names ("printk/demo", a directory of the
 * event tree, or a glob whose '*' crosses '/'; the root names everything
 * but printk/), now and as the processes register more.  Returns how
 * many events of the processes covered now it names (0: none yet, which
 * a tool should say), or -1 with err set (a bad pattern: its position).
 * Since 0.1.8, in a recording consumer, "kernel/..." adds the kernel
 * tracepoints it names (an error when it names none): sampled in attr.pid
 * and its children, or on every CPU for a consumer of every process, as
 * the kernel allows the caller (its refusal is the error); their records
 * come in time order with the others', id UINT32_MAX, text as the
 * kernel's print fmt gives it.  Not through evtraced, nor in counting,
 * relay or flight mode.
 */
int evt_consumer_add(struct evt_consumer *c, const char *pattern, char *err,
		     size_t err_size);
/* Adds one event by global id (evt_consumer_events(), `evtrace ls --ids`:
 * the run directory's ids, the same for every engine there): that path
 * with that exact format.  0, or -1 with err set. */
int evt_consumer_add_id(struct evt_consumer *c, uint32_t id, char *err,
			size_t err_size);
/* Removes what an add added; other collections are not touched.  0, or
 * -1 with err set (it was not added). */
int evt_consumer_remove(struct evt_consumer *c, const char *pattern, char *err,
			size_t err_size);
int evt_consumer_remove_id(struct evt_consumer *c, uint32_t id, char *err,
			   size_t err_size);

/*
 * Caps each event the pattern names, in the processes covered now, at
 * rate events a second in each thread (0: no cap), for every collection
 * that has it on, as `evtrace enable --rate` does; what a cap holds back
 * is counted as lost (a lost-event notice).  The cap is the consumer's
 * (since 0.1.11): `evtrace ls` names its collection, and closing the
 * consumer takes it away where no one set another since.  Returns how
 * many events it capped, or -1 with err set (a bad pattern, the file
 * system of the run directory full, or, through evtraced, a caller
 * without privilege towards the process: a cap holds a site back for
 * every reader of the process).
 */
int evt_consumer_set_rate(struct evt_consumer *c, const char *pattern,
			  uint32_t rate, char *err, size_t err_size);

/* Calls cb for every distinct event (path and exact format) of the
 * processes covered, with its global id; returns how many. */
int evt_consumer_events(struct evt_consumer *c, evt_consumer_event_cb cb,
			void *ctx);

/*
 * A file descriptor to poll(2) for reading: readable every 10 ms while
 * the consumer is open, the pace at which it looks for new events (an
 * event is handed over within 100 ms of its writing).  Reading from it is
 * evt_consumer_read()'s job.
 */
int evt_consumer_fd(struct evt_consumer *c);

/*
 * Record mode: hands over, in time order, the events written since the
 * last call, and lost-event notices.  Returns how many processes it
 * still covers (0 once a given pid and its children have exited, and
 * everything they wrote was handed over), or -1 with err set.
 * Relay mode: queues for the relay what was written since the last call
 * (cb is not called; NULL will do), and returns the same.  The relay's
 * news (connected, connection lost) goes where the engine's messages go:
 * standard error, as "evtrace: relay ..." (through evtraced: the
 * daemon's).
 * Flight mode: takes up the processes started since the last call (cb is
 * not called; NULL will do), and returns the same.
 */
int evt_consumer_read(struct evt_consumer *c, evt_consumer_record_cb cb,
		      void *ctx, char *err, size_t err_size);

/*
 * Since 0.1.6, flight mode: writes what the consumer's buffers hold now
 * as a trace directory dir, which report, query and babeltrace2 read;
 * the consumer goes on recording.  The window starts before_ns
 * nanoseconds ago (at a whole packet), or, with 0, as far back as the
 * buffers reach; the buffers of threads that exited are kept for it
 * until the consumer is closed, those of a process that exited for 10 s.
 * dir must not exist: a window is never written into a directory that
 * does (through evtraced, since 0.1.12, the consumer makes it, mode 0700,
 * and the daemon writes the window into it as the caller's files).  0, or
 * -1 with err set (not flight mode, dir exists, the file system full: the
 * consumer goes on).
 */
int evt_consumer_window(struct evt_consumer *c, const char *dir,
			uint64_t before_ns, char *err, size_t err_size);

/* A window a trigger wrote, or could not write (evt_consumer_arm()). */
struct evt_consumer_window_info {
	uint32_t size;			/* sizeof(struct evt_consumer_window_info) */
	/* 1: it holds the event that fired it, on its thread; 0: it does
	 * not (why says why: overwritten or lost before, with counts); -1:
	 * not known (a 'lost' trigger, which no event fires, or no
	 * window). */
	int held;
	const char *dir;		/* DIR/window-<n>; NULL: none could be
					 * written (why says why) */
	const char *trigger;		/* the expression that fired */
	const char *event;		/* the event's path; for 'lost', "lost N
					 * events" */
	uint32_t pid, tid;		/* where it fired (0: 'lost') */
	int64_t fired_ns;		/* when, CLOCK_MONOTONIC */
	const char *why;		/* NULL, or what is wrong with it */
};

/* What evt_consumer_arm() is to do.  Zero it, then set size. */
struct evt_consumer_triggers {
	uint32_t size;			/* sizeof(struct evt_consumer_triggers) */
	/* At most this many windows (0: 5; at most 10000): firings past
	 * them are counted, and said when the consumer is closed. */
	uint32_t max_windows;
	/* The expressions, as evtrace record --trigger takes them
	 * (evtrace-record(1)): "PATTERN", "PATTERN if FIELD OP VALUE",
	 * "span NAME > DURATION", "lost"; 1 to 64 of them.  Kernel events
	 * are not yet supported here. */
	const char *const *exprs;
	uint32_t nexprs;
	/* An existing directory: each window goes to a new DIR/window-<n>,
	 * with DIR/window-<n>/evtrace/trigger saying what fired it and
	 * what it holds. */
	const char *dir;
	/* A window starts before_ns before its firing (0: as far back as
	 * the buffers reach; a span's window holds the span whole) and is
	 * taken after_ns after it (a span that fired while still open:
	 * after its end). */
	uint64_t before_ns, after_ns;
	/* Called for each window, written or not, from evt_consumer_read()
	 * or evt_consumer_close(); NULL: said where the consumer's
	 * messages go (attr.report). */
	void (*window)(const struct evt_consumer_window_info *w, void *ctx);
	void *window_ctx;
};

/*
 * Since 0.1.11, flight mode: arms triggers, which the consumer evaluates
 * on the events they name (read, as they are written, through a
 * collection of their own: the traced program writes those events once
 * more), in the processes the consumer covers.  Each firing writes a
 * window of what the buffers hold, in the consumer's process, as
 * evt_consumer_window() does, without the tool's asking.  The triggers
 * are evaluated, and windows written, by each evt_consumer_read() (call
 * it when evt_consumer_fd() is readable), and the windows still due by
 * evt_consumer_close(), which says what fired (attr.report).  Once per
 * consumer.  Through evtraced (since 0.1.12) the daemon evaluates them and
 * writes the windows into dir, handed over: it must be the caller's own,
 * not writable by others; at most 16 expressions there, and a caller
 * without privilege towards the process arms only triggers on events
 * flagged CAP_ANY.  0, or -1 with err set (not flight mode, an expression
 * that is wrong, with the position, DIR not a directory or not the
 * caller's, a trigger the daemon refuses, armed already).
 */
int evt_consumer_arm(struct evt_consumer *c, const struct evt_consumer_triggers *t,
		     char *err, size_t err_size);

/* Relay mode: what the relay took so far.  Zero it, then set size. */
struct evt_consumer_relay_stats {
	uint32_t size;			/* sizeof(struct evt_consumer_relay_stats) */
	uint32_t sessions;		/* connections made (a new trace each) */
	uint64_t packets;		/* packets the relay took */
	uint64_t refused;		/* packets dropped: no room to wait
					 * (the trace counts their events) */
	uint64_t queued;		/* packets waiting for the relay now */
	uint64_t lost;			/* events the writers dropped, their
					 * buffers full */
};

/* Fills s; 0, or -1 with err set (not relay mode, a bad size). */
int evt_consumer_relay_stats(struct evt_consumer *c,
			     struct evt_consumer_relay_stats *s, char *err,
			     size_t err_size);

/*
 * Count mode: calls cb for every event added, 0 included, in path order,
 * with how many times it happened so far.  Returns how many processes it
 * still covers, or -1 with err set.
 */
int evt_consumer_counts(struct evt_consumer *c, evt_consumer_count_cb cb,
			void *ctx, char *err, size_t err_size);

/* Switches its events off, frees its slot and everything else.  In relay
 * mode it first sends everything written, waiting up to 10 s for the
 * relay to take it. */
void evt_consumer_close(struct evt_consumer *c);

#ifdef __cplusplus
}
#endif

#endif
