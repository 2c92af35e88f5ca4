/*
 * query_output.h - the rows of evtrace query's statements: aligned
 * columns, CSV or JSON lines.
 */
#ifndef EVT_CLI_QUERY_OUTPUT_H
#define EVT_CLI_QUERY_OUTPUT_H

#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>

enum query_format { QUERY_TABLE, QUERY_CSV, QUERY_JSON };

/*
 * Steps the prepared statement s to its end, printing its rows on f
 * (with a header line for TABLE and CSV); *rows is set to how many.
 * Returns SQLITE_DONE, or the error SQLite met.
 */
int query_output_rows(FILE *f, enum query_format fmt, sqlite3_stmt *s,
		      uint64_t *rows);

#endif
