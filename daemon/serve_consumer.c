/*
 * serve_consumer.c - a consumer.h session for a client of evtraced: the
 * consumer runs here, in the client's process of the daemon, and each of
 * the client's calls is a request answered with frames.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <evtrace/consumer.h>

#include "ctl.h"
#include "permission.h"
#include "policy.h"
#include "protocol.h"
#include "serve_consumer.h"

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
	struct evt_consumer *c;
	struct evt_request r;
	char name[200], err[1024];
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
	if (s->restricted && !s->count)
		evt_policy_cap_any_only();
	if (evt_consumer_open(&attr, &c, err, sizeof(err))) {
		fail(s->sock, err);
		return;
	}
	sigaction(SIGTERM, &term, NULL);
	answer(s->sock, 0);
	while (!out.broken && next_request(s->sock) &&
	       (n = evt_proto_recv(s->sock, body, NULL, 10000, err, sizeof(err))) >= 0) {
		int ret;

		if (evt_proto_parse(body, (size_t)n, &r, err, sizeof(err))) {
			fail(s->sock, err);
			continue;
		}
		switch (r.verb) {
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
		case EVT_VERB_STOP:
			out.broken = true;
			break;
		default:
			fail(s->sock, "not a request of a consumer session");
			break;
		}
	}
	free(out.w.buf);
	evt_consumer_close(c);
}
