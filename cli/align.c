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
#include "span_kind.h"
#include "trace_reader.h"

/* A message: where and when it was sent and received (trace -1: not seen). */
struct message {
	int send_trace, recv_trace;
	int64_t send_ns, recv_ns;
};

struct pass {
	const char *const *flows;
	unsigned nflows;
	struct key_map by_id[ALIGN_FLOWS_MAX];	/* async id: message + 1 */
	struct message *msgs;
	size_t nmsgs, cap;
	bool out_of_memory;
};

static int flow_of(const struct pass *p, const char *path)
{
	unsigned i;

	for (i = 0; i < p->nflows; i++)
		if (!strcmp(p->flows[i], path))
			return (int)i;
	return -1;
}

static int take(const struct evt_trace_item *it, void *ctx)
{
	struct pass *p = ctx;
	struct evt_span_head h;
	struct message *m;
	uint64_t *slot;
	int flow, fresh;

	if (it->kind != EVT_ITEM_EVENT || it->event->layout.kind != EVT_KIND_ASYNC ||
	    (flow = flow_of(p, it->event->path)) < 0 ||
	    evt_span_head_read(&it->event->layout, it->payload, it->payload_size, &h) ||
	    h.id == UINT64_MAX)
		return 0;
	slot = key_map_add(&p->by_id[flow], h.id, &fresh);
	if (!slot)
		return p->out_of_memory = true, 1;
	if (fresh) {
		if (p->nmsgs == p->cap) {
			size_t cap = p->cap ? p->cap * 2 : 256;
			struct message *grown = realloc(p->msgs, cap * sizeof(*grown));

			if (!grown)
				return p->out_of_memory = true, 1;
			p->msgs = grown;
			p->cap = cap;
		}
		p->msgs[p->nmsgs] = (struct message){ -1, -1, 0, 0 };
		*slot = ++p->nmsgs;
	}
	m = &p->msgs[*slot - 1];
	if (h.phase == EVT_SPAN_BEGIN && m->send_trace < 0) {
		m->send_trace = (int)it->trace;
		m->send_ns = it->realtime_ns;
	} else if (h.phase == EVT_SPAN_END && m->recv_trace < 0) {
		m->recv_trace = (int)it->trace;
		m->recv_ns = it->realtime_ns;
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
	if (n >= ALIGN_FLOWS_MAX)
		return cli_error(cmd, "more than %d --align flows", ALIGN_FLOWS_MAX);
	if (strncmp(flow, "async/", 6) || !flow[6] || strchr(flow, '*'))
		return cli_error(cmd, "--align '%s': a flow is async/NAME, the async "
				 "spans of one name whose begin is a message sent "
				 "and whose end is that message received (typed "
				 "fields as flows are not yet supported)", flow);
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
	struct pass p = { .flows = flows, .nflows = nflows };
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
