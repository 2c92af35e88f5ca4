/*
 * align.c - offsets between machines from matched sends and receives
 * (align.h).
 */
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "align.h"
#include "cli.h"
#include "key_map.h"
#include "record_fields.h"
#include "span_kind.h"
#include "trace_reader.h"

/* A message: where and when it was sent and received (trace -1: not seen). */
struct message {
	int send_trace, recv_trace;
	int64_t send_ns, recv_ns;
};

/* A flow: an async span's path, or a sending and a receiving event
 * that carry the message's id in a field of one name. */
struct flow {
	char async[256];		/* "" for a typed flow */
	char send[256], recv[256], field[64];
};

struct pass {
	struct flow flows[ALIGN_FLOWS_MAX];
	unsigned nflows;
	struct key_map by_id[ALIGN_FLOWS_MAX];	/* message id: message + 1 */
	struct message *msgs;
	size_t nmsgs, cap;
	bool out_of_memory;
};

/* Parses FLOW: async/NAME, or SEND:RECV:FIELD.  0, or -1. */
static int flow_parse(const char *text, struct flow *f)
{
	const char *a = strchr(text, ':'), *b = a ? strchr(a + 1, ':') : NULL;

	memset(f, 0, sizeof(*f));
	if (!a) {
		if (strncmp(text, "async/", 6) || !text[6] || strchr(text, '*') ||
		    strlen(text) >= sizeof(f->async))
			return -1;
		snprintf(f->async, sizeof(f->async), "%s", text);
		return 0;
	}
	if (!b || strchr(b + 1, ':') || a == text || b == a + 1 || !b[1] ||
	    a - text >= (int)sizeof(f->send) || b - a - 1 >= (int)sizeof(f->recv) ||
	    strlen(b + 1) >= sizeof(f->field))
		return -1;
	memcpy(f->send, text, (size_t)(a - text));
	memcpy(f->recv, a + 1, (size_t)(b - a - 1));
	snprintf(f->field, sizeof(f->field), "%s", b + 1);
	return strcmp(f->send, f->recv) && !strchr(f->send, '*') &&
	       !strchr(f->recv, '*') ? 0 : -1;
}

/* The message id an event of a typed flow carries in its field: an
 * integer's value, or a string's 64-bit FNV-1a hash.  0, or -1. */
static int field_key(const struct evt_trace_item *it, const char *name,
		     uint64_t *key)
{
	struct evt_field fields[EVT_FIELDS_MAX];
	evt_arg_name names[EVT_PRINTK_MAX_ARGS];
	int n = evt_record_fields(&it->event->layout, it->payload,
				  it->payload_size, fields, names), i;

	for (i = 0; i < n; i++) {
		if (strcmp(fields[i].name, name))
			continue;
		if (fields[i].type == EVT_VALUE_INT || fields[i].type == EVT_VALUE_UINT) {
			*key = fields[i].value.u;
			return 0;
		}
		if (fields[i].type == EVT_VALUE_STRING) {
			uint64_t h = 14695981039346656037ull;

			for (const char *c = fields[i].value.s; *c; c++)
				h = (h ^ (uint8_t)*c) * 1099511628211ull;
			*key = h;
			return 0;
		}
		return -1;
	}
	return -1;
}

/* The message of flow's id, made when new; NULL without memory. */
static struct message *message(struct pass *p, unsigned flow, uint64_t id)
{
	uint64_t *slot;
	int fresh;

	slot = key_map_add(&p->by_id[flow], id, &fresh);
	if (!slot)
		return NULL;
	if (fresh) {
		if (p->nmsgs == p->cap) {
			size_t cap = p->cap ? p->cap * 2 : 256;
			struct message *grown = realloc(p->msgs, cap * sizeof(*grown));

			if (!grown)
				return NULL;
			p->msgs = grown;
			p->cap = cap;
		}
		p->msgs[p->nmsgs] = (struct message){ -1, -1, 0, 0 };
		*slot = ++p->nmsgs;
	}
	return &p->msgs[*slot - 1];
}

static void sent(struct message *m, const struct evt_trace_item *it)
{
	if (m->send_trace < 0) {
		m->send_trace = (int)it->trace;
		m->send_ns = it->realtime_ns;
	}
}

static void received(struct message *m, const struct evt_trace_item *it)
{
	if (m->recv_trace < 0) {
		m->recv_trace = (int)it->trace;
		m->recv_ns = it->realtime_ns;
	}
}

static int take(const struct evt_trace_item *it, void *ctx)
{
	struct pass *p = ctx;
	struct evt_span_head h;
	struct message *m;
	uint64_t id;
	unsigned k;

	if (it->kind != EVT_ITEM_EVENT)
		return 0;
	for (k = 0; k < p->nflows; k++) {
		const struct flow *f = &p->flows[k];
		bool is_send;

		if (f->async[0]) {
			if (it->event->layout.kind != EVT_KIND_ASYNC ||
			    strcmp(f->async, it->event->path) ||
			    evt_span_head_read(&it->event->layout, it->payload,
					       it->payload_size, &h) ||
			    h.id == UINT64_MAX)
				continue;
			if (!(m = message(p, k, h.id)))
				return p->out_of_memory = true, 1;
			if (h.phase == EVT_SPAN_BEGIN)
				sent(m, it);
			else if (h.phase == EVT_SPAN_END)
				received(m, it);
			continue;
		}
		is_send = !strcmp(f->send, it->event->path);
		if ((!is_send && strcmp(f->recv, it->event->path)) ||
		    field_key(it, f->field, &id))
			continue;
		if (!(m = message(p, k, id)))
			return p->out_of_memory = true, 1;
		if (is_send)
			sent(m, it);
		else
			received(m, it);
	}
	return 0;
}

/* The machines: traces of one host and boot id are one. */
static int machines(const char *cmd, const char *const *dirs, unsigned n,
		    int *host_of, char (*names)[256])
{
	struct evt_trace_index *ix = calloc(n, sizeof(*ix));
	char err[PATH_MAX + 300];
	unsigned i, j;
	int nhosts = 0;

	if (!ix)
		return cli_error(cmd, "out of memory"), -1;
	for (i = 0; i < n; i++) {
		if (evt_trace_index_read_dir(dirs[i], &ix[i], err, sizeof(err))) {
			cli_error(cmd, "%s", err);
			nhosts = -1;
			break;
		}
		host_of[i] = -1;
		for (j = 0; j < i && host_of[i] < 0; j++)
			if (ix[j].host[0] && !strcmp(ix[j].host, ix[i].host) &&
			    !strcmp(ix[j].boot_id, ix[i].boot_id))
				host_of[i] = host_of[j];
		if (host_of[i] < 0) {
			host_of[i] = nhosts;
			snprintf(names[nhosts++], 256, "%s", ix[i].host[0] ? ix[i].host :
				 dirs[i]);
		}
	}
	for (i = 0; i < n; i++)
		evt_trace_index_free(&ix[i]);
	free(ix);
	return nhosts;
}

int align_flow_check(const char *cmd, const char *flow, unsigned n)
{
	struct flow f;

	if (n >= ALIGN_FLOWS_MAX)
		return cli_error(cmd, "more than %d --align flows", ALIGN_FLOWS_MAX);
	if (flow_parse(flow, &f))
		return cli_error(cmd, "--align '%s': a flow is async/NAME, the async "
				 "spans of one name whose begin is a message sent "
				 "and whose end is that message received, or "
				 "SEND:RECV:FIELD, two events (not patterns) whose "
				 "field FIELD holds the message's id", flow);
	return 0;
}

static int compute(const char *cmd, const char *const *dirs, unsigned n,
		   const char *const *flows, unsigned nflows, int64_t *offsets_ns);

int align_offsets(const char *cmd, const char *const *dirs, unsigned n,
		  const char *const *flows, unsigned nflows, int64_t **offsets_ns)
{
	*offsets_ns = NULL;
	if (!nflows)
		return 0;
	if (n < 2)
		return cli_error(cmd, "--align lines up several traces: give two "
				 "or more");
	if (!(*offsets_ns = calloc(n, sizeof(**offsets_ns))))
		return cli_error(cmd, "out of memory");
	if (compute(cmd, dirs, n, flows, nflows, *offsets_ns)) {
		free(*offsets_ns);
		*offsets_ns = NULL;
		return 1;
	}
	return 0;
}

static int compute(const char *cmd, const char *const *dirs, unsigned n,
		   const char *const *flows, unsigned nflows, int64_t *offsets_ns)
{
	struct pass p = { .nflows = nflows };
	struct evt_trace_stats st;
	char err[PATH_MAX + 300];
	int *host_of = calloc(n, sizeof(*host_of));
	char (*names)[256] = calloc(n, sizeof(*names));
	/* lo[x * n + y]: the largest send - receive of x to y; has[]: any. */
	int64_t *lo = calloc((size_t)n * n, sizeof(*lo)), *off = calloc(n, sizeof(*off));
	uint32_t *pairs = calloc((size_t)n * n, sizeof(*pairs));
	bool *known = calloc(n, sizeof(*known));
	int nhosts, ret = 1;
	unsigned i, x, y, k, done;

	if (!host_of || !names || !lo || !off || !pairs || !known) {
		cli_error(cmd, "out of memory");
		goto out;
	}
	for (k = 0; k < nflows && k < ALIGN_FLOWS_MAX; k++)
		if (flow_parse(flows[k], &p.flows[k])) {	/* checked before */
			cli_error(cmd, "--align '%s': not a flow", flows[k]);
			goto out;
		}
	nhosts = machines(cmd, dirs, n, host_of, names);
	if (nhosts < 0)
		goto out;
	if (evt_trace_read_set(dirs, n, NULL, take, &p, &st, err, sizeof(err))) {
		cli_error(cmd, "%s", err);
		goto out;
	}
	if (p.out_of_memory) {
		cli_error(cmd, "out of memory matching the flows");
		goto out;
	}
	for (k = 0; k < p.nmsgs; k++) {
		const struct message *m = &p.msgs[k];
		size_t at;

		if (m->send_trace < 0 || m->recv_trace < 0)
			continue;
		x = (unsigned)host_of[m->send_trace];
		y = (unsigned)host_of[m->recv_trace];
		if (x == y)
			continue;
		at = (size_t)x * n + y;
		if (!pairs[at]++ || m->send_ns - m->recv_ns > lo[at])
			lo[at] = m->send_ns - m->recv_ns;
	}
	/* From the first trace's machine, each machine reached gets its
	 * offset from one already placed. */
	known[host_of[0]] = true;
	for (done = 1; done; ) {
		done = 0;
		for (x = 0; x < (unsigned)nhosts; x++) {
			for (y = 0; known[x] && y < (unsigned)nhosts; y++) {
				size_t xy = (size_t)x * n + y, yx = (size_t)y * n + x;
				int64_t d;

				if (known[y] || (!pairs[xy] && !pairs[yx]))
					continue;
				/* off[y] >= off[x] + lo[xy] (its receives after
				 * x's sends), off[y] <= off[x] - lo[yx] (its sends
				 * before x's receives): the middle when both
				 * bound it, else the least move from its own
				 * clock (0) that keeps them. */
				if (pairs[xy] && pairs[yx]) {
					d = lo[xy] <= -lo[yx] ? lo[xy] + (-lo[yx] - lo[xy]) / 2 :
					    lo[xy];
					if (lo[xy] > -lo[yx])
						fprintf(stderr, "evtrace: %s: --align: %s and %s "
							"disagree by %.3f ms (messages both ways "
							"cannot all be in order); %s's receives "
							"are put in order\n", cmd, names[x],
							names[y], (double)(lo[xy] + lo[yx]) / 1e6,
							names[y]);
					d += off[x];
				} else if (pairs[xy]) {
					d = off[x] + lo[xy] > 0 ? off[x] + lo[xy] : 0;
				} else {
					d = off[x] - lo[yx] < 0 ? off[x] - lo[yx] : 0;
				}
				off[y] = d;
				known[y] = true;
				done = 1;
				fprintf(stderr, "evtrace: %s: --align: %s %+.6f ms, from %u "
					"message%s\n", cmd, names[y], (double)off[y] / 1e6,
					pairs[xy] + pairs[yx],
					pairs[xy] + pairs[yx] == 1 ? "" : "s");
			}
		}
	}
	for (x = 0; x < (unsigned)nhosts; x++)
		if (!known[x])
			fprintf(stderr, "evtrace: %s: --align: %s: no message of the "
				"flows to or from the machines placed; left as its "
				"clock snapshots say\n", cmd, names[x]);
	for (i = 0; i < n; i++)
		offsets_ns[i] = off[host_of[i]];
	ret = 0;
out:
	for (i = 0; i < ALIGN_FLOWS_MAX; i++)
		key_map_free(&p.by_id[i]);
	free(p.msgs);
	free(host_of);
	free(names);
	free(lo);
	free(off);
	free(pairs);
	free(known);
	return ret;
}
