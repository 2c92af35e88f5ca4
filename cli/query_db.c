/*
 * query_db.c - read traces into the database query runs SQL on.
 *
 * Nothing is kept beside the traces: each query walks them again, into
 * a private temporary database (which SQLite removes on close) for the
 * small tables, and into an event table of columns over the mapped
 * traces for the events (event_table.h), which SQL reads in place.
 * Memory is that table (30 bytes an event), SQLite's page cache
 * (PAGE_CACHE_KIB; the temporary database spills to a file past it) and
 * what trace_sql.c keeps per thread and open span.
 */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "query_db.h"
#include "sql_time.h"
#include "trace_sql.h"

#define PAGE_CACHE_KIB 32768

void query_db_setup(void)
{
	/* No mutexes, no allocation statistics (a global mutex on every
	 * malloc).  Refused after SQLite's first use: harmless. */
	sqlite3_config(SQLITE_CONFIG_SINGLETHREAD);
	sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

static int exec(sqlite3 *db, const char *sql, char *err, size_t err_size)
{
	if (sqlite3_exec(db, sql, NULL, NULL, NULL) == SQLITE_OK)
		return 0;
	snprintf(err, err_size, "%s", sqlite3_errmsg(db));
	return -1;
}

int query_db_fill(sqlite3 *db, const char *cmd, const struct trace_set *s,
		  enum report_clock clock, struct report_filter *filter,
		  struct evt_event_table *events, struct evt_trace_stats *total,
		  char *err, size_t err_size)
{
	char pragmas[160], why[300];
	struct trace_sql *t;
	bool failed = false;
	size_t i;

	memset(total, 0, sizeof(*total));
	snprintf(pragmas, sizeof(pragmas), "PRAGMA journal_mode=OFF;"
		 "PRAGMA synchronous=OFF;PRAGMA cache_size=-%d;BEGIN",
		 PAGE_CACHE_KIB);
	if (exec(db, pragmas, err, err_size) ||
	    trace_sql_create(db, !events, err, err_size))
		return -1;
	t = trace_sql_begin(db, cmd, clock, filter, events, err, err_size);
	if (!t)
		return -1;
	for (i = 0; i < s->n && !failed; i++) {
		struct evt_trace_stats st;
		char *host = trace_set_host(s->dirs[i]);

		failed = trace_sql_add(t, s->dirs[i], host, (uint32_t)i + 1,
				       s->offsets_ns ? &s->offsets_ns[i] : NULL, &st,
				       err, err_size) != 0;
		free(host);
		if (failed)
			break;
		total->events += st.events;
		total->lost += st.lost;
		total->errors += st.errors;
		total->streams += st.streams;
	}
	/* The writer's own failure, when it had one, says the most. */
	if (trace_sql_end(t, failed ? why : err, failed ? sizeof(why) : err_size)) {
		if (failed)
			snprintf(err, err_size, "%s", why);
		return -1;
	}
	if (failed)
		return -1;
	if (trace_sql_finish(db, err, err_size))
		return -1;
	return exec(db, "COMMIT", err, err_size);
}

sqlite3 *query_db_open(const struct trace_set *s, enum report_clock clock,
		       uint64_t *errors, struct evt_event_table **events_out,
		       char *err, size_t err_size)
{
	struct evt_event_table *events = evt_event_table_new();
	struct evt_trace_stats st;
	sqlite3 *db = NULL;

	query_db_setup();
	if (!events) {
		snprintf(err, err_size, "out of memory");
		return NULL;
	}
	if (sqlite3_open_v2("", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
			    SQLITE_OPEN_NOMUTEX,
			    NULL) != SQLITE_OK) {
		snprintf(err, err_size, "a temporary database: %s", sqlite3_errmsg(db));
		evt_event_table_free(events);
		sqlite3_close(db);
		return NULL;
	}
	if (query_db_fill(db, "query", s, clock, NULL, events, &st, err, err_size)) {
		evt_event_table_free(events);
		sqlite3_close(db);
		return NULL;
	}
	/* (db has events from here, also when this fails) */
	if (evt_event_table_sql(db, events, err, err_size) ||
	    evt_sql_time_views(db, "temp", err, err_size) ||
	    evt_sql_time_functions(db, err, err_size)) {
		sqlite3_close(db);
		return NULL;
	}
	*errors = st.errors;
	if (events_out)
		*events_out = events;
	return db;
}
