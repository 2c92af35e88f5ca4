/*
 * query_db.c - read traces into SQLite, or find them read already.
 *
 * The cache is <dir>/.evtrace-query-<clock>.db (a dot file: trace readers,
 * babeltrace2's included, pass it by), holding the tables and the
 * signature of the files it was made of (trace_set.c).  It is written
 * into a file of its own made with O_EXCL and renamed into place, and
 * only in a directory that is the user's alone on a path no one else
 * can change: a query never writes where it was not asked to, and never
 * trusts a file another user could have planted.  Where there can be no cache, the traces go into a
 * private temporary database that SQLite removes on close.  Either way
 * memory is SQLite's page cache (PAGE_CACHE_KIB) and what trace_sql.c
 * keeps per thread and open span.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "query_db.h"
#include "trace_sql.h"
#include "trace_names.h"

#define PAGE_CACHE_KIB 32768
/* Changes whenever the tables or what goes into them do. */
#define CACHE_VERSION "evtrace " EVT_RELEASE " tables 3\n"

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
		  struct evt_trace_stats *total, char *err, size_t err_size)
{
	char pragmas[160], why[300];
	struct trace_sql *t;
	bool failed = false;
	size_t i;

	memset(total, 0, sizeof(*total));
	snprintf(pragmas, sizeof(pragmas), "PRAGMA journal_mode=OFF;"
		 "PRAGMA synchronous=OFF;PRAGMA cache_size=-%d;BEGIN",
		 PAGE_CACHE_KIB);
	if (exec(db, pragmas, err, err_size) || trace_sql_create(db, err, err_size))
		return -1;
	t = trace_sql_begin(db, cmd, clock, filter, err, err_size);
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

/* Whether a directory on the way to the cache leaves its entries to
 * root and the user alone (a sticky one keeps each to its owner). */
static bool guarded(const struct stat *st)
{
	return (st->st_uid == 0 || st->st_uid == geteuid()) &&
	       (!(st->st_mode & (S_IWGRP | S_IWOTH)) || (st->st_mode & S_ISVTX));
}

/*
 * Whether dir is the user's alone to write into, and nobody else could
 * put another directory in its place: it and every directory above it,
 * walked by "..", from the directory itself (not by its name), are
 * root's or the user's and writable by no one else.  Root's query of a
 * trace in a user's home gets no cache: that user could swap the
 * directory for a symlink into one of root's between the check and the
 * writes (query makes a file, then renames it into place).
 */
static bool cache_allowed(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC), up;
	struct stat st, parent;
	bool ok;
	unsigned depth;

	if (fd < 0)
		return false;
	ok = !fstat(fd, &st) && st.st_uid == geteuid() &&
	     !(st.st_mode & (S_IWGRP | S_IWOTH)) && !faccessat(fd, ".", W_OK, AT_EACCESS);
	for (depth = 0; ok && depth < 4096; depth++) {
		up = openat(fd, "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (up < 0 || fstat(up, &parent)) {
			ok = false;
		} else if (parent.st_dev == st.st_dev && parent.st_ino == st.st_ino) {
			close(up);	/* the root */
			break;
		} else {
			ok = guarded(&parent);
			st = parent;
		}
		close(fd);
		fd = up;
	}
	if (fd >= 0)
		close(fd);
	return ok && depth < 4096;	/* (the root reached) */
}

/* The read errors kept in db, said again when say; their number. */
static uint64_t replay_errors(sqlite3 *db, bool say)
{
	sqlite3_stmt *s;
	uint64_t n = 0;

	if (sqlite3_prepare_v2(db, "SELECT message FROM trace_error ORDER BY rowid",
			       -1, &s, NULL) != SQLITE_OK)
		return 0;
	while (sqlite3_step(s) == SQLITE_ROW) {
		if (say)
			fprintf(stderr, "evtrace: query: %s\n", sqlite3_column_text(s, 0));
		n++;
	}
	sqlite3_finalize(s);
	return n;
}

/* The cache at path, when it is the user's and made of what key says. */
static sqlite3 *open_cache(const char *path, const char *key)
{
	sqlite3 *db = NULL;
	sqlite3_stmt *s = NULL;
	struct stat st;
	bool same = false;

	if (lstat(path, &st) || !S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
	    st.st_nlink != 1)
		return NULL;
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOFOLLOW |
			    SQLITE_OPEN_NOMUTEX,
			    NULL) == SQLITE_OK &&
	    sqlite3_prepare_v2(db, "SELECT value FROM evtrace_cache WHERE key = 'made of'",
			       -1, &s, NULL) == SQLITE_OK &&
	    sqlite3_step(s) == SQLITE_ROW && sqlite3_column_text(s, 0))
		same = !strcmp((const char *)sqlite3_column_text(s, 0), key);
	sqlite3_finalize(s);
	if (!same) {
		sqlite3_close(db);
		return NULL;
	}
	return db;
}

/* Makes the cache at path; 0, or -1 with err set. */
static int make_cache(const struct trace_set *set, const char *path,
		      const char *key, enum report_clock clock, char *err,
		      size_t err_size)
{
	char tmp[PATH_MAX];
	sqlite3 *db = NULL;
	sqlite3_stmt *s = NULL;
	struct evt_trace_stats st;
	int fd, ret = -1;

	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.%d.tmp", path, (int)getpid()) >=
	    sizeof(tmp)) {
		snprintf(err, err_size, "%s: name too long", path);
		return -1;
	}
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		snprintf(err, err_size, "%s: %s", tmp, strerror(errno));
		return -1;
	}
	close(fd);
	if (sqlite3_open_v2(tmp, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOFOLLOW |
			    SQLITE_OPEN_NOMUTEX,
			    NULL) != SQLITE_OK) {
		snprintf(err, err_size, "%s: %s", tmp, sqlite3_errmsg(db));
		goto out;
	}
	if (query_db_fill(db, "query", set, clock, NULL, &st, err, err_size) ||
	    exec(db, "CREATE TABLE evtrace_cache(key TEXT PRIMARY KEY, value TEXT)",
		 err, err_size))
		goto out;
	if (sqlite3_prepare_v2(db, "INSERT INTO evtrace_cache VALUES('made of', ?1)",
			       -1, &s, NULL) != SQLITE_OK ||
	    sqlite3_bind_text(s, 1, key, -1, SQLITE_STATIC) != SQLITE_OK ||
	    sqlite3_step(s) != SQLITE_DONE) {
		snprintf(err, err_size, "%s: %s", tmp, sqlite3_errmsg(db));
		goto out;
	}
	sqlite3_finalize(s);
	s = NULL;
	if (sqlite3_close(db) != SQLITE_OK) {
		snprintf(err, err_size, "%s: %s", tmp, sqlite3_errmsg(db));
		db = NULL;
		goto out;
	}
	db = NULL;
	if (rename(tmp, path)) {
		snprintf(err, err_size, "%s: %s", path, strerror(errno));
		goto out;
	}
	ret = 0;
out:
	sqlite3_finalize(s);
	sqlite3_close(db);
	if (ret)
		unlink(tmp);
	return ret;
}

static sqlite3 *cached(const struct trace_set *set, const char *dir,
		       enum report_clock clock, uint64_t *errors, char *err,
		       size_t err_size)
{
	char path[PATH_MAX], *sig, *key = NULL;
	sqlite3 *db;

	if ((size_t)snprintf(path, sizeof(path), "%s/" EVT_TRACE_QUERY_PREFIX "%s.db", dir,
			     report_clock_name(clock)) >= sizeof(path))
		return NULL;
	sig = trace_set_signature(set);
	if (!sig || asprintf(&key, "%s%s", CACHE_VERSION, sig) < 0) {
		free(sig);
		snprintf(err, err_size, "out of memory");
		return NULL;
	}
	free(sig);
	db = open_cache(path, key);
	if (db) {
		*errors = replay_errors(db, true);
	} else if (!make_cache(set, path, key, clock, err, err_size)) {
		db = open_cache(path, key);	/* its errors were said */
		if (db)
			*errors = replay_errors(db, false);
	}
	free(key);
	return db;
}

sqlite3 *query_db_open(const struct trace_set *s, const char *cache_dir,
		       enum report_clock clock, uint64_t *errors, char *err,
		       size_t err_size)
{
	struct evt_trace_stats st;
	sqlite3 *db = NULL;

	query_db_setup();

	/* The cache is never required: whatever kept it from being made,
	 * the traces are read into a temporary database instead (where
	 * what was wrong with the traces themselves is met again). */
	if (cache_dir && cache_allowed(cache_dir)) {
		db = cached(s, cache_dir, clock, errors, err, err_size);
		if (db)
			return db;
	}
	if (sqlite3_open_v2("", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
			    SQLITE_OPEN_NOMUTEX,
			    NULL) != SQLITE_OK) {
		snprintf(err, err_size, "a temporary database: %s", sqlite3_errmsg(db));
		sqlite3_close(db);
		return NULL;
	}
	if (query_db_fill(db, "query", s, clock, NULL, &st, err, err_size)) {
		sqlite3_close(db);
		return NULL;
	}
	*errors = st.errors;
	return db;
}
