/*
 * trace_sql.c - read a trace into the tables of trace_sql.h.
 *
 * One pass in time order: each event is a row of an event table
 * (event_table.h: in place, its text and fields made when asked), or,
 * for convert --to sqlite, of event_row with its fields as JSON; spans
 * and async spans are also paired (span_pairs.c)
 * into slice rows as they close, counters are also counter rows, losses
 * are loss rows from the thread's previous item to the notice.  A thread,
 * process or site is a row the first time it is met.  Ids of sites and
 * slices are given here and go on from the traces added before, so that
 * they stay unique across traces.  The rows go to SQLite through
 * sql_rows.c, on a thread of its own: reading and decoding the trace
 * here, and SQLite's writing, each take about half the time.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "sql_rows.h"
#include "event_format.h"
#include "key_map.h"
#include "lost_record.h"
#include "report_output.h"
#include "span_kind.h"
#include "span_pairs.h"
#include "event_table.h"
#include "sql_time.h"
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
	"CREATE TABLE slice(id INTEGER PRIMARY KEY, ts INTEGER, dur INTEGER,"
	" end_ts INTEGER, name TEXT, depth INTEGER, parent_id INTEGER, pid INTEGER,"
	" tid INTEGER, args TEXT, state TEXT, async_id INTEGER, trace_id INTEGER,"
	" fields TEXT, end_pid INTEGER, end_tid INTEGER, inner_id_max INTEGER);"
	/* An async span from the span open on its thread where it began to
	 * the one where it ended. */
	"CREATE TABLE flow(slice_out INTEGER, slice_in INTEGER, async_slice_id INTEGER,"
	" trace_id INTEGER);"
	/* A span's arguments, typed, as args has an event's. */
	"CREATE VIEW slice_args AS SELECT s.id AS slice_id, f.key AS key,"
	" f.value AS value FROM slice s, json_each(s.fields) f;"
	"CREATE TABLE counter(ts INTEGER, name TEXT, value, pid INTEGER, tid INTEGER,"
	" trace_id INTEGER);"
	"CREATE TABLE loss(pid INTEGER, tid INTEGER, cpu INTEGER, ts_from INTEGER,"
	" ts_to INTEGER, count INTEGER, site_id INTEGER, cause TEXT,"
	" trace_id INTEGER);";

/* Events as rows (convert --to sqlite; query reads them in place:
 * event_table.h).  An event is one row, its fields one JSON object that
 * args spreads out: a row per field would triple what is written. */
static const char event_rows[] =
	"CREATE TABLE event_row(id INTEGER PRIMARY KEY, ts INTEGER, site_id INTEGER,"
	" pid INTEGER, tid INTEGER, cpu INTEGER, message TEXT, fields TEXT,"
	" trace_id INTEGER);"
	"CREATE VIEW event AS SELECT e.id AS id, e.ts AS ts, s.name AS name,"
	" s.kind AS kind, e.pid AS pid, e.tid AS tid, e.cpu AS cpu,"
	" e.site_id AS site_id, e.message AS message, e.trace_id AS trace_id,"
	" e.fields AS fields FROM event_row e JOIN site s ON s.id = e.site_id;"
	"CREATE VIEW args AS SELECT e.id AS event_id, f.key AS key, f.value AS value"
	" FROM event_row e, json_each(e.fields) f;";

enum stmt {
	S_EVENT, S_SLICE, S_FLOW, S_COUNTER, S_LOSS, S_THREAD, S_PROCESS, S_SITE, S_ERROR,
	S_TRACE, S_N
};

static const char *const stmt_sql[S_N] = {
	[S_EVENT] = "INSERT INTO event_row(ts, site_id, pid, tid, cpu, message, fields,"
		    " trace_id) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
	[S_SLICE] = "INSERT INTO slice VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10,"
		    " ?11, ?12, ?13, ?14, ?15, ?16, ?17)",
	[S_FLOW] = "INSERT INTO flow VALUES(?1, ?2, ?3, ?4)",
	[S_COUNTER] = "INSERT INTO counter VALUES(?1, ?2, ?3, ?4, ?5, ?6)",
	[S_LOSS] = "INSERT INTO loss VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
	[S_THREAD] = "INSERT INTO thread VALUES(?1, ?2, ?3, ?4)",
	[S_PROCESS] = "INSERT INTO process VALUES(?1, ?2, ?3, ?4, ?5)",
	[S_SITE] = "INSERT INTO site VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
	[S_ERROR] = "INSERT INTO trace_error VALUES(?1, ?2)",
	[S_TRACE] = "INSERT INTO trace VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7)",
};

struct trace_sql {
	struct sql_rows *rows;
	const char *cmd;
	enum report_clock clock;
	struct report_filter *filter;
	uint64_t slices;		/* slice ids given, all traces */
	uint64_t sites;			/* site ids given, all traces */

	/* The trace being added. */
	const char *dir, *host;
	uint32_t trace_id;
	struct key_map threads;		/* pid << 32 | tid: its last time + 1 */
	struct key_map processes;	/* pid */
	struct key_map descs;		/* event desc: site id */
	struct key_map paths;		/* hash of a path: site id */
	char **site_path;		/* this trace's sites' paths, from */
	uint64_t first_site;		/* site id first_site on */
	struct evt_span_pairs *pairs;
	uint64_t slice_base;		/* slice ids of earlier traces */
	uint64_t slice_max;
	struct json_buf json;		/* an event's fields */
	struct evt_event_table *events;	/* NULL: events as rows */
	int set;			/* the trace's, among events' */
	struct key_map sources;		/* event desc: its source + 1 */
	struct key_map thread_no;	/* pid << 32 | tid: events' thread + 1 */
	const struct evt_event_desc *last_desc;	/* the last event's, */
	uint32_t last_source;			/* its source, */
	uint64_t last_key;			/* its pid << 32 | tid + 1, */
	uint32_t last_thread;			/* its thread */
	uint64_t thr_key;		/* the last item's pid << 32 | tid + 1, */
	uint64_t *thr_last;		/* its value in threads */
	const struct evt_event_desc *site_desc;	/* the last site met, */
	int64_t site_id;			/* its id */
	bool started;
	int64_t start_ns;
	bool failed;			/* sql_rows failed, or memory ran out */
};

static int64_t ts_of(const struct trace_sql *l, int64_t monotonic_ns, int64_t realtime_ns)
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

/* Ends the row; 0, or -1 (l->failed) when rows can no longer be written. */
static int end(struct trace_sql *l)
{
	if (sql_rows_end(l->rows))
		l->failed = true;
	return l->failed ? -1 : 0;
}

/* A printk site's module, file and line; NULLs for other events. */
static void location(struct trace_sql *l, const char *path)
{
	struct cli_site_location loc;

	if (!cli_site_location(path, &loc)) {
		sql_rows_null(l->rows);
		sql_rows_null(l->rows);
		sql_rows_null(l->rows);
		return;
	}
	sql_rows_text(l->rows, loc.module, loc.module_len);
	sql_rows_text(l->rows, loc.file, loc.file_len);
	sql_rows_int(l->rows, (int64_t)loc.line);
}

/* The site of an event, by its path in this trace (stream classes have
 * descriptions of their own of one event), a row the first time. */
static int site_of(struct trace_sql *l, const struct evt_event_desc *e, int64_t *id)
{
	int fresh;
	uint64_t *known, *by_path, i;
	char **grown;

	if (e == l->site_desc) {
		*id = l->site_id;
		return 0;
	}
	known = key_map_add(&l->descs, (uintptr_t)e, &fresh);
	if (!known)
		return l->failed = true, -1;
	if (!fresh) {
		*id = (int64_t)*known;
		l->site_desc = e;
		l->site_id = *id;
		return 0;
	}
	by_path = key_map_add(&l->paths, key_map_text_key(e->path, strlen(e->path)),
			      &fresh);
	if (!by_path)
		return l->failed = true, -1;
	if (!fresh && !strcmp(l->site_path[*by_path - l->first_site], e->path)) {
		*id = (int64_t)(*known = *by_path);
		return 0;
	}
	for (i = l->first_site; !fresh && i <= l->sites; i++)	/* two paths, one hash */
		if (!strcmp(l->site_path[i - l->first_site], e->path)) {
			*id = (int64_t)(*known = i);
			return 0;
		}
	grown = realloc(l->site_path, (l->sites + 1 - l->first_site + 1) * sizeof(*grown));
	if (!grown)
		return l->failed = true, -1;
	l->site_path = grown;
	grown[l->sites + 1 - l->first_site] = e->path;	/* valid while the trace is read */
	*id = (int64_t)(*known = ++l->sites);
	if (fresh)
		*by_path = *known;
	sql_rows_begin(l->rows, S_SITE);
	sql_rows_int(l->rows, *id);
	sql_rows_str(l->rows, e->path);
	location(l, e->path);
	sql_rows_str(l->rows, e->func);
	sql_rows_str(l->rows, e->format);
	sql_rows_str(l->rows, evt_event_kind_word(e->layout.kind));
	sql_rows_int(l->rows, l->trace_id);
	return end(l);
}

/* The thread and process rows, the first time; the thread's last time. */
static int meet_thread(struct trace_sql *l, const struct evt_trace_item *it,
		       int64_t ts, int64_t *before, bool *had_before)
{
	uint64_t key = (uint64_t)it->pid << 32 | it->tid, *last;
	int fresh = 0;

	/* (the last item's thread, most often this one's too: its value
	 * stays where it is until the map grows, by a fresh key) */
	if (key + 1 == l->thr_key) {
		last = l->thr_last;
	} else {
		last = key_map_add(&l->threads, key, &fresh);
		if (!last)
			return l->failed = true, -1;
		l->thr_key = key + 1;
		l->thr_last = last;
	}
	*had_before = *last != 0;
	*before = (int64_t)(*last - 1);
	*last = (uint64_t)ts + 1;
	if (!fresh)
		return 0;	/* (its process was met with it) */
	sql_rows_begin(l->rows, S_THREAD);
	sql_rows_int(l->rows, it->tid);
	sql_rows_int(l->rows, it->pid);
	sql_rows_str(l->rows, it->comm);
	sql_rows_int(l->rows, l->trace_id);
	if (end(l))
		return -1;
	if (!key_map_add(&l->processes, it->pid, &fresh))
		return l->failed = true, -1;
	if (fresh) {
		sql_rows_begin(l->rows, S_PROCESS);
		sql_rows_int(l->rows, it->pid);
		sql_rows_str(l->rows, it->comm);
		sql_rows_str(l->rows, l->host);
		sql_rows_str(l->rows, l->dir);
		sql_rows_int(l->rows, l->trace_id);
		return end(l);
	}
	return 0;
}

static int add_counter(struct trace_sql *l, const struct evt_trace_item *it, int64_t ts)
{
	struct evt_span_head h;

	if (evt_span_head_read(&it->event->layout, it->payload, it->payload_size, &h))
		return 0;	/* too short: the event row says what there is */
	sql_rows_begin(l->rows, S_COUNTER);
	sql_rows_int(l->rows, ts);
	sql_rows_str(l->rows, strchr(it->event->path, '/') + 1);
	if (h.real)
		sql_rows_real(l->rows, h.real_value);	/* NaN: NULL */
	else
		sql_rows_int(l->rows, h.int_value);
	sql_rows_int(l->rows, it->pid);
	sql_rows_int(l->rows, it->tid);
	sql_rows_int(l->rows, l->trace_id);
	return end(l);
}

/* The event as a row of l->events: its source and thread, the first
 * time, then the row. */
static int add_event_column(struct trace_sql *l, const struct evt_trace_item *it,
			    int64_t ts, int64_t site)
{
	uint64_t key = ((uint64_t)it->pid << 32 | it->tid) + 1, *v;
	int fresh;
	int64_t n;

	/* (the last event's source and thread, most often this one's too) */
	if (it->event != l->last_desc) {
		if (!(v = key_map_add(&l->sources, (uintptr_t)it->event, &fresh)))
			return l->failed = true, -1;
		if (fresh) {
			n = evt_event_table_source(l->events, (unsigned)l->set,
						   it->reader, it->event, site,
						   l->trace_id);
			if (n < 0)
				return l->failed = true, -1;
			*v = (uint64_t)n + 1;
		}
		l->last_desc = it->event;
		l->last_source = (uint32_t)(*v - 1);
	}
	if (key != l->last_key) {
		if (!(v = key_map_add(&l->thread_no, key - 1, &fresh)))
			return l->failed = true, -1;
		if (fresh) {
			n = evt_event_table_thread(l->events, it->pid, it->tid);
			if (n < 0)
				return l->failed = true, -1;
			*v = (uint64_t)n + 1;
		}
		l->last_key = key;
		l->last_thread = (uint32_t)(*v - 1);
	}
	if (evt_event_table_add(l->events, l->last_source, l->last_thread, ts,
				it->cpu, it->payload, it->payload_size))
		return l->failed = true, -1;
	return 0;
}

static int add_event(struct trace_sql *l, const struct evt_trace_item *it, int64_t ts)
{
	int64_t site;
	size_t n = it->text_len && it->text[it->text_len - 1] == '\n' ?
		   it->text_len - 1 : it->text_len;

	if (site_of(l, it->event, &site))
		return -1;
	if (l->events) {
		if (add_event_column(l, it, ts, site))
			return -1;
		if (it->event->layout.kind == EVT_KIND_COUNTER)
			return add_counter(l, it, ts);
		return 0;
	}
	l->json.len = 0;
	json_buf_fields(&l->json, it);
	if (l->json.failed)
		return l->failed = true, -1;
	sql_rows_begin(l->rows, S_EVENT);
	sql_rows_int(l->rows, ts);
	sql_rows_int(l->rows, site);
	sql_rows_int(l->rows, it->pid);
	sql_rows_int(l->rows, it->tid);
	sql_rows_int(l->rows, it->cpu);
	sql_rows_text(l->rows, it->text, n);
	sql_rows_text(l->rows, l->json.text, l->json.len);
	sql_rows_int(l->rows, l->trace_id);
	if (end(l))
		return -1;
	if (it->event->layout.kind == EVT_KIND_COUNTER)
		return add_counter(l, it, ts);
	return 0;
}

/* A row of count events of a loss: of a site (site_id NULL: not named),
 * for a cause (NULL: none said). */
static int add_loss_row(struct trace_sql *l, const struct evt_trace_item *it,
			int64_t ts, int64_t before, bool had_before,
			uint64_t count, const struct evt_event_desc *site,
			unsigned cause)
{
	int64_t site_id;
	bool named = site && site_of(l, site, &site_id) == 0;

	/* (site_of() may add the site's row first) */
	sql_rows_begin(l->rows, S_LOSS);
	sql_rows_int(l->rows, it->pid);
	sql_rows_int(l->rows, it->tid);
	sql_rows_int(l->rows, it->cpu);
	if (had_before)
		sql_rows_int(l->rows, before);
	else
		sql_rows_null(l->rows);
	sql_rows_int(l->rows, ts);
	sql_rows_int(l->rows, (int64_t)count);
	if (named)
		sql_rows_int(l->rows, site_id);
	else
		sql_rows_null(l->rows);
	if (evt_loss_cause_word(cause))
		sql_rows_str(l->rows, evt_loss_cause_word(cause));
	else
		sql_rows_null(l->rows);
	sql_rows_int(l->rows, l->trace_id);
	return end(l);
}

/* A row per site and cause the writer named, and one for the rest. */
static int add_loss(struct trace_sql *l, const struct evt_trace_item *it, int64_t ts,
		    int64_t before, bool had_before)
{
	uint64_t named = 0;
	unsigned i;

	for (i = 0; i < it->nsites; i++) {
		if (add_loss_row(l, it, ts, before, had_before, it->sites[i].count,
				 it->sites[i].event, it->sites[i].cause))
			return 1;
		named += it->sites[i].count;
	}
	if (named < it->lost || !it->nsites)
		return add_loss_row(l, it, ts, before, had_before,
				    it->lost - named, NULL, 0);
	return 0;
}

static int add_error(struct trace_sql *l, const char *message)
{
	fflush(stdout);
	fprintf(stderr, "evtrace: %s: %s\n", l->cmd, message);
	sql_rows_begin(l->rows, S_ERROR);
	sql_rows_int(l->rows, l->trace_id);
	sql_rows_str(l->rows, message);
	return end(l);
}

static void opt_int(struct sql_rows *r, bool have, int64_t v)
{
	if (have)
		sql_rows_int(r, v);
	else
		sql_rows_null(r);
}

static int add_slice(const struct evt_slice *sl, void *ctx)
{
	struct trace_sql *l = ctx;
	const struct evt_slice_point *at = sl->begin.seen ? &sl->begin : &sl->end;
	int64_t from = ts_of(l, sl->begin.monotonic_ns, sl->begin.realtime_ns),
		to = ts_of(l, sl->end.monotonic_ns, sl->end.realtime_ns);

	if (sl->id > l->slice_max)
		l->slice_max = sl->id;
	sql_rows_begin(l->rows, S_SLICE);
	sql_rows_int(l->rows, (int64_t)(l->slice_base + sl->id));
	opt_int(l->rows, sl->begin.seen, from);
	opt_int(l->rows, sl->begin.seen && sl->end.seen, to - from);
	opt_int(l->rows, sl->end.seen, to);
	sql_rows_str(l->rows, sl->name);
	sql_rows_int(l->rows, sl->depth);
	opt_int(l->rows, sl->parent_id, (int64_t)(l->slice_base + sl->parent_id));
	sql_rows_int(l->rows, at->pid);
	sql_rows_int(l->rows, at->tid);
	sql_rows_str(l->rows, sl->args);
	sql_rows_str(l->rows, evt_slice_state_name(sl->state));
	opt_int(l->rows, sl->async, (int64_t)sl->async_id);
	sql_rows_int(l->rows, l->trace_id);
	if (sl->nfields) {
		l->json.len = 0;
		json_buf_field_list(&l->json, sl->fields, sl->nfields);
		if (l->json.failed)
			return l->failed = true, 1;
		sql_rows_text(l->rows, l->json.text, l->json.len);
	} else {
		sql_rows_null(l->rows);
	}
	opt_int(l->rows, sl->end.seen, sl->end.pid);
	opt_int(l->rows, sl->end.seen, sl->end.tid);
	sql_rows_int(l->rows, (int64_t)(l->slice_base + sl->inner_id_max));
	if (end(l))
		return 1;
	if (!sl->async || !sl->begin.seen || !sl->end.seen)
		return 0;
	sql_rows_begin(l->rows, S_FLOW);
	opt_int(l->rows, sl->begin.within, (int64_t)(l->slice_base + sl->begin.within));
	opt_int(l->rows, sl->end.within, (int64_t)(l->slice_base + sl->end.within));
	sql_rows_int(l->rows, (int64_t)(l->slice_base + sl->id));
	sql_rows_int(l->rows, l->trace_id);
	return end(l) ? 1 : 0;
}

static int add_item(const struct evt_trace_item *it, void *ctx)
{
	struct trace_sql *l = ctx;
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
	if (it->kind == EVT_ITEM_LOST ? add_loss(l, it, ts, before, had_before) :
	    add_event(l, it, ts))
		return 1;
	switch (evt_span_pairs_feed(l->pairs, it)) {
	case 0:
		return 0;
	case -1:
		l->failed = true;
		/* fall through */
	default:
		return 1;
	}
}

int trace_sql_create(sqlite3 *db, bool rows_of_events, char *err, size_t err_size)
{
	char *why = NULL;

	if (sqlite3_exec(db, schema, NULL, NULL, &why) != SQLITE_OK ||
	    (rows_of_events &&
	     sqlite3_exec(db, event_rows, NULL, NULL, &why) != SQLITE_OK)) {
		snprintf(err, err_size, "making the tables: %s",
			 why ? why : sqlite3_errmsg(db));
		sqlite3_free(why);
		return -1;
	}
	/* (query's event table, and its views with it, are temp.'s) */
	return rows_of_events ? evt_sql_time_views(db, "main", err, err_size) : 0;
}

struct trace_sql *trace_sql_begin(sqlite3 *db, const char *cmd,
				  enum report_clock clock,
				  struct report_filter *filter,
				  struct evt_event_table *events, char *err,
				  size_t err_size)
{
	struct trace_sql *l = calloc(1, sizeof(*l));

	if (!l) {
		snprintf(err, err_size, "out of memory");
		return NULL;
	}
	l->cmd = cmd;
	l->clock = clock;
	l->filter = filter;
	l->events = events;
	l->json.sql = true;
	const char *sql[S_N];

	memcpy(sql, stmt_sql, sizeof(sql));
	if (events)
		sql[S_EVENT] = NULL;	/* (no such table) */
	l->rows = sql_rows_start(db, sql, S_N, err, err_size);
	if (!l->rows) {
		free(l);
		return NULL;
	}
	return l;
}

/* Forgets what was per trace. */
static void trace_done(struct trace_sql *l)
{
	evt_span_pairs_free(l->pairs);
	l->pairs = NULL;
	key_map_free(&l->threads);
	key_map_free(&l->processes);
	key_map_free(&l->descs);
	key_map_free(&l->paths);
	key_map_free(&l->sources);
	key_map_free(&l->thread_no);
	l->last_desc = NULL;
	l->last_key = 0;
	l->thr_key = 0;
	l->site_desc = NULL;
	free(l->site_path);
	l->site_path = NULL;
}

int trace_sql_add(struct trace_sql *l, const char *dir, const char *host,
		  uint32_t trace_id, const int64_t *offset_ns,
		  struct evt_trace_stats *st, char *err, size_t err_size)
{
	int ret = -1;

	l->dir = dir;
	l->host = host;
	l->trace_id = trace_id;
	l->started = false;
	l->first_site = l->sites + 1;
	l->slice_base = l->slices;
	l->slice_max = 0;
	l->pairs = evt_span_pairs_new(add_slice, l);
	if (l->pairs)
		evt_span_pairs_keep_fields(l->pairs);
	if (!l->pairs) {
		snprintf(err, err_size, "out of memory");
		goto out;
	}
	if (l->filter)
		report_filter_restart(l->filter);
	if (l->events) {
		struct evt_trace_set *set;
		/* (real time only for a real-time clock or filter) */
		unsigned flags = EVT_TRACE_NO_TEXT |
				 (l->clock == REPORT_REALTIME || l->filter ? 0 :
				  EVT_TRACE_NO_REALTIME);

		/* Kept open for the rows' payloads, rendered when asked. */
		if (evt_trace_set_open(&dir, 1, offset_ns, flags, st, &set, err,
				       err_size))
			goto out;
		l->set = evt_event_table_take_set(l->events, set);
		if (l->set < 0 || evt_trace_set_walk(set, add_item, l)) {
			snprintf(err, err_size, "out of memory");
			goto out;
		}
	} else if (evt_trace_read_set(&dir, 1, offset_ns, add_item, l, st, err,
				      err_size)) {
		goto out;
	}
	if (!l->failed && evt_span_pairs_finish(l->pairs) == -1)
		l->failed = true;
	l->slices += l->slice_max;
	if (!l->failed) {
		sql_rows_begin(l->rows, S_TRACE);
		sql_rows_int(l->rows, trace_id);
		sql_rows_str(l->rows, dir);
		sql_rows_str(l->rows, host);
		sql_rows_str(l->rows, report_clock_name(l->clock));
		sql_rows_int(l->rows, (int64_t)st->events);
		sql_rows_int(l->rows, (int64_t)st->lost);
		sql_rows_int(l->rows, (int64_t)st->errors);
		end(l);
	}
	if (l->failed) {	/* the writer says why at the end */
		snprintf(err, err_size, "%s: the tables could not be written", dir);
		goto out;
	}
	ret = 0;
out:
	trace_done(l);
	return ret;
}

int trace_sql_end(struct trace_sql *l, char *err, size_t err_size)
{
	int ret;

	if (!l)
		return 0;
	ret = sql_rows_finish(l->rows, err, err_size);
	trace_done(l);
	free(l->json.text);
	free(l);
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
