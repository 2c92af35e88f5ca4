/*
 * consume.c - a tool built on consumer.h, for tests/consumer_api.sh.  Each
 * mode prints what it read, one line per record or count, fields as
 * name=type:value, so that the test can check values exactly.
 *   consume record PID PATTERN    until PID exits, or SIGUSR2 (which closes
 *                                 the consumer before it exits)
 *   consume ids PID PATH          add the event PATH by its global id, read
 *                                 0.3 s, remove it, read 0.3 s more
 *   consume count PID PATTERN     until PID exits, then the counts
 *   consume errors PID            the errors a tool meets, one per line
 *   consume flight PID PATTERN DIR
 *                                 a flight recorder: each SIGUSR1 writes
 *                                 the window DIR/w<N> ("window N: 0"),
 *                                 until PID exits or SIGTERM; then a
 *                                 window into DIR/w1 again, which exists
 *   consume triggers PID PATTERN DIR EXPR...
 *                                 a flight recorder of PATTERN armed with
 *                                 the triggers EXPR ("armed 0"), windows
 *                                 into DIR/window-<n>, each said as a
 *                                 "window DIR held=H pid=P tid=T
 *                                 trigger=EXPR event=PATH[ why=WHY]"
 *                                 line, until PID exits (0: every
 *                                 process, now and later) or SIGTERM
 *                                 ($CONSUME_AFTER_MS, $CONSUME_BEFORE_MS:
 *                                 after_ns, before_ns; $CONSUME_SAY: no
 *                                 window callback, the consumer says them)
 *   consume relay PID PATTERN ADDRESS [SESSION [HOSTNAME]]
 *                                 streams to lttng-relayd until PID exits
 *                                 (or SIGTERM), then, once the relay has
 *                                 taken it all (10 s at most), what it took
 * $CONSUME_BLOCK_MS sets the attribute block_ms, $CONSUME_RELAY_MIB
 * relay_buffer_mib; $CONSUME_BUFFERED buffers the records' output (a
 * line a write costs more than the event) but for the "added" line;
 * with $CONSUME_REFUSED_EXIT, record and relay exit 3 at once when no
 * pattern was added (for a refusal's test, which then waits for nothing).
 */
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <evtrace/consumer.h>

static unsigned long nrecords;
static volatile sig_atomic_t terminated;

static void on_term(int sig)
{
	(void)sig;
	terminated = 1;
}

static volatile sig_atomic_t windows_asked;

static void on_usr1(int sig)
{
	(void)sig;
	windows_asked++;
}

/* Flight mode: windows on SIGUSR1, into dir/w1, dir/w2, ... */
static void flight(struct evt_consumer *c, const char *dir)
{
	struct pollfd pfd = { .fd = evt_consumer_fd(c), .events = POLLIN };
	char err[1024], path[4096];
	int written = 0, n = 1;

	while (!terminated && n > 0) {
		while (written < windows_asked) {
			written++;
			snprintf(path, sizeof(path), "%s/w%d", dir, written);
			n = evt_consumer_window(c, path, 0, err, sizeof(err));
			printf("window %d: %d%s%s\n", written, n, n ? " " : "",
			       n ? err : "");
		}
		poll(&pfd, 1, 1000);	/* (a signal ends it early) */
		n = evt_consumer_read(c, NULL, NULL, err, sizeof(err));
		if (n < 0)
			printf("read: %s\n", err);
	}
	snprintf(path, sizeof(path), "%s/w1", dir);
	n = evt_consumer_window(c, path, 0, err, sizeof(err));
	printf("again: %d %s\n", n, err);
}

static void print_window(const struct evt_consumer_window_info *w, void *ctx)
{
	(void)ctx;
	printf("window %s held=%d pid=%u tid=%u trigger=%s event=%s%s%s\n",
	       w->dir ? w->dir : "(none)", w->held, w->pid, w->tid, w->trigger,
	       w->event, w->why ? " why=" : "", w->why ? w->why : "");
}

/* Flight mode armed with triggers, until the processes are gone or
 * SIGTERM. */
static int triggers(struct evt_consumer *c, int pid, char **exprs, int nexprs,
		    const char *dir)
{
	struct evt_consumer_triggers t = {
		.size = sizeof(t), .exprs = (const char *const *)exprs,
		.nexprs = (uint32_t)nexprs, .dir = dir,
		.window = getenv("CONSUME_SAY") ? NULL : print_window,
		.after_ns = getenv("CONSUME_AFTER_MS") ?
			    (uint64_t)atol(getenv("CONSUME_AFTER_MS")) * 1000000 : 0,
		.before_ns = getenv("CONSUME_BEFORE_MS") ?
			     (uint64_t)atol(getenv("CONSUME_BEFORE_MS")) * 1000000 : 0,
	};
	struct pollfd pfd = { .fd = evt_consumer_fd(c), .events = POLLIN };
	char err[1024];
	int n = evt_consumer_arm(c, &t, err, sizeof(err));

	printf("armed %d%s%s\n", n, n ? ": " : "", n ? err : "");
	if (n)
		return 1;
	while (!terminated && n >= 0) {
		poll(&pfd, 1, 1000);	/* (a signal ends it early) */
		n = evt_consumer_read(c, NULL, NULL, err, sizeof(err));
		if (n < 0)
			printf("read: %s\n", err);
		if (n == 0 && pid)
			break;
	}
	return 0;
}

static void print_field(const struct evt_field *f)
{
	uint32_t i;

	printf(" %s=", f->name);
	switch (f->type) {
	case EVT_VALUE_INT:
		printf("i:%" PRId64, f->value.i);
		break;
	case EVT_VALUE_UINT:
		printf("u:%" PRIu64, f->value.u);
		break;
	case EVT_VALUE_DOUBLE:
		printf("d:%g", f->value.d);
		break;
	case EVT_VALUE_STRING:
		printf("s:%zu:%.20s", strlen(f->value.s), f->value.s);
		break;
	case EVT_VALUE_ARRAY:
		printf("a:%u:", f->value.array.count);
		for (i = 0; i < f->value.array.count && i < 4; i++) {
			const uint8_t *p = (const uint8_t *)f->value.array.data +
					   i * f->value.array.elem_bytes;
			int64_t v = 0;

			memcpy(&v, p, f->value.array.elem_bytes);
			if (f->value.array.is_signed && f->value.array.elem_bytes < 8 &&
			    (v >> (8 * f->value.array.elem_bytes - 1)) & 1)
				v -= (int64_t)1 << (8 * f->value.array.elem_bytes);
			printf("%s%" PRId64, i ? "," : "", v);
		}
		break;
	}
	if (f->label)
		printf("(%s)", f->label);
}

static void print_record(const struct evt_consumer_record *r, void *ctx)
{
	unsigned i;

	(void)ctx;
	if (r->lost) {
		printf("lost %" PRIu64 "\n", r->lost);
		return;
	}
	nrecords++;
	printf("%s id=%u pid=%u", r->path, r->id, r->pid);
	if (getenv("CONSUME_TID"))
		printf(" tid=%u", r->tid);
	for (i = 0; i < r->nfields; i++)
		print_field(&r->fields[i]);
	/* A printk text ends in its format's newline, mostly. */
	printf(" | %.*s\n", (int)(r->text_len && r->text[r->text_len - 1] == '\n' ?
				  r->text_len - 1 : r->text_len), r->text);
}

static void print_count(uint32_t id, const char *path, uint64_t count, void *ctx)
{
	(void)ctx;
	printf("count %s id=%u %" PRIu64 "\n", path, id, count);
}

struct find {
	const char *path;
	uint32_t id;
	int found;
};

static void find_event(uint32_t id, const char *path, const char *format,
		       void *ctx)
{
	struct find *f = ctx;

	(void)format;
	printf("event %u %s\n", id, path);
	if (!strcmp(path, f->path) && !f->found) {
		f->id = id;
		f->found = 1;
	}
}

/* With $CONSUME_REPORT, the engine's messages: on standard output. */
static void print_report(const char *message, void *ctx)
{
	printf("report (%s): %s\n", (const char *)ctx, message);
}

/* Relay mode: relay is ADDRESS [SESSION [HOSTNAME]]. */
static struct evt_consumer *open_consumer_attr(int pid, uint32_t mode,
					       char **relay, int nrelay)
{
	struct evt_consumer_attr attr = { .size = sizeof(attr), .mode = mode, .pid = pid };
	const char *block = getenv("CONSUME_BLOCK_MS");
	const char *mib = getenv("CONSUME_RELAY_MIB");
	struct evt_consumer *c;
	char err[1024];

	if (block)
		attr.block_ms = !strcmp(block, "inf") ? EVT_CONSUMER_BLOCK_INF :
				(uint32_t)atoi(block);
	if (getenv("CONSUME_REPORT")) {
		attr.report = print_report;
		attr.report_ctx = (void *)"ctx";
	}
	if (mib)
		attr.relay_buffer_mib = (uint32_t)atoi(mib);
	attr.relay = nrelay > 0 ? relay[0] : NULL;
	attr.relay_session = nrelay > 1 ? relay[1] : NULL;
	attr.relay_hostname = nrelay > 2 ? relay[2] : NULL;

	if (evt_consumer_open(&attr, &c, err, sizeof(err))) {
		printf("open: %s\n", err);
		exit(1);
	}
	return c;
}

static struct evt_consumer *open_consumer(int pid, uint32_t mode)
{
	return open_consumer_attr(pid, mode, NULL, 0);
}

/* Reads for ms milliseconds, or until the processes are gone (ms < 0). */
static void read_for(struct evt_consumer *c, int ms)
{
	struct pollfd pfd = { .fd = evt_consumer_fd(c), .events = POLLIN };
	struct timespec start, now;
	char err[512];

	clock_gettime(CLOCK_MONOTONIC, &start);
	for (;;) {
		int n;

		if (terminated || poll(&pfd, 1, 1000) < 0)
			break;
		n = evt_consumer_read(c, print_record, NULL, err, sizeof(err));
		if (n < 0)
			printf("read: %s\n", err);
		if (n <= 0)
			break;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (ms >= 0 && (now.tv_sec - start.tv_sec) * 1000 +
			       (now.tv_nsec - start.tv_nsec) / 1000000 >= ms)
			break;
	}
}

int main(int argc, char **argv)
{
	struct evt_consumer *c;
	char err[1024];
	int pid, n;

	if (argc < 3) {
		fprintf(stderr, "usage: consume record PID PATTERN... | ids|count|errors|flight|triggers|relay PID [PATTERN [ADDRESS [SESSION [HOSTNAME]]]]\n");
		return 2;
	}
	setvbuf(stdout, NULL, getenv("CONSUME_BUFFERED") ? _IOFBF : _IOLBF, 0);
	pid = atoi(argv[2]);
	if (!strcmp(argv[1], "record") && argc >= 4) {	/* PATTERN... */
		int added = 0;

		c = open_consumer(pid, EVT_CONSUMER_RECORD);
		for (int i = 3; i < argc; i++) {
			n = evt_consumer_add(c, argv[i], err, sizeof(err));
			printf("added %d%s%s\n", n, n < 0 ? ": " : "", n < 0 ? err : "");
			added += n >= 0;
		}
		if (!added && getenv("CONSUME_REFUSED_EXIT")) {
			evt_consumer_close(c);
			return 3;
		}
		if (getenv("CONSUME_RATE")) {	/* evt_consumer_set_rate */
			n = evt_consumer_set_rate(c, argv[3],
						  (uint32_t)atol(getenv("CONSUME_RATE")),
						  err, sizeof(err));
			printf("rate %d%s%s\n", n, n < 0 ? ": " : "", n < 0 ? err : "");
		}
		fflush(stdout);
		signal(SIGUSR2, on_term);	/* (ends the reading, then closes) */
		read_for(c, -1);
	} else if (!strcmp(argv[1], "ids") && argc == 4) {
		struct find f = { argv[3], 0, 0 };

		c = open_consumer(pid, EVT_CONSUMER_RECORD);
		evt_consumer_events(c, find_event, &f);
		if (!f.found || evt_consumer_add_id(c, f.id, err, sizeof(err))) {
			printf("add_id: %s\n", f.found ? err : "no such event");
			return 1;
		}
		read_for(c, 300);
		printf("removed %d after %lu\n",
		       evt_consumer_remove_id(c, f.id, err, sizeof(err)), nrecords);
		read_for(c, 100);	/* what was in flight */
		nrecords = 0;
		read_for(c, 300);
		printf("after removing: %lu\n", nrecords);
	} else if (!strcmp(argv[1], "count") && argc == 4) {
		struct pollfd pfd;

		c = open_consumer(pid, EVT_CONSUMER_COUNT);
		printf("added %d\n", evt_consumer_add(c, argv[3], err, sizeof(err)));
		pfd = (struct pollfd){ .fd = evt_consumer_fd(c), .events = POLLIN };
		while (poll(&pfd, 1, 1000) >= 0 &&
		       evt_consumer_counts(c, print_count, &n, err, sizeof(err)) > 0)
			printf("---\n");
	} else if (!strcmp(argv[1], "flight") && argc == 5) {
		signal(SIGTERM, on_term);
		signal(SIGUSR1, on_usr1);
		c = open_consumer(pid, EVT_CONSUMER_FLIGHT);
		n = evt_consumer_add(c, argv[3], err, sizeof(err));
		printf("added %d%s%s\n", n, n < 0 ? ": " : "", n < 0 ? err : "");
		fflush(stdout);
		flight(c, argv[4]);
	} else if (!strcmp(argv[1], "triggers") && argc >= 6) {
		signal(SIGTERM, on_term);
		c = open_consumer(pid, EVT_CONSUMER_FLIGHT);
		n = evt_consumer_add(c, argv[3], err, sizeof(err));
		printf("added %d%s%s\n", n, n < 0 ? ": " : "", n < 0 ? err : "");
		if (triggers(c, pid, argv + 5, argc - 5, argv[4])) {
			evt_consumer_close(c);
			return 1;
		}
	} else if (!strcmp(argv[1], "relay") && argc >= 5 && argc <= 7) {
		struct evt_consumer_relay_stats st = { .size = sizeof(st) };
		struct pollfd pfd;
		int added;

		signal(SIGTERM, on_term);
		c = open_consumer_attr(pid, EVT_CONSUMER_RELAY, argv + 4, argc - 4);
		n = added = evt_consumer_add(c, argv[3], err, sizeof(err));
		printf("added %d%s%s\n", n, n < 0 ? ": " : "", n < 0 ? err : "");
		if (added < 0 && getenv("CONSUME_REFUSED_EXIT")) {
			evt_consumer_close(c);
			return 3;
		}
		printf("counts: %d %s\n", evt_consumer_counts(c, print_count, NULL,
							    err, sizeof(err)), err);
		pfd = (struct pollfd){ .fd = evt_consumer_fd(c), .events = POLLIN };
		while (!terminated && poll(&pfd, 1, 1000) >= 0 &&
		       (n = evt_consumer_read(c, NULL, NULL, err, sizeof(err))) > 0)
			;
		if (n < 0)
			printf("read: %s\n", err);
		for (n = 0; added > 0 && n < 1000; n++) {
			if (evt_consumer_read(c, NULL, NULL, err, sizeof(err)) < 0 ||
			    evt_consumer_relay_stats(c, &st, err, sizeof(err)) ||
			    (st.packets > 0 && st.queued == 0))
				break;
			poll(NULL, 0, 10);
		}
		if (evt_consumer_relay_stats(c, &st, err, sizeof(err)))
			printf("stats: %s\n", err);
		else
			printf("relay sessions=%u packets>0=%d refused=%" PRIu64
			       " queued=%" PRIu64 " lost=%" PRIu64 "\n", st.sessions,
			       st.packets > 0, st.refused, st.queued, st.lost);
	} else if (!strcmp(argv[1], "errors")) {
		struct evt_consumer *d;

		c = open_consumer(pid, EVT_CONSUMER_RECORD);
		printf("bad pattern: %d %s\n", evt_consumer_add(c, "printk//x", err, sizeof(err)), err);
		printf("not added: %d %s\n", evt_consumer_remove(c, "printk/", err, sizeof(err)), err);
		printf("counts: %d %s\n", evt_consumer_counts(c, print_count, NULL, err, sizeof(err)), err);
		printf("none yet: %d\n", evt_consumer_add(c, "printk/nosuch", err, sizeof(err)));
		printf("kernel: %d %s\n", evt_consumer_add(c, "kernel/nosuch", err, sizeof(err)), err);
		printf("kernel not added: %d %s\n", evt_consumer_remove(c, "kernel/sched", err, sizeof(err)), err);
		for (n = 0; n < 70; n++) {
			char pat[32];

			snprintf(pat, sizeof(pat), "printk/many%d", n);
			if (evt_consumer_add(c, pat, err, sizeof(err)) < 0)
				break;
		}
		printf("patterns: %d %s\n", n, err);
		d = open_consumer(pid, EVT_CONSUMER_COUNT);
		printf("read: %d %s\n", evt_consumer_read(d, print_record, NULL, err, sizeof(err)), err);
		printf("kernel counted: %d %s\n", evt_consumer_add(d, "kernel/sched/sched_switch", err, sizeof(err)), err);
		printf("window: %d %s\n", evt_consumer_window(d, "w", 0, err,
						      sizeof(err)), err);
		printf("relay stats: %d %s\n", evt_consumer_relay_stats(d,
		       &(struct evt_consumer_relay_stats){ .size = 64 }, err,
		       sizeof(err)), err);
		{
			const char *span[] = { "span req > 1ms" }, *bad[] = { "span req >> 1ms" },
				   *kern[] = { "kernel/sched/sched_switch" };
			struct evt_consumer_triggers t = {
				.size = sizeof(t), .exprs = span, .nexprs = 1, .dir = ".",
			};

			printf("arm: %d %s\n", evt_consumer_arm(d, &t, err, sizeof(err)), err);
			evt_consumer_close(d);
			d = open_consumer(pid, EVT_CONSUMER_FLIGHT);
			t.dir = "/nonexistent";
			printf("arm nowhere: %d %s\n", evt_consumer_arm(d, &t, err, sizeof(err)), err);
			t.dir = ".";
			t.exprs = bad;
			printf("arm bad: %d %s\n", evt_consumer_arm(d, &t, err, sizeof(err)), err);
			t.exprs = kern;
			printf("arm kernel: %d %s\n", evt_consumer_arm(d, &t, err, sizeof(err)), err);
			t.exprs = span;
			printf("armed: %d\n", evt_consumer_arm(d, &t, err, sizeof(err)));
			printf("arm again: %d %s\n", evt_consumer_arm(d, &t, err, sizeof(err)), err);
		}
		evt_consumer_close(d);
	} else {
		fprintf(stderr, "usage: consume record PID PATTERN... | ids|count|errors|flight|triggers|relay PID [PATTERN [ADDRESS [SESSION [HOSTNAME]]]]\n");
		return 2;
	}
	evt_consumer_close(c);
	return 0;
}
