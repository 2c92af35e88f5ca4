/*
 * sql_rows.h - rows for prepared statements, executed by a thread of
 * their own: the trace is read and decoded on one CPU while SQLite writes
 * on another.
 *
 * The producer builds a row with sql_rows_begin(), one value call per
 * parameter in order, and sql_rows_end(); rows gather in a batch (their
 * text copied), and a full batch goes to the writer while the producer
 * fills the other one.  The writer owns the database from
 * sql_rows_start() to sql_rows_finish().
 */
#ifndef EVT_CLI_SQL_ROWS_H
#define EVT_CLI_SQL_ROWS_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

struct sql_rows;

/* Prepares the n statements and starts the writer; NULL with err set. */
struct sql_rows *sql_rows_start(sqlite3 *db, const char *const *sql, int n,
				char *err, size_t err_size);
void sql_rows_begin(struct sql_rows *r, int stmt);
void sql_rows_int(struct sql_rows *r, int64_t v);
void sql_rows_real(struct sql_rows *r, double v);
/* n bytes of text, or NULL as SQL NULL. */
void sql_rows_text(struct sql_rows *r, const char *s, size_t n);
void sql_rows_str(struct sql_rows *r, const char *s);
void sql_rows_null(struct sql_rows *r);
/* 0, or -1 once the writer failed (or memory ran out): stop producing. */
int sql_rows_end(struct sql_rows *r);
/* Writes what is left, stops the writer and frees r: 0, or -1 with err
 * set to what failed first. */
int sql_rows_finish(struct sql_rows *r, char *err, size_t err_size);

#endif
