/*
 * serve_consumer.c - a consumer.h session for a client of evtraced: the
 * consumer runs here, in the client's process of the daemon, and each of
 * the client's calls is a request answered with frames.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <evtrace/consumer.h>

#include "ctl.h"
#include "permission.h"
#include "policy.h"
#include "protocol.h"
#include "audit.h"
#include "consumer_served.h"
#include "serve.h"
#include "serve_consumer.h"
#include "trigger_expr.h"

static void answer(int sock, int result)
{
	char text[16];
	int n = snprintf(text, sizeof(text), "%d", result);

	evt_proto_send_kind(sock, 'a', text, (size_t)n);
}

static void fail(int sock, const char *err)
{
	evt_proto_send_kind(sock, 'e', err, strlen(err));
}

/* Sends the wire as one frame of kind; counts what could not be sent. */
static void send_wire(int sock, char kind, struct evt_wire *w, bool *broken)
{
	if (*broken || w->bad || !w->len)
		goto out;
	w->buf[0] = kind;
	if (evt_proto_send(sock, w->buf, w->len, -1))
		*broken = true;
out:
	w->len = 0;
	w->bad = false;
}

struct sending {
	int sock;
	struct evt_wire w;
	bool broken;
	const char *path;		/* looked for by id */
	uint32_t id;
};

static void send_record(const struct evt_consumer_record *r, void *ctx)
{
	struct sending *s = ctx;

	evt_wire_u8(&s->w, 0);		/* room for the kind */
	evt_wire_record(&s->w, r);
	send_wire(s->sock, 'r', &s->w, &s->broken);
}

static void send_event(uint32_t id, const char *path, const char *format,
		       void *ctx)
{
	struct sending *s = ctx;

	if (s->path == NULL && s->id == id)
		s->path = path;		/* by_id() looks */
	if (s->sock < 0)
		return;
	evt_wire_u8(&s->w, 0);
	evt_wire_u32(&s->w, id);
	evt_wire_str(&s->w, path);
	evt_wire_str(&s->w, format);
	send_wire(s->sock, 'v', &s->w, &s->broken);
}

static void send_relay_stats(struct evt_session *s, struct evt_consumer *c,
			     struct sending *out)
{
	struct evt_consumer_relay_stats st = { .size = sizeof(st) };
	char err[256];

	if (evt_consumer_relay_stats(c, &st, err, sizeof(err)))
		return fail(s->sock, err);
	evt_wire_u8(&out->w, 0);
	evt_wire_u32(&out->w, st.sessions);
	evt_wire_u64(&out->w, st.packets);
	evt_wire_u64(&out->w, st.refused);
	evt_wire_u64(&out->w, st.queued);
	evt_wire_u64(&out->w, st.lost);
	send_wire(s->sock, 's', &out->w, &out->broken);
	answer(s->sock, 0);
}

static void send_count(uint32_t id, const char *path, uint64_t count, void *ctx)
{
	struct sending *s = ctx;

	evt_wire_u8(&s->w, 0);
	evt_wire_u32(&s->w, id);
	evt_wire_u64(&s->w, count);
	evt_wire_str(&s->w, path);
	send_wire(s->sock, 'c', &s->w, &s->broken);
}

/* For a client without privilege: 0 when the pattern takes only CAP_ANY
 * events of the process, else -1 with the refusal in err. */
static int may_add(struct evt_session *s, const char *pattern, char *err,
		   size_t err_size)
{
	const struct evt_ctl_event *e;

	if (evt_ctl_refresh(s->ctl, err, err_size))
		return -1;
	e = evt_uncapped_event(s->ctl, pattern);
	if (e)
		evt_refuse_fields(s->info, s->ctl->h.pid, evt_ctl_optin_gid(s->ctl),
				  e->path, err, err_size);
	return e ? -1 : 0;
}

static void select_events(struct evt_session *s, struct evt_consumer *c,
			  const struct evt_request *r)
{
	struct sending by_id = { .sock = -1, .id = r->id };
	const char *pattern = r->nevents ? r->events[0] : NULL;
	bool add = r->verb == EVT_VERB_ADD;
	char err[1024];
	int n;

	if (add && s->restricted && !pattern) {
		evt_consumer_events(c, send_event, &by_id);
		if (by_id.path && may_add(s, by_id.path, err, sizeof(err)))
			return fail(s->sock, err);
	} else if (add && s->restricted && may_add(s, pattern, err, sizeof(err))) {
		return fail(s->sock, err);
	}
	if (pattern)
		n = add ? evt_consumer_add(c, pattern, err, sizeof(err)) :
			  evt_consumer_remove(c, pattern, err, sizeof(err));
	else
		n = add ? evt_consumer_add_id(c, r->id, err, sizeof(err)) :
			  evt_consumer_remove_id(c, r->id, err, sizeof(err));
	if (n < 0)
		return fail(s->sock, err);
	answer(s->sock, n);
}

/* A flight session's state: its windows' directory (an fd the client
 * handed over) and what was said to the client. */
struct flight {
	struct evt_session *s;
	struct sending *out;
	int dir_fd;			/* arm's DIR, kept open; -1: none */
	char dir_path[32];		/* /proc/self/fd/N */
	char dir_name[4096];		/* the client's name for it */
};

/* The consumer's messages go to the client as 'm' frames. */
static void send_message(const char *message, void *ctx)
{
	struct sending *out = ctx;

	if (!out->broken && evt_proto_send_kind(out->sock, 'm', message, strlen(message)))
		out->broken = true;
}

/* A directory the client handed over: its own, not writable by others
 * (the worker creates files in it as the client, but past permissions). */
static int client_dir(struct evt_session *s, int fd, char *err, size_t err_size)
{
	struct stat st;

	if (fd < 0)
		return snprintf(err, err_size, "no directory came with the request"), -1;
	if (fstat(fd, &st) || !S_ISDIR(st.st_mode) || st.st_uid != s->uid)
		return snprintf(err, err_size, "the directory handed over is not a "
				"directory of uid %u's", (unsigned)s->uid), -1;
	if (st.st_mode & (S_IWGRP | S_IWOTH))
		return snprintf(err, err_size, "the directory handed over is "
				"writable by others (mode %04o)",
				(unsigned)(st.st_mode & 07777)), -1;
	return 0;
}

/* verb window: written into the (empty) directory that came with it. */
static void window(struct flight *f, struct evt_consumer *c,
		   const struct evt_request *r, int fd)
{
	char path[64], err[1024];

	if (client_dir(f->s, fd, err, sizeof(err)))
		return fail(f->s->sock, err);
	snprintf(path, sizeof(path), "/proc/self/fd/%d/.", fd);
	if (evt_served_consumer_window(c, path, r->before_ns, err, sizeof(err)) == 0)
		return answer(f->s->sock, 0);
	fail(f->s->sock, err);
}

/* A window the triggers wrote, or could not: a 'w' frame. */
static void send_window(const struct evt_consumer_window_info *w, void *ctx)
{
	struct flight *f = ctx;
	const char *name = "";
	size_t n = strlen(f->dir_path);

	if (w->dir && !strncmp(w->dir, f->dir_path, n) && w->dir[n] == '/')
		name = w->dir + n + 1;
	evt_wire_u8(&f->out->w, 0);
	evt_wire_u32(&f->out->w, (uint32_t)w->held);
	evt_wire_str(&f->out->w, name);
	evt_wire_str(&f->out->w, w->trigger ? w->trigger : "");
	evt_wire_str(&f->out->w, w->event ? w->event : "");
	evt_wire_u32(&f->out->w, w->pid);
	evt_wire_u32(&f->out->w, w->tid);
	evt_wire_u64(&f->out->w, (uint64_t)w->fired_ns);
	evt_wire_str(&f->out->w, w->why ? w->why : "");
	send_wire(f->s->sock, 'w', &f->out->w, &f->out->broken);
}

/* verb arm: the triggers, on events the client may take. */
static void arm(struct flight *f, struct evt_consumer *c,
		const struct evt_request *r, int *fd)
{
	struct evt_consumer_triggers t = {
		.size = sizeof(t), .max_windows = r->max_windows,
		.exprs = r->triggers, .nexprs = r->ntriggers,
		.before_ns = r->before_ns, .after_ns = r->after_ns,
		.window = r->window_frames ? send_window : NULL, .window_ctx = f,
	};
	char err[1200];
	unsigned k;

	if (client_dir(f->s, *fd, err, sizeof(err))) {
		evt_audit(f->s->peer, "refused: %s", err);
		return fail(f->s->sock, err);
	}
	if (f->dir_fd >= 0)
		return fail(f->s->sock, "armed already: arm every trigger in one call");
	for (k = 0; f->s->restricted && k < r->ntriggers; k++) {
		struct evt_trigger *e = evt_trigger_parse(r->triggers[k], err, sizeof(err));
		int refused = !e ? -1 : e->pattern && may_add(f->s, e->pattern, err,
							       sizeof(err));

		evt_trigger_free(e);
		if (refused) {
			evt_audit(f->s->peer, "refused: %s", err);
			return fail(f->s->sock, err);
		}
	}
	snprintf(f->dir_path, sizeof(f->dir_path), "/proc/self/fd/%d", *fd);
	snprintf(f->dir_name, sizeof(f->dir_name), "%s", r->dir ? r->dir : f->dir_path);
	t.dir = f->dir_path;
	for (k = 0; k < r->ntriggers; k++)	/* (no control characters) */
		evt_audit(f->s->peer, "arms --trigger '%s' in pid %d", r->triggers[k],
			  (int)f->s->ctl->h.pid);
	if (evt_served_consumer_arm(c, &t, f->dir_name, err, sizeof(err))) {
		evt_audit(f->s->peer, "refused: %s", err);
		return fail(f->s->sock, err);
	}
	f->dir_fd = *fd;
	*fd = -1;		/* kept: the windows go there */
	answer(f->s->sock, 0);
}

/* verb set-rate: a rate caps the sites for every reader of the process. */
static void set_rate(struct evt_session *s, struct evt_consumer *c,
		     const struct evt_request *r)
{
	char err[1024];
	int n;

	evt_audit(s->peer, "asks set-rate %s %u in pid %d", r->events[0], r->rate,
		  (int)s->ctl->h.pid);
	if (s->restricted) {
		const char *why = "a rate caps a site for every reader of the "
				  "process, its owner's too: it needs privilege "
				  "towards the process";

		evt_audit(s->peer, "refused: %s", why);
		return fail(s->sock, why);
	}
	n = evt_consumer_set_rate(c, r->events[0], r->rate, err, sizeof(err));
	n < 0 ? fail(s->sock, err) : answer(s->sock, n);
}

/* The daemon stopping: the session ends, its consumer closed. */
static volatile sig_atomic_t stopping;

static void on_term(int sig)
{
	(void)sig;
	stopping = 1;
}

/* Waits for the client's next request; false when it is time to end. */
static bool next_request(int sock)
{
	struct pollfd p = { .fd = sock, .events = POLLIN };

	while (!stopping) {
		int n = poll(&p, 1, 500);

		if (n > 0)
			return true;
		if (n < 0 && errno != EINTR)
			return false;
	}
	return false;
}

void evt_serve_consumer(struct evt_session *s)
{
	struct sigaction term = { .sa_handler = on_term };
	static char body[EVT_PROTO_MAX_BODY + 1];
	struct evt_consumer_attr attr = {
		.size = sizeof(attr), .pid = (int)s->ctl->h.pid, .rundir = s->rundir,
		.mode = s->count ? EVT_CONSUMER_COUNT : EVT_CONSUMER_RECORD,
	};
	struct sending out = { .sock = s->sock };
	struct flight flight = { .s = s, .out = &out, .dir_fd = -1 };
	struct evt_consumer *c;
	struct evt_request r;
	char name[200], err[1024];
	bool stop = false;
	int fd = -1;
	long n;

	snprintf(name, sizeof(name), "evtraced for uid %u (pid %d)",
		 (unsigned)s->uid, (int)s->client_pid);
	attr.name = name;
	if (s->req->block_us)
		attr.block_ms = s->req->block_us == EVT_BLOCK_INF ?
				EVT_CONSUMER_BLOCK_INF : (s->req->block_us + 999) / 1000;
	if (s->req->relay) {	/* checked by evt_proto_parse */
		attr.mode = EVT_CONSUMER_RELAY;
		attr.relay = s->req->relay;
		attr.relay_session = s->req->session;
		attr.relay_hostname = s->req->hostname;
		attr.relay_buffer_mib = s->req->relay_buffer_mib;
	}
	if (s->req->overwrite) {
		/* Flight mode: its windows are the client's files, in
		 * directories it hands over; what its consumer says (what
		 * fired) is the client's to read. */
		attr.mode = EVT_CONSUMER_FLIGHT;
		attr.report = send_message;
		attr.report_ctx = &out;
		evt_policy_output_owner(s->uid);
		if (evt_act_as_client(s->uid, s->gid, err, sizeof(err))) {
			fail(s->sock, err);
			return;
		}
	}
	if (s->restricted && !s->count)
		evt_policy_cap_any_only();
	if (evt_consumer_open(&attr, &c, err, sizeof(err))) {
		fail(s->sock, err);
		return;
	}
	sigaction(SIGTERM, &term, NULL);
	answer(s->sock, 0);
	while (!out.broken && !stop && next_request(s->sock) &&
	       (n = evt_proto_recv(s->sock, body, &fd, 10000, err, sizeof(err))) >= 0) {
		int ret;

		if (evt_proto_parse(body, (size_t)n, &r, err, sizeof(err))) {
			fail(s->sock, err);
		} else switch (r.verb) {
		case EVT_VERB_ADD:
		case EVT_VERB_REMOVE:
			select_events(s, c, &r);
			break;
		case EVT_VERB_EVENTS:
			ret = evt_consumer_events(c, send_event, &out);
			answer(s->sock, ret);
			break;
		case EVT_VERB_READ:
			ret = evt_consumer_read(c, send_record, &out, err, sizeof(err));
			ret < 0 ? fail(s->sock, err) : answer(s->sock, ret);
			break;
		case EVT_VERB_COUNTS:
			ret = evt_consumer_counts(c, send_count, &out, err, sizeof(err));
			ret < 0 ? fail(s->sock, err) : answer(s->sock, ret);
			break;
		case EVT_VERB_RELAY_STATS:
			send_relay_stats(s, c, &out);
			break;
		case EVT_VERB_WINDOW:
			window(&flight, c, &r, fd);
			break;
		case EVT_VERB_ARM:
			arm(&flight, c, &r, &fd);
			break;
		case EVT_VERB_SET_RATE:
			set_rate(s, c, &r);
			break;
		case EVT_VERB_STOP:
			stop = true;
			break;
		default:
			fail(s->sock, "not a request of a consumer session");
			break;
		}
		if (fd >= 0)
			close(fd);
		fd = -1;
	}
	/* The windows still due are written, their frames sent, then the
	 * answer to stop. */
	evt_consumer_close(c);
	if (stop && !out.broken)
		answer(s->sock, 0);
	if (flight.dir_fd >= 0)
		close(flight.dir_fd);
	free(out.w.buf);
}
