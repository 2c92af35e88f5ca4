#!/bin/sh
# Every public header in one C file and one C++ file, with the strictest
# warnings as errors, from an include directory that is not a system one
# (as a per-user install gives): a tool that traces itself and reads
# events with consumer.h, a typed event, a stable view.  (Until 0.1.3,
# evtrace.h's event.h and consumer.h both defined struct evt_field.)
. "$(dirname "$0")/lib.sh"
cat >"$T/both.c" <<'C'
#include <evtrace/evtrace.h>
#include <evtrace/consumer.h>
#include <stdio.h>
#include <string.h>

struct task { int pid; long state; };

EVT_ENUM(task_state, {"R", 0}, {"S", 1})

EVT_EVENT(demo, step,
	EVT_PROTO(const struct task *t),
	EVT_ARGS(t),
	EVT_FIELDS(
		evt_integer(int, pid, t->pid),
		evt_enum(long, state, task_state, t->state)))

EVT_STABLE_EVENT(demo_step, demo, step,
	EVT_FIELDS(evt_integer(int, pid, args->t->pid)))

static void show(const struct evt_consumer_record *r, void *ctx)
{
	unsigned i;

	(void)ctx;
	for (i = 0; i < r->nfields; i++) {
		const struct evt_field *f = &r->fields[i];

		printf("%s\n", f->name);
	}
}

int main(void)
{
	struct evt_consumer_attr attr;
	struct evt_consumer *c = NULL;
	struct task t = { 1, 0 };
	char err[256];

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);

	trace_printk("tool %d\n", 1);
	trace_demo_step(&t);
	if (evt_consumer_open(&attr, &c, err, sizeof(err)) == 0) {
		evt_consumer_read(c, show, NULL, err, sizeof(err));
		evt_consumer_close(c);
	}
	return 0;
}
C
mkdir -p "$T/inc"
cp -r "$INCLUDE/evtrace" "$T/inc/"
strict="-Wall -Wextra -Wpedantic -Wredundant-decls -Werror"
cc -std=gnu11 $strict -Wmissing-prototypes -I"$T/inc" -c "$T/both.c" -o "$T/both.o" 2>"$T/c.err" ||
	{ cat "$T/c.err" >&2; fail "C: the public headers together"; }
cp "$T/both.c" "$T/both.cc"
c++ -std=gnu++17 $strict -Wmissing-declarations -I"$T/inc" -c "$T/both.cc" -o "$T/both_cc.o" 2>"$T/cc.err" ||
	{ cat "$T/cc.err" >&2; fail "C++: the public headers together"; }
# ... and they link, against both libraries.
cc "$T/both.o" -o "$T/both" -L"$BUILD" -L"$BUILD/engine" -levtrace -levtrace-consumer 2>"$T/ld.err" ||
	{ cat "$T/ld.err" >&2; fail "linking the tool against both libraries"; }
