/*
 * fuzz_trace_readers.c - libFuzzer harness for what reads a whole trace
 * directory: query's loader (trace_sql.c) and its cache (query_db.c),
 * every converter (chrome-json, Perfetto), and --align's clock handling,
 * over one trace and over two copies merged on real time.
 *
 * The input is a trace directory in one piece: the index text
 * (evtrace/index), a NUL, and the bytes of its one stream file; its
 * metadata is an empty file (evtrace's readers take the index).  make
 * fuzz makes a seed of a real trace so.  Output goes to /dev/null: the
 * harness asks only that nothing crashes, leaks or overflows.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "align.h"
#include "convert.h"
#include "query_db.h"
#include "trace_set.h"
#include "trace_names.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char top[PATH_MAX];

static int put(const char *dir, const char *name, const void *p, size_t n)
{
	char path[PATH_MAX + 64];
	int fd, ok;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return -1;
	ok = write(fd, p, n) == (ssize_t)n;
	close(fd);
	return ok ? 0 : -1;
}

static int made(const char *dir)
{
	return mkdir(dir, 0700) == 0 || errno == EEXIST ? 0 : -1;
}

/* The input as the trace top/name: 0, or -1. */
static int make_trace(const char *name, const uint8_t *data, size_t size,
		      char *dir, size_t dir_size)
{
	char sub[PATH_MAX + 48];
	const uint8_t *nul = memchr(data, 0, size);
	size_t ilen = nul ? (size_t)(nul - data) : size;

	snprintf(dir, dir_size, "%s/%s", top, name);
	snprintf(sub, sizeof(sub), "%s/" EVT_TRACE_SUBDIR, dir);
	if (made(dir) || made(sub))
		return -1;
	return put(dir, EVT_TRACE_METADATA, "", 0) || put(sub, EVT_TRACE_INDEX, data, ilen) ||
	       put(dir, EVT_TRACE_STREAM_PREFIX "1-0_0_0_1", nul ? nul + 1 : data + size,
		   nul ? size - ilen - 1 : 0) ? -1 : 0;
}

static void convert_all(FILE *sink, const char *const *dirs, unsigned n,
			const int64_t *offsets_ns)
{
	struct convert_input in = { dirs, n, offsets_ns };
	struct evt_trace_stats st;
	char err[1024];

	convert_chrome(sink, &in, NULL, &st, err, sizeof(err));
	convert_perfetto(sink, &in, NULL, &st, err, sizeof(err));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const flows[] = { "async/msg", "send:recv:id" };
	char a[PATH_MAX + 32], b[PATH_MAX + 32], err[1024];
	const char *dirs[2] = { a, b };
	struct trace_set set = { 0 };
	int64_t *offsets = NULL;
	uint64_t errors = 0;
	FILE *sink = fopen("/dev/null", "we");
	sqlite3 *db;

	if (!sink)
		return 0;
	if (!top[0]) {
		snprintf(top, sizeof(top), "/tmp/evtrace-fuzz.%d", (int)getpid());
		if (made(top))
			goto out;
	}
	if (make_trace("a", data, size, a, sizeof(a)) ||
	    make_trace("b", data, size, b, sizeof(b)))
		goto out;
	/* query, every column of the events made from their payloads, and
	 * its questions about time */
	if (trace_set_add(&set, a, err, sizeof(err)) == 0) {
		db = query_db_open(&set, REPORT_MONOTONIC, &errors, NULL, err, sizeof(err));
		if (db)
			sqlite3_exec(db, "SELECT count(*), sum(length(message)),"
				     " sum(length(fields)) FROM event;"
				     "SELECT name, count(*) FROM event GROUP BY name;"
				     "SELECT count(*) FROM args;"
				     "SELECT count(*) FROM thread_state;"
				     "SELECT count(*) FROM flow f, descendant_slices(f.slice_out);"
				     "SELECT count(*) FROM slice s, ancestor_slices(s.id),"
				     " overlapping_slices(s.id, 'thread');"
				     "SELECT count(counter_at(name, ts - 1, pid)) FROM counter_span",
				     NULL, NULL, NULL);
		sqlite3_close(db);
		db = query_db_open(&set, REPORT_REALTIME, &errors, NULL, err, sizeof(err));
		sqlite3_close(db);
		trace_set_free(&set);
	}
	convert_all(sink, dirs, 1, NULL);
	/* two machines' traces merged on real time, lined up by flows */
	if (align_offsets("fuzz", dirs, 2, flows, 2, &offsets) == 0)
		convert_all(sink, dirs, 2, offsets);
	free(offsets);
out:
	fclose(sink);
	return 0;
}
