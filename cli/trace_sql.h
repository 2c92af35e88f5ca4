/*
 * trace_sql.h - a trace as the tables of evtrace query, in an SQLite
 * database: what query reads and convert --to sqlite writes; the
 * tables are TRACE_SQL_TABLES below (evtrace(1) says what each holds).
 *
 * Times are nanoseconds on one clock for the whole database.  Rows are
 * added as the trace is read, in one transaction; what stays in memory
 * is per thread, site and open span, and, when events go to an event
 * table, its 30 bytes an event: the database's page cache bounds the
 * rest.
 */
#ifndef EVT_CLI_TRACE_SQL_H
#define EVT_CLI_TRACE_SQL_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "event_table.h"
#include "report_filter.h"
#include "trace_reader.h"

/* The tables and their columns, as query's --help and errors list them. */
#define TRACE_SQL_TABLES \
	"  slice(id, ts, dur, end_ts, name, depth, parent_id, pid, tid, args,\n" \
	"        state, async_id, trace_id, fields, end_pid, end_tid, inner_id_max)\n" \
	"  slice_args(slice_id, key, value)\n" \
	"  flow(slice_out, slice_in, async_slice_id, trace_id)\n" \
	"  counter(ts, name, value, pid, tid, trace_id)\n" \
	"  counter_span(ts, end_ts, dur, name, value, pid, tid, trace_id)\n" \
	"  thread_state(ts, end_ts, dur, tid, state, cpu, trace_id)\n" \
	"  event(id, ts, name, kind, pid, tid, cpu, site_id, message, trace_id)\n" \
	"  args(event_id, key, value)\n" \
	"  site(id, name, module, file, line, function, format, kind, trace_id)\n" \
	"  thread(tid, pid, name, trace_id)\n" \
	"  process(pid, name, host, trace, trace_id)\n" \
	"  loss(pid, tid, cpu, ts_from, ts_to, count, site_id, cause, trace_id)\n" \
	"  trace(id, path, host, clock, events, lost, errors)\n" \
	"  trace_error(trace_id, message)\n" \
	"and the functions ancestor_slices(ID), descendant_slices(ID),\n" \
	"  overlapping_slices(ID[, 'any' | 'process' | 'thread']),\n" \
	"  counter_at(NAME, TS[, PID])\n"

/* Makes the tables in the empty database db, the event rows' too when
 * rows_of_events (else events go to an event table: event_table.h);
 * 0, or -1 with err set. */
int trace_sql_create(sqlite3 *db, bool rows_of_events, char *err, size_t err_size);

struct trace_sql;
/*
 * Starts adding traces to db, whose tables are made, with times on clock;
 * with filter, only the items it wants (its times count from each
 * trace's start); with events, events go there, and the traces with
 * them (trace_sql_create()'s rows_of_events false).  Item errors are said on stderr as "evtrace: <cmd>:
 * ..." and kept in trace_error.  The database is the writer thread's
 * until trace_sql_end().  NULL with err set.
 */
struct trace_sql *trace_sql_begin(sqlite3 *db, const char *cmd,
				  enum report_clock clock,
				  struct report_filter *filter,
				  struct evt_event_table *events, char *err,
				  size_t err_size);
/* Adds the trace in dir as trace number trace_id (1, 2, ...), its real
 * time through its clock snapshots and moved by *offset_ns (--align; NULL:
 * as recorded): 0 (stats set), or -1 with err set. */
int trace_sql_add(struct trace_sql *t, const char *dir, const char *host,
		  uint32_t trace_id, const int64_t *offset_ns,
		  struct evt_trace_stats *stats, char *err, size_t err_size);
/* Waits for every row to be written and frees t: 0, or -1 with err set
 * to what went wrong in writing. */
int trace_sql_end(struct trace_sql *t, char *err, size_t err_size);
/* The indexes queries use, made once every trace is in. */
int trace_sql_finish(sqlite3 *db, char *err, size_t err_size);

#endif
