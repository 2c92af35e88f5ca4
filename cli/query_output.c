/*
 * query_output.c - print what a query returns.
 *
 * Aligned columns take their widths from the first TABLE_AHEAD rows, held
 * as text; rows after them are printed as they come at those widths, so
 * that a query returning millions of rows needs no more memory than a
 * short one.  Numbers are right-aligned, text left; NULL is shown as such.
 * Text is escaped as report escapes it (safe_text.h).
 * CSV quotes as RFC 4180 says; JSON is an object per row and line, with
 * SQLite's types: integers and reals as numbers, text as strings, NULL as
 * null.
 */
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "query_output.h"
#include "record.h"
#include "report_output.h"
#include "safe_text.h"

#define TABLE_AHEAD 1000
#define WIDTH_MAX 60		/* wider values overflow their column */

/* A value as text: reals at their shortest exact form. */
static const char *value_text(sqlite3_stmt *s, int i, char *buf, size_t size)
{
	switch (sqlite3_column_type(s, i)) {
	case SQLITE_NULL:
		return NULL;
	case SQLITE_FLOAT:
		evt_real_text(buf, size, sqlite3_column_double(s, i));
		return buf;
	default:
		return (const char *)sqlite3_column_text(s, i);
	}
}

struct cell {
	char *text;		/* NULL: SQL NULL */
	bool number;
};

struct table {
	int ncols;
	size_t *width;
	struct cell *held;	/* TABLE_AHEAD rows of ncols */
	size_t nheld;
};

/* Columns a value takes, escaped as put_text() puts it. */
static size_t display_width(const char *s)
{
	return evt_safe_width(s, strlen(s));
}

/* A value on one line of the table: control characters escaped, as
 * report's lines escape them (safe_text.h). */
static void put_text(FILE *f, const char *s)
{
	evt_safe_fwrite(f, s, strlen(s));
}

static bool is_number(sqlite3_stmt *s, int i)
{
	int type = sqlite3_column_type(s, i);

	return type == SQLITE_INTEGER || type == SQLITE_FLOAT;
}

static void put_cell(FILE *f, const struct table *t, int i, const char *text,
		     bool number)
{
	size_t w = display_width(text), pad = t->width[i] > w ? t->width[i] - w : 0;

	if (i)
		fputs("  ", f);
	if (number)
		fprintf(f, "%*s", (int)pad, "");
	put_text(f, text);
	if (!number && i + 1 < t->ncols)	/* no spaces at a line's end */
		fprintf(f, "%*s", (int)pad, "");
}

static void put_row(FILE *f, const struct table *t, const struct cell *row)
{
	int i;

	for (i = 0; i < t->ncols; i++)
		put_cell(f, t, i, row[i].text ? row[i].text : "NULL", row[i].number);
	putc('\n', f);
}

static void put_head(FILE *f, struct table *t, sqlite3_stmt *s)
{
	int i;

	for (i = 0; i < t->ncols; i++)
		put_cell(f, t, i, sqlite3_column_name(s, i), false);
	putc('\n', f);
	for (i = 0; i < t->ncols; i++) {
		size_t k;

		if (i)
			fputs("  ", f);
		for (k = 0; k < t->width[i]; k++)
			putc('-', f);
	}
	putc('\n', f);
}

static void widen(struct table *t, int i, const char *text)
{
	size_t w = display_width(text);

	if (w > WIDTH_MAX)
		w = WIDTH_MAX;
	if (w > t->width[i])
		t->width[i] = w;
}

static void release(struct table *t)
{
	size_t k;

	for (k = 0; k < t->nheld * (size_t)t->ncols; k++)
		free(t->held[k].text);
	free(t->held);
	free(t->width);
}

static int table_rows(FILE *f, sqlite3_stmt *s, uint64_t *rows)
{
	struct table t = { .ncols = sqlite3_column_count(s) };
	struct cell *row;
	char buf[32];
	int rc, i;
	size_t k;

	t.width = calloc((size_t)t.ncols + 1, sizeof(*t.width));
	t.held = calloc((size_t)TABLE_AHEAD * t.ncols + 1, sizeof(*t.held));
	if (!t.width || !t.held) {
		release(&t);
		return SQLITE_NOMEM;
	}
	for (i = 0; i < t.ncols; i++)
		widen(&t, i, sqlite3_column_name(s, i));
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		(*rows)++;
		if (t.nheld == TABLE_AHEAD) {	/* the widths are settled */
			put_head(f, &t, s);
			for (k = 0; k < t.nheld; k++)
				put_row(f, &t, &t.held[k * t.ncols]);
			for (k = 0; k < t.nheld * (size_t)t.ncols; k++)
				free(t.held[k].text);
			t.nheld = TABLE_AHEAD + 1;	/* printed and freed */
		}
		if (t.nheld > TABLE_AHEAD) {
			for (i = 0; i < t.ncols; i++) {
				const char *v = value_text(s, i, buf, sizeof(buf));

				put_cell(f, &t, i, v ? v : "NULL", is_number(s, i));
			}
			putc('\n', f);
			continue;
		}
		row = &t.held[t.nheld * t.ncols];
		for (i = 0; i < t.ncols; i++) {
			const char *v = value_text(s, i, buf, sizeof(buf));

			row[i].number = is_number(s, i);
			row[i].text = v ? strdup(v) : NULL;
			if (v && !row[i].text) {
				t.nheld++;
				release(&t);
				return SQLITE_NOMEM;
			}
			widen(&t, i, v ? v : "NULL");
		}
		t.nheld++;
	}
	if (t.nheld <= TABLE_AHEAD) {
		if (t.ncols)
			put_head(f, &t, s);
		for (k = 0; k < t.nheld; k++)
			put_row(f, &t, &t.held[k * t.ncols]);
	} else {
		t.nheld = 0;	/* freed */
	}
	release(&t);
	return rc;
}

/*
 * A field quoted as RFC 4180 says, its control characters escaped as the
 * table's but its lines kept.  A text a spreadsheet would take for a
 * formula (=, +, -, @, a tab or carriage return first: =HYPERLINK(...),
 * +cmd|...) gets a ' before it, as OWASP advises; numbers stay numbers.
 */
static void csv_field(FILE *f, const char *v, bool text)
{
	bool formula = text && *v && strchr("=+-@\t\r", *v);
	const char *quote;

	if (!formula && !strpbrk(v, ",\"\r\n") && evt_safe_as_is(v, strlen(v))) {
		fputs(v, f);
		return;
	}
	putc('"', f);
	if (formula)
		putc('\'', f);
	while ((quote = strchr(v, '"'))) {
		evt_safe_fwrite_lines(f, v, (size_t)(quote - v + 1));
		putc('"', f);
		v = quote + 1;
	}
	evt_safe_fwrite_lines(f, v, strlen(v));
	putc('"', f);
}

static int csv_rows(FILE *f, sqlite3_stmt *s, uint64_t *rows)
{
	int n = sqlite3_column_count(s), i, rc;
	char buf[32];

	for (i = 0; i < n; i++) {
		if (i)
			putc(',', f);
		csv_field(f, sqlite3_column_name(s, i), true);
	}
	putc('\n', f);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		for (i = 0; i < n; i++) {
			const char *v = value_text(s, i, buf, sizeof(buf));

			if (i)
				putc(',', f);
			if (v)
				csv_field(f, v, !is_number(s, i));
		}
		putc('\r', f);
		putc('\n', f);
		(*rows)++;
	}
	return rc;
}

static void json_value(FILE *f, sqlite3_stmt *s, int i)
{
	char buf[32];
	double d;

	switch (sqlite3_column_type(s, i)) {
	case SQLITE_NULL:
		fputs("null", f);
		return;
	case SQLITE_INTEGER:
		fprintf(f, "%lld", (long long)sqlite3_column_int64(s, i));
		return;
	case SQLITE_FLOAT:
		d = sqlite3_column_double(s, i);
		if (!isfinite(d)) {
			fputs("null", f);	/* JSON has no infinity */
			return;
		}
		evt_real_text(buf, sizeof(buf), d);
		fputs(buf, f);
		return;
	default: {	/* text; a blob as the bytes it holds */
		const char *t = (const char *)sqlite3_column_text(s, i);

		report_json_string(f, t ? t : "", (size_t)sqlite3_column_bytes(s, i));
	}
	}
}

static int json_rows(FILE *f, sqlite3_stmt *s, uint64_t *rows)
{
	int n = sqlite3_column_count(s), i, rc;

	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		putc('{', f);
		for (i = 0; i < n; i++) {
			const char *name = sqlite3_column_name(s, i);

			if (i)
				putc(',', f);
			report_json_string(f, name, strlen(name));
			putc(':', f);
			json_value(f, s, i);
		}
		fputs("}\n", f);
		(*rows)++;
	}
	return rc;
}

int query_output_rows(FILE *f, enum query_format fmt, sqlite3_stmt *s,
		      uint64_t *rows)
{
	*rows = 0;
	switch (fmt) {
	case QUERY_CSV:
		return csv_rows(f, s, rows);
	case QUERY_JSON:
		return json_rows(f, s, rows);
	default:
		return table_rows(f, s, rows);
	}
}
