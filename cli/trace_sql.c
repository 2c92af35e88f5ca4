/*
 * trace_sql.c - read a trace into the tables of trace_sql.h.
 *
 * One pass in time order: each event is a row of event and a row of args
 * per field; spans and async spans are also paired (span_pairs.c) into
 * slice rows as they close, counters are also counter rows, losses are
 * loss rows from the thread's previous item to the notice.  A thread,
 * process or site is a row the first time it is met.  Ids of events and
 * slices go on from the traces added before, so that they stay unique
 * across traces.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "event_format.h"
#include "key_map.h"
#include "report_output.h"
#include "span_kind.h"
#include "span_pairs.h"
#include "trace_sql.h"

static const char schema[] =
	"CREATE TABLE trace(id INTEGER PRIMARY KEY, path TEXT, host TEXT, clock TEXT,"
	" events INTEGER, lost INTEGER, errors INTEGER);"
	"CREATE TABLE trace_error(trace_id INTEGER, message TEXT);"
	"CREATE TABLE process(pid INTEGER, name TEXT, host TEXT, trace TEXT,"
	" trace_id INTEGER);"
	"CREATE TABLE thread(tid INTEGER, pid INTEGER, name TEXT, trace_id INTEGER);"
	"CREATE TABLE site(id INTEGER PRIMARY KEY, name TEXT, module TEXT, file TEXT,"
	" line INTEGER, function TEXT, format TEXT, kind TEXT, trace_id INTEGER,"
	" UNIQUE(trace_id, name));"
	/* An event is one row, its fields one JSON object that args
	 * spreads out: a row per field would triple what is written. */
	"CREATE TABLE event_row(id INTEGER PRIMARY KEY, ts INTEGER, site_id INTEGER,"
	" pid INTEGER, tid INTEGER, cpu INTEGER, message TEXT, fields TEXT,"
	" trace_id INTEGER);"
	"CREATE VIEW event AS SELECT e.id AS id, e.ts AS ts, s.name AS name,"
	" s.kind AS kind, e.pid AS pid, e.tid AS tid, e.cpu AS cpu,"
	" e.site_id AS site_id, e.message AS message, e.trace_id AS trace_id"
	" FROM event_row e JOIN site s ON s.id = e.site_id;"
	"CREATE VIEW args AS SELECT e.id AS event_id, f.key AS key, f.value AS value"
	" FROM event_row e, json_each(e.fields) f;"
	"CREATE TABLE slice(id INTEGER PRIMARY KEY, ts INTEGER, dur INTEGER,"
	" end_ts INTEGER, name TEXT, depth INTEGER, parent_id INTEGER, pid INTEGER,"
	" tid INTEGER, args TEXT, state TEXT, async_id INTEGER, trace_id INTEGER);"
	"CREATE TABLE counter(ts INTEGER, name TEXT, value, pid INTEGER, tid INTEGER,"
	" trace_id INTEGER);"
	"CREATE TABLE loss(pid INTEGER, tid INTEGER, cpu INTEGER, ts_from INTEGER,"
	" ts_to INTEGER, count INTEGER, trace_id INTEGER);";

enum stmt {
	S_EVENT, S_SLICE, S_COUNTER, S_LOSS, S_THREAD, S_PROCESS,
	S_SITE, S_SITE_ID, S_ERROR, S_TRACE, S_N
};

static const char *const stmt_sql[S_N] = {
	[S_EVENT] = "INSERT INTO event_row(ts, site_id, pid, tid, cpu, message, fields,"
		    " trace_id) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
	[S_SLICE] = "INSERT INTO slice VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10,"
		    " ?11, ?12, ?13)",
	[S_COUNTER] = "INSERT INTO counter VALUES(?1, ?2, ?3, ?4, ?5, ?6)",
	[S_LOSS] = "INSERT INTO loss VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7)",
	[S_THREAD] = "INSERT INTO thread VALUES(?1, ?2, ?3, ?4)",
	[S_PROCESS] = "INSERT INTO process VALUES(?1, ?2, ?3, ?4, ?5)",
	[S_SITE] = "INSERT OR IGNORE INTO site(name, module, file, line, format, kind,"
		   " trace_id, function) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
	[S_SITE_ID] = "SELECT id FROM site WHERE trace_id = ?1 AND name = ?2",
	[S_ERROR] = "INSERT INTO trace_error VALUES(?1, ?2)",
	[S_TRACE] = "INSERT INTO trace VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7)",
};

struct loader {
	sqlite3 *db;
	const char *cmd, *dir, *host;
	uint32_t trace_id;
	enum report_clock clock;
	struct report_filter *filter;
	sqlite3_stmt *st[S_N];
	struct key_map threads;		/* pid << 32 | tid: its last time + 1 */
	struct key_map processes;	/* pid */
	struct key_map sites;		/* event desc: site id */
	struct evt_span_pairs *pairs;
	struct json_buf json;		/* an event's fields */
	uint64_t slice_base;		/* slice ids of earlier traces */
	bool started;
	int64_t start_ns;
	const char *failed;		/* what SQLite said, or "out of memory" */
};

static const char *kind_name(unsigned kind)
{
	switch (kind) {
	case EVT_KIND_PRINTK:
		return "printk";
	case EVT_KIND_FTRACE:
		return "ftrace";
	case EVT_KIND_TYPED:
		return "typed";
	case EVT_KIND_STABLE:
		return "stable";
	case EVT_KIND_KERNEL:
		return "kernel";
	case EVT_KIND_SPAN:
		return "span";
	case EVT_KIND_ASYNC:
		return "async";
	case EVT_KIND_COUNTER:
		return "counter";
	}
	return "unknown";
}

static int64_t ts_of(const struct loader *l, int64_t monotonic_ns, int64_t realtime_ns)
{
	switch (l->clock) {
	case REPORT_REALTIME:
		return realtime_ns;
	case REPORT_RELATIVE:
		return monotonic_ns - l->start_ns;
	default:
		return monotonic_ns;
	}
}

/* Runs the bound statement s and resets it; 0, or -1 with l->failed. */
static int step(struct loader *l, enum stmt s)
{
	int rc = sqlite3_step(l->st[s]);

	sqlite3_reset(l->st[s]);
	if (rc == SQLITE_DONE || rc == SQLITE_ROW)
		return 0;
	l->failed = sqlite3_errmsg(l->db);
	return -1;
}

static void bind_text(sqlite3_stmt *s, int i, const char *text, size_t n)
{
	/* Static: every statement is stepped before what it points to goes. */
	if (text)
		sqlite3_bind_text(s, i, text, (int)n, SQLITE_STATIC);
	else
		sqlite3_bind_null(s, i);
}

static void bind_str(sqlite3_stmt *s, int i, const char *text)
{
	bind_text(s, i, text, text ? strlen(text) : 0);
}

/* A printk site's path: printk/<module>/<file>/<line>. */
static void bind_location(sqlite3_stmt *s, const char *path)
{
	const char *module = path + 7, *file = strchr(module, '/'),
		   *line = strrchr(path, '/');

	if (strncmp(path, "printk/", 7) || !file || line <= file) {
		sqlite3_bind_null(s, 2);
		sqlite3_bind_null(s, 3);
		sqlite3_bind_null(s, 4);
		return;
	}
	bind_text(s, 2, module, file - module);
	bind_text(s, 3, file + 1, line - file - 1);
	sqlite3_bind_int64(s, 4, strtoll(line + 1, NULL, 10));
}

/* The site of the item's event, a row the first time it is met. */
static int site_of(struct loader *l, const struct evt_event_desc *e, int64_t *id)
{
	sqlite3_stmt *s = l->st[S_SITE];
	int fresh;
	uint64_t *known = key_map_add(&l->sites, (uintptr_t)e, &fresh);

	if (!known)
		return l->failed = "out of memory", -1;
	if (!fresh) {
		*id = (int64_t)*known;
		return 0;
	}
	bind_str(s, 1, e->path);
	bind_location(s, e->path);
	bind_str(s, 5, e->format);
	bind_str(s, 6, kind_name(e->layout.kind));
	sqlite3_bind_int64(s, 7, l->trace_id);
	bind_str(s, 8, e->func);
	if (step(l, S_SITE))
		return -1;
	s = l->st[S_SITE_ID];
	sqlite3_bind_int64(s, 1, l->trace_id);
	bind_str(s, 2, e->path);
	if (sqlite3_step(s) != SQLITE_ROW) {
		sqlite3_reset(s);
		return l->failed = "a site row went missing", -1;
	}
	*id = sqlite3_column_int64(s, 0);
	*known = (uint64_t)*id;
	sqlite3_reset(s);
	return 0;
}

/* The thread and process rows, the first time; the thread's last time. */
static int meet_thread(struct loader *l, const struct evt_trace_item *it,
		       int64_t ts, int64_t *before, bool *had_before)
{
	int fresh;
	uint64_t *last = key_map_add(&l->threads, (uint64_t)it->pid << 32 | it->tid,
				     &fresh);
	sqlite3_stmt *s;

	if (!last)
		return l->failed = "out of memory", -1;
	*had_before = *last != 0;
	*before = (int64_t)(*last - 1);
	*last = (uint64_t)ts + 1;
	if (fresh) {
		s = l->st[S_THREAD];
		sqlite3_bind_int64(s, 1, it->tid);
		sqlite3_bind_int64(s, 2, it->pid);
		bind_str(s, 3, it->comm);
		sqlite3_bind_int64(s, 4, l->trace_id);
		if (step(l, S_THREAD))
			return -1;
	}
	if (!key_map_add(&l->processes, it->pid, &fresh))
		return l->failed = "out of memory", -1;
	if (fresh) {
		s = l->st[S_PROCESS];
		sqlite3_bind_int64(s, 1, it->pid);
		bind_str(s, 2, it->comm);
		bind_str(s, 3, l->host);
		bind_str(s, 4, l->dir);
		sqlite3_bind_int64(s, 5, l->trace_id);
		if (step(l, S_PROCESS))
			return -1;
	}
	return 0;
}

/* The event's fields as a JSON object (report --json's), in l->json. */
static int fields_json(struct loader *l, const struct evt_trace_item *it)
{
	l->json.len = 0;
	json_buf_fields(&l->json, it);
	if (l->json.failed)
		return l->failed = "out of memory", -1;
	return 0;
}

static int add_counter(struct loader *l, const struct evt_trace_item *it, int64_t ts)
{
	sqlite3_stmt *s = l->st[S_COUNTER];
	struct evt_span_head h;

	if (evt_span_head_read(&it->event->layout, it->payload, it->payload_size, &h))
		return 0;	/* too short: the event row says what there is */
	sqlite3_bind_int64(s, 1, ts);
	bind_str(s, 2, strchr(it->event->path, '/') + 1);
	if (h.real)
		sqlite3_bind_double(s, 3, h.real_value);	/* NaN: NULL */
	else
		sqlite3_bind_int64(s, 3, h.int_value);
	sqlite3_bind_int64(s, 4, it->pid);
	sqlite3_bind_int64(s, 5, it->tid);
	sqlite3_bind_int64(s, 6, l->trace_id);
	return step(l, S_COUNTER);
}

static int add_event(struct loader *l, const struct evt_trace_item *it, int64_t ts)
{
	sqlite3_stmt *s = l->st[S_EVENT];
	int64_t site;
	size_t n = it->text_len && it->text[it->text_len - 1] == '\n' ?
		   it->text_len - 1 : it->text_len;

	if (site_of(l, it->event, &site))
		return -1;
	if (fields_json(l, it))
		return -1;
	sqlite3_bind_int64(s, 1, ts);
	sqlite3_bind_int64(s, 2, site);
	sqlite3_bind_int64(s, 3, it->pid);
	sqlite3_bind_int64(s, 4, it->tid);
	sqlite3_bind_int64(s, 5, it->cpu);
	bind_text(s, 6, it->text, n);
	bind_text(s, 7, l->json.text, l->json.len);
	sqlite3_bind_int64(s, 8, l->trace_id);
	if (step(l, S_EVENT))
		return -1;
	if (it->event->layout.kind == EVT_KIND_COUNTER)
		return add_counter(l, it, ts);
	return 0;
}

static int add_loss(struct loader *l, const struct evt_trace_item *it, int64_t ts,
		    int64_t before, bool had_before)
{
	sqlite3_stmt *s = l->st[S_LOSS];

	sqlite3_bind_int64(s, 1, it->pid);
	sqlite3_bind_int64(s, 2, it->tid);
	sqlite3_bind_int64(s, 3, it->cpu);
	if (had_before)
		sqlite3_bind_int64(s, 4, before);
	else
		sqlite3_bind_null(s, 4);
	sqlite3_bind_int64(s, 5, ts);
	sqlite3_bind_int64(s, 6, (int64_t)it->lost);
	sqlite3_bind_int64(s, 7, l->trace_id);
	return step(l, S_LOSS);
}

static int add_error(struct loader *l, const char *message)
{
	sqlite3_stmt *s = l->st[S_ERROR];

	fflush(stdout);
	fprintf(stderr, "evtrace: %s: %s\n", l->cmd, message);
	sqlite3_bind_int64(s, 1, l->trace_id);
	bind_str(s, 2, message);
	return step(l, S_ERROR);
}

static int add_slice(const struct evt_slice *sl, void *ctx)
{
	struct loader *l = ctx;
	sqlite3_stmt *s = l->st[S_SLICE];
	const struct evt_slice_point *at = sl->begin.seen ? &sl->begin : &sl->end;
	int64_t from = ts_of(l, sl->begin.monotonic_ns, sl->begin.realtime_ns),
		to = ts_of(l, sl->end.monotonic_ns, sl->end.realtime_ns);

	sqlite3_bind_int64(s, 1, (int64_t)(l->slice_base + sl->id));
	if (sl->begin.seen)
		sqlite3_bind_int64(s, 2, from);
	else
		sqlite3_bind_null(s, 2);
	if (sl->begin.seen && sl->end.seen)
		sqlite3_bind_int64(s, 3, to - from);
	else
		sqlite3_bind_null(s, 3);
	if (sl->end.seen)
		sqlite3_bind_int64(s, 4, to);
	else
		sqlite3_bind_null(s, 4);
	bind_str(s, 5, sl->name);
	sqlite3_bind_int64(s, 6, sl->depth);
	if (sl->parent_id)
		sqlite3_bind_int64(s, 7, (int64_t)(l->slice_base + sl->parent_id));
	else
		sqlite3_bind_null(s, 7);
	sqlite3_bind_int64(s, 8, at->pid);
	sqlite3_bind_int64(s, 9, at->tid);
	bind_str(s, 10, sl->args);
	bind_str(s, 11, evt_slice_state_name(sl->state));
	if (sl->async)
		sqlite3_bind_int64(s, 12, (int64_t)sl->async_id);
	else
		sqlite3_bind_null(s, 12);
	sqlite3_bind_int64(s, 13, l->trace_id);
	return step(l, S_SLICE) ? 1 : 0;
}

static int add_item(const struct evt_trace_item *it, void *ctx)
{
	struct loader *l = ctx;
	int64_t ts, before;
	bool had_before;

	if (it->kind == EVT_ITEM_ERROR)
		return add_error(l, it->message) ? 1 : 0;
	if (!l->started) {
		l->started = true;
		l->start_ns = it->monotonic_ns;
	}
	if (l->filter && !report_filter_wanted(l->filter, it))
		return 0;
	ts = ts_of(l, it->monotonic_ns, it->realtime_ns);
	if (meet_thread(l, it, ts, &before, &had_before))
		return 1;
	if (it->kind == EVT_ITEM_LOST) {
		if (add_loss(l, it, ts, before, had_before))
			return 1;
	} else if (add_event(l, it, ts)) {
		return 1;
	}
	switch (evt_span_pairs_feed(l->pairs, it)) {
	case 0:
		return 0;
	case -1:
		l->failed = "out of memory";
		/* fall through */
	default:
		return 1;
	}
}

int trace_sql_create(sqlite3 *db, char *err, size_t err_size)
{
	char *why = NULL;

	if (sqlite3_exec(db, schema, NULL, NULL, &why) != SQLITE_OK) {
		snprintf(err, err_size, "making the tables: %s",
			 why ? why : sqlite3_errmsg(db));
		sqlite3_free(why);
		return -1;
	}
	return 0;
}

static const char *clock_name(enum report_clock c)
{
	return c == REPORT_REALTIME ? "realtime" :
	       c == REPORT_RELATIVE ? "relative" : "monotonic";
}

/* The trace's row, once read. */
static int add_trace_row(struct loader *l, const struct evt_trace_stats *st)
{
	sqlite3_stmt *s = l->st[S_TRACE];

	sqlite3_bind_int64(s, 1, l->trace_id);
	bind_str(s, 2, l->dir);
	bind_str(s, 3, l->host);
	bind_str(s, 4, clock_name(l->clock));
	sqlite3_bind_int64(s, 5, (int64_t)st->events);
	sqlite3_bind_int64(s, 6, (int64_t)st->lost);
	sqlite3_bind_int64(s, 7, (int64_t)st->errors);
	return step(l, S_TRACE);
}

static int64_t max_slice_id(sqlite3 *db)
{
	sqlite3_stmt *s;
	int64_t id = 0;

	if (sqlite3_prepare_v2(db, "SELECT max(id) FROM slice", -1, &s, NULL) != SQLITE_OK)
		return 0;
	if (sqlite3_step(s) == SQLITE_ROW)
		id = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	return id;
}

int trace_sql_add(sqlite3 *db, const char *cmd, const char *dir,
		  const char *host, uint32_t trace_id, enum report_clock clock,
		  struct report_filter *filter, struct evt_trace_stats *stats,
		  char *err, size_t err_size)
{
	struct loader l = {
		.db = db, .cmd = cmd, .dir = dir, .host = host,
		.trace_id = trace_id, .clock = clock, .filter = filter,
		.json.sql = true,
	};
	int i, ret = -1;

	l.slice_base = (uint64_t)max_slice_id(db);
	for (i = 0; i < S_N; i++)
		if (sqlite3_prepare_v2(db, stmt_sql[i], -1, &l.st[i], NULL) != SQLITE_OK) {
			snprintf(err, err_size, "%s", sqlite3_errmsg(db));
			goto out;
		}
	l.pairs = evt_span_pairs_new(add_slice, &l);
	if (!l.pairs) {
		snprintf(err, err_size, "out of memory");
		goto out;
	}
	if (filter)
		report_filter_restart(filter);
	if (evt_trace_read(dir, add_item, &l, stats, err, err_size))
		goto out;
	if (!l.failed && evt_span_pairs_finish(l.pairs) == -1)
		l.failed = "out of memory";
	if (!l.failed)
		add_trace_row(&l, stats);
	if (l.failed) {
		snprintf(err, err_size, "%s: %s", dir, l.failed);
		goto out;
	}
	ret = 0;
out:
	evt_span_pairs_free(l.pairs);
	free(l.json.text);
	for (i = 0; i < S_N; i++)
		sqlite3_finalize(l.st[i]);
	key_map_free(&l.threads);
	key_map_free(&l.processes);
	key_map_free(&l.sites);
	return ret;
}

int trace_sql_finish(sqlite3 *db, char *err, size_t err_size)
{
	static const char indexes[] =
		"CREATE INDEX slice_name ON slice(name);";
	char *why = NULL;

	if (sqlite3_exec(db, indexes, NULL, NULL, &why) != SQLITE_OK) {
		snprintf(err, err_size, "making the indexes: %s",
			 why ? why : sqlite3_errmsg(db));
		sqlite3_free(why);
		return -1;
	}
	return 0;
}
