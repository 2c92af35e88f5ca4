/*
 * protocol.c - frames and requests between evtrace and evtraced.  Every
 * byte comes from a client the daemon does not trust: lengths are checked
 * before anything is read into memory, and a request is refused whole at
 * its first bad line.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "pattern.h"
#include "protocol.h"
#include "relay_address.h"

static const char *const verbs[] = {
	[EVT_VERB_LS] = "ls", [EVT_VERB_FORMAT] = "format",
	[EVT_VERB_ENABLE] = "enable", [EVT_VERB_DISABLE] = "disable",
	[EVT_VERB_COUNT] = "count", [EVT_VERB_STREAM] = "stream",
	[EVT_VERB_RECORD] = "record", [EVT_VERB_STOP] = "stop",
	[EVT_VERB_CONSUME] = "consume", [EVT_VERB_ADD] = "add",
	[EVT_VERB_REMOVE] = "remove", [EVT_VERB_EVENTS] = "events",
	[EVT_VERB_READ] = "read", [EVT_VERB_COUNTS] = "counts",
	[EVT_VERB_RELAY_STATS] = "relay-stats", [EVT_VERB_TRACE] = "trace",
	[EVT_VERB_SNAPSHOT] = "snapshot", [EVT_VERB_WINDOW] = "window",
	[EVT_VERB_ARM] = "arm", [EVT_VERB_SET_RATE] = "set-rate",
};

bool evt_verb_in_session(enum evt_verb verb)
{
	return (verb > EVT_VERB_CONSUME && verb < EVT_VERB_TRACE) ||
	       verb == EVT_VERB_WINDOW || verb == EVT_VERB_ARM ||
	       verb == EVT_VERB_SET_RATE;
}

const char *evt_verb_name(enum evt_verb verb)
{
	return verb > EVT_VERB_NONE && verb <= EVT_VERB_LAST ? verbs[verb] : NULL;
}

const char *evt_daemon_socket_path(void)
{
	const char *env = secure_getenv(EVT_DAEMON_SOCKET_ENV);

	return env && *env ? env : EVT_DAEMON_SOCKET;
}

int evt_daemon_connect(void)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int fd, saved;

	if (snprintf(addr.sun_path, sizeof(addr.sun_path), "%s",
		     evt_daemon_socket_path()) >= (int)sizeof(addr.sun_path))
		return errno = ENAMETOOLONG, -1;
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&addr, sizeof(addr)) == 0)
		return fd;
	saved = errno;
	close(fd);
	errno = saved;
	return -1;
}

int evt_proto_header(const uint8_t header[EVT_PROTO_HEADER], uint32_t *len,
		     char *err, size_t err_size)
{
	uint32_t magic;

	memcpy(&magic, header, 4);
	memcpy(len, header + 4, 4);
	if (magic != EVT_PROTO_MAGIC)
		return snprintf(err, err_size, "not an evtrace message (magic "
				"0x%08" PRIx32 ")", magic), -1;
	if (*len > EVT_PROTO_MAX_BODY)
		return snprintf(err, err_size, "message of %" PRIu32 " bytes, more "
				"than %u", *len, EVT_PROTO_MAX_BODY), -1;
	return 0;
}

/* A decimal number from min to max, nothing else. */
static bool number(const char *v, unsigned long min, unsigned long max,
		   unsigned long *out)
{
	char *end;

	if (*v < '0' || *v > '9' || (v[0] == '0' && v[1]))
		return false;
	errno = 0;
	*out = strtoul(v, &end, 10);
	return !errno && !*end && *out >= min && *out <= max;
}

/* Sets the field key names from v; 1 when key is unknown, -1 when v is
 * wrong for it (err set), 0 when done. */
static int field(struct evt_request *r, const char *key, const char *v,
		 char *err, size_t err_size)
{
	unsigned long n;
	char why[200];

	if (!strcmp(key, "pid")) {
		if (!number(v, 1, INT_MAX, &n))
			return snprintf(err, err_size, "not a process id"), -1;
		if (r->npids == EVT_PROTO_MAX_PIDS)
			return snprintf(err, err_size, "more than %d pids",
					EVT_PROTO_MAX_PIDS), -1;
		r->pids[r->npids++] = (int)n;
	} else if (!strcmp(key, "event") || !strcmp(key, "path")) {
		if (evt_pattern_check(v, why, sizeof(why)))
			return snprintf(err, err_size, "pattern: %s", why), -1;
		if (!strcmp(key, "path")) {
			if (r->path)
				return snprintf(err, err_size, "a second path"), -1;
			r->path = v;
		} else if (r->nevents + r->nfilters >= EVT_RULES_MAX_PATTERNS) {
			return snprintf(err, err_size, "more than %d events",
					EVT_RULES_MAX_PATTERNS), -1;
		} else {
			r->events[r->nevents++] = v;
		}
	} else if (!strcmp(key, "filter")) {
		char pattern[EVT_RULES_PATTERN_MAX];

		if (!evt_proto_filter_pattern(v, pattern, sizeof(pattern)))
			return snprintf(err, err_size, "pattern too long"), -1;
		if (evt_pattern_check(pattern, why, sizeof(why)))
			return snprintf(err, err_size, "pattern: %s", why), -1;
		if (r->nevents + r->nfilters >= EVT_RULES_MAX_PATTERNS)
			return snprintf(err, err_size, "more than %d events",
					EVT_RULES_MAX_PATTERNS), -1;
		r->filters[r->nfilters++] = v;
	} else if (!strcmp(key, "trigger")) {
		if (r->ntriggers == EVT_PROTO_MAX_TRIGGERS)
			return snprintf(err, err_size, "more than %d triggers",
					EVT_PROTO_MAX_TRIGGERS), -1;
		if (!*v || strlen(v) > 1024)
			return snprintf(err, err_size, "not a trigger of 1 to 1024 "
					"bytes"), -1;
		for (const char *c = v; *c; c++)
			if ((unsigned char)*c < 0x20 || *c == 0x7f)
				return snprintf(err, err_size, "a control character "
						"in a trigger"), -1;
		r->triggers[r->ntriggers++] = v;
	} else if (!strcmp(key, "after-ns") || !strcmp(key, "before-ns")) {
		bool after = key[0] == 'a';

		if (!number(v, after ? 0 : 1, 3600000000000UL, &n) ||
		    (after ? r->has_after : r->has_before))
			return snprintf(err, err_size, "not one duration of %s to an "
					"hour, in ns", after ? "0" : "1 ns"), -1;
		*(after ? &r->after_ns : &r->before_ns) = n;
		*(after ? &r->has_after : &r->has_before) = true;
	} else if (!strcmp(key, "max-windows")) {
		if (!number(v, 1, 10000, &n) || r->max_windows)
			return snprintf(err, err_size, "not one number of 1 to 10000"), -1;
		r->max_windows = (uint32_t)n;
	} else if (!strcmp(key, "keep")) {
		if (evt_pattern_check(v, why, sizeof(why)))
			return snprintf(err, err_size, "pattern: %s", why), -1;
		if (r->nkeep == EVT_PROTO_MAX_KEEP)
			return snprintf(err, err_size, "more than %d keep",
					EVT_PROTO_MAX_KEEP), -1;
		r->keep[r->nkeep++] = v;
	} else if (!strcmp(key, "guard")) {
		if (!number(v, 1, 100, &n) || r->guard_percent)
			return snprintf(err, err_size, "not one percentage of 1 to 100"), -1;
		r->guard_percent = (uint32_t)n;
	} else if (!strcmp(key, "collection")) {
		if (!number(v, 1, EVT_MAX_NUMBERS - 1, &n) || r->collection)
			return snprintf(err, err_size, "not one collection number of "
					"1 to %u", EVT_MAX_NUMBERS - 1), -1;
		r->collection = (uint32_t)n;
	} else if (!strcmp(key, "rate")) {
		if (!number(v, 0, EVT_RATE_MAX, &n) || r->has_rate)
			return snprintf(err, err_size, "not one rate of 0 to %u events "
					"a second", EVT_RATE_MAX), -1;
		r->has_rate = true;
		r->rate = (uint32_t)n;
	} else if (!strcmp(key, "fail-on-loss")) {
		if (strcmp(v, "1"))
			return snprintf(err, err_size, "not 1"), -1;
		r->fail_on_loss = true;
	} else if (!strcmp(key, "window-frames")) {
		if (strcmp(v, "1"))
			return snprintf(err, err_size, "not 1"), -1;
		r->window_frames = true;
	} else if (!strcmp(key, "dir")) {
		if (r->dir || !*v || strlen(v) >= 4096)
			return snprintf(err, err_size, "not one name of 1 to 4095 "
					"bytes"), -1;
		r->dir = v;
	} else if (!strcmp(key, "held")) {
		if (strcmp(v, "1"))
			return snprintf(err, err_size, "not 1"), -1;
		r->held = true;
	} else if (!strcmp(key, "formats") || !strcmp(key, "overwrite") ||
		   !strcmp(key, "count") || !strcmp(key, "ids") ||
		   !strcmp(key, "tracefs")) {
		if (strcmp(v, "1"))
			return snprintf(err, err_size, "not 1"), -1;
		*(key[0] == 'f' ? &r->formats : key[0] == 'o' ? &r->overwrite :
		  key[0] == 'i' ? &r->ids : key[0] == 't' ? &r->tracefs :
		  &r->count) = true;
	} else if (!strcmp(key, "id")) {
		if (!number(v, 0, UINT32_MAX - 1, &n) || r->has_id)
			return snprintf(err, err_size, "not one global id"), -1;
		r->has_id = true;
		r->id = (uint32_t)n;
	} else if (!strcmp(key, "interval")) {
		if (!number(v, 10, 3600 * 1000, &n))
			return snprintf(err, err_size, "not 10 to 3600000 ms"), -1;
		r->interval_ms = (uint32_t)n;
	} else if (!strcmp(key, "block-us")) {
		if (!number(v, 1, UINT32_MAX, &n) ||
		    (n > EVT_BLOCK_MAX_US && n != EVT_BLOCK_INF))
			return snprintf(err, err_size, "not 1 to %u, or %u",
					EVT_BLOCK_MAX_US, EVT_BLOCK_INF), -1;
		r->block_us = (uint32_t)n;
	} else if (!strcmp(key, "packet-size") || !strcmp(key, "packets")) {
		if (!number(v, 1, UINT32_MAX, &n))
			return snprintf(err, err_size, "not a positive number"), -1;
		*(key[6] == '-' ? &r->packet_size : &r->packet_count) = (uint32_t)n;
	} else if (!strcmp(key, "relay")) {
		struct evt_relay_opts o;
		char host[256];

		if (r->relay || evt_relay_parse(v, &o, host, sizeof(host)))
			return snprintf(err, err_size, "not one " EVT_RELAY_ADDRESS_FORMS), -1;
		r->relay = v;
	} else if (!strcmp(key, "session") || !strcmp(key, "hostname")) {
		const char **name = key[0] == 's' ? &r->session : &r->hostname;

		if (*name || !evt_relay_name_ok(v))
			return snprintf(err, err_size, "not one name of "
					EVT_RELAY_NAME_FORM), -1;
		*name = v;
	} else if (!strcmp(key, "syscalls")) {
		if (r->nsyscalls == 8 || !*v ||
		    strspn(v, "!%,_abcdefghijklmnopqrstuvwxyz0123456789") != strlen(v))
			return snprintf(err, err_size, "not a set of system calls"), -1;
		r->syscalls[r->nsyscalls++] = v;
	} else if (!strcmp(key, "probe-file")) {
		if (r->nprobe_files == EVT_PROTO_MAX_PROBE_FILES || v[0] != '/' ||
		    strlen(v) >= PATH_MAX)
			return snprintf(err, err_size, "not an absolute path, or more "
					"than %d", EVT_PROTO_MAX_PROBE_FILES), -1;
		r->probe_files[r->nprobe_files++] = v;
	} else if (!strcmp(key, "strsize")) {
		if (!number(v, 0, 4096, &n) || r->has_strsize)
			return snprintf(err, err_size, "not 0 to 4096 bytes"), -1;
		r->has_strsize = true;
		r->strsize = (uint32_t)n;
	} else if (!strcmp(key, "summary")) {
		if (!number(v, 1, 2, &n))
			return snprintf(err, err_size, "not 1 or 2"), -1;
		r->summary = (uint32_t)n;
	} else if (!strcmp(key, "relay-buffer")) {
		if (!number(v, 1, EVT_RELAY_QUEUE_MAX_MIB, &n))
			return snprintf(err, err_size, "not 1 to %u MiB",
					EVT_RELAY_QUEUE_MAX_MIB), -1;
		r->relay_buffer_mib = (uint32_t)n;
	} else {
		return 1;
	}
	return 0;
}

/* A consumer session's window, arm and set-rate: each its own keys. */
static int check_flight_session(const struct evt_request *r, char *err,
				size_t err_size)
{
	bool arm = r->verb == EVT_VERB_ARM, rate = r->verb == EVT_VERB_SET_RATE;

	if (r->npids || r->path || r->nfilters || r->formats || r->ids ||
	    r->overwrite || r->count || r->tracefs || r->interval_ms ||
	    r->packet_size || r->packet_count || r->block_us || r->relay ||
	    r->session || r->hostname || r->relay_buffer_mib || r->has_id ||
	    r->nkeep || r->guard_percent || r->fail_on_loss || r->collection)
		return snprintf(err, err_size, "%s: an option it does not take",
				evt_verb_name(r->verb)), -1;
	if (rate)
		return r->nevents == 1 && r->has_rate && !r->ntriggers &&
		       !r->has_after && !r->has_before && !r->max_windows ? 0 :
		       (snprintf(err, err_size, "set-rate: one event and a rate"), -1);
	if (r->nevents || r->has_rate)
		return snprintf(err, err_size, "%s: an option it does not take",
				evt_verb_name(r->verb)), -1;
	if (arm && !r->ntriggers)
		return snprintf(err, err_size, "arm: no trigger"), -1;
	if (!arm && (r->ntriggers || r->has_after || r->max_windows))
		return snprintf(err, err_size, "window: before-ns or nothing"), -1;
	return 0;
}

/* What each verb needs and allows. */
static int check(const struct evt_request *r, char *err, size_t err_size)
{
	bool path = r->verb <= EVT_VERB_DISABLE;
	bool events = r->verb >= EVT_VERB_COUNT && r->verb <= EVT_VERB_RECORD;
	bool session = r->verb > EVT_VERB_CONSUME && r->verb < EVT_VERB_TRACE;
	bool kernel = (r->verb == EVT_VERB_LS || r->verb == EVT_VERB_FORMAT) &&
		      r->path && evt_is_kernel_path(r->path);

	if (r->verb == EVT_VERB_TRACE) {
		for (unsigned i = 0; i < r->nevents; i++)
			if (evt_is_kernel_path(r->events[i]) &&
			    strncmp(r->events[i], "kernel/syscalls/", 16) &&
			    strncmp(r->events[i], "kernel/raw_syscalls/", 20) &&
			    !evt_is_usdt_path(r->events[i]))
				return snprintf(err, err_size, "%s: %s", r->events[i],
						EVT_PROTO_CAP_ANY_KERNEL), -1;
		if (r->npids != 1 || r->path || r->nfilters || r->formats ||
		    r->ids || r->overwrite || r->count || r->tracefs ||
		    r->interval_ms || r->packet_size || r->packet_count ||
		    r->block_us || r->relay || r->has_id)
			return snprintf(err, err_size, "trace: one pid, events, "
					"syscalls, strsize, summary and probe "
					"files"), -1;
		return 0;
	}
	if (r->nsyscalls || r->has_strsize || r->summary || r->held ||
	    r->nprobe_files)
		return snprintf(err, err_size, "%s: syscalls, strsize, summary "
				"and probe files are for trace",
				evt_verb_name(r->verb)), -1;
	for (unsigned i = 0; i < r->nevents; i++)
		if (evt_is_kernel_path(r->events[i]))
			return snprintf(err, err_size, "%s: %s", r->events[i],
					EVT_PROTO_NO_KERNEL_EVENTS), -1;
	for (unsigned i = 0; i < r->nfilters; i++) {
		char pattern[EVT_RULES_PATTERN_MAX];

		if (evt_proto_filter_pattern(r->filters[i], pattern, sizeof(pattern)) &&
		    evt_is_kernel_path(pattern))
			return snprintf(err, err_size, "%s: %s", pattern,
					EVT_PROTO_NO_KERNEL_EVENTS), -1;
	}
	for (unsigned i = 0; i < r->nkeep; i++)
		if (evt_is_kernel_path(r->keep[i]))
			return snprintf(err, err_size, "%s: %s", r->keep[i],
					EVT_PROTO_NO_KERNEL_EVENTS), -1;
	if ((r->window_frames || r->dir) && r->verb != EVT_VERB_ARM)
		return snprintf(err, err_size, "%s: window-frames and dir are for arm",
				evt_verb_name(r->verb)), -1;
	if (r->verb == EVT_VERB_WINDOW || r->verb == EVT_VERB_ARM ||
	    r->verb == EVT_VERB_SET_RATE)
		return check_flight_session(r, err, err_size);
	if (r->verb == EVT_VERB_SNAPSHOT) {
		if (r->npids != 1 || r->nevents || r->path || r->formats || r->ids ||
		    r->overwrite || r->count || r->tracefs || r->interval_ms ||
		    r->packet_size || r->packet_count || r->block_us || r->relay ||
		    r->has_id || r->ntriggers || r->has_after || r->max_windows ||
		    r->nkeep || r->guard_percent || r->fail_on_loss || r->has_rate)
			return snprintf(err, err_size, "snapshot: one pid, and "
					"before-ns, collection or nothing"), -1;
		return 0;
	}
	if (r->collection)
		return snprintf(err, err_size, "%s: collection is for snapshot",
				evt_verb_name(r->verb)), -1;
	if ((r->ntriggers || r->has_after || r->has_before || r->max_windows ||
	     r->nkeep || r->guard_percent || r->fail_on_loss) &&
	    r->verb != EVT_VERB_RECORD)
		return snprintf(err, err_size, "%s: trigger, after-ns, before-ns, "
				"max-windows, keep, guard and fail-on-loss are for "
				"record", evt_verb_name(r->verb)), -1;
	if (r->has_rate && (r->verb != EVT_VERB_ENABLE || !r->npids))
		return snprintf(err, err_size, "%s: rate is for enable, with a pid",
				evt_verb_name(r->verb)), -1;
	if ((r->ntriggers || r->nkeep) && !r->overwrite)
		return snprintf(err, err_size, "record: trigger and keep go with "
				"overwrite"), -1;
	if ((r->has_after || r->has_before || r->max_windows) && !r->ntriggers)
		return snprintf(err, err_size, "record: after-ns, before-ns and "
				"max-windows go with trigger"), -1;
	if ((r->guard_percent || r->fail_on_loss) && r->overwrite)
		return snprintf(err, err_size, "record: guard and fail-on-loss "
				"exclude overwrite"), -1;
	if (r->nfilters && r->verb != EVT_VERB_STREAM)
		return snprintf(err, err_size, "%s: filter is for stream",
				evt_verb_name(r->verb)), -1;
	if (r->tracefs && (r->verb != EVT_VERB_FORMAT || !kernel))
		return snprintf(err, err_size, "%s: tracefs is for a kernel event's "
				"format", evt_verb_name(r->verb)), -1;
	if (r->count && r->verb != EVT_VERB_CONSUME)
		return snprintf(err, err_size, "%s: an option it does not take",
				evt_verb_name(r->verb)), -1;
	if ((r->relay && r->verb != EVT_VERB_RECORD && r->verb != EVT_VERB_CONSUME) ||
	    (r->relay && r->count) ||
	    ((r->session || r->hostname || r->relay_buffer_mib) && !r->relay))
		return snprintf(err, err_size, "%s: %s", evt_verb_name(r->verb),
				r->relay ? "an option it does not take" :
				"session, hostname and relay-buffer go with relay"), -1;
	if (r->relay && r->overwrite)
		return snprintf(err, err_size, "record: relay and overwrite exclude "
				"each other"), -1;
	if (r->block_us && ((r->verb != EVT_VERB_RECORD && r->verb != EVT_VERB_CONSUME) ||
			    r->overwrite || r->count))
		return snprintf(err, err_size, "%s: block-us is for record and "
				"consume, not with overwrite or count",
				evt_verb_name(r->verb)), -1;
	if (r->verb == EVT_VERB_STOP || session) {
		bool selects = r->verb == EVT_VERB_ADD || r->verb == EVT_VERB_REMOVE;

		if (r->npids || r->path || r->formats || r->ids || r->overwrite ||
		    r->interval_ms || r->packet_size || r->packet_count ||
		    (!selects && (r->nevents || r->has_id)))
			return snprintf(err, err_size, "%s takes nothing",
					evt_verb_name(r->verb)), -1;
		if (selects && r->nevents + r->has_id != 1)
			return snprintf(err, err_size, "%s: one event or one id",
					evt_verb_name(r->verb)), -1;
		return 0;
	}
	if (r->has_id)
		return snprintf(err, err_size, "%s: an option it does not take",
				evt_verb_name(r->verb)), -1;
	if (r->verb == EVT_VERB_CONSUME) {
		if (r->npids != 1 || r->nevents || r->path || r->formats || r->ids ||
		    (r->overwrite && (r->count || r->relay)) || r->interval_ms ||
		    r->packet_size || r->packet_count)
			return snprintf(err, err_size, "consume: one pid, and count, "
					"relay, block-us, overwrite or nothing"), -1;
		return 0;
	}
	if (kernel && r->npids)
		return snprintf(err, err_size, "%s: kernel events take no pid",
				evt_verb_name(r->verb)), -1;
	if (!r->npids && !kernel)
		return snprintf(err, err_size, "%s: no pid", evt_verb_name(r->verb)), -1;
	if (r->npids > 1 && path)
		return snprintf(err, err_size, "%s: one pid only",
				evt_verb_name(r->verb)), -1;
	if ((r->verb != EVT_VERB_LS && path && !r->path) || (r->path && !path))
		return snprintf(err, err_size, "%s: path %s", evt_verb_name(r->verb),
				r->path ? "not taken" : "missing"), -1;
	if ((r->nevents && !events) ||
	    ((r->formats || r->ids) && r->verb != EVT_VERB_LS) ||
	    (r->interval_ms && r->verb != EVT_VERB_COUNT) ||
	    ((r->overwrite || r->packet_size || r->packet_count) &&
	     r->verb != EVT_VERB_RECORD))
		return snprintf(err, err_size, "%s: an option it does not take",
				evt_verb_name(r->verb)), -1;
	return 0;
}

int evt_proto_parse(char *body, size_t len, struct evt_request *r, char *err,
		    size_t err_size)
{
	char *line = body, *end = body + len, why[300];
	unsigned lineno = 0;

	memset(r, 0, sizeof(*r));
	body[len] = '\0';
	if (memchr(body, '\0', len))
		return snprintf(err, err_size, "a NUL byte in the request"), -1;
	if (len && body[len - 1] != '\n')
		return snprintf(err, err_size, "the request's last line does not "
				"end"), -1;
	while (line < end) {
		char *nl = strchr(line, '\n'), *sp;
		int ret;

		*nl = '\0';
		lineno++;
		sp = strchr(line, ' ');
		if (!sp) {
			snprintf(why, sizeof(why), "not 'key value'");
			goto bad;
		}
		*sp = '\0';
		if (lineno == 1) {
			enum evt_verb v;

			for (v = EVT_VERB_LS; v <= EVT_VERB_LAST; v++)
				if (!strcmp(line, "verb") && !strcmp(sp + 1, verbs[v]))
					break;
			if (v > EVT_VERB_LAST) {
				snprintf(why, sizeof(why), "not a verb this daemon "
					 "knows");
				goto bad;
			}
			r->verb = v;
		} else if ((ret = field(r, line, sp + 1, why, sizeof(why)))) {
			if (ret > 0)
				snprintf(why, sizeof(why), "unknown key '%.40s'", line);
			goto bad;
		}
		line = nl + 1;
	}
	if (!r->verb)
		return snprintf(err, err_size, "an empty request"), -1;
	return check(r, err, err_size);
bad:
	snprintf(err, err_size, "request line %u: %s", lineno, why);
	return -1;
}

int evt_proto_format(const struct evt_request *r, char *buf, size_t size)
{
	size_t used = 0;
	unsigned i;
	int n;

#define PUT(...)							\
	do {								\
		n = snprintf(buf + used, size - used, __VA_ARGS__);	\
		if (n < 0 || (size_t)n >= size - used)			\
			return -1;					\
		used += (size_t)n;					\
	} while (0)
	PUT("verb %s\n", evt_verb_name(r->verb));
	for (i = 0; i < r->npids; i++)
		PUT("pid %d\n", r->pids[i]);
	for (i = 0; i < r->nevents; i++)
		PUT("event %s\n", r->events[i]);
	for (i = 0; i < r->nfilters; i++)
		PUT("filter %s\n", r->filters[i]);
	if (r->path)
		PUT("path %s\n", r->path);
	if (r->formats)
		PUT("formats 1\n");
	if (r->tracefs)
		PUT("tracefs 1\n");
	if (r->ids)
		PUT("ids 1\n");
	if (r->overwrite)
		PUT("overwrite 1\n");
	if (r->interval_ms)
		PUT("interval %" PRIu32 "\n", r->interval_ms);
	if (r->packet_size)
		PUT("packet-size %" PRIu32 "\n", r->packet_size);
	if (r->packet_count)
		PUT("packets %" PRIu32 "\n", r->packet_count);
	if (r->block_us)
		PUT("block-us %" PRIu32 "\n", r->block_us);
	for (i = 0; i < r->nsyscalls; i++)
		PUT("syscalls %s\n", r->syscalls[i]);
	if (r->has_strsize)
		PUT("strsize %" PRIu32 "\n", r->strsize);
	if (r->summary)
		PUT("summary %" PRIu32 "\n", r->summary);
	if (r->held)
		PUT("held 1\n");
	for (i = 0; i < r->nprobe_files; i++)
		PUT("probe-file %s\n", r->probe_files[i]);
	if (r->count)
		PUT("count 1\n");
	if (r->has_id)
		PUT("id %" PRIu32 "\n", r->id);
	if (r->relay)
		PUT("relay %s\n", r->relay);
	if (r->session)
		PUT("session %s\n", r->session);
	if (r->hostname)
		PUT("hostname %s\n", r->hostname);
	if (r->relay_buffer_mib)
		PUT("relay-buffer %" PRIu32 "\n", r->relay_buffer_mib);
	for (i = 0; i < r->ntriggers; i++)
		PUT("trigger %s\n", r->triggers[i]);
	if (r->has_after)
		PUT("after-ns %" PRIu64 "\n", r->after_ns);
	if (r->has_before)
		PUT("before-ns %" PRIu64 "\n", r->before_ns);
	if (r->max_windows)
		PUT("max-windows %" PRIu32 "\n", r->max_windows);
	for (i = 0; i < r->nkeep; i++)
		PUT("keep %s\n", r->keep[i]);
	if (r->guard_percent)
		PUT("guard %" PRIu32 "\n", r->guard_percent);
	if (r->fail_on_loss)
		PUT("fail-on-loss 1\n");
	if (r->has_rate)
		PUT("rate %" PRIu32 "\n", r->rate);
	if (r->collection)
		PUT("collection %" PRIu32 "\n", r->collection);
	if (r->window_frames)
		PUT("window-frames 1\n");
	if (r->dir)
		PUT("dir %s\n", r->dir);
#undef PUT
	return (int)used;
}

int evt_proto_send(int sock, const void *body, size_t len, int fd)
{
	uint8_t header[EVT_PROTO_HEADER];
	uint32_t magic = EVT_PROTO_MAGIC, n = (uint32_t)len;
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int))];
	} control;
	struct iovec iov[2] = {
		{ header, sizeof(header) }, { (void *)body, len },
	};
	struct msghdr msg = { .msg_iov = iov, .msg_iovlen = 2 };
	size_t left = sizeof(header) + len;

	if (len > EVT_PROTO_MAX_BODY)
		return errno = EMSGSIZE, -1;
	memcpy(header, &magic, 4);
	memcpy(header + 4, &n, 4);
	if (fd >= 0) {
		memset(&control, 0, sizeof(control));
		msg.msg_control = control.buf;
		msg.msg_controllen = sizeof(control.buf);
		CMSG_FIRSTHDR(&msg)->cmsg_level = SOL_SOCKET;
		CMSG_FIRSTHDR(&msg)->cmsg_type = SCM_RIGHTS;
		CMSG_FIRSTHDR(&msg)->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(CMSG_FIRSTHDR(&msg)), &fd, sizeof(int));
	}
	while (left) {
		ssize_t sent = sendmsg(sock, &msg, MSG_NOSIGNAL);

		if (sent < 0 && errno == EINTR)
			continue;
		if (sent < 0)
			return -1;
		left -= (size_t)sent;
		msg.msg_control = NULL;	/* the fd went with the first byte */
		msg.msg_controllen = 0;
		while (sent > 0 && msg.msg_iovlen) {
			size_t part = (size_t)sent < msg.msg_iov->iov_len ?
				      (size_t)sent : msg.msg_iov->iov_len;

			msg.msg_iov->iov_base = (char *)msg.msg_iov->iov_base + part;
			msg.msg_iov->iov_len -= part;
			sent -= (ssize_t)part;
			if (!msg.msg_iov->iov_len) {
				msg.msg_iov++;
				msg.msg_iovlen--;
			}
		}
	}
	return 0;
}

int evt_proto_send_kind(int sock, char kind, const char *text, size_t len)
{
	char body[EVT_PROTO_MAX_BODY];

	if (len > sizeof(body) - 1)
		len = sizeof(body) - 1;
	body[0] = kind;
	memcpy(body + 1, text, len);
	return evt_proto_send(sock, body, len + 1, -1);
}

static long ms_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000;
}

/* Reads exactly n bytes by the deadline (-1: none); an fd passed along
 * is kept in *fd.  0, -2 at end of file before any byte, or -1. */
static int read_full(int sock, char *buf, size_t n, int *fd, long deadline,
		     char *err, size_t err_size)
{
	size_t got = 0;

	while (got < n) {
		union {
			struct cmsghdr h;
			char buf[CMSG_SPACE(sizeof(int))];
		} control;
		struct iovec iov = { buf + got, n - got };
		struct msghdr msg = {
			.msg_iov = &iov, .msg_iovlen = 1,
			.msg_control = control.buf, .msg_controllen = sizeof(control.buf),
		};
		struct pollfd p = { .fd = sock, .events = POLLIN };
		struct cmsghdr *c;
		int wait = deadline < 0 ? -1 : (int)(deadline - ms_now());
		ssize_t r;

		if (deadline >= 0 && wait <= 0)
			return snprintf(err, err_size, "timed out in the middle of "
					"a message"), -1;
		if (poll(&p, 1, wait) < 0) {
			if (errno == EINTR)
				continue;
			return snprintf(err, err_size, "%s", strerror(errno)), -1;
		}
		if (!p.revents)
			continue;
		r = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC | MSG_DONTWAIT);
		if (r < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (r < 0)
			return snprintf(err, err_size, "%s", strerror(errno)), -1;
		for (c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
			int passed[8];
			size_t k, count;

			if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
				continue;
			count = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
			if (count > 8)
				count = 8;
			memcpy(passed, CMSG_DATA(c), count * sizeof(int));
			for (k = 0; k < count; k++) {
				if (fd && *fd < 0)
					*fd = passed[k];
				else
					close(passed[k]);
			}
		}
		if (r == 0)
			return got ? (snprintf(err, err_size, "the other end left "
					       "in the middle of a message"), -1) : -2;
		got += (size_t)r;
	}
	return 0;
}

long evt_proto_recv(int sock, char *buf, int *fd, int timeout_ms, char *err,
		    size_t err_size)
{
	long deadline = timeout_ms < 0 ? -1 : ms_now() + timeout_ms;
	uint8_t header[EVT_PROTO_HEADER];
	uint32_t len;
	int ret;

	if (fd)
		*fd = -1;
	ret = read_full(sock, (char *)header, sizeof(header), fd, deadline, err,
			err_size);
	if (ret)
		return ret;
	if (evt_proto_header(header, &len, err, err_size) ||
	    (ret = read_full(sock, buf, len, fd, deadline, err, err_size))) {
		if (ret == -2)
			snprintf(err, err_size, "the other end left in the middle "
				 "of a message");
		if (fd && *fd >= 0) {
			close(*fd);
			*fd = -1;
		}
		return -1;
	}
	buf[len] = '\0';
	return (long)len;
}

static void put(struct evt_wire *w, const void *p, size_t n)
{
	if (w->bad || n > EVT_PROTO_MAX_BODY - w->len) {
		w->bad = true;
		return;
	}
	if (w->len + n > w->cap) {
		size_t cap = w->cap ? w->cap * 2 : 1024;
		char *grown;

		while (cap < w->len + n)
			cap *= 2;
		grown = realloc(w->buf, cap);
		if (!grown) {
			w->bad = true;
			return;
		}
		w->buf = grown;
		w->cap = cap;
	}
	memcpy(w->buf + w->len, p, n);
	w->len += n;
}

void evt_wire_u8(struct evt_wire *w, uint8_t v)
{
	put(w, &v, 1);
}

void evt_wire_u32(struct evt_wire *w, uint32_t v)
{
	put(w, &v, 4);
}

void evt_wire_u64(struct evt_wire *w, uint64_t v)
{
	put(w, &v, 8);
}

void evt_wire_bytes(struct evt_wire *w, const void *p, size_t n)
{
	if (n > UINT32_MAX) {
		w->bad = true;
		return;
	}
	evt_wire_u32(w, (uint32_t)n);
	put(w, p, n);
}

void evt_wire_str(struct evt_wire *w, const char *s)
{
	evt_wire_bytes(w, s ? s : "", strlen(s ? s : "") + 1);
}

static const void *take(struct evt_wire *w, size_t n)
{
	const void *p = w->buf + w->len;

	if (w->bad || n > w->cap - w->len) {
		w->bad = true;
		return NULL;
	}
	w->len += n;
	return p;
}

/* An n-byte integer, little endian as the host (one machine). */
static uint64_t take_int(struct evt_wire *w, size_t n)
{
	const void *p = take(w, n);
	uint64_t v = 0;

	if (p)
		memcpy(&v, p, n);
	return v;
}

uint8_t evt_wire_get_u8(struct evt_wire *w)
{
	return (uint8_t)take_int(w, 1);
}

uint32_t evt_wire_get_u32(struct evt_wire *w)
{
	return (uint32_t)take_int(w, 4);
}

uint64_t evt_wire_get_u64(struct evt_wire *w)
{
	return take_int(w, 8);
}

const void *evt_wire_get_bytes(struct evt_wire *w, uint32_t *n)
{
	*n = evt_wire_get_u32(w);
	return take(w, *n);
}

const char *evt_wire_get_str(struct evt_wire *w)
{
	uint32_t n;
	const char *s = evt_wire_get_bytes(w, &n);

	if (!s || !n || s[n - 1] != '\0') {
		w->bad = true;
		return NULL;
	}
	return s;
}

bool evt_proto_filter_pattern(const char *f, char *out, size_t out_size)
{
	const char *test = strstr(f, " if ");
	size_t n = test ? (size_t)(test - f) : strlen(f);

	if (n >= out_size)
		return false;
	memcpy(out, f, n);
	out[n] = '\0';
	return true;
}
