/*
 * protocol.h - what evtrace and evtraced say to each other over the
 * daemon's unix socket.
 *
 * Every message is a frame: the magic "EVTD", a 32-bit body length (at
 * most EVT_PROTO_MAX_BODY), then the body.  A client sends one request,
 * text of "key value" lines, the first naming the verb:
 *
 *   verb record            ls, format, enable, disable, count, stream,
 *   pid 1234                 record, snapshot: the evtrace command of
 *                            that name
 *   event printk/app.c     (any number)     pattern of what to take
 *   filter P if F < 0      stream -F (any number; with the events, 64 at
 *                          most): P's events only when the test holds
 *   path printk/app.c      ls, format, enable, disable: what to act on
 *                          (ls and format of kernel/... take no pid: the
 *                          daemon shows the kernel's events to anyone)
 *   formats 1              ls -f
 *   ids 1                  ls --ids
 *   tracefs 1              format --tracefs (a kernel event's own format)
 *   interval 1000          count -I
 *   overwrite 1            record --overwrite
 *   packet-size 65536      record --packet-size
 *   packets 16             record --packets
 *   block-us 5000          record --block, consume's block_ms (in us;
 *                          4294967295: as long as the reader lives)
 *   relay host:5342:5343   record --relay (and session NAME, hostname
 *                          NAME, relay-buffer MIB: its other options)
 *   trigger span x > 1ms   record --trigger (any number, 16 at most; with
 *                          overwrite), and after-ns N, before-ns N,
 *                          max-windows N: its other options (before-ns:
 *                          snapshot's --before too)
 *   keep printk/app.c      record --keep (16 at most; with overwrite)
 *   guard 10               record --guard (not with overwrite)
 *   fail-on-loss 1         record --fail-on-loss (not with overwrite)
 *   rate 1000              enable --rate (0: lifts the cap)
 *   collection 3           snapshot --collection
 *   syscalls SET           trace -e trace=SET (8 at most), and strsize
 *                          N, summary 1|2, held 1: its other options
 *   probe-file /usr/lib/x  trace -e usdt/...: a file the probes are in
 *                          (64 at most), which the daemon opens with
 *                          the client's credentials
 *
 * record's and snapshot's frame carries the trace directory as an fd (SCM_RIGHTS): the
 * client opens it, the daemon never opens a path a client names.  With a
 * relay, the directory is optional (the relay only without it).  Later
 * the client may send "verb stop" (what ^C does to the command).  The
 * daemon answers with frames whose first byte says what follows:
 * 'o' standard output, 'e' standard error, 'x' the exit status (decimal,
 * last).
 *
 * "verb consume" (with one pid, and "count 1" for counting, the relay
 * keys for relay mode, or "overwrite 1" for flight mode) opens a
 * consumer.h session instead.  Each later request gets frames of data,
 * then 'a' and a decimal result, or 'e' and an error (the session goes
 * on):
 *
 *   verb add / verb remove   with "event PATTERN" or "id N"
 *   verb set-rate            with "event PATTERN" and "rate N"
 *   verb events              'v' frames: id, path, format
 *   verb read                'r' frames: records (evt_wire_record); in
 *                            an armed flight session, 'w' frames (below)
 *   verb counts              'c' frames: id, count, path
 *   verb relay-stats         an 's' frame: sessions, packets, refused,
 *                            queued, lost
 *   verb window              flight mode: with before-ns or not, and the
 *                            window's directory as an fd (the client's,
 *                            made empty for it): the window written there
 *   verb arm                 flight mode: trigger (1 to 16), after-ns,
 *                            before-ns, max-windows, "window-frames 1"
 *                            when the client takes each window as a 'w'
 *                            frame (else the daemon says them), "dir
 *                            NAME" (the client's name for it, for
 *                            messages), and the directory as an fd
 *   verb stop                ends the session: windows still due are
 *                            written first, their frames sent, then 'a'
 *
 * 'w' frames (evt_wire): held (i32 as u32), the window's name in DIR
 * ("window-<n>", "" for none), trigger, event, pid, tid, fired_ns (u64),
 * why ("" for none).  'm' frames: a message the daemon's consumer said
 * (an armed session's firings and its summary), one line.
 */
#ifndef EVT_DAEMON_PROTOCOL_H
#define EVT_DAEMON_PROTOCOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rules.h"

/* Where the daemon listens unless told otherwise, and the variable that
 * tells clients (and the daemon) otherwise. */
#define EVT_DAEMON_SOCKET	"/run/evtrace/evtraced.sock"
#define EVT_DAEMON_SOCKET_ENV	"EVTRACE_DAEMON_SOCKET"

/* The socket clients connect to: $EVTRACE_DAEMON_SOCKET or the default. */
const char *evt_daemon_socket_path(void);
/* A socket connected to the daemon, or -1 with errno. */
int evt_daemon_connect(void);

#define EVT_PROTO_MAGIC		0x44545645u	/* "EVTD" little endian */
#define EVT_PROTO_HEADER	8
#define EVT_PROTO_MAX_BODY	65536u
#define EVT_PROTO_MAX_PIDS	64
#define EVT_PROTO_MAX_TRIGGERS	16
#define EVT_PROTO_MAX_KEEP	16
/* trace: the files of usdt/ probes a client names, at most */
#define EVT_PROTO_MAX_PROBE_FILES 64

enum evt_verb {
	EVT_VERB_NONE = 0,
	EVT_VERB_LS, EVT_VERB_FORMAT, EVT_VERB_ENABLE, EVT_VERB_DISABLE,
	EVT_VERB_COUNT, EVT_VERB_STREAM, EVT_VERB_RECORD, EVT_VERB_STOP,
	EVT_VERB_CONSUME, EVT_VERB_ADD, EVT_VERB_REMOVE, EVT_VERB_EVENTS,
	EVT_VERB_READ, EVT_VERB_COUNTS, EVT_VERB_RELAY_STATS,
	EVT_VERB_TRACE, EVT_VERB_SNAPSHOT,
	EVT_VERB_WINDOW, EVT_VERB_ARM, EVT_VERB_SET_RATE,	/* of a session */
};
#define EVT_VERB_LAST EVT_VERB_SET_RATE

/*
 * Why evtraced takes no kernel event in what it records, streams or
 * counts for a client: it runs as root, and would open them past the
 * kernel's rules for the client.  A user's evtrace opens them itself.
 */
#define EVT_PROTO_NO_KERNEL_EVENTS "kernel events of another user's process are " \
	"the kernel's to grant (root or CAP_PERFMON), and evtraced does not " \
	"open them for anyone: a user's evtrace opens those of their own " \
	"processes itself"

struct evt_request {
	enum evt_verb verb;
	int pids[EVT_PROTO_MAX_PIDS];
	unsigned npids;
	const char *events[EVT_RULES_MAX_PATTERNS];	/* point into the body */
	unsigned nevents;
	const char *filters[EVT_RULES_MAX_PATTERNS];	/* stream -F, whole */
	unsigned nfilters;
	const char *path;
	bool formats, ids, overwrite, count, tracefs;
	uint32_t interval_ms, packet_size, packet_count;	/* 0: not given */
	uint32_t block_us;		/* 0: not given; layout.h's values */
	bool has_id;
	uint32_t id;			/* add, remove: a global id */
	const char *relay;		/* record: HOST[:PORT[:DATA_PORT]] */
	const char *session, *hostname;	/* with relay; NULL: not given */
	uint32_t relay_buffer_mib;	/* with relay; 0: not given */
	/* trace: -e trace=SET's sets, -s, -c (1) or -C (2) */
	const char *syscalls[8];
	unsigned nsyscalls;
	bool has_strsize;
	uint32_t strsize;
	uint32_t summary;
	bool held;			/* trace: the pid is a command held
					 * before its exec */
	/* trace with usdt/ events: the files their probes are in (absolute;
	 * the daemon opens them as the client, never as itself) */
	const char *probe_files[EVT_PROTO_MAX_PROBE_FILES];
	unsigned nprobe_files;
	/* record --overwrite: --trigger's expressions (whole: the daemon
	 * parses them), --after and --before (has_*), --max-windows (0: not
	 * given), --keep's patterns */
	const char *triggers[EVT_PROTO_MAX_TRIGGERS];
	unsigned ntriggers;
	bool has_after, has_before;
	uint64_t after_ns, before_ns;
	uint32_t max_windows;
	const char *keep[EVT_PROTO_MAX_KEEP];
	unsigned nkeep;
	/* record without overwrite: --guard (0: not given), --fail-on-loss */
	uint32_t guard_percent;
	bool fail_on_loss;
	/* enable --rate */
	bool has_rate;
	uint32_t rate;
	/* snapshot --collection (0: not given) */
	uint32_t collection;
	/* arm: windows as 'w' frames; the client's name for its directory */
	bool window_frames;
	const char *dir;
};

/* Whether verb is a request inside a consumer session (not a first one). */
bool evt_verb_in_session(enum evt_verb verb);

/*
 * The kernel events evtraced opens for a client who is not root: those
 * flagged CAP_ANY (the system calls' own), and only in trace, for the
 * client's own processes (the kernel's rule for them, from the seeds).
 */
#define EVT_PROTO_CAP_ANY_KERNEL "evtraced opens for you only the kernel " \
	"events flagged CAP_ANY (kernel/syscalls/ and kernel/raw_syscalls/), " \
	"and the usdt/ probes of files you may read, for your own processes"

/* The pattern of filter f ("PATTERN" or "PATTERN if ..."), copied into
 * out; false when it does not fit. */
bool evt_proto_filter_pattern(const char *f, char *out, size_t out_size);

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

/*
 * Binary data in a frame (consumer sessions): integers little endian as
 * the host's (one machine), strings as a 32-bit length and the bytes.  A
 * reader that runs past the end, or meets a length beyond it, fails and
 * stays failed.  A writer starts zeroed and owns buf; a reader is
 * { frame, 0, frame length }: len is where it is, cap the end.
 */
struct evt_wire {
	char *buf;
	size_t len, cap;
	bool bad;
};

void evt_wire_u8(struct evt_wire *w, uint8_t v);
void evt_wire_u32(struct evt_wire *w, uint32_t v);
void evt_wire_u64(struct evt_wire *w, uint64_t v);
void evt_wire_bytes(struct evt_wire *w, const void *p, size_t n);
void evt_wire_str(struct evt_wire *w, const char *s);	/* NULL as "" */

uint8_t evt_wire_get_u8(struct evt_wire *w);
uint32_t evt_wire_get_u32(struct evt_wire *w);
uint64_t evt_wire_get_u64(struct evt_wire *w);
/* Point into the frame; *n the length.  A string is sent with its NUL. */
const void *evt_wire_get_bytes(struct evt_wire *w, uint32_t *n);
const char *evt_wire_get_str(struct evt_wire *w);

struct evt_consumer_record;
/* A record, its fields included, after the kind byte 'r'. */
void evt_wire_record(struct evt_wire *w, const struct evt_consumer_record *r);
/*
 * Reads one back; strings and arrays point into the frame, fields go to
 * fields[max].  0, or -1 when the frame is not one.
 */
struct evt_field;
int evt_wire_get_record(struct evt_wire *w, struct evt_consumer_record *r,
			struct evt_field *fields, unsigned max);

#endif
