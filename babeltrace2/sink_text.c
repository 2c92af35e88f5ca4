/*
 * sink_text.c - the babeltrace2 plugin `evtrace` and its sink
 * `sink.evtrace.text`: any evtrace trace babeltrace2 reads (a trace
 * directory, a live session) printed as `evtrace report` prints it, one
 * line per event with printk messages rendered, a line per loss:
 *
 *   babeltrace2 TRACE -c sink.evtrace.text
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <babeltrace2/babeltrace.h>

#include "field_text.h"
#include "kernel_text.h"
#include "lost_record.h"
#include "quote.h"
#include "record_header.h"
#include "safe_text.h"
#include "trace_names.h"

/* Where a stream's lines come from: its last packet's thread. */
struct thread {
	const bt_stream *stream;	/* borrowed; compared only */
	uint64_t tid;
	char comm[32];
	uint64_t lost;		/* said at the packet that reports them */
	uint64_t cpu;		/* of its last evtrace/cpu event */
	/* A loss said once the evtrace/lost events after the packet's
	 * beginning named its sites. */
	struct pending_loss {
		bool open;
		char when[64];
		uint64_t count;
		unsigned nparts;
		struct evt_loss_part parts[16];
		char names[16][256];
	} *pending;
};

struct text_sink {
	bt_message_iterator *iterator;
	struct thread *threads;
	size_t nthreads, cap;
	uint64_t events, lost;
	struct evt_bt2_kernels *kernels;
	char text[32768];	/* a kernel event's: a system call's path of
				 * 4 KiB, escaped, fits */
};

static struct thread *thread_of(struct text_sink *s, const bt_stream *stream)
{
	size_t i;

	for (i = s->nthreads; i-- > 0;)
		if (s->threads[i].stream == stream)
			return &s->threads[i];
	if (s->nthreads == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 16;
		struct thread *t = realloc(s->threads, cap * sizeof(*t));

		if (!t)
			return NULL;
		s->threads = t;
		s->cap = cap;
	}
	memset(&s->threads[s->nthreads], 0, sizeof(s->threads[0]));
	s->threads[s->nthreads].stream = stream;
	snprintf(s->threads[s->nthreads].comm, sizeof(s->threads[0].comm), "?");
	return &s->threads[s->nthreads++];
}

static void time_text(char *buf, size_t size, const bt_clock_snapshot *cs);

/* The loss pending on t's stream, as report prints it. */
static void say_loss(struct thread *t)
{
	struct pending_loss *l = t->pending;
	char text[sizeof(l->names) + 1024], comm[32];

	if (!l || !l->open)
		return;
	evt_loss_text(text, sizeof(text), l->count, l->parts, l->nparts);
	printf("%16s-%-7" PRIu64 " [---] %s: ",
	       evt_printable(comm, sizeof(comm), t->comm), t->tid, l->when);
	evt_safe_fwrite(stdout, text, strlen(text));
	putchar('\n');
	l->open = false;
}

static const bt_field *member(const bt_field *structure, const char *name)
{
	return structure ? bt_field_structure_borrow_member_field_by_name_const(
				   structure, name) : NULL;
}

/* A packet's context names its thread: pid, tid, comm. */
static void packet_begins(struct text_sink *s, const bt_message *msg)
{
	const bt_packet *p = bt_message_packet_beginning_borrow_packet_const(msg);
	const bt_field *ctx = bt_packet_borrow_context_field_const(p);
	const bt_field *tid = member(ctx, "tid"), *comm = member(ctx, "comm");
	struct thread *t = thread_of(s, bt_packet_borrow_stream_const(p));

	if (!t)
		return;
	if (tid)
		t->tid = bt_field_integer_unsigned_get_value(tid);
	if (comm && bt_field_get_class_type(comm) == BT_FIELD_CLASS_TYPE_STRING)
		snprintf(t->comm, sizeof(t->comm), "%s", bt_field_string_get_value(comm));
	if (t->lost && (t->pending || (t->pending = calloc(1, sizeof(*t->pending))))) {
		/* at the time of the packet that told them, as report */
		const bt_stream_class *sc = bt_stream_borrow_class_const(
			bt_packet_borrow_stream_const(p));
		struct pending_loss *l = t->pending;

		say_loss(t);
		snprintf(l->when, sizeof(l->when), "?");
		if (bt_stream_class_packets_have_beginning_default_clock_snapshot(sc))
			time_text(l->when, sizeof(l->when),
				  bt_message_packet_beginning_borrow_default_clock_snapshot_const(msg));
		l->open = true;
		l->count = t->lost;
		l->nparts = 0;
		s->lost += t->lost;
		t->lost = 0;
	}
}

/* An evtrace/lost event names a site of the loss pending on its stream. */
static void name_loss_site(struct thread *t, const bt_event *e)
{
	const bt_field *payload = bt_event_borrow_payload_field_const(e);
	const bt_field *site = member(payload, "site"), *cause = member(payload, "cause");
	const bt_field *count = member(payload, "count");
	struct pending_loss *l = t->pending;
	const bt_event_class *sc_event = NULL;
	struct evt_loss_part *part;
	uint64_t id;

	if (!l || !l->open || !site || !cause || !count ||
	    l->nparts == sizeof(l->parts) / sizeof(l->parts[0]))
		return;
	part = &l->parts[l->nparts];
	id = bt_field_integer_unsigned_get_value(site);
	if (id != EVT_LOST_SITE_OTHER)
		sc_event = bt_stream_class_borrow_event_class_by_id_const(
			bt_event_class_borrow_stream_class_const(
				bt_event_borrow_class_const(e)), id);
	part->path = NULL;
	if (sc_event && bt_event_class_get_name(sc_event)) {
		snprintf(l->names[l->nparts], sizeof(l->names[0]), "%s",
			 bt_event_class_get_name(sc_event));
		part->path = l->names[l->nparts];
	}
	part->cause = (unsigned)bt_field_integer_unsigned_get_value(cause);
	part->count = bt_field_integer_unsigned_get_value(count);
	l->nparts++;
}

/* Local date and time, to the nanosecond: `report --clock realtime`. */
static void time_text(char *buf, size_t size, const bt_clock_snapshot *cs)
{
	int64_t ns;
	time_t sec;
	struct tm tm;
	size_t n;

	if (!cs || bt_clock_snapshot_get_ns_from_origin(cs, &ns) !=
		   BT_CLOCK_SNAPSHOT_GET_NS_FROM_ORIGIN_STATUS_OK || ns < 0) {
		snprintf(buf, size, "?");
		return;
	}
	sec = (time_t)(ns / 1000000000);
	localtime_r(&sec, &tm);
	n = strftime(buf, size, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf + n, size - n, ".%09" PRId64, ns % 1000000000);
}

/* Spans, async spans and counters (trace_span(3)): a head, then perhaps
 * a rider's printk arguments. */
static bool span_name(const char *name)
{
	return !strncmp(name, "span/", 5) || !strncmp(name, "async/", 6) ||
	       !strncmp(name, "counter/", 8);
}

static void print_event(struct text_sink *s, const bt_message *msg)
{
	const bt_event *e = bt_message_event_borrow_event_const(msg);
	const bt_event_class *cls = bt_event_borrow_class_const(e);
	const char *name = bt_event_class_get_name(cls);
	const char *format = NULL;
	const bt_field *ctx = bt_event_borrow_common_context_field_const(e);
	const bt_field *cpu = member(ctx, "cpu_id");
	const bt_field *tid = member(ctx, "tid"), *comm = member(ctx, "comm");
	const bt_packet *p = bt_event_borrow_packet_const(e);
	struct thread *t = p ? thread_of(s, bt_packet_borrow_stream_const(p)) : NULL;
	char when[64], comm_text[32], *text = NULL;
	uint64_t cpu_id;
	size_t len = 0;
	FILE *body;

	/* Records carry no CPU: this event says it for the ones after it
	 * (an evtrace trace before 0.1.2 had it in every record's context). */
	if (bt_event_class_get_id(cls) == EVT_CPU_EVENT_ID && name &&
	    !strcmp(name, EVT_CPU_EVENT_NAME)) {
		cpu = member(bt_event_borrow_payload_field_const(e), "cpu_id");
		if (t && cpu)
			t->cpu = bt_field_integer_unsigned_get_value(cpu);
		return;
	}
	if (bt_event_class_get_id(cls) == EVT_LOST_EVENT_ID && name &&
	    !strcmp(name, EVT_LOST_EVENT_NAME)) {
		if (t)
			name_loss_site(t, e);
		return;
	}
	if (t)
		say_loss(t);
	if (t && tid && comm &&		/* a kernel record names its task */
	    bt_field_get_class_type(comm) == BT_FIELD_CLASS_TYPE_STRING) {
		t->tid = bt_field_integer_unsigned_get_value(tid);
		snprintf(t->comm, sizeof(t->comm), "%s", bt_field_string_get_value(comm));
	}

	if (name && (!strncmp(name, "printk/", 7) || !strcmp(name, "ftrace/print") ||
		     span_name(name)))
		format = bt_event_class_get_emf_uri(cls);
	cpu_id = cpu ? bt_field_integer_unsigned_get_value(cpu) : t ? t->cpu : 0;
	time_text(when, sizeof(when),
		  bt_message_event_borrow_default_clock_snapshot_const(msg));
	/* What the traced program chose (its thread's name, the text it
	 * made) escaped as evtrace report escapes it (safe_text.h). */
	evt_printable(comm_text, sizeof(comm_text), t ? t->comm : "?");
	printf("%16s-%-7" PRIu64 " [%03" PRIu64 "] %s: ", comm_text,
	       t ? t->tid : 0, cpu_id, when);
	if (!(body = open_memstream(&text, &len))) {
		printf("?: (out of memory)\n");
		return;
	}
	fprintf(body, "%s: ", name ? name : "?");
	/* A kernel event's format file, for its print fmt. */
	if (name && !strncmp(name, "kernel/", 7) && bt_event_class_get_emf_uri(cls) &&
	    evt_bt2_kernel_text(&s->kernels, cls, name, bt_event_class_get_emf_uri(cls),
				bt_event_borrow_payload_field_const(e),
				t ? (uint32_t)t->tid : 0, (uint16_t)cpu_id, s->text,
				sizeof(s->text)) >= 0)
		fputs(s->text, body);
	else if (name && span_name(name))
		evt_bt2_span_text(body, bt_event_borrow_payload_field_const(e), format);
	else
		evt_bt2_payload_text(body, bt_event_borrow_payload_field_const(e), format);
	if (fclose(body) == 0)
		evt_safe_fwrite(stdout, text, len);
	free(text);
	putchar('\n');
	s->events++;
}

/* Discarded events come before the packet that reports them: said with
 * that packet's beginning. */
static void note_lost(struct text_sink *s, const bt_message *msg)
{
	struct thread *t = thread_of(s,
		bt_message_discarded_events_borrow_stream_const(msg));
	uint64_t count = 0;

	if (t && bt_message_discarded_events_get_count(msg, &count) ==
		 BT_PROPERTY_AVAILABILITY_AVAILABLE)
		t->lost += count;
}

static bt_component_class_initialize_method_status
text_initialize(bt_self_component_sink *self,
		bt_self_component_sink_configuration *configuration,
		const bt_value *params, void *data)
{
	struct text_sink *s = calloc(1, sizeof(*s));

	(void)configuration;
	(void)params;
	(void)data;
	if (!s)
		return BT_COMPONENT_CLASS_INITIALIZE_METHOD_STATUS_MEMORY_ERROR;
	bt_self_component_set_data(bt_self_component_sink_as_self_component(self), s);
	if (bt_self_component_sink_add_input_port(self, "in", NULL, NULL) !=
	    BT_SELF_COMPONENT_ADD_PORT_STATUS_OK)
		return BT_COMPONENT_CLASS_INITIALIZE_METHOD_STATUS_ERROR;
	return BT_COMPONENT_CLASS_INITIALIZE_METHOD_STATUS_OK;
}

static void text_finalize(bt_self_component_sink *self)
{
	struct text_sink *s = bt_self_component_get_data(
		bt_self_component_sink_as_self_component(self));

	size_t i;

	for (i = 0; i < s->nthreads; i++)
		free(s->threads[i].pending);
	free(s->threads);
	evt_bt2_kernels_free(s->kernels);
	free(s);
}

static bt_component_class_sink_graph_is_configured_method_status
text_graph_is_configured(bt_self_component_sink *self)
{
	struct text_sink *s = bt_self_component_get_data(
		bt_self_component_sink_as_self_component(self));
	bt_self_component_port_input *in =
		bt_self_component_sink_borrow_input_port_by_name(self, "in");

	if (bt_message_iterator_create_from_sink_component(self, in, &s->iterator) !=
	    BT_MESSAGE_ITERATOR_CREATE_FROM_SINK_COMPONENT_STATUS_OK)
		return BT_COMPONENT_CLASS_SINK_GRAPH_IS_CONFIGURED_METHOD_STATUS_ERROR;
	return BT_COMPONENT_CLASS_SINK_GRAPH_IS_CONFIGURED_METHOD_STATUS_OK;
}

static bt_component_class_sink_consume_method_status
text_consume(bt_self_component_sink *self)
{
	struct text_sink *s = bt_self_component_get_data(
		bt_self_component_sink_as_self_component(self));
	bt_message_array_const msgs;
	uint64_t n, i;

	switch (bt_message_iterator_next(s->iterator, &msgs, &n)) {
	case BT_MESSAGE_ITERATOR_NEXT_STATUS_OK:
		break;
	case BT_MESSAGE_ITERATOR_NEXT_STATUS_END:
		printf("# %" PRIu64 " event%s, %" PRIu64 " lost, %zu stream%s\n",
		       s->events, s->events == 1 ? "" : "s", s->lost, s->nthreads,
		       s->nthreads == 1 ? "" : "s");
		bt_message_iterator_put_ref(s->iterator);
		s->iterator = NULL;
		return BT_COMPONENT_CLASS_SINK_CONSUME_METHOD_STATUS_END;
	case BT_MESSAGE_ITERATOR_NEXT_STATUS_AGAIN:
		return BT_COMPONENT_CLASS_SINK_CONSUME_METHOD_STATUS_AGAIN;
	case BT_MESSAGE_ITERATOR_NEXT_STATUS_MEMORY_ERROR:
		return BT_COMPONENT_CLASS_SINK_CONSUME_METHOD_STATUS_MEMORY_ERROR;
	default:
		return BT_COMPONENT_CLASS_SINK_CONSUME_METHOD_STATUS_ERROR;
	}
	for (i = 0; i < n; i++) {
		switch (bt_message_get_type(msgs[i])) {
		case BT_MESSAGE_TYPE_PACKET_BEGINNING:
			packet_begins(s, msgs[i]);
			break;
		case BT_MESSAGE_TYPE_EVENT:
			print_event(s, msgs[i]);
			break;
		case BT_MESSAGE_TYPE_DISCARDED_EVENTS:
			note_lost(s, msgs[i]);
			break;
		case BT_MESSAGE_TYPE_PACKET_END: {
			const bt_packet *p = bt_message_packet_end_borrow_packet_const(msgs[i]);
			struct thread *t = thread_of(s, bt_packet_borrow_stream_const(p));

			if (t)
				say_loss(t);
			break;
		}
		default:
			break;
		}
		bt_message_put_ref(msgs[i]);
	}
	return BT_COMPONENT_CLASS_SINK_CONSUME_METHOD_STATUS_OK;
}

BT_PLUGIN_MODULE();
BT_PLUGIN(evtrace);
BT_PLUGIN_DESCRIPTION("Prints evtrace traces as evtrace report does, printk messages rendered.");
BT_PLUGIN_AUTHOR("the evtrace developers");
BT_PLUGIN_LICENSE("MIT");
BT_PLUGIN_SINK_COMPONENT_CLASS(text, text_consume);
BT_PLUGIN_SINK_COMPONENT_CLASS_DESCRIPTION(text,
	"One line per event as `evtrace report` prints it (time as --clock realtime), printk messages rendered from their formats.");
BT_PLUGIN_SINK_COMPONENT_CLASS_INITIALIZE_METHOD(text, text_initialize);
BT_PLUGIN_SINK_COMPONENT_CLASS_FINALIZE_METHOD(text, text_finalize);
BT_PLUGIN_SINK_COMPONENT_CLASS_GRAPH_IS_CONFIGURED_METHOD(text, text_graph_is_configured);
