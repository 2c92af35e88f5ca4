/*
 * every_macro.c - every macro of the public API, in one file that is C
 * and C++ alike, for public_headers_build_strictly: a printk site with
 * no argument and with several, ftrace_printk, a typed event of every
 * field kind with its stable view and flags, spans with and without
 * arguments, scopes, async spans (by number and by address), counters
 * of both kinds, and a consumer.
 */
#include <evtrace/evtrace.h>
#include <evtrace/consumer.h>
#include <stdint.h>
#include <string.h>

struct task {
	int pid;
	long state;
	const char *name;
	unsigned char bytes[4];
};

EVT_ENUM(task_state, {"R", 0}, {"S", 1})

EVT_EVENT(demo, step,
	EVT_PROTO(const struct task *t, double load),
	EVT_ARGS(t, load),
	EVT_FIELDS(
		evt_integer(int, pid, t->pid),
		evt_enum(long, state, task_state, t->state),
		evt_bool(running, t->state == 0),
		evt_double(load, load),
		evt_array(unsigned char, bytes, 4, t->bytes),
		evt_string(name, t->name),
		evt_sequence(unsigned char, seq, t->bytes, 2)))

EVT_STABLE_EVENT(demo_step, demo, step,
	EVT_FIELDS(evt_integer(int, pid, args->t->pid)))

EVT_EVENT_FLAGS(demo, step, EVT_FL_CAP_ANY)

static void show(const struct evt_consumer_record *r, void *ctx)
{
	(void)ctx;
	(void)r;
}

#ifndef __cplusplus
/* Arguments a C site's own write takes apart (bits/window.h), compiled
 * only: an array parameter's string, a char, a float, NULL, a bit-field,
 * an argument with a side effect. */
struct every_bits {
	unsigned flag : 3;
};

__attribute__((unused)) static int arguments(char name[8], const struct every_bits *b, int i)
{
	trace_printk("%s %c %f %p %u %d\n", name, 'c', 1.5f, (void *)0, b->flag, i++);
	return i;
}
#endif

static int work(int n)
{
	trace_scope("work");
	trace_scope("work args", "n=%d", n);
	return n + 1;
}

int main(int argc, char **argv)
{
	struct evt_consumer_attr attr;
	struct evt_consumer *c;
	struct task t = { 1, 0, "init", { 1, 2, 3, 4 } };
	void *where = &t;
	char err[256];

	trace_printk("no arguments\n");
	trace_printk("tool %d %s %p %.1f\n", 1, "x", where, 0.5);
	ftrace_printk("legacy\n");
	ftrace_printk("legacy %ld\n", 2L);
	trace_demo_step(&t, 0.5);
	trace_span_begin("x");
	trace_span_end("x");
	trace_span_begin("y", "a=%d", 3);
	trace_span_end("y");
	trace_async_begin("job", 7);
	trace_async_begin("job2", 8, "who=%s", "me");
	trace_async_end("job", 7);
	trace_async_end("job2", 8);
	trace_async_begin("by address", &t);
	trace_async_end("by address", &t);
	trace_counter("queue", 3);
	trace_counter("load", 0.25);
	work(2);
	/* A consumer, when asked (argv[1] "consume"): it opens none here. */
	if (argc > 1 && !strcmp(argv[1], "consume")) {
		memset(&attr, 0, sizeof(attr));
		attr.size = sizeof(attr);
		if (evt_consumer_open(&attr, &c, err, sizeof(err)) == 0) {
			evt_consumer_read(c, show, &t, err, sizeof(err));
			evt_consumer_close(c);
		}
	}
	return 0;
}
