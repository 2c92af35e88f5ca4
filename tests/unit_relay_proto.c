/* The relay protocol's encoding, byte for byte as LTTng 2.13's consumer
 * sends it (captured from lttng-relayd), and replies refused for each way
 * they can be wrong; the sending queue's bound. */
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "relay.h"
#include "relay_proto.h"
#include "report.h"
#include "unit.h"

static const uint8_t version_cmd[] = {
	0, 0, 0, 0, 0, 0, 0, 0,  0, 0, 0, 0, 0, 0, 0, 8,  0, 0, 0, 5,  0, 0, 0, 0,
	0, 0, 0, 2,  0, 0, 0, 11,
};

static void test_commands(void)
{
	struct evt_relay_msg m = { 0 };
	static const uint8_t uuid[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };
	uint8_t head[EVT_RELAY_DATA_HEADER];
	uint64_t handles[2] = { 1, 3 }, seqs[2] = { 2, 0 };
	struct evt_relay_index ix = {
		.handle = 1, .net_seq = 2, .packet_size = 84, .content_size = 84,
		.timestamp_begin = 5, .timestamp_end = 6, .events_discarded = 7,
		.stream_class = 8, .stream_instance = 9, .packet_seq = 10,
	};

	evt_relay_cmd_version(&m);
	CHECK(!m.failed && m.len == sizeof(version_cmd) &&
	      !memcmp(m.buf, version_cmd, m.len));
	/* CREATE_SESSION 2.11: 59 fixed bytes, then the names. */
	evt_relay_cmd_create_session(&m, "rcap", "vm", 1000000, uuid, 7, 0x6b12dbba);
	CHECK(m.len == EVT_RELAY_CMD_HEADER + 59 + 5 + 3 + 1);
	CHECK(m.buf[15] == 59 + 9 && m.buf[19] == 2);
	CHECK(!memcmp(m.buf + 24, "\0\0\0\5\0\0\0\3\0\0\0\1\0\x0f\x42\x40\0\0", 18));
	CHECK(!memcmp(m.buf + 24 + 18, uuid, 16));
	CHECK(m.buf[24 + 34 + 7] == 7 && m.buf[24 + 42 + 7] == 0xba && m.buf[24 + 50] == 0);
	CHECK(!memcmp(m.buf + 24 + 59, "rcap\0vm\0", 9));
	/* ADD_STREAM 2.11, as the consumer sent channel0_0. */
	evt_relay_cmd_add_stream(&m, "channel0_0", "ust/uid/0/64-bit", 0);
	CHECK(m.len == 24 + 32 + 11 + 17 && m.buf[24 + 3] == 11 && m.buf[24 + 7] == 17);
	CHECK(!memcmp(m.buf + 24 + 32, "channel0_0\0ust/uid/0/64-bit", 28));
	/* The index in bits, ten big-endian words. */
	evt_relay_cmd_index(&m, &ix);
	CHECK(m.len == 24 + EVT_RELAY_INDEX_BYTES && m.buf[19] == EVT_RELAY_SEND_INDEX);
	CHECK(m.buf[24 + 23] == 84 * 8 % 256 && m.buf[24 + 22] == 84 * 8 / 256);
	CHECK(m.buf[24 + 79] == 10 && m.buf[24 + 55] == 7);
	/* Metadata: the text follows the message; the size counts it. */
	evt_relay_cmd_metadata(&m, 3, 1000);
	CHECK(m.len == 24 + 12 && m.buf[14] == (12 + 1000) / 256 && m.buf[15] == (12 + 1000) % 256);
	/* Rotation to no chunk, packed: 4 + 9 + 16 per stream. */
	evt_relay_cmd_rotate_to_end(&m, handles, seqs, 2);
	CHECK(m.len == 24 + 13 + 32 && m.buf[15] == 45 && m.buf[24 + 4] == 0);
	CHECK(m.buf[24 + 13 + 7] == 1 && m.buf[24 + 13 + 15] == 2 && m.buf[24 + 29 + 7] == 3);
	evt_relay_data_header(head, 1, 2, 84);
	CHECK(head[15] == 1 && head[23] == 2 && head[27] == 84 && head[31] == 0);
	evt_relay_msg_free(&m);
}

static void test_replies(void)
{
	struct evt_relay_reply r;
	char err[256];
	static const uint8_t v213[8] = { 0, 0, 0, 2, 0, 0, 0, 13 };
	static const uint8_t v210[8] = { 0, 0, 0, 2, 0, 0, 0, 10 };
	static const uint8_t v3[8] = { 0, 0, 0, 3, 0, 0, 0, 0 };
	static const uint8_t http[8] = { 'H', 'T', 'T', 'P', '/', '1', '.', '1' };
	static const uint8_t session[16] = { 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 10, 0, 0, 0, 24 };
	static const uint8_t huge[16] = { 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 10, 0, 1, 0, 1 };
	static const uint8_t refused[4] = { 0, 0, 0, 1 };
	static const uint8_t ok[4] = { 0, 0, 0, 10 };

	CHECK(evt_relay_reply_parse(EVT_RELAY_VERSION, v213, 8, &r, err, sizeof(err)) == 0 &&
	      r.minor == 13);
	CHECK(evt_relay_reply_parse(EVT_RELAY_VERSION, v210, 8, &r, err, sizeof(err)) < 0 &&
	      strstr(err, "lttng-relayd 2.10 is too old"));
	CHECK(evt_relay_reply_parse(EVT_RELAY_VERSION, v3, 8, &r, err, sizeof(err)) < 0 &&
	      strstr(err, "version 3.0"));
	/* A web server where the relay was said to be: named as no relay, not
	 * as relay version 1213486160. */
	CHECK(evt_relay_reply_parse(EVT_RELAY_VERSION, http, 8, &r, err, sizeof(err)) < 0 &&
	      !strcmp(err, "what answered is not an lttng-relayd (its first bytes "
		      "are no relay protocol version)"));
	CHECK(evt_relay_reply_parse(EVT_RELAY_VERSION, v213, 7, &r, err, sizeof(err)) < 0 &&
	      strstr(err, "of 7 bytes (8 expected)"));
	CHECK(evt_relay_reply_parse(EVT_RELAY_CREATE_SESSION, session, 16, &r, err,
				    sizeof(err)) == 0 && r.id == 1 && r.tail == 24);
	CHECK(evt_relay_reply_parse(EVT_RELAY_CREATE_SESSION, huge, 16, &r, err,
				    sizeof(err)) < 0 && strstr(err, "65537 more bytes"));
	CHECK(evt_relay_reply_parse(EVT_RELAY_SEND_INDEX, refused, 4, &r, err, sizeof(err)) < 0 &&
	      strstr(err, "SEND_INDEX refused (LTTng error 1"));
	CHECK(evt_relay_reply_parse(EVT_RELAY_SEND_INDEX, ok, 4, &r, err, sizeof(err)) == 0);
	CHECK(evt_relay_reply_parse(EVT_RELAY_SEND_METADATA, ok, 0, &r, err, sizeof(err)) < 0);
	CHECK(evt_relay_tail_check((const uint8_t *)"vm/s-1\0", 7, err, sizeof(err)) == 0);
	CHECK(evt_relay_tail_check((const uint8_t *)"vm\0s-1\0", 7, err, sizeof(err)) < 0);
	CHECK(evt_relay_tail_check((const uint8_t *)"vm/s-1x", 7, err, sizeof(err)) < 0);
}

static void quiet(const char *message, void *ctx)
{
	(void)message;
	(void)ctx;
}

/* A port nobody listens on: bound, then let go of. */
static unsigned closed_port(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET,
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	CHECK(fd >= 0 && bind(fd, (struct sockaddr *)&a, sizeof(a)) == 0 &&
	      getsockname(fd, (struct sockaddr *)&a, &len) == 0);
	close(fd);
	return ntohs(a.sin_port);
}

/* A full queue refuses packets with records, never a header alone: it
 * carries the count of what was refused, at a stream's end. */
static void test_queue_bound(void)
{
	struct evt_relay_opts o = {
		.host = "127.0.0.1", .control_port = closed_port(),
		.session = "s", .hostname = "h", .max_queued = 4096,
	};
	struct evt_relay_packet_info info = { .timestamp_end = 1 };
	static uint8_t head[64], body[4000];
	struct evt_relay_stats st;
	struct evt_relay *r;
	char err[256];
	int s;

	o.data_port = o.control_port;
	evt_report_set(quiet, NULL);
	CHECK(evt_relay_start(&o, &r, err, sizeof(err)) == 0);
	s = evt_relay_stream(r, "stream_1");
	CHECK(s >= 0);
	CHECK(evt_relay_packet(r, s, head, sizeof(head), body, 4000, &info) == 0);
	CHECK(evt_relay_packet(r, s, head, sizeof(head), body, 100, &info) == -1);
	CHECK(evt_relay_packet(r, s, head, sizeof(head), NULL, 0, &info) == 0);
	CHECK(evt_relay_packet(r, s, head, sizeof(head), NULL, 0, &info) == 0);
	evt_relay_finish(r, 0, &st);
	CHECK(st.refused == 1 && st.unsent == 3 && st.packets == 0);
	evt_report_set(NULL, NULL);
}

int main(void)
{
	test_commands();
	test_replies();
	test_queue_bound();
	UNIT_DONE();
}
