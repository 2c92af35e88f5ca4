/*
 * default_switch.c - switching the default collection's events (see
 * default_switch.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "default_switch.h"
#include "rules_files.h"
#include "tree.h"

static bool listed(const uint32_t *pids, unsigned n, uint32_t pid)
{
	unsigned i;

	for (i = 0; i < n; i++)
		if (pids[i] == pid)
			return true;
	return false;
}

/* Whether the caller means process c (verdict NULL: every one); one
 * meant but refused is counted. */
static bool meant(enum evt_switch_verdict (*verdict)(const struct evt_ctl *c,
						     void *ctx),
		  void *ctx, const struct evt_ctl *c, struct evt_switch_result *res)
{
	enum evt_switch_verdict v = verdict ? verdict(c, ctx) : EVT_SWITCH_YES;

	res->refused += v == EVT_SWITCH_REFUSE;
	return v == EVT_SWITCH_YES;
}

int evt_default_switch(const struct evt_rundir *rd, struct evt_ctl **ctls,
		       unsigned n, const char *pattern, bool on, uint32_t pid,
		       bool per_process,
		       enum evt_switch_verdict (*verdict)(const struct evt_ctl *c,
							   void *ctx),
		       void *ctx, struct evt_switch_result *res, char *err,
		       size_t err_size)
{
	uint32_t *pids = per_process ? calloc(n ? n : 1, sizeof(*pids)) : NULL;
	unsigned i, npids = 0, set;
	int ret = 0;

	memset(res, 0, sizeof(*res));
	if (per_process && !pids)
		return snprintf(err, err_size, "out of memory"), -1;
	for (i = 0; i < n; i++) {
		if (!meant(verdict, ctx, ctls[i], res))
			continue;
		set = evt_tree_set(ctls[i], pattern, 0, on);
		if (!set || ctls[i]->shrank)
			continue;
		res->events += set;
		res->processes++;
		if (per_process && !listed(pids, npids, ctls[i]->h.pid))
			pids[npids++] = ctls[i]->h.pid;
	}
	if (res->events && !per_process)
		ret = evt_default_rules_add(rd, on, pid, pattern, err, err_size);
	for (i = 0; i < npids && !ret; i++)
		ret = evt_default_rules_add(rd, on, pids[i], pattern, err, err_size);
	free(pids);
	return ret;
}

int evt_default_set_rate(const struct evt_rundir *rd, struct evt_ctl **ctls,
			 unsigned n, const char *pattern, uint32_t rate,
			 uint32_t pid,
			 enum evt_switch_verdict (*verdict)(const struct evt_ctl *c,
							    void *ctx),
			 void *ctx, struct evt_switch_result *res, char *err,
			 size_t err_size)
{
	int first_err = 0, e;
	unsigned i, set, bad = 0;

	memset(res, 0, sizeof(*res));
	for (i = 0; i < n; i++) {
		if (!meant(verdict, ctx, ctls[i], res))
			continue;
		set = evt_tree_set_rate(ctls[i], pattern, rate, NULL, &e);
		if (e && !first_err) {
			first_err = e;
			bad = i;
		}
		if (!set || ctls[i]->shrank)
			continue;
		res->events += set;
		res->processes++;
	}
	if (first_err)
		return snprintf(err, err_size, "%s: %s", ctls[bad]->path,
				strerror(first_err)), -1;
	if (res->events)
		return evt_default_rules_rate(rd, pid, pattern, rate, err, err_size);
	return 0;
}
