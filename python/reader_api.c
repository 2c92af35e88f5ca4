/*
 * reader_api.c - the C side of the Python module evtrace (loaded with
 * ctypes): traces opened as evtrace query opens them, their event
 * columns handed out as they are (numpy reads them in place), and SQL
 * run into typed columns for pandas.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "query_db.h"
#include "trace_set.h"

#define API __attribute__((visibility("default")))

struct evt_py_trace {
	sqlite3 *db;
	struct evt_event_table *events;		/* db's */
	uint64_t errors;
};

/* clock: 0 monotonic, 1 realtime, 2 relative (enum report_clock). */
API struct evt_py_trace *evt_py_open(const char *const *paths, int n, int clock,
				     char *err, int err_size)
{
	struct evt_py_trace *t = calloc(1, sizeof(*t));
	struct trace_set set = { 0 };
	int i;

	if (!t) {
		snprintf(err, (size_t)err_size, "out of memory");
		return NULL;
	}
	if (clock < REPORT_MONOTONIC || clock > REPORT_RELATIVE) {
		snprintf(err, (size_t)err_size, "clock %d: not 0 (monotonic), 1"
			 " (realtime) or 2 (relative)", clock);
		free(t);
		return NULL;
	}
	for (i = 0; i < n; i++)
		if (trace_set_add(&set, paths[i], err, (size_t)err_size)) {
			trace_set_free(&set);
			free(t);
			return NULL;
		}
	t->db = query_db_open(&set, (enum report_clock)clock, &t->errors, &t->events,
			      err, (size_t)err_size);
	trace_set_free(&set);
	if (!t->db) {
		free(t);
		return NULL;
	}
	return t;
}

API void evt_py_close(struct evt_py_trace *t)
{
	if (!t)
		return;
	sqlite3_close(t->db);
	free(t);
}

API uint64_t evt_py_errors(const struct evt_py_trace *t)
{
	return t->errors;
}

API void evt_py_columns(const struct evt_py_trace *t, struct evt_event_columns *out)
{
	evt_event_table_columns(t->events, out);
}

API void evt_py_source(const struct evt_py_trace *t, uint32_t s, const char **name,
		       const char **kind, int64_t *site_id, uint32_t *trace_id)
{
	evt_event_table_source_info(t->events, s, name, kind, site_id, trace_id);
}

API void evt_py_thread(const struct evt_py_trace *t, uint32_t i, uint32_t *pid,
		       uint32_t *tid)
{
	evt_event_table_thread_info(t->events, i, pid, tid);
}

/*
 * A statement's rows as columns: for each row of a column its type
 * (SQLITE_INTEGER, _FLOAT, _TEXT, _BLOB or _NULL) and its value in ints,
 * reals, or text (bytes up to text_end[row]; a blob as its bytes).
 */
struct column {
	char *name;
	uint8_t *types;
	int64_t *ints;
	double *reals;
	uint64_t *text_end;
	char *text;
	size_t text_len, text_cap;
};

struct evt_py_result {
	int ncols;
	size_t nrows, cap;
	struct column *cols;
};

API void evt_py_result_free(struct evt_py_result *r)
{
	int i;

	if (!r)
		return;
	for (i = 0; i < r->ncols; i++) {
		struct column *c = &r->cols[i];

		free(c->name);
		free(c->types);
		free(c->ints);
		free(c->reals);
		free(c->text_end);
		free(c->text);
	}
	free(r->cols);
	free(r);
}

static int rows_room(struct evt_py_result *r)
{
	size_t cap = r->cap ? 2 * r->cap : 1024;
	int i;

	for (i = 0; i < r->ncols; i++) {
		struct column *c = &r->cols[i];
		void *a = realloc(c->types, cap * sizeof(*c->types));

		if (a)
			c->types = a;
		if (a && (a = realloc(c->ints, cap * sizeof(*c->ints))))
			c->ints = a;
		if (a && (a = realloc(c->reals, cap * sizeof(*c->reals))))
			c->reals = a;
		if (a && (a = realloc(c->text_end, cap * sizeof(*c->text_end))))
			c->text_end = a;
		if (!a)
			return -1;
	}
	r->cap = cap;
	return 0;
}

static int add_value(struct column *c, size_t row, sqlite3_stmt *st, int col)
{
	int type = sqlite3_column_type(st, col);
	const void *bytes = NULL;
	size_t len = 0;

	c->types[row] = (uint8_t)type;
	c->ints[row] = 0;
	c->reals[row] = 0;
	switch (type) {
	case SQLITE_INTEGER:
		c->ints[row] = sqlite3_column_int64(st, col);
		break;
	case SQLITE_FLOAT:
		c->reals[row] = sqlite3_column_double(st, col);
		break;
	case SQLITE_TEXT:
		bytes = sqlite3_column_text(st, col);
		len = (size_t)sqlite3_column_bytes(st, col);
		break;
	case SQLITE_BLOB:
		bytes = sqlite3_column_blob(st, col);
		len = (size_t)sqlite3_column_bytes(st, col);
		break;
	}
	if (len && c->text_len + len > c->text_cap) {
		size_t cap = 2 * (c->text_len + len) + 4096;
		char *g = realloc(c->text, cap);

		if (!g)
			return -1;
		c->text = g;
		c->text_cap = cap;
	}
	if (len)
		memcpy(c->text + c->text_len, bytes, len);
	c->text_len += len;
	c->text_end[row] = c->text_len;
	return 0;
}

/* Runs the statements of sql; the rows of the last that returns
 * columns.  NULL with err set. */
API struct evt_py_result *evt_py_query(struct evt_py_trace *t, const char *sql,
				       char *err, int err_size)
{
	struct evt_py_result *r = NULL;
	const char *next = sql;

	while (*next) {
		sqlite3_stmt *st = NULL;
		int rc, i;

		if (sqlite3_prepare_v2(t->db, next, -1, &st, &next) != SQLITE_OK) {
			snprintf(err, (size_t)err_size, "%s", sqlite3_errmsg(t->db));
			goto fail;
		}
		if (!st)
			continue;	/* blanks or a comment */
		if (sqlite3_column_count(st)) {
			evt_py_result_free(r);
			r = calloc(1, sizeof(*r));
			if (!r || !(r->cols = calloc((size_t)sqlite3_column_count(st),
						     sizeof(*r->cols))))
				goto oom;
			r->ncols = sqlite3_column_count(st);
			for (i = 0; i < r->ncols; i++)
				if (!(r->cols[i].name = strdup(sqlite3_column_name(st, i))))
					goto oom;
		}
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			if (!sqlite3_column_count(st))
				continue;
			if (r->nrows == r->cap && rows_room(r))
				goto oom;
			for (i = 0; i < r->ncols; i++)
				if (add_value(&r->cols[i], r->nrows, st, i))
					goto oom;
			r->nrows++;
		}
		if (rc != SQLITE_DONE) {
			snprintf(err, (size_t)err_size, "%s", sqlite3_errmsg(t->db));
			sqlite3_finalize(st);
			goto fail;
		}
		sqlite3_finalize(st);
		continue;
oom:
		snprintf(err, (size_t)err_size, "out of memory");
		sqlite3_finalize(st);
		goto fail;
	}
	if (!r && !(r = calloc(1, sizeof(*r))))
		snprintf(err, (size_t)err_size, "out of memory");
	return r;
fail:
	evt_py_result_free(r);
	return NULL;
}

API void evt_py_result_shape(const struct evt_py_result *r, int *ncols, size_t *nrows)
{
	*ncols = r->ncols;
	*nrows = r->nrows;
}

API void evt_py_result_column(const struct evt_py_result *r, int i, const char **name,
			      const uint8_t **types, const int64_t **ints,
			      const double **reals, const uint64_t **text_end,
			      const char **text)
{
	const struct column *c = &r->cols[i];

	*name = c->name;
	*types = c->types;
	*ints = c->ints;
	*reals = c->reals;
	*text_end = c->text_end;
	*text = c->text;
}
