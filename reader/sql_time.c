/*
 * sql_time.c - questions about time as SQL (sql_time.h): views in SQL,
 * table-valued functions that run a statement of their own, and a
 * counter's value at a time from its samples sorted in memory.
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sql_time.h"

/* The kernel's letters for sched_switch's prev_state (its print format:
 * the bits of TASK_REPORT, none for R, and + for a preempted task). */
#define PREV_STATE(s)                                                        \
	"(CASE WHEN " s " & 255 = 0 THEN 'R' ELSE substr("                  \
	"iif(" s " & 1, '|S', '') || iif(" s " & 2, '|D', '') ||"           \
	" iif(" s " & 4, '|T', '') || iif(" s " & 8, '|t', '') ||"          \
	" iif(" s " & 16, '|X', '') || iif(" s " & 32, '|Z', '') ||"        \
	" iif(" s " & 64, '|P', '') || iif(" s " & 128, '|I', ''), 2) END"  \
	" || iif(" s " & 256, '+', ''))"

static const char views[] =
	/* A process's samples of one name are one counter (as convert
	 * draws them: a track each). */
	"CREATE VIEW %s.counter_span AS SELECT ts, lead(ts) OVER w AS end_ts,"
	" lead(ts) OVER w - ts AS dur, name, value, pid, tid, trace_id FROM counter"
	" WINDOW w AS (PARTITION BY trace_id, pid, name ORDER BY ts);"
	/* A thread's state changes when it is switched out (to the state
	 * the kernel gives) or in (Running), and when it is woken while
	 * neither running nor runnable since (R): an era is a switch and
	 * the wakeups after it, of which the first alone may count.  A
	 * state the same as the one before (a switch in was not recorded)
	 * goes on.  seq orders the two changes of one event; tid 0 is
	 * every CPU's idle task. */
	"CREATE VIEW %s.thread_state AS"
	" WITH sw AS (SELECT id, ts, cpu, trace_id, fields ->> 'prev_pid' AS prev,"
	"  fields ->> 'prev_state' AS s, fields ->> 'next_pid' AS next FROM event"
	"  WHERE name = 'kernel/sched/sched_switch'),"
	" change(trace_id, tid, ts, seq, state, cpu, woken) AS ("
	"  SELECT trace_id, prev, ts, 2 * id, " PREV_STATE("s") ", cpu, 0 FROM sw"
	"  UNION ALL SELECT trace_id, next, ts, 2 * id + 1, 'Running', cpu, 0 FROM sw"
	"  UNION ALL SELECT trace_id, fields ->> 'pid', ts, 2 * id, 'R',"
	"  fields ->> 'target_cpu', 1 FROM event WHERE name = 'kernel/sched/sched_wakeup'"
	"  OR name = 'kernel/sched/sched_wakeup_new'),"
	" ordered AS (SELECT *, sum(woken = 0) OVER (PARTITION BY trace_id, tid"
	"  ORDER BY ts, seq ROWS UNBOUNDED PRECEDING) AS era FROM change WHERE tid != 0),"
	" eras AS (SELECT *, row_number() OVER e AS k, first_value(state) OVER e AS"
	"  era_state, first_value(woken) OVER e AS era_woken FROM ordered"
	"  WINDOW e AS (PARTITION BY trace_id, tid, era ORDER BY ts, seq)),"
	" kept AS (SELECT *, lag(state) OVER (PARTITION BY trace_id, tid"
	"  ORDER BY ts, seq) AS before FROM eras WHERE woken = 0 OR k = 1 OR (k = 2"
	"  AND era_woken = 0 AND era_state NOT IN ('Running', 'R', 'R+')))"
	" SELECT ts, lead(ts) OVER w AS end_ts, lead(ts) OVER w - ts AS dur, tid,"
	" state, cpu, trace_id FROM kept WHERE before IS NOT state"
	" WINDOW w AS (PARTITION BY trace_id, tid ORDER BY ts, seq);";

int evt_sql_time_views(sqlite3 *db, const char *schema, char *err, size_t err_size)
{
	char *sql = sqlite3_mprintf(views, schema, schema), *why = NULL;
	int rc;

	if (!sql) {
		snprintf(err, err_size, "out of memory");
		return -1;
	}
	rc = sqlite3_exec(db, sql, NULL, NULL, &why);
	sqlite3_free(sql);
	if (rc != SQLITE_OK) {
		snprintf(err, err_size, "the views of time: %s",
			 why ? why : sqlite3_errmsg(db));
		sqlite3_free(why);
		return -1;
	}
	return 0;
}

/*
 * Table-valued functions, each a statement whose columns are its rows'
 * and whose parameters ?1, ?2 its arguments (hidden columns).
 */
#define MAX_ARGS 2

struct function {
	const char *name;
	const char *args[MAX_ARGS];	/* the arguments' names; NULL: none */
	int required;			/* the first this many must be given */
	const char *sql;
	/* The arguments' check: NULL, or why they are wrong. */
	const char *(*check)(sqlite3_value **args);
};

/* Slices without a begin or an end reach as far as the trace goes. */
#define FROM(s) "coalesce(" s ".ts, -9223372036854775807 - 1)"
#define TO(s) "coalesce(" s ".end_ts, 9223372036854775807)"

/* (an argument not given is NULL) */
static const char *scope_check(sqlite3_value **args)
{
	const char *scope;

	if (!args[1] || sqlite3_value_type(args[1]) == SQLITE_NULL)
		return NULL;
	scope = (const char *)sqlite3_value_text(args[1]);
	if (scope && (!strcmp(scope, "any") || !strcmp(scope, "process") ||
		      !strcmp(scope, "thread")))
		return NULL;
	return "the scope is 'any', 'process' or 'thread'";
}

static const struct function functions[] = {
	{ "ancestor_slices", { "slice_id" }, 1,
	  "WITH RECURSIVE up(id, distance) AS ("
	  " SELECT parent_id, 1 FROM slice WHERE id = ?1 AND parent_id IS NOT NULL"
	  " UNION ALL SELECT s.parent_id, up.distance + 1 FROM slice s JOIN up"
	  " ON s.id = up.id WHERE s.parent_id IS NOT NULL)"
	  " SELECT s.*, up.distance AS distance FROM up JOIN slice s ON s.id = up.id"
	  " ORDER BY up.distance", NULL },
	/* (what began on its thread while it was open: inner_id_max) */
	{ "descendant_slices", { "slice_id" }, 1,
	  "SELECT s.*, s.depth - d.depth AS distance FROM slice d JOIN slice s"
	  " ON s.id > d.id AND s.id <= d.inner_id_max AND s.pid = d.pid"
	  " AND s.tid = d.tid AND s.trace_id = d.trace_id AND s.async_id IS NULL"
	  " WHERE d.id = ?1 AND d.async_id IS NULL ORDER BY s.id", NULL },
	{ "overlapping_slices", { "slice_id", "scope" }, 1,
	  "SELECT o.*, iif(o.ts IS NULL OR o.end_ts IS NULL OR s.ts IS NULL"
	  " OR s.end_ts IS NULL, NULL, min(o.end_ts, s.end_ts) - max(o.ts, s.ts))"
	  " AS overlap FROM slice s JOIN slice o ON o.id != s.id"
	  " AND " FROM("o") " < " TO("s") " AND " TO("o") " > " FROM("s")
	  " WHERE s.id = ?1 AND (?2 IS NULL OR ?2 = 'any'"
	  " OR (?2 = 'process' AND o.pid = s.pid AND o.trace_id = s.trace_id)"
	  " OR (?2 = 'thread' AND o.pid = s.pid AND o.tid = s.tid"
	  " AND o.trace_id = s.trace_id))"
	  " ORDER BY coalesce(o.ts, o.end_ts), o.id", scope_check },
};

struct tvf_table {
	sqlite3_vtab base;
	sqlite3 *db;
	const struct function *f;
	int ncolumns;			/* the statement's; the arguments follow */
};

struct tvf_cursor {
	sqlite3_vtab_cursor base;
	sqlite3_stmt *st;
	sqlite3_value *args[MAX_ARGS];
	int rc;				/* the last step's */
	sqlite3_int64 row;
};

static int tvf_connect(sqlite3 *db, void *aux, int argc, const char *const *argv,
		       sqlite3_vtab **out, char **err)
{
	const struct function *f = aux;
	struct tvf_table *tab;
	sqlite3_stmt *st;
	sqlite3_str *decl;
	char *text;
	int i, n, rc;

	(void)argc;
	(void)argv;
	if (sqlite3_prepare_v2(db, f->sql, -1, &st, NULL) != SQLITE_OK) {
		*err = sqlite3_mprintf("%s: %s", f->name, sqlite3_errmsg(db));
		return SQLITE_ERROR;
	}
	decl = sqlite3_str_new(db);
	sqlite3_str_appendall(decl, "CREATE TABLE x(");
	n = sqlite3_column_count(st);
	for (i = 0; i < n; i++)
		sqlite3_str_appendf(decl, "%s\"%w\"", i ? ", " : "",
				    sqlite3_column_name(st, i));
	for (i = 0; i < MAX_ARGS && f->args[i]; i++)
		sqlite3_str_appendf(decl, ", \"%w\" HIDDEN", f->args[i]);
	sqlite3_str_appendall(decl, ")");
	sqlite3_finalize(st);
	text = sqlite3_str_finish(decl);
	if (!text)
		return SQLITE_NOMEM;
	rc = sqlite3_declare_vtab(db, text);
	sqlite3_free(text);
	if (rc != SQLITE_OK)
		return rc;
	tab = sqlite3_malloc(sizeof(*tab));
	if (!tab)
		return SQLITE_NOMEM;
	memset(tab, 0, sizeof(*tab));
	tab->db = db;
	tab->f = f;
	tab->ncolumns = n;
	*out = &tab->base;
	return SQLITE_OK;
}

static int tvf_disconnect(sqlite3_vtab *v)
{
	sqlite3_free(v);
	return SQLITE_OK;
}

/* idxNum: a bit for each argument given, in the order of argv. */
static int tvf_best_index(sqlite3_vtab *v, sqlite3_index_info *info)
{
	const struct tvf_table *tab = (const struct tvf_table *)v;
	int i, k, at[MAX_ARGS] = { -1, -1 }, n = 0, mask = 0;

	for (i = 0; i < info->nConstraint; i++) {
		const struct sqlite3_index_constraint *c = &info->aConstraint[i];

		k = c->iColumn - tab->ncolumns;
		if (k < 0 || k >= MAX_ARGS || c->op != SQLITE_INDEX_CONSTRAINT_EQ)
			continue;
		if (!c->usable) {
			if (k < tab->f->required)
				return SQLITE_CONSTRAINT;	/* not this plan */
			continue;
		}
		at[k] = i;
	}
	for (k = 0; k < MAX_ARGS; k++)
		if (at[k] >= 0) {
			info->aConstraintUsage[at[k]].argvIndex = ++n;
			info->aConstraintUsage[at[k]].omit = 1;
			mask |= 1 << k;
		}
	info->idxNum = mask;
	/* (without its required argument: an error when it runs) */
	info->estimatedCost = (mask & 1) ? 1000 : 1e12;
	info->estimatedRows = (mask & 1) ? 100 : 1000000;
	return SQLITE_OK;
}

static int tvf_open(sqlite3_vtab *v, sqlite3_vtab_cursor **out)
{
	struct tvf_table *tab = (struct tvf_table *)v;
	struct tvf_cursor *c = sqlite3_malloc(sizeof(*c));

	if (!c)
		return SQLITE_NOMEM;
	memset(c, 0, sizeof(*c));
	if (sqlite3_prepare_v2(tab->db, tab->f->sql, -1, &c->st, NULL) != SQLITE_OK) {
		v->zErrMsg = sqlite3_mprintf("%s: %s", tab->f->name,
					     sqlite3_errmsg(tab->db));
		sqlite3_free(c);
		return SQLITE_ERROR;
	}
	*out = &c->base;
	return SQLITE_OK;
}

static void tvf_forget_args(struct tvf_cursor *c)
{
	int k;

	for (k = 0; k < MAX_ARGS; k++) {
		sqlite3_value_free(c->args[k]);
		c->args[k] = NULL;
	}
}

static int tvf_close(sqlite3_vtab_cursor *vc)
{
	struct tvf_cursor *c = (struct tvf_cursor *)vc;

	sqlite3_finalize(c->st);
	tvf_forget_args(c);
	sqlite3_free(c);
	return SQLITE_OK;
}

static int tvf_step(struct tvf_cursor *c)
{
	struct tvf_table *tab = (struct tvf_table *)c->base.pVtab;

	c->rc = sqlite3_step(c->st);
	c->row++;
	if (c->rc == SQLITE_ROW || c->rc == SQLITE_DONE)
		return SQLITE_OK;
	sqlite3_free(tab->base.zErrMsg);
	tab->base.zErrMsg = sqlite3_mprintf("%s: %s", tab->f->name,
					    sqlite3_errmsg(tab->db));
	return SQLITE_ERROR;
}

static int tvf_filter(sqlite3_vtab_cursor *vc, int idxNum, const char *idxStr,
		      int argc, sqlite3_value **argv)
{
	struct tvf_cursor *c = (struct tvf_cursor *)vc;
	struct tvf_table *tab = (struct tvf_table *)vc->pVtab;
	sqlite3_value *given[MAX_ARGS] = { NULL };
	const char *wrong;
	int k, n = 0;

	(void)idxStr;
	sqlite3_reset(c->st);
	sqlite3_clear_bindings(c->st);
	tvf_forget_args(c);
	for (k = 0; k < MAX_ARGS && n < argc; k++)
		if (idxNum & (1 << k))
			given[k] = argv[n++];
	if (!given[0]) {
		tab->base.zErrMsg = sqlite3_mprintf("%s: give it a %s: %s(%s)",
						    tab->f->name, tab->f->args[0],
						    tab->f->name, tab->f->args[0]);
		return SQLITE_ERROR;
	}
	for (k = 0; k < MAX_ARGS && tab->f->args[k]; k++) {
		c->args[k] = given[k] ? sqlite3_value_dup(given[k]) : NULL;
		if (given[k] && !c->args[k])
			return SQLITE_NOMEM;
		if (given[k])
			sqlite3_bind_value(c->st, k + 1, given[k]);
	}
	if (tab->f->check && (wrong = tab->f->check(given))) {
		tab->base.zErrMsg = sqlite3_mprintf("%s: %s", tab->f->name, wrong);
		return SQLITE_ERROR;
	}
	c->row = 0;
	return tvf_step(c);
}

static int tvf_next(sqlite3_vtab_cursor *vc)
{
	return tvf_step((struct tvf_cursor *)vc);
}

static int tvf_eof(sqlite3_vtab_cursor *vc)
{
	return ((struct tvf_cursor *)vc)->rc != SQLITE_ROW;
}

static int tvf_column(sqlite3_vtab_cursor *vc, sqlite3_context *ctx, int col)
{
	struct tvf_cursor *c = (struct tvf_cursor *)vc;
	int ncolumns = ((struct tvf_table *)vc->pVtab)->ncolumns;

	if (col < ncolumns)
		sqlite3_result_value(ctx, sqlite3_column_value(c->st, col));
	else if (col - ncolumns < MAX_ARGS && c->args[col - ncolumns])
		sqlite3_result_value(ctx, c->args[col - ncolumns]);
	return SQLITE_OK;
}

static int tvf_rowid(sqlite3_vtab_cursor *vc, sqlite3_int64 *out)
{
	*out = ((struct tvf_cursor *)vc)->row;
	return SQLITE_OK;
}

static const sqlite3_module tvf_module = {
	.iVersion = 1,
	.xConnect = tvf_connect,	/* (no xCreate: eponymous only) */
	.xBestIndex = tvf_best_index,
	.xDisconnect = tvf_disconnect,
	.xOpen = tvf_open,
	.xClose = tvf_close,
	.xFilter = tvf_filter,
	.xNext = tvf_next,
	.xEof = tvf_eof,
	.xColumn = tvf_column,
	.xRowid = tvf_rowid,
};

/*
 * counter_at(name, ts[, pid]): the samples sorted by name, pid and time,
 * read at the first call and again after the database changed; a
 * counter of one name and process is a run of them.
 */
struct sample {
	size_t name;			/* in the names' text */
	sqlite3_int64 pid, ts;
	int type;			/* SQLITE_INTEGER, _FLOAT or _NULL */
	union {
		sqlite3_int64 i;
		double d;
	};
};

struct counters {
	sqlite3_int64 changes;		/* the database's when read; -1: never */
	struct sample *s;
	size_t n;
	char *names;
};

static void counters_forget(struct counters *k)
{
	free(k->s);
	free(k->names);
	k->s = NULL;
	k->names = NULL;
	k->n = 0;
	k->changes = -1;
}

static void counters_free(void *p)
{
	counters_forget(p);
	free(p);
}

static int counters_read(struct counters *k, sqlite3 *db)
{
	static const char sql[] =
		"SELECT name, pid, ts, value FROM counter WHERE ts IS NOT NULL"
		" AND name IS NOT NULL ORDER BY name, pid, ts";
	size_t cap = 0, names_len = 0, names_cap = 0;
	sqlite3_stmt *st;
	int rc;

	counters_forget(k);
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);
		size_t len = strlen(name ? name : "") + 1;
		struct sample *x;

		if (k->n == cap) {
			cap = cap ? 2 * cap : 256;
			if (!(x = realloc(k->s, cap * sizeof(*x))))
				goto fail;
			k->s = x;
		}
		x = &k->s[k->n];
		/* a name is kept once a run */
		if (!k->n || strcmp(k->names + k->s[k->n - 1].name, name)) {
			if (names_len + len > names_cap) {
				char *g;

				names_cap = 2 * (names_len + len) + 256;
				if (!(g = realloc(k->names, names_cap)))
					goto fail;
				k->names = g;
			}
			memcpy(k->names + names_len, name, len);
			x->name = names_len;
			names_len += len;
		} else {
			x->name = k->s[k->n - 1].name;
		}
		x->pid = sqlite3_column_int64(st, 1);
		x->ts = sqlite3_column_int64(st, 2);
		x->type = sqlite3_column_type(st, 3);
		if (x->type == SQLITE_INTEGER)
			x->i = sqlite3_column_int64(st, 3);
		else if (x->type == SQLITE_FLOAT)
			x->d = sqlite3_column_double(st, 3);
		else
			x->type = SQLITE_NULL;
		k->n++;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		goto fail;
	k->changes = sqlite3_total_changes64(db);
	return 0;
fail:
	counters_forget(k);
	return -1;
}

/* Where (name, pid, ts) goes among k's samples: before the first
 * greater one (after), or the first not smaller. */
static size_t sample_bound(const struct counters *k, const char *name,
			   sqlite3_int64 pid, sqlite3_int64 ts, bool after)
{
	size_t lo = 0, hi = k->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct sample *x = &k->s[mid];
		int c = strcmp(k->names + x->name, name);

		if (!c)
			c = x->pid < pid ? -1 : x->pid > pid;
		if (!c)
			c = x->ts < ts ? -1 : x->ts > ts;
		if (c < 0 || (after && !c))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The last sample of (name, pid) at or before ts, or NULL. */
static const struct sample *last_sample(const struct counters *k, const char *name,
					sqlite3_int64 pid, sqlite3_int64 ts)
{
	size_t at = sample_bound(k, name, pid, ts, true);
	const struct sample *x = at ? &k->s[at - 1] : NULL;

	return x && x->pid == pid && !strcmp(k->names + x->name, name) ? x : NULL;
}

/* An integer argument (a real: its floor) in *out; false when it is not
 * a number. */
static bool integer_arg(sqlite3_value *v, sqlite3_int64 *out)
{
	double d;

	switch (sqlite3_value_numeric_type(v)) {
	case SQLITE_INTEGER:
		*out = sqlite3_value_int64(v);
		return true;
	case SQLITE_FLOAT:
		d = floor(sqlite3_value_double(v));
		if (!(d >= -9.2e18 && d <= 9.2e18))
			return false;
		*out = (sqlite3_int64)d;
		return true;
	}
	return false;
}

static void counter_at(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	struct counters *k = sqlite3_user_data(ctx);
	sqlite3 *db = sqlite3_context_db_handle(ctx);
	const struct sample *best = NULL, *x;
	sqlite3_int64 ts, pid = 0;
	const char *name;
	size_t at;
	int i;

	for (i = 0; i < argc; i++)
		if (sqlite3_value_type(argv[i]) == SQLITE_NULL)
			return;		/* NULL */
	if (!integer_arg(argv[1], &ts) || (argc > 2 && !integer_arg(argv[2], &pid))) {
		sqlite3_result_error(ctx, argc > 2 && integer_arg(argv[1], &ts) ?
				     "counter_at: the pid is a number" :
				     "counter_at: the time is a number (ns on the"
				     " query's clock)", -1);
		return;
	}
	if (k->changes != sqlite3_total_changes64(db) && counters_read(k, db)) {
		sqlite3_result_error(ctx, "counter_at: the counter table could not"
				     " be read", -1);
		return;
	}
	if (!(name = (const char *)sqlite3_value_text(argv[0]))) {
		sqlite3_result_error_nomem(ctx);
		return;
	}
	if (argc > 2) {
		best = last_sample(k, name, pid, ts);
	} else {
		/* the latest of each process's counter of that name */
		at = sample_bound(k, name, INT64_MIN, INT64_MIN, false);
		while (at < k->n && !strcmp(k->names + k->s[at].name, name)) {
			pid = k->s[at].pid;
			x = last_sample(k, name, pid, ts);
			if (x && (!best || x->ts > best->ts))
				best = x;
			at = sample_bound(k, name, pid, INT64_MAX, true);
		}
	}
	if (!best || best->type == SQLITE_NULL)
		sqlite3_result_null(ctx);
	else if (best->type == SQLITE_INTEGER)
		sqlite3_result_int64(ctx, best->i);
	else
		sqlite3_result_double(ctx, best->d);
}

int evt_sql_time_functions(sqlite3 *db, char *err, size_t err_size)
{
	struct counters *k = calloc(1, sizeof(*k));
	size_t i;

	if (!k) {
		snprintf(err, err_size, "out of memory");
		return -1;
	}
	k->changes = -1;
	for (i = 0; i < sizeof(functions) / sizeof(functions[0]); i++)
		if (sqlite3_create_module(db, functions[i].name, &tvf_module,
					  (void *)&functions[i]) != SQLITE_OK) {
			snprintf(err, err_size, "%s: %s", functions[i].name,
				 sqlite3_errmsg(db));
			free(k);
			return -1;
		}
	if (sqlite3_create_function_v2(db, "counter_at", 2, SQLITE_UTF8, k, counter_at,
				       NULL, NULL, NULL) != SQLITE_OK) {
		free(k);
		snprintf(err, err_size, "counter_at: %s", sqlite3_errmsg(db));
		return -1;
	}
	/* (k is freed with this one, also when it fails) */
	if (sqlite3_create_function_v2(db, "counter_at", 3, SQLITE_UTF8, k, counter_at,
				       NULL, NULL, counters_free) != SQLITE_OK) {
		snprintf(err, err_size, "counter_at: %s", sqlite3_errmsg(db));
		return -1;
	}
	return 0;
}
