/*
 * cmd_query.c - evtrace query: SQL over one or more traces, on the tables
 * of trace_sql.h.  The last argument is the SQL, every one before it a
 * trace directory or a tree of them; each statement's rows are printed in
 * turn.
 */
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "align.h"
#include "cli.h"
#include "query_db.h"
#include "query_output.h"
#include "trace_set.h"
#include "trace_sql.h"

static bool file_refused;

/* ATTACH and VACUUM INTO make files with the caller's rights: root
 * running an assertion file someone else wrote would write anywhere.
 * (load_extension is off already.) */
static int no_files(void *ctx, int action, const char *a, const char *b,
		    const char *db, const char *trigger)
{
	(void)ctx, (void)a, (void)b, (void)db, (void)trigger;
	if (action != SQLITE_ATTACH && action != SQLITE_DETACH)
		return SQLITE_OK;
	file_refused = true;
	return SQLITE_DENY;
}

/* A statement SQLite refused, with what there is to query. */
static int bad_sql(sqlite3 *db)
{
	if (file_refused) {
		cli_error("query", "%s: ATTACH and VACUUM INTO are refused: they "
			  "would make files with your rights", sqlite3_errmsg(db));
		return 2;
	}
	cli_error("query", "%s", sqlite3_errmsg(db));
	fprintf(stderr, "The tables (times in nanoseconds, evtrace(1) says more):\n%s",
		TRACE_SQL_TABLES);
	return 2;
}

/* Runs every statement of sql; 0, 1 when rows came and fail_if_rows, 2
 * when SQLite refused one. */
static int run(sqlite3 *db, const char *sql, enum query_format fmt,
	       bool fail_if_rows)
{
	const char *next = sql;
	uint64_t all = 0;
	int statements = 0;

	sqlite3_set_authorizer(db, no_files, NULL);

	while (*next) {
		sqlite3_stmt *s = NULL;
		uint64_t rows;
		int rc;

		if (sqlite3_prepare_v2(db, next, -1, &s, &next) != SQLITE_OK)
			return bad_sql(db);
		if (!s)		/* blanks or a comment */
			continue;
		if (statements++ && sqlite3_column_count(s) && fmt == QUERY_TABLE)
			putchar('\n');
		rc = query_output_rows(stdout, fmt, s, &rows);
		sqlite3_finalize(s);
		if (rc != SQLITE_DONE)
			return bad_sql(db);
		all += rows;
	}
	if (fflush(stdout) || ferror(stdout))
		return cli_error("query", "standard output: write error");
	return fail_if_rows && all ? 1 : 0;
}

int cmd_query(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "csv", no_argument, NULL, 'C' },
		{ "json", no_argument, NULL, 'j' },
		{ "fail-if-rows", no_argument, NULL, 'f' },
		{ "clock", required_argument, NULL, 'c' },
		{ "no-cache", no_argument, NULL, 'n' },
		{ "align", required_argument, NULL, 'A' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	enum query_format fmt = QUERY_TABLE;
	enum report_clock clock = REPORT_MONOTONIC;
	struct trace_set set = { 0 };
	bool fail_if_rows = false;
	char err[PATH_MAX + 300];
	const char *sql, *flows[ALIGN_FLOWS_MAX];
	unsigned nflows = 0;
	uint64_t errors = 0;
	sqlite3 *db = NULL;
	struct stat st;
	int opt, i, ret = 1;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'C':
		case 'j':
			if (fmt != QUERY_TABLE)
				return cli_error("query", "--csv and --json do not go "
						 "together"), 2;
			fmt = opt == 'C' ? QUERY_CSV : QUERY_JSON;
			break;
		case 'f':
			fail_if_rows = true;
			break;
		case 'c':
			if (report_clock_parse("query", optarg, &clock))
				return 2;
			break;
		case 'n':	/* (accepted: nothing is cached now) */
			break;
		case 'A':
			if (align_flow_check("query", optarg, nflows))
				return 2;
			flows[nflows++] = optarg;
			break;
		case 'h':
			return cli_help("query");
		default:
			return cli_usage("query");
		}
	}
	if (optind >= argc) {
		cli_error("query", "no SQL given (the last argument)");
		return cli_usage("query");
	}
	sql = argv[argc - 1];
	if (optind == argc - 1 && !stat(sql, &st) && S_ISDIR(st.st_mode)) {
		cli_error("query", "no SQL given (the last argument): %s is a "
			  "directory", sql);
		return cli_usage("query");
	}
	for (i = optind; i < argc - 1; i++)
		if (trace_set_add(&set, argv[i], err, sizeof(err))) {
			cli_error("query", "%s", err);
			goto out;
		}
	if (optind == argc - 1 && trace_set_add(&set, "trace", err, sizeof(err))) {
		cli_error("query", "%s", err);
		goto out;
	}
	if (align_offsets("query", (const char *const *)set.dirs, (unsigned)set.n,
			  flows, nflows, &set.offsets_ns))
		goto out;
	db = query_db_open(&set, clock, &errors, NULL, err, sizeof(err));
	if (!db) {
		cli_error("query", "%s", err);
		goto out;
	}
	ret = run(db, sql, fmt, fail_if_rows);
	if (!ret && errors)
		ret = 1;
out:
	sqlite3_close(db);
	trace_set_free(&set);
	return ret;
}
