/*
 * protocol.h - what evtrace and evtraced say to each other over the
 * daemon's unix socket.
 *
 * Every message is a frame: the magic "EVTD", a 32-bit body length (at
 * most EVT_PROTO_MAX_BODY), then the body.  A client sends one request,
 * text of "key value" lines, the first naming the verb:
 *
 *   verb record            ls, format, enable, disable, count, stream,
 *   pid 1234                 record: the evtrace command of that name
 *   event printk/app.c     (any number)     pattern of what to take
 *   path printk/app.c      ls, format, enable, disable: what to act on
 *   formats 1              ls -f
 *   interval 1000          count -I
 *   overwrite 1            record --overwrite
 *   packet-size 65536      record --packet-size
 *   packets 16             record --packets
 *
 * record's frame carries the trace directory as an fd (SCM_RIGHTS): the
 * client opens it, the daemon never opens a path a client names.  Later
 * the client may send "verb stop" (what ^C does to the command).  The
 * daemon answers with frames whose first byte says what follows:
 * 'o' standard output, 'e' standard error, 'x' the exit status (decimal,
 * last).
 */
#ifndef EVT_DAEMON_PROTOCOL_H
#define EVT_DAEMON_PROTOCOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rules.h"

#define EVT_PROTO_MAGIC		0x44545645u	/* "EVTD" little endian */
#define EVT_PROTO_HEADER	8
#define EVT_PROTO_MAX_BODY	65536u
#define EVT_PROTO_MAX_PIDS	64

enum evt_verb {
	EVT_VERB_NONE = 0,
	EVT_VERB_LS, EVT_VERB_FORMAT, EVT_VERB_ENABLE, EVT_VERB_DISABLE,
	EVT_VERB_COUNT, EVT_VERB_STREAM, EVT_VERB_RECORD, EVT_VERB_STOP,
};

struct evt_request {
	enum evt_verb verb;
	int pids[EVT_PROTO_MAX_PIDS];
	unsigned npids;
	const char *events[EVT_RULES_MAX_PATTERNS];	/* point into the body */
	unsigned nevents;
	const char *path;
	bool formats, overwrite;
	uint32_t interval_ms, packet_size, packet_count;	/* 0: not given */
};

/* The verb's name ("ls"), or NULL. */
const char *evt_verb_name(enum evt_verb verb);

/*
 * Checks a frame header: 0 and *len set, or -1 with err set (not our
 * magic, too long).
 */
int evt_proto_header(const uint8_t header[EVT_PROTO_HEADER], uint32_t *len,
		     char *err, size_t err_size);

/*
 * Parses a request body, NUL-terminated in place (body[len] must be
 * writable): lines end in '\n' there.  The request points into body.  0,
 * or -1 with err saying which line is wrong and why.
 */
int evt_proto_parse(char *body, size_t len, struct evt_request *r, char *err,
		    size_t err_size);

/* Writes r as a request body into buf; its length, or -1 if it does not
 * fit. */
int evt_proto_format(const struct evt_request *r, char *buf, size_t size);

/*
 * Sends one frame (with fd attached when fd >= 0).  0, or -1 with errno.
 * Never raises SIGPIPE.
 */
int evt_proto_send(int sock, const void *body, size_t len, int fd);
/* A one-byte kind and text, as one frame. */
int evt_proto_send_kind(int sock, char kind, const char *text, size_t len);

/*
 * Receives one frame into buf (size at least EVT_PROTO_MAX_BODY + 1),
 * waiting at most timeout_ms in all (-1: no limit).  Returns the body's
 * length; -1 with err set (a bad frame, a timeout, an error), or -2 at
 * end of file before a frame began.  An fd that came with it is stored in
 * *fd (else -1); fd may be NULL, then such an fd is closed.
 */
long evt_proto_recv(int sock, char *buf, int *fd, int timeout_ms, char *err,
		    size_t err_size);

#endif
