/*
 * sql_rows.c - two batches, one filled by the producer while the writer
 * executes the other.  A batch is an array of rows, each naming its
 * statement and its first value, an array of values, and an arena for
 * the text they hold.  The handover is a mutex and a condition variable:
 * the producer waits only when it has filled a batch before the writer
 * has emptied the other.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sql_rows.h"
#include "invariant.h"

#define BATCH_ROWS 8192
#define BATCH_VALUES (BATCH_ROWS * 13)
#define BATCH_TEXT (4u << 20)

enum value_type { V_NULL, V_INT, V_REAL, V_TEXT };

struct value {
	uint8_t type;
	uint32_t len;		/* V_TEXT */
	union {
		int64_t i;
		double d;
		size_t off;	/* V_TEXT: in the arena */
	};
};

struct row {
	uint16_t stmt;
	uint16_t nvalues;
	uint32_t first;
};

struct batch {
	struct row *rows;
	struct value *values;
	char *text;
	size_t nrows, nvalues, ntext, text_cap;
};

struct sql_rows {
	sqlite3 *db;
	sqlite3_stmt **st;
	int *ncolumns;		/* each statement's parameters */
	int nst;
	struct batch b[2];
	int filling;		/* the producer's batch */
	pthread_t writer;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool full;		/* the other batch waits for the writer */
	bool done;		/* no more batches */
	bool failed;		/* the writer failed: see why (atomic) */
	bool out_of_memory;	/* the producer's */
	char why[300];
};

/* Binds the row's values and steps its statement. */
static int write_row(struct sql_rows *r, const struct batch *b, const struct row *row)
{
	sqlite3_stmt *s = r->st[row->stmt];
	uint16_t k;
	int rc;

	for (k = 0; k < row->nvalues; k++) {
		const struct value *v = &b->values[row->first + k];

		switch (v->type) {
		case V_INT:
			sqlite3_bind_int64(s, k + 1, v->i);
			break;
		case V_REAL:
			sqlite3_bind_double(s, k + 1, v->d);	/* NaN: NULL */
			break;
		case V_TEXT:
			sqlite3_bind_text(s, k + 1, b->text + v->off, (int)v->len,
					  SQLITE_STATIC);
			break;
		default:
			sqlite3_bind_null(s, k + 1);
		}
	}
	rc = sqlite3_step(s);
	sqlite3_reset(s);
	if (rc == SQLITE_DONE || rc == SQLITE_ROW)
		return 0;
	snprintf(r->why, sizeof(r->why), "%s", sqlite3_errmsg(r->db));
	return -1;
}

static void *writer(void *arg)
{
	struct sql_rows *r = arg;
	struct batch *b;
	size_t i;
	bool failed = false;

	for (;;) {
		pthread_mutex_lock(&r->lock);
		while (!r->full && !r->done)
			pthread_cond_wait(&r->cond, &r->lock);
		if (!r->full) {		/* done, and nothing left */
			pthread_mutex_unlock(&r->lock);
			return NULL;
		}
		b = &r->b[!r->filling];
		pthread_mutex_unlock(&r->lock);
		for (i = 0; i < b->nrows && !failed; i++)
			failed = write_row(r, b, &b->rows[i]) != 0;
		b->nrows = b->nvalues = b->ntext = 0;
		pthread_mutex_lock(&r->lock);
		r->full = false;
		/* read by the producer at each row, without the lock */
		__atomic_store_n(&r->failed, failed, __ATOMIC_RELAXED);
		pthread_cond_broadcast(&r->cond);
		pthread_mutex_unlock(&r->lock);
	}
}

static int batch_init(struct batch *b)
{
	b->rows = malloc(BATCH_ROWS * sizeof(*b->rows));
	b->values = malloc(BATCH_VALUES * sizeof(*b->values));
	b->text = malloc(BATCH_TEXT);
	b->text_cap = BATCH_TEXT;
	return b->rows && b->values && b->text ? 0 : -1;
}

static void release(struct sql_rows *r)
{
	int i;

	for (i = 0; i < 2; i++) {
		free(r->b[i].rows);
		free(r->b[i].values);
		free(r->b[i].text);
	}
	for (i = 0; i < r->nst; i++)
		sqlite3_finalize(r->st[i]);
	free(r->st);
	free(r->ncolumns);
	pthread_mutex_destroy(&r->lock);
	pthread_cond_destroy(&r->cond);
	free(r);
}

struct sql_rows *sql_rows_start(sqlite3 *db, const char *const *sql, int n,
				char *err, size_t err_size)
{
	struct sql_rows *r = calloc(1, sizeof(*r));
	int i;

	if (!r) {
		snprintf(err, err_size, "out of memory");
		return NULL;
	}
	r->db = db;
	pthread_mutex_init(&r->lock, NULL);
	pthread_cond_init(&r->cond, NULL);
	r->st = calloc((size_t)n, sizeof(*r->st));
	r->ncolumns = calloc((size_t)n, sizeof(*r->ncolumns));
	if (!r->st || !r->ncolumns || batch_init(&r->b[0]) || batch_init(&r->b[1])) {
		snprintf(err, err_size, "out of memory");
		release(r);
		return NULL;
	}
	r->nst = n;
	for (i = 0; i < n; i++)
		if (!sql[i]) {
			continue;	/* (a kind of row not written) */
		} else if (sqlite3_prepare_v2(db, sql[i], -1, &r->st[i], NULL) != SQLITE_OK) {
			snprintf(err, err_size, "%s", sqlite3_errmsg(db));
			release(r);
			return NULL;
		} else {
			r->ncolumns[i] = sqlite3_bind_parameter_count(r->st[i]);
		}
	if (pthread_create(&r->writer, NULL, writer, r)) {
		snprintf(err, err_size, "cannot start a thread");
		release(r);
		return NULL;
	}
	return r;
}

/* Hands the filled batch to the writer, once it has emptied the other. */
static void hand_over(struct sql_rows *r)
{
	pthread_mutex_lock(&r->lock);
	while (r->full)
		pthread_cond_wait(&r->cond, &r->lock);
	r->full = true;
	r->filling = !r->filling;
	pthread_cond_broadcast(&r->cond);
	pthread_mutex_unlock(&r->lock);
}

static struct value *next_value(struct sql_rows *r)
{
	struct batch *b = &r->b[r->filling];

	if (b->nvalues == BATCH_VALUES) {	/* a row of too many values */
		r->out_of_memory = true;
		b->nvalues--;
	}
	return &b->values[b->nvalues++];
}

void sql_rows_begin(struct sql_rows *r, int stmt)
{
	struct batch *b = &r->b[r->filling];

	b->rows[b->nrows] = (struct row){ .stmt = (uint16_t)stmt,
					  .first = (uint32_t)b->nvalues };
}

void sql_rows_int(struct sql_rows *r, int64_t v)
{
	struct value *x = next_value(r);

	x->type = V_INT;
	x->i = v;
}

void sql_rows_real(struct sql_rows *r, double v)
{
	struct value *x = next_value(r);

	x->type = V_REAL;
	x->d = v;
}

void sql_rows_null(struct sql_rows *r)
{
	next_value(r)->type = V_NULL;
}

void sql_rows_text(struct sql_rows *r, const char *s, size_t n)
{
	struct batch *b = &r->b[r->filling];
	struct value *x = next_value(r);

	if (!s) {
		x->type = V_NULL;
		return;
	}
	if (b->ntext + n > b->text_cap) {
		size_t cap = b->text_cap;
		char *t;

		while (b->ntext + n > cap)
			cap *= 2;
		t = realloc(b->text, cap);
		if (!t) {
			r->out_of_memory = true;
			x->type = V_NULL;
			return;
		}
		b->text = t;
		b->text_cap = cap;
	}
	memcpy(b->text + b->ntext, s, n);
	x->type = V_TEXT;
	x->off = b->ntext;
	x->len = (uint32_t)n;
	b->ntext += n;
}

void sql_rows_str(struct sql_rows *r, const char *s)
{
	sql_rows_text(r, s, s ? strlen(s) : 0);
}

int sql_rows_end(struct sql_rows *r)
{
	struct batch *b = &r->b[r->filling];
	struct row *row = &b->rows[b->nrows++];

	row->nvalues = (uint16_t)(b->nvalues - row->first);
	/* A row gives its table's every column, in order: one short or long
	 * would shift every value after it into the wrong column. */
	evt_invariant(row->stmt < r->nst && row->nvalues == r->ncolumns[row->stmt]);
	if (b->nrows == BATCH_ROWS || b->nvalues + 64 > BATCH_VALUES ||
	    b->ntext >= BATCH_TEXT)
		hand_over(r);
	return __atomic_load_n(&r->failed, __ATOMIC_RELAXED) || r->out_of_memory ?
	       -1 : 0;
}

int sql_rows_finish(struct sql_rows *r, char *err, size_t err_size)
{
	int ret;

	if (r->b[r->filling].nrows)
		hand_over(r);
	pthread_mutex_lock(&r->lock);
	while (r->full)
		pthread_cond_wait(&r->cond, &r->lock);
	r->done = true;
	pthread_cond_broadcast(&r->cond);
	pthread_mutex_unlock(&r->lock);
	pthread_join(r->writer, NULL);
	ret = r->failed || r->out_of_memory ? -1 : 0;
	if (ret)
		snprintf(err, err_size, "%s", r->failed ? r->why : "out of memory");
	release(r);
	return ret;
}
