/*
 * relay_proto.h - lttng-relayd's protocol, as evtrace speaks it to a relay
 * daemon of LTTng 2.11 or later: commands encoded, replies checked.
 *
 * Two TCP connections: on the control one (port 5342) each command is a
 * 24-byte header (circuit id 0, payload size, command, version 0) and its
 * payload, and every command but SEND_METADATA is answered in order; on
 * the data one (port 5343) each packet is a 32-byte header (relay stream
 * handle, the stream's packet number on the wire, size, padding) and the
 * packet.  Integers are big-endian.  evtrace announces version 2.11, so
 * that a newer relay speaks 2.11's commands with it.
 *
 * A reply comes from whatever listens on the port: its size is checked
 * before anything in it is believed.
 */
#ifndef EVT_ENGINE_RELAY_PROTO_H
#define EVT_ENGINE_RELAY_PROTO_H

#include <stddef.h>
#include <stdint.h>

#define EVT_RELAY_MAJOR		2
#define EVT_RELAY_MINOR		11
#define EVT_RELAY_CONTROL_PORT	5342

enum evt_relay_cmd {
	EVT_RELAY_ADD_STREAM = 1,
	EVT_RELAY_CREATE_SESSION = 2,
	EVT_RELAY_VERSION = 5,
	EVT_RELAY_SEND_METADATA = 6,
	EVT_RELAY_CLOSE_STREAM = 7,
	EVT_RELAY_DATA_PENDING = 8,
	EVT_RELAY_SEND_INDEX = 13,
	EVT_RELAY_STREAMS_SENT = 16,
	EVT_RELAY_ROTATE_STREAMS = 18,
	EVT_RELAY_CREATE_TRACE_CHUNK = 19,
};

#define EVT_RELAY_OK		10	/* LTTNG_OK */
#define EVT_RELAY_CMD_HEADER	24
#define EVT_RELAY_DATA_HEADER	32
#define EVT_RELAY_INDEX_BYTES	80
#define EVT_RELAY_PATH_MAX	4096

/* A command being built: header and payload, in one growing buffer. */
struct evt_relay_msg {
	uint8_t *buf;
	size_t len, cap;
	int failed;		/* out of memory: the message is not sent */
};

void evt_relay_msg_free(struct evt_relay_msg *m);

/* Each starts m anew with a command; m->failed says whether it could. */
void evt_relay_cmd_version(struct evt_relay_msg *m);
void evt_relay_cmd_create_session(struct evt_relay_msg *m,
				  const char *session, const char *hostname,
				  uint32_t live_timer_us,
				  const uint8_t uuid[16], uint64_t session_id,
				  uint64_t creation_time);
void evt_relay_cmd_create_chunk(struct evt_relay_msg *m, uint64_t chunk_id,
				uint64_t creation_time);
void evt_relay_cmd_add_stream(struct evt_relay_msg *m, const char *channel,
			      const char *path, uint64_t chunk_id);
void evt_relay_cmd_streams_sent(struct evt_relay_msg *m);
/* The header and the fixed part; the text follows it on the wire. */
void evt_relay_cmd_metadata(struct evt_relay_msg *m, uint64_t handle,
			    size_t text_len);
/* Whether the relay has written stream handle's packets up to net_seq
 * (the reply's ret_code: 0 written, 1 still pending). */
void evt_relay_cmd_data_pending(struct evt_relay_msg *m, uint64_t handle,
				uint64_t net_seq);
void evt_relay_cmd_close_stream(struct evt_relay_msg *m, uint64_t handle,
				uint64_t last_seq);
/* The n streams move to no trace chunk from packet next_seq[k] on: the
 * end of a session, as LTTng ends one (a live reader then takes what it
 * has not read yet before it leaves). */
void evt_relay_cmd_rotate_to_end(struct evt_relay_msg *m,
				 const uint64_t *handles,
				 const uint64_t *next_seq, uint32_t n);

/* One packet's entry in the relay's index (sizes in bytes here; bits on
 * the wire).  A beacon is an entry of size 0: nothing in the stream
 * before timestamp_end is still to come. */
struct evt_relay_index {
	uint64_t handle, net_seq;
	uint64_t packet_size, content_size;
	uint64_t timestamp_begin, timestamp_end;
	uint64_t events_discarded;
	uint64_t stream_class, stream_instance, packet_seq;
};

void evt_relay_cmd_index(struct evt_relay_msg *m,
			 const struct evt_relay_index *ix);
/* A data connection's header for a packet of len bytes. */
void evt_relay_data_header(uint8_t out[EVT_RELAY_DATA_HEADER], uint64_t handle,
			   uint64_t net_seq, uint32_t len);

/* The size of cmd's reply, or of its fixed part when it has a tail:
 * 0 for commands that have none. */
size_t evt_relay_reply_fixed(enum evt_relay_cmd cmd);

struct evt_relay_reply {
	uint32_t ret_code;
	uint32_t major, minor;		/* VERSION */
	uint64_t id;			/* CREATE_SESSION: session; ADD_STREAM:
					 * the stream's handle */
	uint32_t tail;			/* bytes that follow the fixed part */
};

/*
 * Checks the fixed part of cmd's reply (len bytes): 0 and r set, or -1
 * with err saying what is wrong.  A reply whose tail is announced longer
 * than EVT_RELAY_PATH_MAX is wrong.
 */
int evt_relay_reply_parse(enum evt_relay_cmd cmd, const uint8_t *p, size_t len,
			  struct evt_relay_reply *r, char *err, size_t err_size);
/* A tail (a path the relay wrote to): NUL-terminated within its size. */
int evt_relay_tail_check(const uint8_t *p, size_t len, char *err,
			 size_t err_size);
const char *evt_relay_cmd_name(enum evt_relay_cmd cmd);

#endif
