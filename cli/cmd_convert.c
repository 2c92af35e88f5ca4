/*
 * cmd_convert.c - evtrace convert: a trace in another tool's format
 * (chrome-json, perfetto: convert.h; sqlite: query's tables, query_db.h),
 * cut by report's filters, into a file that is removed again when it
 * could not be written to its end.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "align.h"
#include "cli.h"
#include "convert.h"
#include "query_db.h"

enum format { CHROME, PERFETTO, SQLITE };

static int parse_format(const char *to, enum format *fmt)
{
	if (!strcmp(to, "chrome-json"))
		*fmt = CHROME;
	else if (!strcmp(to, "perfetto"))
		*fmt = PERFETTO;
	else if (!strcmp(to, "sqlite"))
		*fmt = SQLITE;
	else
		return cli_error("convert", "--to %s: not a format evtrace converts "
				 "to (chrome-json, perfetto, sqlite)", to);
	return 0;
}

/* Whether out may be written: a new file, or a regular one (replaced). */
static int writable_out(const char *out)
{
	struct stat st;

	if (lstat(out, &st))
		return errno == ENOENT ? 0 : cli_error("convert", "%s: %s", out,
							strerror(errno));
	if (!S_ISREG(st.st_mode))
		return cli_error("convert", "%s: not a regular file; not replaced", out);
	return 0;
}

static int to_sqlite(const struct convert_input *in, const char *out,
		     enum report_clock clock, struct report_filter *filter,
		     struct evt_trace_stats *st)
{
	struct trace_set set = { 0 };
	char err[PATH_MAX + 300];
	sqlite3 *db = NULL;
	unsigned i;
	int ret = 1;

	if (writable_out(out))
		return 1;
	for (i = 0; i < in->n; i++)
		if (trace_set_add(&set, in->dirs[i], err, sizeof(err))) {
			cli_error("convert", "%s", err);
			goto out;
		}
	if (in->offsets_ns && set.n != in->n) {
		cli_error("convert", "--align takes trace directories, not trees "
			  "of them: name each trace");
		goto out;
	}
	if (in->offsets_ns) {
		set.offsets_ns = malloc(set.n * sizeof(*set.offsets_ns));
		if (!set.offsets_ns) {
			cli_error("convert", "out of memory");
			goto out;
		}
		memcpy(set.offsets_ns, in->offsets_ns, set.n * sizeof(*set.offsets_ns));
	}
	if (unlink(out) && errno != ENOENT) {
		cli_error("convert", "%s: %s", out, strerror(errno));
		goto out;
	}
	query_db_setup();
	if (sqlite3_open_v2(out, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
			    SQLITE_OPEN_NOFOLLOW | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
		cli_error("convert", "%s: %s", out, sqlite3_errmsg(db));
		goto out;
	}
	if (query_db_fill(db, "convert", &set, clock, filter, NULL, st, err, sizeof(err))) {
		cli_error("convert", "%s", err);
		goto out;
	}
	if (sqlite3_close(db) != SQLITE_OK) {
		cli_error("convert", "%s: %s", out, sqlite3_errmsg(db));
		goto out;
	}
	db = NULL;
	ret = 0;
out:
	sqlite3_close(db);
	if (ret)
		unlink(out);
	trace_set_free(&set);
	return ret;
}

static int to_file(enum format fmt, const struct convert_input *in,
		   const char *out, struct report_filter *filter,
		   struct evt_trace_stats *st)
{
	char err[PATH_MAX + 300];
	bool whole = false;	/* FILE written to its end */
	struct stat st_out;
	FILE *f;
	int r;

	f = out && strcmp(out, "-") ? fopen(out, "we") : stdout;
	if (!f)
		return cli_error("convert", "%s: %s", out, strerror(errno));
	r = fmt == PERFETTO ? convert_perfetto(f, in, filter, st, err, sizeof(err)) :
	    convert_chrome(f, in, filter, st, err, sizeof(err));
	if (r)
		cli_error("convert", "%s", err);
	else if (fflush(f) || ferror(f))
		cli_error("convert", "%s: %s", out ? out : "standard output",
			  strerror(errno));
	else
		whole = true;
	if (f != stdout && fclose(f) && whole) {
		cli_error("convert", "%s: %s", out, strerror(errno));
		whole = false;
	}
	/* No half file left looking whole; never a device or a FIFO. */
	if (!whole && f != stdout && !stat(out, &st_out) && S_ISREG(st_out.st_mode))
		unlink(out);
	return whole ? 0 : 1;
}

int cmd_convert(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "to", required_argument, NULL, 'T' },
		{ "output", required_argument, NULL, 'o' },
		{ "clock", required_argument, NULL, 'c' },
		/* report's, but -t is --to here (as it was first) */
		{ "event", required_argument, NULL, 'e' },
		{ "filter", required_argument, NULL, 'F' },
		{ "pid", required_argument, NULL, 'p' },
		{ "tid", required_argument, NULL, 'I' },
		{ "since", required_argument, NULL, 'S' },
		{ "until", required_argument, NULL, 'U' },
		{ "align", required_argument, NULL, 'A' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct report_filter filter = { 0 };
	struct evt_trace_stats st = { 0 };
	enum report_clock clock = REPORT_MONOTONIC;
	const char *dir = "trace", *out = NULL, *to = NULL, *flows[ALIGN_FLOWS_MAX];
	struct convert_input in = { .dirs = &dir, .n = 1 };
	int64_t *offsets = NULL;
	unsigned nflows = 0;
	bool clock_given = false;
	enum format fmt = CHROME;
	int opt, ret = 1;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "t:o:e:F:p:h", longopts, NULL)) != -1) {
		int taken = opt == 't' ? 0 :
			    report_filter_option(&filter, "convert", opt == 'I' ? 't' : opt,
						 optarg);

		if (taken < 0)
			goto out;
		if (taken)
			continue;
		switch (opt) {
		case 't':
		case 'T':
			to = optarg;
			break;
		case 'o':
			out = optarg;
			break;
		case 'c':
			if (report_clock_parse("convert", optarg, &clock))
				goto out;
			clock_given = true;
			break;
		case 'A':
			if (align_flow_check("convert", optarg, nflows))
				goto out;
			flows[nflows++] = optarg;
			break;
		case 'h':
			ret = cli_help("convert");
			goto out;
		default:
			ret = cli_usage("convert");
			goto out;
		}
	}
	if (!to) {
		cli_error("convert", "--to FORMAT is needed (chrome-json, perfetto, sqlite)");
		ret = cli_usage("convert");
		goto out;
	}
	if (parse_format(to, &fmt))
		goto out;
	if (optind < argc) {
		in.dirs = (const char *const *)argv + optind;
		in.n = (unsigned)(argc - optind);
	}
	if (align_offsets("convert", in.dirs, in.n, flows, nflows, &offsets))
		goto out;
	in.offsets_ns = offsets;
	if (clock_given && fmt != SQLITE) {
		cli_error("convert", "--clock is for --to sqlite (the other formats "
			  "count from the trace's start)");
		goto out;
	}
	if (fmt == SQLITE && (!out || !strcmp(out, "-"))) {
		cli_error("convert", "--to sqlite needs -o FILE (a database file)");
		goto out;
	}
	filter.clock = clock;
	ret = fmt == SQLITE ? to_sqlite(&in, out, clock, &filter, &st) :
	      to_file(fmt, &in, out, &filter, &st);
	if (ret)
		goto out;
	if (report_filter_any(&filter))
		fprintf(stderr, "evtrace: convert: %" PRIu64 " of %" PRIu64 " event%s, %"
			PRIu64 " of %" PRIu64 " lost", filter.kept_events, st.events,
			cli_plural(st.events), filter.kept_lost, st.lost);
	else
		fprintf(stderr, "evtrace: convert: %" PRIu64 " event%s, %" PRIu64 " lost",
			st.events, cli_plural(st.events), st.lost);
	fprintf(stderr, ", %u stream%s%s%s\n", st.streams, cli_plural(st.streams),
		out ? " into " : "", out ? out : "");
	report_filter_note_unmatched(&filter, "convert");
	report_filter_note_range(&filter, "convert");
	ret = st.errors ? 1 : 0;
out:
	free(offsets);
	report_filter_free(&filter);
	return ret;
}
