/*
 * query_db.h - the database evtrace query runs SQL on: the traces read
 * afresh, the events in place (event_table.h), the rest into a private
 * temporary database.
 */
#ifndef EVT_CLI_QUERY_DB_H
#define EVT_CLI_QUERY_DB_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>

#include "event_table.h"
#include "report_filter.h"
#include "trace_set.h"

/*
 * Opens a database of the traces on clock.  *errors is set to the number
 * of read errors (each said on stderr); *events, when not NULL, to its
 * event table (the database's: freed when it closes).  NULL with err set
 * on failure.
 */
sqlite3 *query_db_open(const struct trace_set *s, enum report_clock clock,
		       uint64_t *errors, struct evt_event_table **events,
		       char *err, size_t err_size);
/* Sets SQLite up for one thread; before its first use. */
void query_db_setup(void);
/* Reads the traces into db, a new empty database, with filter when not
 * NULL; the events into events (the caller makes it db's table once this
 * succeeds), or with events NULL as rows of db (convert --to sqlite);
 * *total sums their stats.  0, or -1 with err set. */
int query_db_fill(sqlite3 *db, const char *cmd, const struct trace_set *s,
		  enum report_clock clock, struct report_filter *filter,
		  struct evt_event_table *events, struct evt_trace_stats *total,
		  char *err, size_t err_size);

#endif
