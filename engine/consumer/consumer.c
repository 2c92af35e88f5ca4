/*
 * consumer.c - include/evtrace/consumer.h on the engine: a record-mode
 * consumer is a live stream with a slot of its own (live_stream.c), a
 * counting one a counting collection (collection.c), a relay one a
 * recording collection with a relay and no trace directory, a flight one
 * an overwriting collection with neither, whose windows are snapshots of
 * it written by the consumer's process.  A consumer of another user's
 * process is a session with evtraced, which runs one of these for it
 * (evtraced_client.c, daemon/serve_consumer.c); a flight one's windows go
 * into directories this process makes and hands over.  What the engine reports while it
 * works for a consumer goes to the consumer's callback (attr.report),
 * set for the calling thread around each call into the engine.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include <evtrace/consumer.h>

#include "collection.h"
#include "consumer_served.h"
#include "evtraced_client.h"
#include "kernel_events.h"
#include "layout.h"
#include "live_stream.h"
#include "orphans.h"
#include "pattern.h"
#include "process_info.h"
#include "relay.h"
#include "record_fields.h"
#include "report.h"
#include "rundir.h"
#include "triggers.h"

#define CONSUMER_TICK_MS 10

struct evt_consumer {
	uint32_t mode;
	int pid;
	int timer_fd;
	struct evt_live_stream *stream;		/* record mode */
	struct evt_collection *coll;		/* count, relay, flight mode */
	char rundir[EVT_RUNDIR_PATH_MAX];	/* flight mode's windows */
	char what[201];
	struct evt_relay_opts relay;		/* what coll points to */
	char relay_host[256], relay_session[65], relay_hostname[65];
	int sock;				/* or evtraced's session */
	/* While a read hands records over: */
	evt_consumer_record_cb cb;
	void *ctx;
	struct evt_report_to report;		/* attr.report: cb NULL, stderr */
	/* Flight mode's triggers (evt_consumer_arm()), or NULL: */
	struct evt_triggers *triggers;
	struct evt_trigger **exprs;
	unsigned nexprs;
	void (*window_cb)(const struct evt_consumer_window_info *w, void *ctx);
	void *window_ctx;
	char *remote_dir;			/* armed through evtraced: DIR */
	struct evt_field fields[EVT_FIELDS_MAX];
	evt_arg_name names[EVT_PRINTK_MAX_ARGS];
};

/* Relay mode's attributes, checked, into c->relay. */
static int relay_opts(struct evt_consumer *c, const struct evt_consumer_attr *a,
		      char *err, size_t err_size)
{
	struct evt_relay_opts *r = &c->relay;

	if (!a->relay || evt_relay_parse(a->relay, r, c->relay_host,
					 sizeof(c->relay_host)))
		return snprintf(err, err_size, "relay '%s': " EVT_RELAY_ADDRESS_FORMS,
				a->relay ? a->relay : "(NULL)"), -1;
	for (int k = 0; k < 2; k++) {
		const char *name = k ? a->relay_hostname : a->relay_session;

		if (name && !evt_relay_name_ok(name))
			return snprintf(err, err_size, "relay session or host name "
					"'%s': " EVT_RELAY_NAME_FORM, name), -1;
	}
	if (a->relay_buffer_mib > EVT_RELAY_QUEUE_MAX_MIB)
		return snprintf(err, err_size, "relay_buffer_mib %u: 1 to %u, or 0",
				a->relay_buffer_mib, EVT_RELAY_QUEUE_MAX_MIB), -1;
	if (a->relay_hostname)
		snprintf(c->relay_hostname, sizeof(c->relay_hostname), "%s",
			 a->relay_hostname);
	else
		evt_relay_default_hostname(c->relay_hostname, sizeof(c->relay_hostname));
	snprintf(c->relay_session, sizeof(c->relay_session), "%s",
		 a->relay_session ? a->relay_session : "evtrace");
	r->session = c->relay_session;
	r->hostname = c->relay_hostname;
	r->max_queued = (size_t)a->relay_buffer_mib << 20;
	r->live_timer_us = EVT_RELAY_LIVE_TIMER_US;
	return 0;
}

static void close_engine(struct evt_consumer *c);

static int open_engine(const struct evt_consumer_attr *attr,
		       struct evt_consumer **out, char *err, size_t err_size)
{
	struct itimerspec tick = {
		{ 0, CONSUMER_TICK_MS * 1000000 }, { 0, CONSUMER_TICK_MS * 1000000 },
	};
	char rundir[EVT_RUNDIR_PATH_MAX], what[201];
	struct evt_consumer *c;
	uint32_t block_us = 0;

	*out = NULL;
	if (!attr || attr->size < offsetof(struct evt_consumer_attr, block_ms) ||
	    attr->mode > EVT_CONSUMER_FLIGHT || attr->pid < 0 ||
	    (attr->mode == EVT_CONSUMER_RELAY &&
	     attr->size < offsetof(struct evt_consumer_attr, report)))
		return snprintf(err, err_size, "bad attributes (size, mode or pid)"), -1;
	/* (0.1.2 added block_ms: a smaller attr is one from before) */
	if (attr->size >= offsetof(struct evt_consumer_attr, block_ms) +
			  sizeof(attr->block_ms)) {
		if (attr->block_ms > EVT_BLOCK_MAX_US / 1000 &&
		    attr->block_ms != EVT_CONSUMER_BLOCK_INF) {
			return snprintf(err, err_size, "block_ms %u: at most %u, "
					"or EVT_CONSUMER_BLOCK_INF", attr->block_ms,
					EVT_BLOCK_MAX_US / 1000), -1;
		}
		block_us = attr->block_ms == EVT_CONSUMER_BLOCK_INF ?
			   EVT_BLOCK_INF : attr->block_ms * 1000;
	}
	if (attr->rundir) {
		if (snprintf(rundir, sizeof(rundir), "%s", attr->rundir) >=
		    (int)sizeof(rundir))
			return snprintf(err, err_size, "run directory path too long"), -1;
	} else if (evt_rundir_path(rundir, sizeof(rundir), err, err_size)) {
		return -1;
	} else if (attr->pid > 0 && geteuid() == 0) {
		struct evt_process_info info;

		/* Root reads another user's process in that user's run
		 * directory, the one its environment names. */
		if (evt_process_info(attr->pid, &info, err, err_size) == 0 &&
		    info.euid != 0 && info.rundir[0])
			snprintf(rundir, sizeof(rundir), "%s", info.rundir);
	}
	c = calloc(1, sizeof(*c));
	if (!c)
		return snprintf(err, err_size, "out of memory"), -1;
	if (attr->mode == EVT_CONSUMER_RELAY && relay_opts(c, attr, err, err_size)) {
		free(c);
		return -1;
	}
	c->mode = attr->mode;
	c->pid = attr->pid;
	c->sock = -1;
	c->timer_fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	if (c->timer_fd < 0 || timerfd_settime(c->timer_fd, 0, &tick, NULL)) {
		snprintf(err, err_size, "timerfd: %s", strerror(errno));
		goto fail;
	}
	if (attr->name)
		snprintf(what, sizeof(what), "%s", attr->name);
	else
		snprintf(what, sizeof(what), "a consumer, pid %d", (int)getpid());
	what[strcspn(what, "\n")] = '\0';	/* one line in the lock file */
	if (!attr->rundir && evt_remote_needed(c->pid)) {
		struct evt_request r = {
			.verb = EVT_VERB_CONSUME, .npids = 1, .pids = { c->pid },
			.count = c->mode == EVT_CONSUMER_COUNT,
			.overwrite = c->mode == EVT_CONSUMER_FLIGHT,
			.block_us = c->mode == EVT_CONSUMER_COUNT ? 0 : block_us,
		};

		if (c->mode == EVT_CONSUMER_RELAY) {
			/* The daemon's consumer names the host as this one. */
			r.relay = attr->relay;
			r.session = c->relay.session;
			r.hostname = c->relay.hostname;
			r.relay_buffer_mib = attr->relay_buffer_mib;
		}
		c->sock = evt_remote_open(&r, err, err_size);
		if (c->sock < 0 && r.overwrite &&
		    strstr(err, "relay, block-us or nothing"))	/* (before 0.1.12) */
			snprintf(err, err_size, "flight mode: the running evtraced is "
				 "older than 0.1.12, which serves flight consumers of "
				 "another user's process: restart it from evtrace "
				 "0.1.12 or later");
		if (c->sock < 0)
			goto fail;
	} else if (c->mode == EVT_CONSUMER_RECORD) {
		if (evt_live_stream_create(rundir, c->pid, what, block_us,
					   &c->stream, err, err_size))
			goto fail;
		if (c->pid && evt_live_stream_watched(c->stream) == 0) {
			if (evt_live_stream_full(c->stream))
				snprintf(err, err_size, "%s",
					 evt_live_stream_full(c->stream));
			else
				evt_rundir_why_untraced(rundir, c->pid, err,
							err_size);
			goto fail;
		}
	} else {
		struct evt_collection_opts o = {
			.what = what, .rundir = rundir, .mode = EVT_MODE_COUNT,
			.packet_size = EVT_PACKET_DEFAULT_BYTES,
			.packet_count = EVT_PACKETS_DEFAULT,
			.pids = c->pid ? &c->pid : NULL, .npids = c->pid ? 1 : 0,
			.all = !c->pid,
		};

		if (c->mode == EVT_CONSUMER_RELAY) {
			o.mode = EVT_MODE_DISCARD;
			o.block_us = block_us;
			o.relay = &c->relay;	/* and no trace directory */
		} else if (c->mode == EVT_CONSUMER_FLIGHT) {
			o.mode = EVT_MODE_OVERWRITE;	/* and no output */
			o.hold_exited = true;		/* for its windows, */
			o.hold_dead_ms = 10000;		/* a dead process's too */
		}
		snprintf(c->rundir, sizeof(c->rundir), "%s", rundir);
		snprintf(c->what, sizeof(c->what), "%s", what);
		if (evt_collection_create(&o, &c->coll, err, err_size))
			goto fail;
		evt_collection_poll(c->coll, err, err_size);
	}
	*out = c;
	return 0;
fail:
	close_engine(c);
	return -1;
}

static int select_events(struct evt_consumer *c, bool add, const char *pattern,
			 uint32_t id, char *err, size_t err_size)
{
	char why[200];

	if (pattern && evt_pattern_check(pattern, why, sizeof(why)))
		return snprintf(err, err_size, "pattern '%s': %s", pattern, why), -1;
	if (c->sock >= 0) {
		struct evt_request r = {
			.verb = add ? EVT_VERB_ADD : EVT_VERB_REMOVE,
			.events = { pattern }, .nevents = pattern != NULL,
			.has_id = !pattern, .id = id,
		};

		return evt_remote_call(c->sock, &r, NULL, NULL, err, err_size);
	}
	if (c->stream)
		return evt_live_stream_select(c->stream, add, pattern, id, err,
					      err_size);
	return evt_collection_select(c->coll, add, pattern, id, err, err_size);
}

static int add_engine(struct evt_consumer *c, const char *pattern, char *err,
		     size_t err_size)
{
	if (pattern && evt_is_kernel_path(pattern) && c->sock >= 0)
		return snprintf(err, err_size, "%s: " EVT_PROTO_NO_KERNEL_EVENTS,
				pattern), -1;
	if (pattern && evt_is_kernel_path(pattern) && !c->stream)
		return snprintf(err, err_size, "%s: kernel events in a %s consumer "
				"are not yet supported (a recording consumer, "
				"EVT_CONSUMER_RECORD, takes them)", pattern,
				c->mode == EVT_CONSUMER_COUNT ? "counting" :
				c->mode == EVT_CONSUMER_RELAY ? "relay" : "flight"), -1;
	return select_events(c, true, pattern, 0, err, err_size);
}

static int add_id_engine(struct evt_consumer *c, uint32_t id, char *err,
			size_t err_size)
{
	return select_events(c, true, NULL, id, err, err_size) < 0 ? -1 : 0;
}

static int remove_engine(struct evt_consumer *c, const char *pattern, char *err,
			size_t err_size)
{
	return select_events(c, false, pattern, 0, err, err_size);
}

static int remove_id_engine(struct evt_consumer *c, uint32_t id, char *err,
			   size_t err_size)
{
	return select_events(c, false, NULL, id, err, err_size);
}

struct handing {
	struct evt_consumer *c;
	evt_consumer_event_cb event_cb;
	evt_consumer_count_cb count_cb;
	evt_consumer_record_cb record_cb;
	struct evt_consumer_relay_stats *relay_stats;
	void *ctx;
};

/* A 'w' frame: a window the daemon's triggers wrote into c->remote_dir,
 * or could not, for the tool's callback (without one, the daemon's
 * consumer says it instead: an 'm' frame). */
static void remote_window(struct evt_consumer *c, struct evt_wire *w)
{
	char dir[PATH_MAX + 64];
	struct evt_consumer_window_info info = { .size = sizeof(info) };
	const char *name;

	info.held = (int)evt_wire_get_u32(w);
	name = evt_wire_get_str(w);
	info.trigger = evt_wire_get_str(w);
	info.event = evt_wire_get_str(w);
	info.pid = evt_wire_get_u32(w);
	info.tid = evt_wire_get_u32(w);
	info.fired_ns = (int64_t)evt_wire_get_u64(w);
	info.why = evt_wire_get_str(w);
	if (w->bad || !c->window_cb)
		return;
	if (name[0]) {
		snprintf(dir, sizeof(dir), "%s/%s", c->remote_dir, name);
		info.dir = dir;
	}
	if (!info.why[0])
		info.why = NULL;
	c->window_cb(&info, c->window_ctx);
}

/* A data frame of evtraced's answer, to the caller's callback. */
static void remote_frame(char kind, struct evt_wire *w, void *ctx)
{
	struct handing *h = ctx;
	struct evt_consumer_record r;
	uint32_t id = 0;
	uint64_t count = 0;
	const char *path, *format = NULL;

	if (kind == 'r' && h->record_cb) {
		if (!evt_wire_get_record(w, &r, h->c->fields, EVT_FIELDS_MAX))
			h->record_cb(&r, h->ctx);
		return;
	}
	if (kind == 'w' && h->c->remote_dir) {
		remote_window(h->c, w);
		return;
	}
	if (kind == 'm') {	/* the daemon's consumer said it */
		evt_report("%.*s", (int)(w->cap > 4096 ? 4096 : w->cap), w->buf);
		return;
	}
	if (kind == 's' && h->relay_stats) {
		struct evt_consumer_relay_stats *s = h->relay_stats;

		s->sessions = evt_wire_get_u32(w);
		s->packets = evt_wire_get_u64(w);
		s->refused = evt_wire_get_u64(w);
		s->queued = evt_wire_get_u64(w);
		s->lost = evt_wire_get_u64(w);
		return;
	}
	id = evt_wire_get_u32(w);
	if (kind == 'c')
		count = evt_wire_get_u64(w);
	path = evt_wire_get_str(w);
	if (kind == 'v')
		format = evt_wire_get_str(w);
	if (w->bad)
		return;
	if (kind == 'v' && h->event_cb)
		h->event_cb(id, path, format, h->ctx);
	else if (kind == 'c' && h->count_cb)
		h->count_cb(id, path, count, h->ctx);
}

static int remote(struct evt_consumer *c, enum evt_verb verb,
		  const struct handing *h, char *err, size_t err_size)
{
	struct evt_request r = { .verb = verb };
	struct handing copy = *h;

	copy.c = c;
	return evt_remote_call(c->sock, &r, remote_frame, &copy, err, err_size);
}

static int events_engine(struct evt_consumer *c, evt_consumer_event_cb cb,
			void *ctx)
{
	char err[256];

	if (c->sock >= 0)
		return remote(c, EVT_VERB_EVENTS,
			      &(struct handing){ .event_cb = cb, .ctx = ctx },
			      err, sizeof(err));
	if (c->stream)
		return evt_live_stream_events(c->stream, cb, ctx);
	return evt_collection_events(c->coll, cb, ctx);
}

int evt_consumer_fd(struct evt_consumer *c)
{
	return c->timer_fd;
}

static void hand_over(const struct evt_live_event *e, void *ctx)
{
	struct evt_consumer *c = ctx;
	struct evt_consumer_record r = {
		.id = e->id, .path = e->path, .format = e->format,
		.time_ns = e->monotonic_ns, .pid = e->pid, .tid = e->tid,
		.cpu = e->cpu, .comm = e->comm, .lost = e->lost,
		.text = e->text, .text_len = e->text_len,
	};
	int n;

	if (e->path && e->layout) {
		n = evt_record_fields(e->layout, e->payload, e->payload_size,
				      c->fields, c->names);
		if (n > 0) {
			r.fields = c->fields;
			r.nfields = (unsigned)n;
		}
	}
	c->cb(&r, c->ctx);
}

static void drain_timer(struct evt_consumer *c)
{
	uint64_t ticks;

	if (read(c->timer_fd, &ticks, sizeof(ticks)) < 0 && errno != EAGAIN)
		return;
}

static int read_engine(struct evt_consumer *c, evt_consumer_record_cb cb,
		      void *ctx, char *err, size_t err_size)
{
	int n;

	if (c->mode == EVT_CONSUMER_COUNT)
		return snprintf(err, err_size, "a counting consumer has no records: "
				"evt_consumer_counts()"), -1;
	drain_timer(c);
	if (c->sock >= 0)
		return remote(c, EVT_VERB_READ,
			      &(struct handing){ .record_cb = cb, .ctx = ctx },
			      err, err_size);
	if (c->mode == EVT_CONSUMER_RELAY || c->mode == EVT_CONSUMER_FLIGHT) {
		if (evt_collection_poll(c->coll, err, err_size) < 0)
			return -1;
		if (c->triggers)
			evt_triggers_poll(c->triggers);
		return (int)evt_collection_running(c->coll);
	}
	c->cb = cb;
	c->ctx = ctx;
	n = evt_live_stream_poll(c->stream, hand_over, c);
	/* More than a poll takes is waiting (and a writer may be blocked on
	 * it): the fd is readable again at once, not at the next tick. */
	if (evt_live_stream_more(c->stream))
		timerfd_settime(c->timer_fd, 0, &(struct itimerspec){
			{ 0, CONSUMER_TICK_MS * 1000000 }, { 0, 1 } }, NULL);
	return n;
}

static int counts_engine(struct evt_consumer *c, evt_consumer_count_cb cb,
			void *ctx, char *err, size_t err_size)
{
	if (c->mode != EVT_CONSUMER_COUNT)
		return snprintf(err, err_size, "a %s consumer counts nothing: "
				"evt_consumer_read()", c->mode == EVT_CONSUMER_RELAY ?
				"relay" : c->mode == EVT_CONSUMER_FLIGHT ? "flight" :
				"recording"), -1;
	drain_timer(c);
	if (c->sock >= 0)
		return remote(c, EVT_VERB_COUNTS,
			      &(struct handing){ .count_cb = cb, .ctx = ctx },
			      err, err_size);
	if (evt_collection_poll(c->coll, err, err_size) < 0 ||
	    evt_collection_counts(c->coll, cb, ctx))
		return -1;
	return (int)evt_collection_running(c->coll);
}

int evt_consumer_relay_stats(struct evt_consumer *c,
			     struct evt_consumer_relay_stats *s, char *err,
			     size_t err_size)
{
	struct evt_collection_stats cs;
	uint32_t size;

	if (c->mode != EVT_CONSUMER_RELAY)
		return snprintf(err, err_size, "not a relay consumer"), -1;
	if (!s || s->size < sizeof(*s))
		return snprintf(err, err_size, "bad size"), -1;
	size = s->size;
	memset(s, 0, size);
	s->size = size;
	if (c->sock >= 0)
		return remote(c, EVT_VERB_RELAY_STATS,
			      &(struct handing){ .relay_stats = s }, err, err_size);
	evt_collection_progress(c->coll, &cs);
	s->sessions = cs.relay_sessions;
	s->packets = cs.relay_packets;
	s->refused = cs.relay_refused;
	s->queued = cs.relay_unsent;
	s->lost = cs.lost + cs.lost_unbuffered;
	return 0;
}

/* A window through evtraced: dir made here, empty, and handed over;
 * removed again when the daemon could not write it. */
static int remote_window_engine(struct evt_consumer *c, const char *dir,
				uint64_t before_ns, char *err, size_t err_size)
{
	struct evt_request r = {
		.verb = EVT_VERB_WINDOW, .has_before = before_ns != 0,
		.before_ns = before_ns,
	};
	int fd, ret;

	if (before_ns > 3600000000000ULL)
		return snprintf(err, err_size, "before_ns: an hour at most through "
				"evtraced"), -1;
	if (mkdir(dir, 0700))
		return snprintf(err, err_size, "%s: %s", dir, errno == EEXIST ?
				"exists (a window is never written into a "
				"directory that does)" : strerror(errno)), -1;
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, err_size, "%s: %s", dir, strerror(errno));
		rmdir(dir);
		return -1;
	}
	ret = evt_remote_call_fd(c->sock, &r, fd, remote_frame,
				 &(struct handing){ .c = c }, err, err_size);
	close(fd);
	if (ret < 0)
		rmdir(dir);	/* (the daemon leaves nothing of a half window) */
	return ret < 0 ? -1 : 0;
}

/* A window of a flight consumer: a snapshot of its own collection, into
 * dir, which must not exist, or (existing) must be an empty directory. */
static int window_engine(struct evt_consumer *c, const char *dir, bool existing,
			 uint64_t before_ns, char *err, size_t err_size)
{
	struct evt_collection_opts o = {
		.output = dir, .rundir = c->rundir, .mode = EVT_MODE_OVERWRITE,
		.packet_size = EVT_PACKET_DEFAULT_BYTES,
		.packet_count = EVT_PACKETS_DEFAULT, .snapshot = true,
	};
	char what[sizeof(c->what) + 16];
	struct evt_collection *w = NULL;
	struct timespec now;
	struct stat st;

	if (c->mode != EVT_CONSUMER_FLIGHT)
		return snprintf(err, err_size, "not a flight consumer: a window "
				"is of a flight recorder (EVT_CONSUMER_FLIGHT)"), -1;
	if (!dir || !*dir)
		return snprintf(err, err_size, "no directory for the window"), -1;
	if (c->sock >= 0)
		return remote_window_engine(c, dir, before_ns, err, err_size);
	if (!existing && lstat(dir, &st) == 0)
		return snprintf(err, err_size, "%s: exists (a window is never "
				"written into a directory that does)", dir), -1;
	if (!existing && errno != ENOENT)
		return snprintf(err, err_size, "%s: %s", dir, strerror(errno)), -1;
	if (before_ns) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		o.snapshot_since_ns = (int64_t)now.tv_sec * 1000000000 + now.tv_nsec -
				      (before_ns > INT64_MAX / 2 ? INT64_MAX / 2 :
				       (int64_t)before_ns);
		if (o.snapshot_since_ns <= 0)
			o.snapshot_since_ns = 0;
	}
	snprintf(what, sizeof(what), "a window of %s", c->what);
	o.what = what;
	o.adopt_slot = evt_collection_number(c->coll);
	/* Processes started since the last read are in the window too. */
	if (evt_collection_poll(c->coll, err, err_size) < 0 ||
	    evt_collection_create(&o, &w, err, err_size) ||
	    evt_collection_finish(w, NULL, err, err_size)) {
		evt_collection_destroy(w);
		return -1;
	}
	evt_collection_destroy(w);
	return 0;
}

/* The tool's window callback, given what the triggers say of one. */
static void window_written(const struct evt_triggers_window *w, void *ctx)
{
	struct evt_consumer *c = ctx;
	struct evt_consumer_window_info info = {
		.size = sizeof(info), .held = w->held, .dir = w->dir,
		.trigger = w->trigger, .event = w->event, .pid = w->pid,
		.tid = w->tid, .fired_ns = w->fired_ns, .why = w->why,
	};

	c->window_cb(&info, c->window_ctx);
}

static void disarm(struct evt_consumer *c)
{
	unsigned k;

	evt_triggers_finish(c->triggers);	/* (the windows still due) */
	c->triggers = NULL;
	for (k = 0; k < c->nexprs; k++)
		evt_trigger_free(c->exprs[k]);
	free(c->exprs);
	c->exprs = NULL;
	c->nexprs = 0;
}

#define ARM_MAX_EXPRS 64

static uint64_t lost_now(void *coll)
{
	return evt_collection_lost_now(coll);
}

/* Arms the triggers of t in evtraced's consumer: their windows go into
 * t->dir, handed over as an fd, and come back as 'w' frames (t->window)
 * or its messages. */
static int remote_arm(struct evt_consumer *c, const struct evt_consumer_triggers *t,
		      char *err, size_t err_size)
{
	struct evt_request r = {
		.verb = EVT_VERB_ARM, .ntriggers = t->nexprs,
		.has_after = t->after_ns != 0, .after_ns = t->after_ns,
		.has_before = t->before_ns != 0, .before_ns = t->before_ns,
		.max_windows = t->max_windows, .window_frames = t->window != NULL,
		.dir = t->dir,
	};
	uint32_t k;
	int fd, ret;

	if (t->nexprs > EVT_PROTO_MAX_TRIGGERS)
		return snprintf(err, err_size, "%u expressions: through evtraced, %d "
				"at most", t->nexprs, EVT_PROTO_MAX_TRIGGERS), -1;
	if (t->before_ns > 3600000000000ULL)
		return snprintf(err, err_size, "before_ns: an hour at most through "
				"evtraced"), -1;
	if (strchr(t->dir, '\n') || strlen(t->dir) >= 4096)
		return snprintf(err, err_size, "%s: not a name evtraced takes", t->dir), -1;
	for (k = 0; k < t->nexprs; k++)
		r.triggers[k] = t->exprs[k];
	if (!(c->remote_dir = strdup(t->dir)))
		return snprintf(err, err_size, "out of memory"), -1;
	fd = open(t->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, err_size, "%s: %s", t->dir, strerror(errno));
		ret = -1;
	} else {
		ret = evt_remote_call_fd(c->sock, &r, fd, remote_frame,
					 &(struct handing){ .c = c }, err, err_size);
		close(fd);
	}
	if (ret < 0) {
		free(c->remote_dir);
		c->remote_dir = NULL;
		return -1;
	}
	c->window_cb = t->window;
	c->window_ctx = t->window_ctx;
	return 0;
}

static int arm_engine(struct evt_consumer *c, const struct evt_consumer_triggers *t,
		      const char *dir_name, char *err, size_t err_size)
{
	struct evt_triggers_opts o = { .who = "consumer" };
	char what[sizeof(c->what) + 32];
	struct stat st;
	uint32_t k;

	if (c->mode != EVT_CONSUMER_FLIGHT)
		return snprintf(err, err_size, "not a flight consumer: triggers write "
				"windows of a flight recorder (EVT_CONSUMER_FLIGHT)"), -1;
	if (c->triggers || c->remote_dir)
		return snprintf(err, err_size, "armed already: arm every trigger "
				"in one call"), -1;
	if (!t || t->size < offsetof(struct evt_consumer_triggers, window_ctx) +
			    sizeof(t->window_ctx))
		return snprintf(err, err_size, "bad size"), -1;
	if (!t->exprs || t->nexprs < 1 || t->nexprs > ARM_MAX_EXPRS)
		return snprintf(err, err_size, "1 to %d expressions", ARM_MAX_EXPRS), -1;
	if (t->max_windows > 10000)
		return snprintf(err, err_size, "max_windows %u: at most 10000",
				t->max_windows), -1;
	if (t->before_ns > INT64_MAX / 4 || t->after_ns > 3600000000000ULL)
		return snprintf(err, err_size, "before_ns or after_ns out of range "
				"(after_ns: an hour at most)"), -1;
	if (!t->dir || !*t->dir)
		return snprintf(err, err_size, "no directory for the windows"), -1;
	if (stat(t->dir, &st))
		return snprintf(err, err_size, "%s: %s", t->dir, strerror(errno)), -1;
	if (!S_ISDIR(st.st_mode))
		return snprintf(err, err_size, "%s: not a directory", t->dir), -1;
	if (!(c->exprs = calloc(t->nexprs, sizeof(*c->exprs))))
		return snprintf(err, err_size, "out of memory"), -1;
	for (k = 0; k < t->nexprs; k++) {
		if (!t->exprs[k]) {
			snprintf(err, err_size, "expression %u is NULL", k);
			goto fail;
		}
		if (!(c->exprs[c->nexprs] = evt_trigger_parse(t->exprs[k], err, err_size)))
			goto fail;
		if (c->exprs[c->nexprs++]->kernel) {
			snprintf(err, err_size, "--trigger '%s': kernel events in a "
				 "consumer's triggers are not yet supported (evtrace "
				 "record --trigger takes them)", t->exprs[k]);
			goto fail;
		}
	}
	if (c->sock >= 0) {	/* (checked here, evaluated by the daemon) */
		int ret = remote_arm(c, t, err, err_size);

		disarm(c);
		return ret;
	}
	snprintf(what, sizeof(what), "the triggers of %s", c->what);
	o.triggers = (const struct evt_trigger *const *)c->exprs;
	o.ntriggers = c->nexprs;
	o.what = what;
	o.rundir = c->rundir;
	o.outdir = t->dir;
	o.outdir_name = dir_name;
	o.slot = evt_collection_number(c->coll);
	o.calibration = evt_collection_calibration(c->coll);
	o.after_ns = (int64_t)t->after_ns;
	o.before_ns = (int64_t)t->before_ns;
	o.max_windows = t->max_windows ? t->max_windows : 5;
	o.lost_now = lost_now;
	o.recorder = c->coll;
	c->window_cb = t->window;
	c->window_ctx = t->window_ctx;
	o.on_window = t->window ? window_written : NULL;
	o.on_window_ctx = c;
	if (!(c->triggers = evt_triggers_start(&o, c->pid, err, err_size)))
		goto fail;
	return 0;
fail:
	disarm(c);
	return -1;
}

static void close_engine(struct evt_consumer *c)
{
	char err[256];

	if (!c)
		return;
	disarm(c);
	if (c->coll)
		evt_collection_finish(c->coll, NULL, err, sizeof(err));
	evt_collection_destroy(c->coll);
	evt_live_stream_destroy(c->stream);
	if (c->timer_fd >= 0)
		close(c->timer_fd);
	if (c->sock >= 0 && c->remote_dir) {
		/* The daemon writes the windows still due and says what
		 * fired: frames before its answer. */
		struct evt_request stop = { .verb = EVT_VERB_STOP };

		evt_remote_call(c->sock, &stop, remote_frame,
				&(struct handing){ .c = c }, err, sizeof(err));
	}
	if (c->sock >= 0)
		close(c->sock);		/* the daemon ends the session */
	free(c->remote_dir);
	free(c);
}

/* A public call: call, with the engine's messages meanwhile going to the
 * consumer's callback. */
#define REPORTING(c, call) __extension__ ({				\
	struct evt_report_to was__ = evt_report_thread((c)->report);	\
	__typeof__(call) ret__ = (call);				\
	evt_report_thread(was__);					\
	ret__;								\
})

int evt_consumer_open(const struct evt_consumer_attr *attr,
		      struct evt_consumer **out, char *err, size_t err_size)
{
	struct evt_report_to to = { NULL, NULL }, was;
	int ret;

	/* (0.1.4 added the callback: a smaller attr is one from before) */
	if (attr && attr->size >= offsetof(struct evt_consumer_attr, report_ctx) +
				  sizeof(attr->report_ctx)) {
		to.cb = attr->report;
		to.ctx = attr->report_ctx;
	}
	was = evt_report_thread(to);
	ret = open_engine(attr, out, err, err_size);
	if (*out)
		(*out)->report = to;
	evt_report_thread(was);
	return ret;
}

static int rate_engine(struct evt_consumer *c, const char *pattern,
		       uint32_t rate, char *err, size_t err_size)
{
	char why[200];

	if (evt_pattern_check(pattern, why, sizeof(why)))
		return snprintf(err, err_size, "pattern '%s': %s", pattern, why), -1;
	if (rate > EVT_RATE_MAX)
		return snprintf(err, err_size, "rate %u: at most %u", rate,
				EVT_RATE_MAX), -1;
	if (c->sock >= 0) {
		struct evt_request r = {
			.verb = EVT_VERB_SET_RATE, .events = { pattern }, .nevents = 1,
			.has_rate = true, .rate = rate,
		};

		return evt_remote_call(c->sock, &r, NULL, NULL, err, err_size);
	}
	if (c->stream)
		return evt_live_stream_set_rate(c->stream, pattern, rate, err,
						err_size);
	return evt_collection_set_rate(c->coll, pattern, rate, err, err_size);
}

int evt_consumer_set_rate(struct evt_consumer *c, const char *pattern,
			  uint32_t rate, char *err, size_t err_size)
{
	return REPORTING(c, rate_engine(c, pattern, rate, err, err_size));
}

int evt_consumer_add(struct evt_consumer *c, const char *pattern, char *err,
		     size_t err_size)
{
	return REPORTING(c, add_engine(c, pattern, err, err_size));
}

int evt_consumer_add_id(struct evt_consumer *c, uint32_t id, char *err,
			size_t err_size)
{
	return REPORTING(c, add_id_engine(c, id, err, err_size));
}

int evt_consumer_remove(struct evt_consumer *c, const char *pattern, char *err,
			size_t err_size)
{
	return REPORTING(c, remove_engine(c, pattern, err, err_size));
}

int evt_consumer_remove_id(struct evt_consumer *c, uint32_t id, char *err,
			   size_t err_size)
{
	return REPORTING(c, remove_id_engine(c, id, err, err_size));
}

int evt_consumer_events(struct evt_consumer *c, evt_consumer_event_cb cb,
			void *ctx)
{
	return REPORTING(c, events_engine(c, cb, ctx));
}

int evt_consumer_read(struct evt_consumer *c, evt_consumer_record_cb cb,
		      void *ctx, char *err, size_t err_size)
{
	return REPORTING(c, read_engine(c, cb, ctx, err, err_size));
}

int evt_consumer_window(struct evt_consumer *c, const char *dir,
			uint64_t before_ns, char *err, size_t err_size)
{
	return REPORTING(c, window_engine(c, dir, false, before_ns, err, err_size));
}

int evt_served_consumer_window(struct evt_consumer *c, const char *dir,
			       uint64_t before_ns, char *err, size_t err_size)
{
	return REPORTING(c, window_engine(c, dir, true, before_ns, err, err_size));
}

int evt_consumer_arm(struct evt_consumer *c, const struct evt_consumer_triggers *t,
		     char *err, size_t err_size)
{
	return REPORTING(c, arm_engine(c, t, NULL, err, err_size));
}

int evt_served_consumer_arm(struct evt_consumer *c,
			    const struct evt_consumer_triggers *t,
			    const char *dir_name, char *err, size_t err_size)
{
	return REPORTING(c, arm_engine(c, t, dir_name, err, err_size));
}

int evt_consumer_counts(struct evt_consumer *c, evt_consumer_count_cb cb,
			void *ctx, char *err, size_t err_size)
{
	return REPORTING(c, counts_engine(c, cb, ctx, err, err_size));
}

void evt_consumer_close(struct evt_consumer *c)
{
	struct evt_report_to was;

	if (!c)
		return;
	was = evt_report_thread(c->report);
	close_engine(c);
	evt_report_thread(was);
}
