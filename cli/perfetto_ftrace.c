/*
 * perfetto_ftrace.c - kernel events as Perfetto's ftrace events, a bundle
 * per CPU (perfetto_ftrace.h).  Field numbers are those of Perfetto's
 * published schema (ftrace/ftrace_event_bundle.proto, ftrace_event.proto,
 * sched.proto, task.proto, raw_syscalls.proto, generic.proto).
 */
#include <stdlib.h>
#include <string.h>

#include "json_text.h"
#include "perfetto_ftrace.h"
#include "record_fields.h"

enum {
	TP_FTRACE_EVENTS = 1,
	/* FtraceEventBundle */
	BUNDLE_CPU = 1, BUNDLE_EVENT = 2, BUNDLE_LOST_EVENTS = 3,
	/* FtraceEvent */
	EV_TIMESTAMP = 1, EV_PID = 2, EV_GENERIC = 327,
	/* GenericFtraceEvent, its Field */
	GEN_EVENT_NAME = 1, GEN_FIELD = 2,
	GF_NAME = 1, GF_STR_VALUE = 3, GF_INT_VALUE = 4, GF_UINT_VALUE = 5,
};

/* An event the schema types: its field in FtraceEvent, and the names of
 * its message's fields 1, 2, ... (the kernel's names for them). */
struct typed_event {
	const char *path;
	uint32_t number;
	const char *fields[8];
};

static const struct typed_event typed_events[] = {
	{ "kernel/sched/sched_switch", 4, { "prev_comm", "prev_pid", "prev_prio",
	  "prev_state", "next_comm", "next_pid", "next_prio" } },
	{ "kernel/sched/sched_wakeup", 17, { "comm", "pid", "prio", "success", "target_cpu" } },
	{ "kernel/sched/sched_waking", 20, { "comm", "pid", "prio", "success", "target_cpu" } },
	{ "kernel/sched/sched_wakeup_new", 114, { "comm", "pid", "prio", "success",
	  "target_cpu" } },
	{ "kernel/task/task_newtask", 235, { "pid", "comm", "clone_flags", "oom_score_adj" } },
	{ "kernel/task/task_rename", 236, { "pid", "oldcomm", "newcomm", "oom_score_adj" } },
	{ "kernel/sched/sched_process_exec", 237, { "filename", "pid", "old_pid" } },
	{ "kernel/sched/sched_process_exit", 238, { "comm", "pid", "tgid", "prio" } },
	{ "kernel/sched/sched_process_fork", 239, { "parent_comm", "parent_pid",
	  "child_comm", "child_pid" } },
	{ "kernel/sched/sched_process_free", 240, { "comm", "pid", "prio" } },
	{ "kernel/raw_syscalls/sys_enter", 329, { "id", "args" } },
	{ "kernel/raw_syscalls/sys_exit", 330, { "id", "ret" } },
};

static const struct typed_event *typed_event(const char *path)
{
	size_t i;

	for (i = 0; i < sizeof(typed_events) / sizeof(typed_events[0]); i++)
		if (!strcmp(typed_events[i].path, path))
			return &typed_events[i];
	return NULL;
}

/* A char array's text, to its NUL. */
static void char_text(struct pb *b, uint32_t field, const struct evt_field *fl)
{
	pb_text(b, field, fl->value.array.data, evt_field_text_len(fl));
}

/* A value as field of a typed message: a string, an integer (negative
 * ones as their 64-bit two's complement, as protobuf's int32 and int64
 * are), or each element of an array (a repeated field). */
static void typed_value(struct pb *b, uint32_t field, const struct evt_field *fl,
			const struct evt_field_format *fd)
{
	uint32_t i;

	if (fl->type == EVT_VALUE_STRING)
		pb_string(b, field, fl->value.s);
	else if (evt_field_is_text(fl, fd))
		char_text(b, field, fl);
	else if (fl->type == EVT_VALUE_ARRAY)
		for (i = 0; i < fl->value.array.count; i++)
			pb_varint(b, field, evt_field_element(fl, i));
	else if (fl->type == EVT_VALUE_INT)
		pb_varint(b, field, (uint64_t)fl->value.i);
	else if (fl->type == EVT_VALUE_UINT)
		pb_varint(b, field, fl->value.u);
}

/* A GenericFtraceEvent.Field: a string, an integer, or an array's
 * elements as text. */
static void generic_field(struct pb *b, const struct evt_field *fl,
			  const struct evt_field_format *fd, struct json_buf *text)
{
	size_t m = pb_open(b, GEN_FIELD);

	pb_string(b, GF_NAME, fl->name);
	if (fl->type == EVT_VALUE_STRING) {
		pb_string(b, GF_STR_VALUE, fl->value.s);
	} else if (evt_field_is_text(fl, fd)) {
		char_text(b, GF_STR_VALUE, fl);
	} else if (fl->type == EVT_VALUE_ARRAY) {
		text->len = 0;
		json_buf_array(text, fl);
		pb_text(b, GF_STR_VALUE, text->text ? text->text : "", text->len);
	} else if (fl->type == EVT_VALUE_INT) {
		pb_varint(b, GF_INT_VALUE, (uint64_t)fl->value.i);
	} else if (fl->type == EVT_VALUE_UINT) {
		pb_varint(b, GF_UINT_VALUE, fl->value.u);
	}
	pb_close(b, m);
}

static struct ftrace_cpu *cpu_of(struct ftrace_bundles *b, uint32_t cpu)
{
	if (cpu >= b->ncpus) {
		struct ftrace_cpu *grown = realloc(b->cpus, (cpu + 1) * sizeof(*grown));

		if (!grown)
			return NULL;
		memset(grown + b->ncpus, 0, (cpu + 1 - b->ncpus) * sizeof(*grown));
		b->cpus = grown;
		b->ncpus = cpu + 1;
	}
	return &b->cpus[cpu];
}

int64_t ftrace_bundles_add(struct ftrace_bundles *b, const struct evt_trace_item *it)
{
	struct evt_field fields[EVT_FIELDS_MAX];
	evt_arg_name names[EVT_PRINTK_MAX_ARGS];
	const struct evt_event_format *f = &it->event->layout.typed;
	const struct typed_event *t = typed_event(it->event->path);
	struct ftrace_cpu *c = cpu_of(b, it->cpu);
	struct json_buf text = { 0 };
	const char *name;
	size_t m, e;
	int i, k, nf;

	if (!c)
		return -1;
	nf = evt_record_fields(&it->event->layout, it->payload, it->payload_size,
			       fields, names);
	m = pb_open(&c->events, BUNDLE_EVENT);
	pb_varint(&c->events, EV_TIMESTAMP, (uint64_t)it->monotonic_ns);
	pb_varint(&c->events, EV_PID, it->tid);
	if (t) {
		e = pb_open(&c->events, t->number);
		for (k = 0; k < 8 && t->fields[k]; k++)
			for (i = 0; i < nf; i++)
				if (!strcmp(fields[i].name, t->fields[k]))
					typed_value(&c->events, (uint32_t)k + 1, &fields[i],
						    (uint32_t)i < f->nfields ? &f->fields[i] : NULL);
	} else {
		name = strrchr(it->event->path, '/');
		e = pb_open(&c->events, EV_GENERIC);
		pb_string(&c->events, GEN_EVENT_NAME, name ? name + 1 : it->event->path);
		for (i = 0; i < nf; i++)
			generic_field(&c->events, &fields[i],
				      (uint32_t)i < f->nfields ? &f->fields[i] : NULL, &text);
	}
	pb_close(&c->events, e);
	pb_close(&c->events, m);
	free(text.text);
	if (c->events.failed || text.failed)
		return -1;
	return ++c->n >= FTRACE_BUNDLE_EVENTS ? (int64_t)it->cpu : (int64_t)UINT32_MAX;
}

int ftrace_bundles_lost(struct ftrace_bundles *b, uint32_t cpu)
{
	struct ftrace_cpu *c = cpu_of(b, cpu);

	if (!c)
		return -1;
	c->lost = true;
	return 0;
}

bool ftrace_bundles_pending(const struct ftrace_bundles *b, uint32_t cpu)
{
	return cpu < b->ncpus && (b->cpus[cpu].n || b->cpus[cpu].lost);
}

void ftrace_bundles_write(struct ftrace_bundles *b, uint32_t cpu, struct pb *pkt)
{
	struct ftrace_cpu *c = &b->cpus[cpu];
	size_t m = pb_open(pkt, TP_FTRACE_EVENTS);

	pb_varint(pkt, BUNDLE_CPU, cpu);
	if (c->events.len)
		pb_raw(pkt, c->events.p, c->events.len);
	if (c->lost)
		pb_varint(pkt, BUNDLE_LOST_EVENTS, 1);
	pb_close(pkt, m);
	c->events.len = 0;
	c->n = 0;
	c->lost = false;
}

void ftrace_bundles_free(struct ftrace_bundles *b)
{
	uint32_t i;

	for (i = 0; i < b->ncpus; i++)
		pb_free(&b->cpus[i].events);
	free(b->cpus);
	b->cpus = NULL;
	b->ncpus = 0;
}
