/*
 * relay.c - a recording streamed to lttng-relayd (relay.h).
 *
 * The recorder's thread queues; this file's thread sends, with blocking
 * sockets that give up after EVT_RELAY_TIMEOUT_MS.  Only the queue, the
 * metadata text, the stream table and the messages are shared, under one
 * mutex; the connection is the sending thread's.
 */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "relay.h"
#include "relay_proto.h"
#include "report.h"
#include "trace_names.h"

#define RETRY_FIRST_MS	1000
#define RETRY_MAX_MS	8000
#define MESSAGES	8
/* Packets sent between two questions of what the relay wrote. */
#define CONFIRM_EVERY	64
/* When closing, how long the relay may take to say it wrote the last
 * packets before the session closes anyway (closing the streams after
 * them, which the relay honours once they are written). */
#define CLOSE_CONFIRM_MS 2000
#define TRACE_PATH	"trace"

enum item_kind { ITEM_PACKET, ITEM_HORIZON };

struct item {
	struct item *next;
	enum item_kind kind;
	int stream;
	uint32_t sent_in;		/* the session it was sent in; 0: not */
	uint64_t net_seq;		/* its number there */
	uint64_t ts;			/* ITEM_HORIZON */
	struct evt_relay_packet_info info;
	size_t len;
	uint8_t data[];
};

struct stream {
	char *name;
	uint64_t handle;		/* the relay's, in session added_in */
	uint32_t added_in;		/* 0: in no session */
	uint64_t net_seq;		/* the next packet's, in that session */
	uint32_t stream_class;
	uint64_t last_end;		/* timestamp_end of its last packet */
	bool sent;			/* a packet since the last horizon */
	uint64_t written;		/* packets the relay wrote, in that
					 * session (DATA_PENDING) */
};

struct evt_relay {
	char *host, *session, *hostname;
	unsigned port[2];		/* control, data */
	struct sockaddr_storage addr[2];
	socklen_t addr_len[2];
	size_t max_queued;
	uint32_t live_timer_us;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	/* Under lock.  From head to next: sent, not known written yet (a
	 * relay's reply to a packet's index says it has the index, not that
	 * its data thread wrote the data: a relay killed then loses it); from
	 * next on: not sent in this session. */
	struct item *head, *next, *tail;
	size_t queued;
	char *meta;
	size_t meta_len, meta_cap;
	struct stream **streams;	/* each made once, then the sender's */
	int nstreams, streams_cap;
	char msgs[MESSAGES][320];
	unsigned msg_first, msg_count;
	bool closing, abort, done;
	struct evt_relay_stats stats;
	/* The sending thread's (and finish's, once it is joined). */
	int fd[2];
	uint32_t session_no;		/* sessions made so far */
	uint64_t meta_handle;
	size_t meta_sent;
	char why[300];			/* what the last attempt met */
};

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void say(struct evt_relay *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void say(struct evt_relay *r, const char *fmt, ...)
{
	va_list ap;
	unsigned k;

	pthread_mutex_lock(&r->lock);
	if (r->msg_count < MESSAGES) {
		k = (r->msg_first + r->msg_count++) % MESSAGES;
		va_start(ap, fmt);
		vsnprintf(r->msgs[k], sizeof(r->msgs[k]), fmt, ap);
		va_end(ap);
	}
	pthread_mutex_unlock(&r->lock);
}

bool evt_relay_message(struct evt_relay *r, char *out, size_t out_size)
{
	bool any;

	pthread_mutex_lock(&r->lock);
	any = r->msg_count > 0;
	if (any) {
		snprintf(out, out_size, "%s", r->msgs[r->msg_first]);
		r->msg_first = (r->msg_first + 1) % MESSAGES;
		r->msg_count--;
	}
	pthread_mutex_unlock(&r->lock);
	return any;
}

/* ---- the connection (sending thread) ---- */

/* The fds change under the lock: finish() may shut them down. */
static void set_fd(struct evt_relay *r, int k, int fd)
{
	pthread_mutex_lock(&r->lock);
	if (r->fd[k] >= 0)
		close(r->fd[k]);
	r->fd[k] = fd;
	pthread_mutex_unlock(&r->lock);
}

static void disconnect(struct evt_relay *r)
{
	set_fd(r, 0, -1);
	set_fd(r, 1, -1);
}

static int set_blocking(int fd)
{
	int flags = fcntl(fd, F_GETFL);

	return flags < 0 ? -1 : fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
}

static int fail(struct evt_relay *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int fail(struct evt_relay *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->why, sizeof(r->why), fmt, ap);
	va_end(ap);
	return -1;
}

static int connect_one(struct evt_relay *r, int k)
{
	struct timeval tv = { EVT_RELAY_TIMEOUT_MS / 1000,
			      EVT_RELAY_TIMEOUT_MS % 1000 * 1000 };
	struct pollfd p;
	int fd, one = 1, soerr = 0;
	socklen_t len = sizeof(soerr);

	fd = socket(r->addr[k].ss_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return fail(r, "socket: %s", strerror(errno));
	if (connect(fd, (struct sockaddr *)&r->addr[k], r->addr_len[k]) &&
	    errno != EINPROGRESS) {
		soerr = errno;
	} else {
		p.fd = fd;
		p.events = POLLOUT;
		if (poll(&p, 1, EVT_RELAY_TIMEOUT_MS) != 1)
			soerr = ETIMEDOUT;
		else if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &len))
			soerr = errno;
	}
	if (soerr) {
		close(fd);
		return fail(r, "%s:%u: %s", r->host, r->port[k], strerror(soerr));
	}
	/* Blocking from now on, but never for longer than the timeout. */
	if (set_blocking(fd) ||
	    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)) ||
	    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) ||
	    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one))) {
		close(fd);
		return fail(r, "%s:%u: %s", r->host, r->port[k], strerror(errno));
	}
	set_fd(r, k, fd);
	return 0;
}

static int send_all(struct evt_relay *r, int k, struct iovec *v, int nv)
{
	while (nv) {
		struct msghdr mh = { .msg_iov = v, .msg_iovlen = (size_t)nv };
		ssize_t n = sendmsg(r->fd[k], &mh, MSG_NOSIGNAL);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN)
				return fail(r, "%s:%u took nothing for %d s",
					    r->host, r->port[k],
					    EVT_RELAY_TIMEOUT_MS / 1000);
			return fail(r, "%s:%u: %s", r->host, r->port[k],
				    strerror(errno));
		}
		while (nv && (size_t)n >= v->iov_len) {
			n -= (ssize_t)v->iov_len;
			v++;
			nv--;
		}
		if (nv) {
			v->iov_base = (uint8_t *)v->iov_base + n;
			v->iov_len -= (size_t)n;
		}
	}
	return 0;
}

static int recv_all(struct evt_relay *r, enum evt_relay_cmd cmd, void *buf,
		    size_t len)
{
	size_t got = 0;

	while (got < len) {
		ssize_t n = recv(r->fd[0], (uint8_t *)buf + got, len - got, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n == 0 || (n < 0 && errno == ECONNRESET))
			return fail(r, "%s:%u closed the connection before answering %s",
				    r->host, r->port[0], evt_relay_cmd_name(cmd));
		if (n < 0 && errno == EAGAIN)
			return fail(r, "%s:%u did not answer %s within %d s",
				    r->host, r->port[0], evt_relay_cmd_name(cmd),
				    EVT_RELAY_TIMEOUT_MS / 1000);
		if (n < 0)
			return fail(r, "%s:%u: %s", r->host, r->port[0],
				    strerror(errno));
		got += (size_t)n;
	}
	return 0;
}

/*
 * Sends m (then extra, when given) on the control connection and reads
 * the reply, its tail into tail (tail_size bytes at most; NULL: none
 * taken).  0, or -1 with why set.
 */
static int command(struct evt_relay *r, enum evt_relay_cmd cmd,
		   struct evt_relay_msg *m, const void *extra, size_t extra_len,
		   struct evt_relay_reply *reply, char *tail, size_t tail_size)
{
	struct iovec v[2] = { { m->buf, m->len }, { (void *)extra, extra_len } };
	uint8_t fixed[16], rest[EVT_RELAY_PATH_MAX];
	size_t want = evt_relay_reply_fixed(cmd);
	char why[200];

	if (m->failed)
		return fail(r, "out of memory");
	if (send_all(r, 0, v, extra_len ? 2 : 1))
		return -1;
	if (!want)
		return 0;
	if (recv_all(r, cmd, fixed, want))
		return -1;
	if (evt_relay_reply_parse(cmd, fixed, want, reply, why, sizeof(why)))
		return fail(r, "%s:%u: %s", r->host, r->port[0], why);
	if (reply->tail) {
		if (recv_all(r, cmd, rest, reply->tail))
			return -1;
		if (evt_relay_tail_check(rest, reply->tail, why, sizeof(why)))
			return fail(r, "%s:%u: %s in its reply to %s", r->host,
				    r->port[0], why, evt_relay_cmd_name(cmd));
		if (tail)
			snprintf(tail, tail_size, "%s", (const char *)rest);
	}
	return 0;
}

/* The table may grow (and move) under the recorder's thread; a stream,
 * once made, is only ever written here. */
static struct stream *stream_at(struct evt_relay *r, int k)
{
	struct stream *s;

	pthread_mutex_lock(&r->lock);
	s = r->streams[k];
	pthread_mutex_unlock(&r->lock);
	return s;
}

/* Adds stream s to the session and publishes it. */
static int add_stream(struct evt_relay *r, struct stream *s)
{
	struct evt_relay_msg m = { 0 };
	struct evt_relay_reply reply;
	int ret;

	evt_relay_cmd_add_stream(&m, s->name, TRACE_PATH, 0);
	ret = command(r, EVT_RELAY_ADD_STREAM, &m, NULL, 0, &reply, NULL, 0);
	if (!ret) {
		s->handle = reply.id;
		s->added_in = r->session_no;
		s->net_seq = 0;
		s->written = 0;
		evt_relay_cmd_streams_sent(&m);
		ret = command(r, EVT_RELAY_STREAMS_SENT, &m, NULL, 0, &reply,
			      NULL, 0);
	}
	evt_relay_msg_free(&m);
	return ret;
}

static int open_session(struct evt_relay *r)
{
	struct evt_relay_msg m = { 0 };
	struct evt_relay_reply reply;
	char path[EVT_RELAY_PATH_MAX] = "";
	uint8_t uuid[16];
	uint64_t now = (uint64_t)time(NULL);
	int ret = -1;

	if (connect_one(r, 0) || connect_one(r, 1))
		goto out;
	/* A sessiond's identity the relay files the session under: one of
	 * its own for each connection (no relay state is shared). */
	if (getrandom(uuid, sizeof(uuid), 0) != sizeof(uuid)) {
		fail(r, "getrandom: %s", strerror(errno));
		goto out;
	}
	evt_relay_cmd_version(&m);
	if (command(r, EVT_RELAY_VERSION, &m, NULL, 0, &reply, NULL, 0))
		goto out;
	evt_relay_cmd_create_session(&m, r->session, r->hostname,
				     r->live_timer_us, uuid, r->session_no + 1,
				     now);
	if (command(r, EVT_RELAY_CREATE_SESSION, &m, NULL, 0, &reply, path,
		    sizeof(path)))
		goto out;
	evt_relay_cmd_create_chunk(&m, 0, now);
	if (command(r, EVT_RELAY_CREATE_TRACE_CHUNK, &m, NULL, 0, &reply, NULL, 0))
		goto out;
	evt_relay_cmd_add_stream(&m, EVT_TRACE_METADATA, TRACE_PATH, 0);
	if (command(r, EVT_RELAY_ADD_STREAM, &m, NULL, 0, &reply, NULL, 0))
		goto out;
	r->meta_handle = reply.id;
	r->meta_sent = 0;
	r->session_no++;
	pthread_mutex_lock(&r->lock);
	r->stats.connections = r->session_no;
	pthread_mutex_unlock(&r->lock);
	ret = 0;
	say(r, "relay %s:%u: %s session %s as %s/%s", r->host, r->port[0],
	    r->session_no == 1 ? "streaming to" : "reconnected: a new",
	    r->session, path, TRACE_PATH);
out:
	evt_relay_msg_free(&m);
	if (ret)
		disconnect(r);
	return ret;
}

/* The metadata not sent in this session yet. */
static int send_metadata(struct evt_relay *r)
{
	struct evt_relay_msg m = { 0 };
	struct evt_relay_reply reply;
	char *text;
	size_t len;
	int ret;

	pthread_mutex_lock(&r->lock);
	len = r->meta_len - r->meta_sent;
	text = len ? malloc(len) : NULL;
	if (text)
		memcpy(text, r->meta + r->meta_sent, len);
	pthread_mutex_unlock(&r->lock);
	if (!len)
		return 0;
	if (!text)
		return fail(r, "out of memory");
	evt_relay_cmd_metadata(&m, r->meta_handle, len);
	ret = command(r, EVT_RELAY_SEND_METADATA, &m, text, len, &reply, NULL, 0);
	if (!ret)
		r->meta_sent += len;
	evt_relay_msg_free(&m);
	free(text);
	return ret;
}

static int send_packet(struct evt_relay *r, struct stream *s, struct item *it)
{
	uint8_t head[EVT_RELAY_DATA_HEADER];
	struct iovec v[2] = { { head, sizeof(head) }, { it->data, it->len } };
	struct evt_relay_index ix = {
		.handle = s->handle, .net_seq = s->net_seq,
		.packet_size = it->len, .content_size = it->len,
		.timestamp_begin = it->info.timestamp_begin,
		.timestamp_end = it->info.timestamp_end,
		.events_discarded = it->info.events_discarded,
		.stream_class = it->info.stream_class,
		.stream_instance = (uint64_t)it->stream,
		.packet_seq = it->info.packet_seq,
	};
	struct evt_relay_msg m = { 0 };
	struct evt_relay_reply reply;
	int ret;

	evt_relay_data_header(head, s->handle, s->net_seq, (uint32_t)it->len);
	if (send_all(r, 1, v, 2))
		return -1;
	evt_relay_cmd_index(&m, &ix);
	ret = command(r, EVT_RELAY_SEND_INDEX, &m, NULL, 0, &reply, NULL, 0);
	evt_relay_msg_free(&m);
	if (ret)
		return -1;
	it->sent_in = r->session_no;
	it->net_seq = s->net_seq++;
	s->sent = true;
	s->last_end = it->info.timestamp_end;
	s->stream_class = it->info.stream_class;
	return 0;
}

/* Tells live readers that streams which sent nothing lately are idle. */
static int send_beacons(struct evt_relay *r, uint64_t ts)
{
	struct evt_relay_msg m = { 0 };
	struct evt_relay_reply reply;
	int k, n, ret = 0;

	pthread_mutex_lock(&r->lock);
	n = r->nstreams;
	pthread_mutex_unlock(&r->lock);
	for (k = 0; k < n && !ret; k++) {
		struct stream *s = stream_at(r, k);
		struct evt_relay_index ix = {
			.handle = s->handle, .timestamp_end = ts,
			.stream_class = s->stream_class,
			.stream_instance = (uint64_t)k,
		};

		if (s->added_in != r->session_no || s->sent || ts <= s->last_end) {
			s->sent = false;
			continue;
		}
		evt_relay_cmd_index(&m, &ix);
		ret = command(r, EVT_RELAY_SEND_INDEX, &m, NULL, 0, &reply, NULL, 0);
	}
	evt_relay_msg_free(&m);
	return ret;
}

static int send_item(struct evt_relay *r, struct item *it)
{
	struct stream *s;

	if (it->kind == ITEM_HORIZON)
		return send_beacons(r, it->ts);
	s = stream_at(r, it->stream);
	if (s->added_in != r->session_no && add_stream(r, s))
		return -1;
	return send_packet(r, s, it);
}

static void wait_until(struct evt_relay *r, int64_t when_ms);

/* Whether item it, sent, is one the relay wrote (a beacon needs not).
 * Under the lock. */
static bool written(const struct evt_relay *r, const struct item *it)
{
	const struct stream *s;

	if (it->kind != ITEM_PACKET)
		return true;
	s = r->streams[it->stream];
	return it->sent_in == r->session_no && s->added_in == r->session_no &&
	       it->net_seq < s->written;
}

/*
 * Asks the relay which of the packets sent it wrote (DATA_PENDING for
 * each stream's last one sent) and lets those go, from the queue's head.
 * 0, or -1 when the connection failed.
 */
static int confirm(struct evt_relay *r)
{
	struct item *it, *stop;
	int k, n;

	pthread_mutex_lock(&r->lock);
	n = r->nstreams;
	stop = r->next;
	pthread_mutex_unlock(&r->lock);
	for (k = 0; k < n; k++) {
		struct stream *s = stream_at(r, k);
		struct evt_relay_msg m = { 0 };
		struct evt_relay_reply reply;
		int ret;

		if (s->added_in != r->session_no || s->written == s->net_seq)
			continue;
		evt_relay_cmd_data_pending(&m, s->handle, s->net_seq - 1);
		ret = command(r, EVT_RELAY_DATA_PENDING, &m, NULL, 0, &reply, NULL, 0);
		evt_relay_msg_free(&m);
		if (ret)
			return -1;
		if (reply.ret_code == 0)
			s->written = s->net_seq;
	}
	pthread_mutex_lock(&r->lock);
	while ((it = r->head) && it != stop && written(r, it)) {
		r->head = it->next;
		if (!r->head)
			r->tail = NULL;
		r->queued -= it->len;
		if (it->kind == ITEM_PACKET) {
			r->stats.packets++;
			r->stats.bytes += it->len;
		}
		free(it);
	}
	pthread_mutex_unlock(&r->lock);
	return 0;
}

/*
 * Ends the session as LTTng does: every stream moved to no trace chunk
 * after its last packet, then closed; the connection LINGER_MS later.
 * (A stream closed otherwise, or a session closed, makes a live reader
 * leave at once, without the packets it did not fetch yet; it asks
 * every 100 ms.)
 */
#define LINGER_MS 1000

static int close_session(struct evt_relay *r)
{
	struct evt_relay_msg m = { 0 };
	struct evt_relay_reply reply;
	uint64_t *handles, *seqs;
	int k, n, ret = -1;
	uint32_t used = 0;

	pthread_mutex_lock(&r->lock);
	n = r->nstreams;
	pthread_mutex_unlock(&r->lock);
	handles = malloc((n + 1) * sizeof(*handles));
	seqs = malloc((n + 1) * sizeof(*seqs));
	if (!handles || !seqs) {
		fail(r, "out of memory");
		goto out;
	}
	for (k = 0; k < n; k++) {
		struct stream *s = stream_at(r, k);

		if (s->added_in == r->session_no) {
			handles[used] = s->handle;
			seqs[used++] = s->net_seq;
		}
	}
	handles[used] = r->meta_handle;
	seqs[used++] = 0;
	evt_relay_cmd_rotate_to_end(&m, handles, seqs, used);
	if (command(r, EVT_RELAY_ROTATE_STREAMS, &m, NULL, 0, &reply, NULL, 0))
		goto out;
	for (k = 0; k < (int)used; k++) {
		evt_relay_cmd_close_stream(&m, handles[k],
					   k + 1 == (int)used || !seqs[k] ?
					   UINT64_MAX : seqs[k] - 1);
		if (command(r, EVT_RELAY_CLOSE_STREAM, &m, NULL, 0, &reply, NULL, 0))
			goto out;
	}
	ret = 0;
out:
	if (!ret) {
		int64_t until = now_ms() + LINGER_MS;

		pthread_mutex_lock(&r->lock);
		while (!r->abort && now_ms() < until)
			wait_until(r, until);
		pthread_mutex_unlock(&r->lock);
	}
	free(handles);
	free(seqs);
	evt_relay_msg_free(&m);
	disconnect(r);
	return ret;
}

/* The session closed after the last packet of each stream: the relay
 * has every packet or will write it, and the queue is let go. */
static void let_go_closed(struct evt_relay *r)
{
	struct item *it;

	pthread_mutex_lock(&r->lock);
	while ((it = r->head)) {
		r->head = it->next;
		r->queued -= it->len;
		if (it->kind == ITEM_PACKET) {
			r->stats.packets++;
			r->stats.bytes += it->len;
		}
		free(it);
	}
	r->next = r->tail = NULL;
	pthread_mutex_unlock(&r->lock);
}

static void wait_until(struct evt_relay *r, int64_t when_ms)
{
	struct timespec ts;
	int64_t ms;

	clock_gettime(CLOCK_REALTIME, &ts);
	ms = when_ms - now_ms();
	if (ms <= 0)
		return;
	ts.tv_sec += ms / 1000;
	ts.tv_nsec += ms % 1000 * 1000000;
	if (ts.tv_nsec >= 1000000000) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000;
	}
	pthread_cond_timedwait(&r->cond, &r->lock, &ts);
}

/* closing or abort, which finish() sets. */
static bool locked_flag(struct evt_relay *r, const bool *flag)
{
	bool v;

	pthread_mutex_lock(&r->lock);
	v = *flag;
	pthread_mutex_unlock(&r->lock);
	return v;
}

static void *run(void *arg)
{
	struct evt_relay *r = arg;
	int64_t retry_at = 0, backoff = RETRY_FIRST_MS;
	char last_why[300] = "";
	unsigned sent_since = 0;
	int64_t close_by = 0;		/* closing: confirmations waited until */

	for (;;) {
		struct item *it;

		pthread_mutex_lock(&r->lock);
		if (r->abort || (r->closing && !r->head && r->fd[0] < 0)) {
			pthread_mutex_unlock(&r->lock);
			break;
		}
		if (r->fd[0] < 0 && now_ms() < retry_at && !r->closing) {
			wait_until(r, retry_at);
			pthread_mutex_unlock(&r->lock);
			continue;
		}
		pthread_mutex_unlock(&r->lock);
		if (r->fd[0] < 0) {
			if (open_session(r)) {
				if (locked_flag(r, &r->closing)) {	/* its one last try */
					say(r, "relay: %s", r->why);
					break;
				}
				/* Said once per cause, not at every try. */
				if (strcmp(last_why, r->why)) {
					say(r, "relay: %s; recording on, trying again", r->why);
					snprintf(last_why, sizeof(last_why), "%s", r->why);
				}
				retry_at = now_ms() + backoff;
				backoff = backoff * 2 > RETRY_MAX_MS ? RETRY_MAX_MS : backoff * 2;
				continue;
			}
			backoff = RETRY_FIRST_MS;
			last_why[0] = '\0';
		}
		if (send_metadata(r))
			goto failed;
		pthread_mutex_lock(&r->lock);
		it = r->next;
		if (!it) {
			bool closing = r->closing, unconfirmed = r->head != NULL;

			pthread_mutex_unlock(&r->lock);
			/* Everything sent: what the relay wrote goes. */
			if (unconfirmed && confirm(r))
				goto failed;
			if (closing && !close_by)
				close_by = now_ms() + CLOSE_CONFIRM_MS;
			pthread_mutex_lock(&r->lock);
			if (r->head && !r->next && !r->abort &&
			    !(closing && now_ms() >= close_by)) {
				/* (not written yet: asked again soon) */
				wait_until(r, now_ms() + 20);
				pthread_mutex_unlock(&r->lock);
				continue;
			}
			if (!closing && !r->next)
				wait_until(r, now_ms() + 1000);
			pthread_mutex_unlock(&r->lock);
			if (closing && close_session(r) == 0)
				let_go_closed(r);
			else if (closing)
				goto failed;
			continue;
		}
		pthread_mutex_unlock(&r->lock);
		if (send_item(r, it))
			goto failed;
		pthread_mutex_lock(&r->lock);
		r->next = it->next;
		pthread_mutex_unlock(&r->lock);
		if (++sent_since % CONFIRM_EVERY == 0 && confirm(r))
			goto failed;
		continue;
failed:
		disconnect(r);
		/* What it sent and the relay may not have written goes again,
		 * first, in the next session. */
		pthread_mutex_lock(&r->lock);
		r->next = r->head;
		pthread_mutex_unlock(&r->lock);
		if (!locked_flag(r, &r->abort))
			say(r, "relay: %s; what is queued waits for a new connection",
			    r->why);
		snprintf(last_why, sizeof(last_why), "%s", r->why);
		retry_at = now_ms() + backoff;
	}
	pthread_mutex_lock(&r->lock);
	r->done = true;
	pthread_cond_broadcast(&r->cond);
	pthread_mutex_unlock(&r->lock);
	return NULL;
}

/* ---- the recorder's side ---- */

static int resolve(struct evt_relay *r, int k, char *err, size_t err_size)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *ai;
	char port[16];
	int e;

	snprintf(port, sizeof(port), "%u", r->port[k]);
	e = getaddrinfo(r->host, port, &hints, &ai);
	if (e) {
		snprintf(err, err_size, "relay host %s: %s", r->host,
			 e == EAI_SYSTEM ? strerror(errno) : gai_strerror(e));
		return -1;
	}
	memcpy(&r->addr[k], ai->ai_addr, ai->ai_addrlen);
	r->addr_len[k] = ai->ai_addrlen;
	freeaddrinfo(ai);
	return 0;
}

static void relay_free(struct evt_relay *r)
{
	struct item *it;
	int k;

	while ((it = r->head)) {
		r->head = it->next;
		free(it);
	}
	for (k = 0; k < r->nstreams; k++) {
		free(r->streams[k]->name);
		free(r->streams[k]);
	}
	free(r->streams);
	free(r->meta);
	free(r->host);
	free(r->session);
	free(r->hostname);
	pthread_mutex_destroy(&r->lock);
	pthread_cond_destroy(&r->cond);
	free(r);
}

int evt_relay_start(const struct evt_relay_opts *o, struct evt_relay **out,
		    char *err, size_t err_size)
{
	struct evt_relay *r = calloc(1, sizeof(*r));

	if (!r) {
		snprintf(err, err_size, "out of memory");
		return -1;
	}
	pthread_mutex_init(&r->lock, NULL);
	pthread_cond_init(&r->cond, NULL);
	r->fd[0] = r->fd[1] = -1;
	r->port[0] = o->control_port ? o->control_port : EVT_RELAY_CONTROL_PORT;
	r->port[1] = o->data_port ? o->data_port : r->port[0] + 1;
	r->max_queued = o->max_queued ? o->max_queued : EVT_RELAY_QUEUE_BYTES;
	r->live_timer_us = o->live_timer_us;
	r->host = strdup(o->host);
	r->session = strdup(o->session);
	r->hostname = strdup(o->hostname);
	if (!r->host || !r->session || !r->hostname) {
		snprintf(err, err_size, "out of memory");
		goto fail;
	}
	if (r->port[0] > 65535 || r->port[1] > 65535) {
		snprintf(err, err_size, "relay port %u: not a TCP port",
			 r->port[0] > 65535 ? r->port[0] : r->port[1]);
		goto fail;
	}
	if (resolve(r, 0, err, err_size) || resolve(r, 1, err, err_size))
		goto fail;
	if ((errno = pthread_create(&r->thread, NULL, run, r))) {
		snprintf(err, err_size, "relay thread: %s", strerror(errno));
		goto fail;
	}
	*out = r;
	return 0;
fail:
	relay_free(r);
	return -1;
}

void evt_relay_metadata(struct evt_relay *r, const char *text, size_t len)
{
	pthread_mutex_lock(&r->lock);
	if (r->meta_len + len > r->meta_cap) {
		size_t cap = r->meta_cap ? r->meta_cap : 16384;
		char *grown;

		while (cap < r->meta_len + len)
			cap *= 2;
		grown = realloc(r->meta, cap);
		if (!grown) {
			pthread_mutex_unlock(&r->lock);
			say(r, "relay: out of memory for the metadata");
			return;
		}
		r->meta = grown;
		r->meta_cap = cap;
	}
	memcpy(r->meta + r->meta_len, text, len);
	r->meta_len += len;
	pthread_cond_signal(&r->cond);
	pthread_mutex_unlock(&r->lock);
}

int evt_relay_stream(struct evt_relay *r, const char *name)
{
	struct stream *s = calloc(1, sizeof(*s));
	int k = -1;

	if (!s || !(s->name = strdup(name))) {
		free(s);
		return -1;
	}
	pthread_mutex_lock(&r->lock);
	if (r->nstreams == r->streams_cap) {
		int cap = r->streams_cap ? 2 * r->streams_cap : 16;
		struct stream **grown = realloc(r->streams, cap * sizeof(*grown));

		if (!grown)
			goto out;
		r->streams = grown;
		r->streams_cap = cap;
	}
	r->streams[r->nstreams] = s;
	k = r->nstreams++;
	s = NULL;
out:
	pthread_mutex_unlock(&r->lock);
	if (s) {
		free(s->name);
		free(s);
	}
	return k;
}

bool evt_relay_has_room(struct evt_relay *r, size_t len)
{
	bool room;

	pthread_mutex_lock(&r->lock);
	room = r->queued + len <= r->max_queued && !r->closing;
	pthread_mutex_unlock(&r->lock);
	return room;
}

static void enqueue_locked(struct evt_relay *r, struct item *it)
{
	it->next = NULL;
	it->sent_in = 0;
	if (r->tail)
		r->tail->next = it;
	else
		r->head = it;
	r->tail = it;
	if (!r->next)
		r->next = it;
	r->queued += it->len;
	pthread_cond_signal(&r->cond);
}

int evt_relay_packet(struct evt_relay *r, int s, const void *head,
		     size_t head_len, const void *body, size_t body_len,
		     const struct evt_relay_packet_info *info)
{
	size_t len = head_len + body_len;
	struct item *it;

	pthread_mutex_lock(&r->lock);
	/* A header alone (a stream's loss count at its end) always gets in:
	 * it is what counts the packets refused, and takes a few bytes. */
	if ((r->queued + len > r->max_queued && body_len && !info->loss_only) ||
	    r->closing) {
		r->stats.refused++;
		pthread_mutex_unlock(&r->lock);
		return -1;
	}
	pthread_mutex_unlock(&r->lock);
	if (!(it = malloc(sizeof(*it) + len))) {
		pthread_mutex_lock(&r->lock);
		r->stats.refused++;
		pthread_mutex_unlock(&r->lock);
		return -1;
	}
	it->kind = ITEM_PACKET;
	it->stream = s;
	it->info = *info;
	it->len = len;
	memcpy(it->data, head, head_len);
	if (body_len)
		memcpy(it->data + head_len, body, body_len);
	pthread_mutex_lock(&r->lock);
	enqueue_locked(r, it);
	pthread_mutex_unlock(&r->lock);
	return 0;
}

static void enqueue_mark(struct evt_relay *r, enum item_kind kind, int s,
			 uint64_t ts)
{
	struct item *it = calloc(1, sizeof(*it));

	if (!it)
		return;
	it->kind = kind;
	it->stream = s;
	it->ts = ts;
	pthread_mutex_lock(&r->lock);
	enqueue_locked(r, it);
	pthread_mutex_unlock(&r->lock);
}

void evt_relay_horizon(struct evt_relay *r, uint64_t ts)
{
	bool busy;

	/* Only worth saying when the relay keeps up. */
	pthread_mutex_lock(&r->lock);
	busy = r->next != NULL;
	pthread_mutex_unlock(&r->lock);
	if (!busy)
		enqueue_mark(r, ITEM_HORIZON, -1, ts);
}

void evt_relay_progress(struct evt_relay *r, struct evt_relay_stats *out)
{
	struct item *it;

	pthread_mutex_lock(&r->lock);
	*out = r->stats;
	for (it = r->head; it; it = it->next)
		out->unsent += it->kind == ITEM_PACKET;
	pthread_mutex_unlock(&r->lock);
}

void evt_relay_finish(struct evt_relay *r, int wait_ms,
		      struct evt_relay_stats *stats)
{
	int64_t deadline = now_ms() + wait_ms;
	struct item *it;
	int k;

	pthread_mutex_lock(&r->lock);
	r->closing = true;
	pthread_cond_broadcast(&r->cond);
	while (!r->done && now_ms() < deadline)
		wait_until(r, deadline);
	if (!r->done) {
		/* Whatever the thread waits on ends now. */
		r->abort = true;
		for (k = 0; k < 2; k++)
			if (r->fd[k] >= 0)
				shutdown(r->fd[k], SHUT_RDWR);
		pthread_cond_broadcast(&r->cond);
	}
	pthread_mutex_unlock(&r->lock);
	pthread_join(r->thread, NULL);
	disconnect(r);
	for (it = r->head; it; it = it->next)
		r->stats.unsent += it->kind == ITEM_PACKET;
	if (stats)
		*stats = r->stats;
	while (stats && r->msg_count) {	/* the thread is gone */
		evt_report("%s", r->msgs[r->msg_first]);
		r->msg_first = (r->msg_first + 1) % MESSAGES;
		r->msg_count--;
	}
	relay_free(r);
}
