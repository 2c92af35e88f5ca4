/*
 * relay_proto.c - lttng-relayd's protocol (relay_proto.h).
 */
#include <endian.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "relay_proto.h"

void evt_relay_msg_free(struct evt_relay_msg *m)
{
	free(m->buf);
	memset(m, 0, sizeof(*m));
}

static uint8_t *room(struct evt_relay_msg *m, size_t n)
{
	if (m->failed)
		return NULL;
	if (m->len + n > m->cap) {
		size_t cap = m->cap ? m->cap : 256;
		uint8_t *grown;

		while (cap < m->len + n)
			cap *= 2;
		if (!(grown = realloc(m->buf, cap))) {
			m->failed = 1;
			return NULL;
		}
		m->buf = grown;
		m->cap = cap;
	}
	m->len += n;
	return m->buf + m->len - n;
}

static void put8(struct evt_relay_msg *m, uint8_t v)
{
	uint8_t *p = room(m, 1);

	if (p)
		*p = v;
}

static void put32(struct evt_relay_msg *m, uint32_t v)
{
	uint8_t *p = room(m, 4);

	v = htobe32(v);
	if (p)
		memcpy(p, &v, 4);
}

static void put64(struct evt_relay_msg *m, uint64_t v)
{
	uint8_t *p = room(m, 8);

	v = htobe64(v);
	if (p)
		memcpy(p, &v, 8);
}

static void put_bytes(struct evt_relay_msg *m, const void *s, size_t n)
{
	uint8_t *p = room(m, n);

	if (p)
		memcpy(p, s, n);
}

/* Starts a command; its payload size is set by finish(). */
static void start(struct evt_relay_msg *m, enum evt_relay_cmd cmd)
{
	m->len = 0;
	m->failed = 0;
	put64(m, 0);		/* circuit id */
	put64(m, 0);		/* payload size */
	put32(m, cmd);
	put32(m, 0);		/* command version */
}

/* Sets the payload size: what follows the header, and extra bytes sent
 * after the message. */
static void finish(struct evt_relay_msg *m, size_t extra)
{
	uint64_t size = htobe64(m->len - EVT_RELAY_CMD_HEADER + extra);

	if (!m->failed)
		memcpy(m->buf + 8, &size, 8);
}

void evt_relay_cmd_version(struct evt_relay_msg *m)
{
	start(m, EVT_RELAY_VERSION);
	put32(m, EVT_RELAY_MAJOR);
	put32(m, EVT_RELAY_MINOR);
	finish(m, 0);
}

void evt_relay_cmd_create_session(struct evt_relay_msg *m,
				  const char *session, const char *hostname,
				  uint32_t live_timer_us,
				  const uint8_t uuid[16], uint64_t session_id,
				  uint64_t creation_time)
{
	size_t slen = strlen(session) + 1, hlen = strlen(hostname) + 1;

	start(m, EVT_RELAY_CREATE_SESSION);
	put32(m, (uint32_t)slen);
	put32(m, (uint32_t)hlen);
	put32(m, 1);		/* base path: "" (the relay's default) */
	put32(m, live_timer_us);
	put8(m, 0);		/* not a snapshot */
	put8(m, 0);		/* the name holds no creation time */
	put_bytes(m, uuid, 16);
	put64(m, session_id);
	put64(m, creation_time);
	put8(m, 0);		/* no current chunk yet */
	put64(m, 0);
	put_bytes(m, session, slen);
	put_bytes(m, hostname, hlen);
	put8(m, 0);
	finish(m, 0);
}

void evt_relay_cmd_create_chunk(struct evt_relay_msg *m, uint64_t chunk_id,
				uint64_t creation_time)
{
	start(m, EVT_RELAY_CREATE_TRACE_CHUNK);
	put64(m, chunk_id);
	put64(m, creation_time);
	put32(m, 0);		/* no name: the relay's */
	finish(m, 0);
}

void evt_relay_cmd_add_stream(struct evt_relay_msg *m, const char *channel,
			      const char *path, uint64_t chunk_id)
{
	size_t clen = strlen(channel) + 1, plen = strlen(path) + 1;

	start(m, EVT_RELAY_ADD_STREAM);
	put32(m, (uint32_t)clen);
	put32(m, (uint32_t)plen);
	put64(m, 0);		/* one file, of any size */
	put64(m, 0);
	put64(m, chunk_id);
	put_bytes(m, channel, clen);
	put_bytes(m, path, plen);
	finish(m, 0);
}

void evt_relay_cmd_streams_sent(struct evt_relay_msg *m)
{
	start(m, EVT_RELAY_STREAMS_SENT);
	finish(m, 0);
}

void evt_relay_cmd_metadata(struct evt_relay_msg *m, uint64_t handle,
			    size_t text_len)
{
	start(m, EVT_RELAY_SEND_METADATA);
	put64(m, handle);
	put32(m, 0);		/* no padding */
	finish(m, text_len);
}

void evt_relay_cmd_data_pending(struct evt_relay_msg *m, uint64_t handle,
				uint64_t net_seq)
{
	start(m, EVT_RELAY_DATA_PENDING);
	put64(m, handle);
	put64(m, net_seq);
	finish(m, 0);
}

void evt_relay_cmd_close_stream(struct evt_relay_msg *m, uint64_t handle,
				uint64_t last_seq)
{
	start(m, EVT_RELAY_CLOSE_STREAM);
	put64(m, handle);
	put64(m, last_seq);
	finish(m, 0);
}

void evt_relay_cmd_rotate_to_end(struct evt_relay_msg *m,
				 const uint64_t *handles,
				 const uint64_t *next_seq, uint32_t n)
{
	uint32_t k;

	start(m, EVT_RELAY_ROTATE_STREAMS);
	put32(m, n);
	put8(m, 0);		/* no new chunk, packed (relayd takes it) */
	put64(m, 0);
	for (k = 0; k < n; k++) {
		put64(m, handles[k]);
		put64(m, next_seq[k]);
	}
	finish(m, 0);
}

void evt_relay_cmd_index(struct evt_relay_msg *m,
			 const struct evt_relay_index *ix)
{
	start(m, EVT_RELAY_SEND_INDEX);
	put64(m, ix->handle);
	put64(m, ix->net_seq);
	put64(m, ix->packet_size * 8);
	put64(m, ix->content_size * 8);
	put64(m, ix->timestamp_begin);
	put64(m, ix->timestamp_end);
	put64(m, ix->events_discarded);
	put64(m, ix->stream_class);
	put64(m, ix->stream_instance);
	put64(m, ix->packet_seq);
	finish(m, 0);
}

void evt_relay_data_header(uint8_t out[EVT_RELAY_DATA_HEADER], uint64_t handle,
			   uint64_t net_seq, uint32_t len)
{
	uint64_t v[3] = { 0, htobe64(handle), htobe64(net_seq) };
	uint32_t w[2] = { htobe32(len), 0 };

	memcpy(out, v, 24);
	memcpy(out + 24, w, 8);
}

size_t evt_relay_reply_fixed(enum evt_relay_cmd cmd)
{
	switch (cmd) {
	case EVT_RELAY_VERSION:
		return 8;
	case EVT_RELAY_CREATE_SESSION:
		return 16;	/* session id, code, path length */
	case EVT_RELAY_ADD_STREAM:
		return 12;	/* handle, code */
	case EVT_RELAY_SEND_METADATA:
		return 0;
	default:
		return 4;	/* code */
	}
}

const char *evt_relay_cmd_name(enum evt_relay_cmd cmd)
{
	switch (cmd) {
	case EVT_RELAY_ADD_STREAM: return "ADD_STREAM";
	case EVT_RELAY_CREATE_SESSION: return "CREATE_SESSION";
	case EVT_RELAY_VERSION: return "VERSION";
	case EVT_RELAY_SEND_METADATA: return "SEND_METADATA";
	case EVT_RELAY_CLOSE_STREAM: return "CLOSE_STREAM";
	case EVT_RELAY_DATA_PENDING: return "DATA_PENDING";
	case EVT_RELAY_SEND_INDEX: return "SEND_INDEX";
	case EVT_RELAY_STREAMS_SENT: return "STREAMS_SENT";
	case EVT_RELAY_ROTATE_STREAMS: return "ROTATE_STREAMS";
	case EVT_RELAY_CREATE_TRACE_CHUNK: return "CREATE_TRACE_CHUNK";
	}
	return "?";
}

static uint32_t get32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return be32toh(v);
}

static uint64_t get64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return be64toh(v);
}

int evt_relay_reply_parse(enum evt_relay_cmd cmd, const uint8_t *p, size_t len,
			  struct evt_relay_reply *r, char *err, size_t err_size)
{
	size_t want = evt_relay_reply_fixed(cmd);

	memset(r, 0, sizeof(*r));
	if (len != want || !want) {
		snprintf(err, err_size, "a reply to %s of %zu bytes (%zu expected)",
			 evt_relay_cmd_name(cmd), len, want);
		return -1;
	}
	switch (cmd) {
	case EVT_RELAY_VERSION:
		r->major = get32(p);
		r->minor = get32(p + 4);
		r->ret_code = EVT_RELAY_OK;
		if (r->major > 99) {	/* "HTTP" read as a number, say */
			snprintf(err, err_size, "what answered is not an "
				 "lttng-relayd (its first bytes are no relay "
				 "protocol version)");
			return -1;
		}
		if (r->major != EVT_RELAY_MAJOR) {
			snprintf(err, err_size,
				 "relay protocol version %u.%u (2.x expected)",
				 r->major, r->minor);
			return -1;
		}
		if (r->minor < EVT_RELAY_MINOR) {
			snprintf(err, err_size,
				 "lttng-relayd %u.%u is too old (2.11 or later needed)",
				 r->major, r->minor);
			return -1;
		}
		return 0;
	case EVT_RELAY_CREATE_SESSION:
		r->id = get64(p);
		r->ret_code = get32(p + 8);
		r->tail = get32(p + 12);
		break;
	case EVT_RELAY_ADD_STREAM:
		r->id = get64(p);
		r->ret_code = get32(p + 8);
		break;
	default:
		r->ret_code = get32(p);
		break;
	}
	if (r->tail > EVT_RELAY_PATH_MAX) {
		snprintf(err, err_size, "a reply to %s announcing %u more bytes",
			 evt_relay_cmd_name(cmd), r->tail);
		return -1;
	}
	if (cmd == EVT_RELAY_DATA_PENDING) {	/* 0 or 1: no LTTNG_OK */
		if (r->ret_code <= 1)
			return 0;
		snprintf(err, err_size, "DATA_PENDING answered %u (0 or 1 expected)",
			 r->ret_code);
		return -1;
	}
	if (r->ret_code != EVT_RELAY_OK) {
		snprintf(err, err_size, "%s refused (LTTng error %u; see the relay's log)",
			 evt_relay_cmd_name(cmd), r->ret_code);
		return -1;
	}
	return 0;
}

int evt_relay_tail_check(const uint8_t *p, size_t len, char *err,
			 size_t err_size)
{
	if (len && memchr(p, '\0', len) == p + len - 1)
		return 0;
	snprintf(err, err_size, "a path of %zu bytes that is not one string", len);
	return -1;
}
