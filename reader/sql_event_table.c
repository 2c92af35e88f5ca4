/*
 * sql_event_table.c - the SQL table "event" over the columns of
 * event_table.h: a SQLite virtual table.
 *
 * Rows come in id order, which is time order (ts never goes down, for a
 * table that says so), so that a range of ids or of times is found by
 * binary search and ORDER BY id or ts costs nothing; or in the order of
 * their names, made once, so that GROUP BY name and ORDER BY name need
 * no sort, and the rows of one name (name = 'x') are found at once, in
 * id order still.  No constraint is taken for SQLite alone to check: the bounds
 * found here only narrow the rows, SQLite still tests each one (a
 * value of another type, or NULL, narrows nothing).
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "event_table_local.h"
#include "json_text.h"
#include "layout.h"

enum column {
	C_ID, C_TS, C_NAME, C_KIND, C_PID, C_TID, C_CPU, C_SITE_ID, C_MESSAGE,
	C_TRACE_ID, C_FIELDS,
};

static const char declaration[] =
	"CREATE TABLE x(id INTEGER, ts INTEGER, name TEXT, kind TEXT, pid INTEGER,"
	" tid INTEGER, cpu INTEGER, site_id INTEGER, message TEXT, trace_id INTEGER,"
	" fields HIDDEN)";

/* idxNum's bits */
#define BY_NAME 1	/* rows in the order of their names */
#define NAME_EQ 2	/* of one name (the arguments say which): by_name
			 * too, a range of it in id order */

struct table {
	sqlite3_vtab base;
	struct evt_event_table *t;
};

struct cursor {
	sqlite3_vtab_cursor base;
	struct evt_event_table *t;
	const uint32_t *order;		/* NULL: ids' */
	size_t pos, end;		/* in order */
	size_t lo, hi;			/* rows [lo, hi) */
	struct json_buf json;
	char text[EVT_RENDER_MAX_BYTES];
};

static int connect(sqlite3 *db, void *aux, int argc, const char *const *argv,
		   sqlite3_vtab **out, char **err)
{
	struct table *tab;
	int rc;

	(void)argc;
	(void)argv;
	(void)err;
	rc = sqlite3_declare_vtab(db, declaration);
	if (rc != SQLITE_OK)
		return rc;
	tab = sqlite3_malloc(sizeof(*tab));
	if (!tab)
		return SQLITE_NOMEM;
	memset(tab, 0, sizeof(*tab));
	tab->t = aux;
	*out = &tab->base;
	return SQLITE_OK;
}

static int disconnect(sqlite3_vtab *v)
{
	sqlite3_free(v);
	return SQLITE_OK;
}

/* The op letters xFilter reads (idxStr), one per argument. */
static char op_letter(int column, unsigned char op)
{
	static const char id_ops[] = "iabcd", ts_ops[] = "tefgh";
	const char *ops = column == C_ID || column == -1 ? id_ops : ts_ops;

	switch (op) {
	case SQLITE_INDEX_CONSTRAINT_EQ:
		return ops[0];
	case SQLITE_INDEX_CONSTRAINT_GT:
		return ops[1];
	case SQLITE_INDEX_CONSTRAINT_GE:
		return ops[2];
	case SQLITE_INDEX_CONSTRAINT_LT:
		return ops[3];
	case SQLITE_INDEX_CONSTRAINT_LE:
		return ops[4];
	}
	return 0;
}

/* Whether the ORDER BY is one the rows come in: by ids (time), or by
 * names (*by_name); rows of one name (name_eq) come in id order, their
 * name the same. */
static bool order_given(const struct evt_event_table *t,
			const sqlite3_index_info *info, bool name_eq, bool *by_name)
{
	const struct sqlite3_index_orderby *o = info->aOrderBy;
	int i;

	*by_name = false;
	if (!name_eq && info->nOrderBy == 1 && !o[0].desc && o[0].iColumn == C_NAME)
		return *by_name = true;
	for (i = 0; i < info->nOrderBy; i++)
		if (!(name_eq && o[i].iColumn == C_NAME) &&
		    (o[i].desc || !(o[i].iColumn == C_ID || o[i].iColumn == -1 ||
				    (o[i].iColumn == C_TS && t->ts_sorted))))
			return false;
	return info->nOrderBy > 0;
}

/* Whether constraint i is name = x, compared as bytes. */
static bool name_equals(sqlite3_index_info *info, int i)
{
	const struct sqlite3_index_constraint *c = &info->aConstraint[i];
	const char *coll;

	if (!c->usable || c->iColumn != C_NAME || c->op != SQLITE_INDEX_CONSTRAINT_EQ)
		return false;
	coll = sqlite3_vtab_collation(info, i);
	return !coll || !sqlite3_stricmp(coll, "BINARY");
}

static int best_index(sqlite3_vtab *v, sqlite3_index_info *info)
{
	struct evt_event_table *t = ((struct table *)v)->t;
	char ops[64];
	int i, n = 0;
	double rows = (double)t->n + 1;
	bool by_name, name_eq = false;

	for (i = 0; i < info->nConstraint && n < (int)sizeof(ops) - 1; i++) {
		const struct sqlite3_index_constraint *c = &info->aConstraint[i];
		char letter;

		if (name_equals(info, i)) {
			letter = 'n';
			name_eq = true;
		} else if (!c->usable || !(c->iColumn == C_ID || c->iColumn == -1 ||
					   (c->iColumn == C_TS && t->ts_sorted))) {
			continue;
		} else {
			letter = op_letter(c->iColumn, c->op);
		}
		if (!letter)
			continue;
		ops[n++] = letter;
		info->aConstraintUsage[i].argvIndex = n;
		info->aConstraintUsage[i].omit = 0;
		rows /= letter == 'i' ? rows : letter == 't' || letter == 'n' ? 100 : 4;
	}
	ops[n] = '\0';
	info->idxNum = name_eq ? NAME_EQ : 0;
	if (order_given(t, info, name_eq, &by_name)) {
		info->orderByConsumed = 1;
		info->idxNum |= by_name ? BY_NAME : 0;
	}
	if (info->idxNum == BY_NAME && n)
		rows = (double)t->n + 1;	/* (bounds only skip rows then) */
	info->estimatedRows = (sqlite3_int64)rows;
	info->estimatedCost = rows;
	if (n) {
		info->idxStr = sqlite3_mprintf("%s", ops);
		if (!info->idxStr)
			return SQLITE_NOMEM;
		info->needToFreeIdxStr = 1;
	}
	return SQLITE_OK;
}

static int open_cursor(sqlite3_vtab *v, sqlite3_vtab_cursor **out)
{
	struct cursor *c = sqlite3_malloc(sizeof(*c));

	if (!c)
		return SQLITE_NOMEM;
	memset(c, 0, offsetof(struct cursor, text));
	c->t = ((struct table *)v)->t;
	c->json.sql = true;
	*out = &c->base;
	return SQLITE_OK;
}

static int close_cursor(sqlite3_vtab_cursor *vc)
{
	struct cursor *c = (struct cursor *)vc;

	free(c->json.text);
	sqlite3_free(c);
	return SQLITE_OK;
}

/* The first row whose ts is at least ts (of t's ts-sorted rows). */
static size_t first_at(const struct evt_event_table *t, int64_t ts)
{
	size_t lo = 0, hi = t->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->ts[mid] < ts)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The first of positions [from, to) of order (rows going up) whose row
 * is at least r. */
static size_t first_of_rows(const uint32_t *order, size_t from, size_t to, size_t r)
{
	while (from < to) {
		size_t mid = from + (to - from) / 2;

		if (order[mid] < r)
			from = mid + 1;
		else
			to = mid;
	}
	return from;
}

/*
 * v as a bound for a column of integers, in *out: only rows whose value
 * is at least *out (low) or at most *out (!low) may match; strict for
 * > and <.  false when v narrows nothing (not a number, or nothing
 * matches, which SQLite finds).
 */
static bool integer_bound(sqlite3_value *v, bool strict, bool low, int64_t *out)
{
	double d;

	switch (sqlite3_value_numeric_type(v)) {
	case SQLITE_INTEGER:
		*out = sqlite3_value_int64(v);
		if (strict && low && *out == INT64_MAX)
			return false;	/* (nothing: SQLite says so) */
		if (strict && !low && *out == INT64_MIN)
			return false;
		*out += strict ? (low ? 1 : -1) : 0;
		return true;
	case SQLITE_FLOAT:
		d = sqlite3_value_double(v);
		if (isnan(d) || d >= 9.2e18 || d <= -9.2e18)
			return false;
		*out = (int64_t)(low ? ceil(d) : floor(d));
		return true;
	}
	return false;
}

static int filter(sqlite3_vtab_cursor *vc, int idxNum, const char *idxStr,
		  int argc, sqlite3_value **argv)
{
	struct cursor *c = (struct cursor *)vc;
	struct evt_event_table *t = c->t;
	int64_t id_lo = 1, id_hi = INT64_MAX, b;
	size_t lo = 0, hi = t->n;
	const char *name = NULL;
	bool none = false;
	int i;

	for (i = 0; i < argc && idxStr && idxStr[i]; i++) {
		char op = idxStr[i];

		if (op == 'n') {
			const char *n;

			if (sqlite3_value_type(argv[i]) != SQLITE_TEXT)
				continue;	/* (SQLite compares) */
			n = (const char *)sqlite3_value_text(argv[i]);
			if (!n)
				return SQLITE_NOMEM;
			none |= name && strcmp(name, n);
			name = n;
			continue;
		}
		bool ts = strchr("tefgh", op) != NULL, eq = op == 'i' || op == 't';
		bool strict = op == 'a' || op == 'c' || op == 'e' || op == 'g';
		bool low = eq || op == 'a' || op == 'b' || op == 'e' || op == 'f';

		if (eq) {
			int64_t at;

			if (!integer_bound(argv[i], false, true, &at))
				continue;
			if (ts) {
				lo = lo > first_at(t, at) ? lo : first_at(t, at);
				hi = at == INT64_MAX ? hi :
				     hi < first_at(t, at + 1) ? hi : first_at(t, at + 1);
			} else {
				id_lo = id_lo > at ? id_lo : at;
				id_hi = id_hi < at ? id_hi : at;
			}
			continue;
		}
		if (!integer_bound(argv[i], strict, low, &b))
			continue;
		if (ts && low)
			lo = lo > first_at(t, b) ? lo : first_at(t, b);
		else if (ts)
			hi = b == INT64_MAX ? hi :
			     hi < first_at(t, b + 1) ? hi : first_at(t, b + 1);
		else if (low)
			id_lo = id_lo > b ? id_lo : b;
		else
			id_hi = id_hi < b ? id_hi : b;
	}
	/* ids are rows + 1 */
	if (id_lo > 1)
		lo = lo > (size_t)(id_lo - 1) ? lo : (uint64_t)(id_lo - 1) < t->n ?
		     (size_t)(id_lo - 1) : t->n;
	if (id_hi < 1)
		hi = 0;
	else if ((uint64_t)id_hi < t->n)
		hi = hi < (size_t)id_hi ? hi : (size_t)id_hi;
	if (hi < lo || none)
		hi = lo;
	c->lo = lo;
	c->hi = hi;
	c->order = NULL;
	if ((idxNum & BY_NAME) || ((idxNum & NAME_EQ) && name)) {
		if (!t->by_name && t->n && evt_event_table_order_by_name(t))
			return SQLITE_NOMEM;
		c->order = t->by_name;
		c->pos = 0;
		c->end = t->n;
	}
	if (c->order && name) {
		/* its rows, in id order: those in [lo, hi) */
		evt_event_table_name_rows(t, name, &c->pos, &c->end);
		c->pos = first_of_rows(t->by_name, c->pos, c->end, lo);
		c->end = first_of_rows(t->by_name, c->pos, c->end, hi);
	} else if (!c->order) {
		c->pos = lo;
		c->end = hi;
	}
	/* (rows outside [lo, hi) are skipped in the names' order) */
	while (c->order && c->pos < c->end &&
	       (c->order[c->pos] < c->lo || c->order[c->pos] >= c->hi))
		c->pos++;
	return SQLITE_OK;
}

static int next(sqlite3_vtab_cursor *vc)
{
	struct cursor *c = (struct cursor *)vc;

	c->pos++;
	while (c->order && c->pos < c->end &&
	       (c->order[c->pos] < c->lo || c->order[c->pos] >= c->hi))
		c->pos++;
	return SQLITE_OK;
}

static int eof(sqlite3_vtab_cursor *vc)
{
	struct cursor *c = (struct cursor *)vc;

	return c->pos >= c->end;
}

static size_t row(const struct cursor *c)
{
	return c->order ? c->order[c->pos] : c->pos;
}

static void message(struct cursor *c, sqlite3_context *ctx, size_t r)
{
	const struct evt_event_table *t = c->t;
	const struct evt_event_source *s = &t->sources[t->source[r]];
	int len = evt_trace_set_render(t->sets[s->set], s->reader, s->event,
				       t->payload[r], t->payload_size[r],
				       t->threads[t->thread[r]].tid, t->cpu[r],
				       c->text, sizeof(c->text));

	if (len < 0) {
		sqlite3_result_null(ctx);
		return;
	}
	if (len && c->text[len - 1] == '\n')
		len--;
	sqlite3_result_text(ctx, c->text, len, SQLITE_TRANSIENT);
}

static void fields(struct cursor *c, sqlite3_context *ctx, size_t r)
{
	const struct evt_event_table *t = c->t;
	struct evt_trace_item it = {
		.kind = EVT_ITEM_EVENT,
		.event = t->sources[t->source[r]].event,
		.payload = t->payload[r], .payload_size = t->payload_size[r],
	};

	c->json.len = 0;
	c->json.failed = false;
	json_buf_fields(&c->json, &it);
	if (c->json.failed) {
		sqlite3_result_error_nomem(ctx);
		return;
	}
	sqlite3_result_text(ctx, c->json.text, (int)c->json.len, SQLITE_TRANSIENT);
}

static int column(sqlite3_vtab_cursor *vc, sqlite3_context *ctx, int col)
{
	struct cursor *c = (struct cursor *)vc;
	const struct evt_event_table *t = c->t;
	size_t r = row(c);
	const struct evt_event_source *s = &t->sources[t->source[r]];

	switch (col) {
	case C_ID:
		sqlite3_result_int64(ctx, (sqlite3_int64)r + 1);
		break;
	case C_TS:
		sqlite3_result_int64(ctx, t->ts[r]);
		break;
	case C_NAME:
		sqlite3_result_text(ctx, s->event->path, s->name_len, SQLITE_STATIC);
		break;
	case C_KIND:
		sqlite3_result_text(ctx, evt_event_kind_word(s->event->layout.kind),
				    -1, SQLITE_STATIC);
		break;
	case C_PID:
		sqlite3_result_int64(ctx, t->threads[t->thread[r]].pid);
		break;
	case C_TID:
		sqlite3_result_int64(ctx, t->threads[t->thread[r]].tid);
		break;
	case C_CPU:
		sqlite3_result_int64(ctx, t->cpu[r]);
		break;
	case C_SITE_ID:
		sqlite3_result_int64(ctx, s->site_id);
		break;
	case C_MESSAGE:
		message(c, ctx, r);
		break;
	case C_TRACE_ID:
		sqlite3_result_int64(ctx, s->trace_id);
		break;
	case C_FIELDS:
		fields(c, ctx, r);
		break;
	}
	return SQLITE_OK;
}

static int rowid(sqlite3_vtab_cursor *vc, sqlite3_int64 *out)
{
	*out = (sqlite3_int64)row((struct cursor *)vc) + 1;
	return SQLITE_OK;
}

static const sqlite3_module module = {
	.iVersion = 1,
	.xCreate = connect,
	.xConnect = connect,
	.xBestIndex = best_index,
	.xDisconnect = disconnect,
	.xDestroy = disconnect,
	.xOpen = open_cursor,
	.xClose = close_cursor,
	.xFilter = filter,
	.xNext = next,
	.xEof = eof,
	.xColumn = column,
	.xRowid = rowid,
};

static void free_table(void *p)
{
	evt_event_table_free(p);
}

int evt_event_table_sql(sqlite3 *db, struct evt_event_table *t, char *err,
			size_t err_size)
{
	char *why = NULL;

	if (sqlite3_create_module_v2(db, "evtrace_event", &module, t, free_table) !=
	    SQLITE_OK) {
		snprintf(err, err_size, "the event table: %s", sqlite3_errmsg(db));
		return -1;	/* (t is freed: the destructor runs on failure) */
	}
	if (sqlite3_exec(db, "CREATE VIRTUAL TABLE temp.event USING evtrace_event;"
			 "CREATE VIEW temp.args AS SELECT e.id AS event_id, f.key AS key,"
			 " f.value AS value FROM event e, json_each(e.fields) f",
			 NULL, NULL, &why) != SQLITE_OK) {
		snprintf(err, err_size, "the event table: %s",
			 why ? why : sqlite3_errmsg(db));
		sqlite3_free(why);
		return -1;
	}
	return 0;
}
