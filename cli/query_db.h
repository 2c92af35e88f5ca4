/*
 * query_db.h - the database evtrace query runs SQL on: the traces read
 * into a private temporary one, or a cache made of them before, kept
 * beside them.
 */
#ifndef EVT_CLI_QUERY_DB_H
#define EVT_CLI_QUERY_DB_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>

#include "report_filter.h"
#include "trace_set.h"

/*
 * Opens a database of the traces on clock.  With cache_dir (the one
 * directory the user named), the cache file there is used when it was
 * made of the traces as they are now, and made when it was not, provided
 * the directory is the user's and nobody else may write into it; the
 * cache is opened read-only.  *errors is set to the number of read errors
 * (each said on stderr, also on a cache hit).  NULL with err set on
 * failure.
 */
sqlite3 *query_db_open(const struct trace_set *s, const char *cache_dir,
		       enum report_clock clock, uint64_t *errors, char *err,
		       size_t err_size);
/* Sets SQLite up for one thread; before its first use. */
void query_db_setup(void);
/* Reads the traces into db, a new empty database (convert --to sqlite
 * too), with filter when not NULL; *total sums their stats.  0, or -1
 * with err set. */
int query_db_fill(sqlite3 *db, const char *cmd, const struct trace_set *s,
		  enum report_clock clock, struct report_filter *filter,
		  struct evt_trace_stats *total, char *err, size_t err_size);

#endif
