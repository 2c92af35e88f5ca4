/*
 * cmd_diff.c - evtrace diff A B: two runs side by side, per event (its
 * count and rate) and per span name (its count and its durations' p50,
 * p90, p99 and mean, each with the p-value of "they are the same" from
 * compare.h), as text or JSON; --fail-if gates for CI.
 *
 * A difference is marked significant when its p-value is under --alpha
 * (0.001) and it is at least --min-change (5%): two runs of one program
 * differ by a little, which many samples make "significant" without
 * meaning anything.  Counts and rates come from one run each and carry
 * no measure of their noise: they are not tested, and a gate on them
 * holds its threshold alone.
 */
#include <fnmatch.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "compare.h"
#include "report.h"
#include "report_output.h"
#include "trace_summary.h"

#define MAX_GATES 32

enum metric { M_COUNT, M_RATE, M_P50, M_P90, M_P99, M_MEAN, NMETRICS };
static const char *const metric_names[NMETRICS] = {
	"count", "rate", "p50", "p90", "p99", "mean",
};

/* One compared figure. */
struct row {
	const char *key;
	enum metric metric;
	bool in_a, in_b;
	double a, b;		/* a count, events a second, or ns */
	double change;		/* (b - a) / a; NAN without a base */
	double p;		/* -1: not tested */
	bool significant;
};

struct gate {
	const char *text;
	char key[256];
	enum metric metric;
	bool above;		/* '>' (else '<') */
	double limit;		/* relative: 0.10 for +10% */
	bool matched, tripped;
};

struct diff {
	double alpha, min_change;
	struct row *rows;
	size_t nrows, cap;
};

static int add_row(struct diff *d, const struct row *r)
{
	if (d->nrows == d->cap) {
		size_t cap = d->cap ? 2 * d->cap : 256;
		struct row *grown = realloc(d->rows, cap * sizeof(*grown));

		if (!grown)
			return -1;
		d->rows = grown;
		d->cap = cap;
	}
	d->rows[d->nrows++] = *r;
	return 0;
}

static double seconds(const struct evt_summary *s)
{
	return s->events > 1 ? (double)(s->last_ns - s->first_ns) / 1e9 : 0;
}

/* The rows of one key, present in a, b or both. */
static int compare_key(struct diff *d, const char *key, const struct evt_summary *sa,
		       const struct evt_summary *sb, const struct evt_summary_key *a,
		       const struct evt_summary_key *b)
{
	static const double q[] = { [M_P50] = 0.5, [M_P90] = 0.9, [M_P99] = 0.99 };
	const uint64_t *da = a ? a->durations : NULL, *db = b ? b->durations : NULL;
	size_t na = a ? a->count : 0, nb = b ? b->count : 0;
	bool span = a ? a->span : b->span;
	double ta = seconds(sa), tb = seconds(sb);
	int m;

	for (m = 0; m < NMETRICS; m++) {
		struct row r = { key, (enum metric)m, a != NULL, b != NULL, 0, 0, NAN, -1,
				 false };

		if (m >= M_P50 && !span)
			break;
		switch (m) {
		case M_COUNT:
			r.a = (double)na;
			r.b = (double)nb;
			break;
		case M_RATE:
			r.a = ta > 0 ? (double)na / ta : 0;
			r.b = tb > 0 ? (double)nb / tb : 0;
			break;
		case M_MEAN:
			r.a = evt_mean(da, na);
			r.b = evt_mean(db, nb);
			r.p = evt_mean_p(da, na, db, nb);
			break;
		default:
			if (!na || !nb)
				continue;
			r.a = (double)evt_quantile(da, na, q[m]);
			r.b = (double)evt_quantile(db, nb, q[m]);
			r.p = evt_quantile_p(da, na, db, nb, q[m]);
			break;
		}
		if (r.a > 0)
			r.change = (r.b - r.a) / r.a;
		r.significant = r.p >= 0 && r.p < d->alpha && !isnan(r.change) &&
				fabs(r.change) >= d->min_change;
		if (add_row(d, &r))
			return -1;
	}
	return 0;
}

/* Every key of a and b, in order. */
static int compare(struct diff *d, const struct evt_summary *a,
		   const struct evt_summary *b)
{
	size_t i = 0, j = 0;

	while (i < a->nkeys || j < b->nkeys) {
		int c = i == a->nkeys ? 1 : j == b->nkeys ? -1 :
			strcmp(a->keys[i].key, b->keys[j].key);
		const struct evt_summary_key *ka = c <= 0 ? &a->keys[i] : NULL;
		const struct evt_summary_key *kb = c >= 0 ? &b->keys[j] : NULL;

		if (compare_key(d, ka ? ka->key : kb->key, a, b, ka, kb))
			return -1;
		i += c <= 0;
		j += c >= 0;
	}
	return 0;
}

/* "KEY METRIC (>|<) [+-]N%": the key a pattern (fnmatch). */
static int parse_gate(const char *text, struct gate *g)
{
	char metric[16], op[4], limit[32], *end;
	int m, n = 0;
	size_t len;

	memset(g, 0, sizeof(*g));
	g->text = text;
	if (sscanf(text, "%255s %15s %3s %31s %n", g->key, metric, op, limit, &n) != 4 ||
	    text[n] || (strcmp(op, ">") && strcmp(op, "<")))
		return -1;
	for (m = 0; m < NMETRICS && strcmp(metric, metric_names[m]); m++)
		;
	len = strlen(limit);
	if (m == NMETRICS || len < 2 || limit[len - 1] != '%')
		return -1;
	limit[len - 1] = '\0';
	g->limit = strtod(limit, &end) / 100;
	if (*end || end == limit || !isfinite(g->limit))
		return -1;
	g->metric = (enum metric)m;
	g->above = op[0] == '>';
	return 0;
}

/* Whether row r crosses gate g: beyond its limit and, where tested,
 * significant at alpha (the size of the change is the gate's). */
static bool trips(const struct diff *d, const struct gate *g, const struct row *r)
{
	double change = isnan(r->change) ? (r->b > 0 ? INFINITY : 0) : r->change;
	bool beyond = g->above ? change > g->limit : change < g->limit;

	return beyond && (r->p < 0 || r->p < d->alpha);
}

static void duration(FILE *f, double ns, int width)
{
	if (ns >= 1e9)
		fprintf(f, "%*.3f s ", width - 3, ns / 1e9);
	else if (ns >= 1e6)
		fprintf(f, "%*.3f ms", width - 3, ns / 1e6);
	else if (ns >= 1e3)
		fprintf(f, "%*.3f us", width - 3, ns / 1e3);
	else
		fprintf(f, "%*.0f ns", width - 3, ns);
}

static void value(FILE *f, const struct row *r, bool in, double v)
{
	if (!in)
		fprintf(f, " %14s", "-");
	else if (r->metric >= M_P50)
		fputc(' ', f), duration(f, v, 14);
	else if (r->metric == M_RATE)
		fprintf(f, " %12.1f/s", v);
	else
		fprintf(f, " %14.0f", v);
}

static void print_text(const struct diff *d, const char *da, const struct evt_summary *a,
		       const char *db, const struct evt_summary *b)
{
	size_t i;

	printf("# A: %s: %llu events in %.3f s, %llu lost\n", da,
	       (unsigned long long)a->events, seconds(a), (unsigned long long)a->lost);
	printf("# B: %s: %llu events in %.3f s, %llu lost\n", db,
	       (unsigned long long)b->events, seconds(b), (unsigned long long)b->lost);
	printf("# * significant: p < %g and a change of %g%% or more\n", d->alpha,
	       d->min_change * 100);
	printf("%-40s %-6s %14s %14s %9s %9s\n", "KEY", "METRIC", "A", "B", "CHANGE", "P");
	for (i = 0; i < d->nrows; i++) {
		const struct row *r = &d->rows[i];

		printf("%-40s %-6s", r->key, metric_names[r->metric]);
		value(stdout, r, r->in_a, r->a);
		value(stdout, r, r->in_b, r->b);
		if (!r->in_a)
			printf(" %9s", "new");
		else if (!r->in_b)
			printf(" %9s", "gone");
		else if (isnan(r->change))
			printf(" %9s", "-");
		else
			printf(" %+8.1f%%", r->change * 100);
		if (r->p >= 0)
			printf(" %9.2g%s\n", r->p, r->significant ? " *" : "");
		else
			printf(" %9s\n", "-");
	}
}

static void json_number(FILE *f, double v)
{
	if (isnan(v) || isinf(v))
		fputs("null", f);
	else
		fprintf(f, "%.17g", v);
}

static void json_run(const char *name, const char *dir, const struct evt_summary *s)
{
	printf("\"%s\":{\"trace\":", name);
	report_json_string(stdout, dir, strlen(dir));
	printf(",\"events\":%llu,\"seconds\":", (unsigned long long)s->events);
	json_number(stdout, seconds(s));
	printf(",\"lost\":%llu}", (unsigned long long)s->lost);
}

static void print_json(const struct diff *d, const char *da, const struct evt_summary *a,
		       const char *db, const struct evt_summary *b,
		       const struct gate *g, unsigned ngates)
{
	size_t i;

	putchar('{');
	json_run("a", da, a);
	putchar(',');
	json_run("b", db, b);
	printf(",\"alpha\":%g,\"min_change\":%g,\"rows\":[", d->alpha, d->min_change);
	for (i = 0; i < d->nrows; i++) {
		const struct row *r = &d->rows[i];

		printf("%s{\"key\":", i ? "," : "");
		report_json_string(stdout, r->key, strlen(r->key));
		printf(",\"metric\":\"%s\",\"a\":", metric_names[r->metric]);
		if (r->in_a)
			json_number(stdout, r->a);
		else
			fputs("null", stdout);
		fputs(",\"b\":", stdout);
		if (r->in_b)
			json_number(stdout, r->b);
		else
			fputs("null", stdout);
		fputs(",\"change\":", stdout);
		json_number(stdout, r->change);
		fputs(",\"p\":", stdout);
		if (r->p >= 0)
			json_number(stdout, r->p);
		else
			fputs("null", stdout);
		printf(",\"significant\":%s}", r->significant ? "true" : "false");
	}
	fputs("],\"gates\":[", stdout);
	for (i = 0; i < ngates; i++) {
		printf("%s{\"gate\":", i ? "," : "");
		report_json_string(stdout, g[i].text, strlen(g[i].text));
		printf(",\"tripped\":%s}", g[i].tripped ? "true" : "false");
	}
	puts("]}");
}

/* Applies the gates, saying each that trips (stderr); how many did, or
 * -1 when one names no key of either run. */
static int apply_gates(const struct diff *d, struct gate *g, unsigned n)
{
	unsigned k, tripped = 0;
	size_t i;

	for (k = 0; k < n; k++) {
		for (i = 0; i < d->nrows; i++) {
			const struct row *r = &d->rows[i];

			if (r->metric != g[k].metric || fnmatch(g[k].key, r->key, 0))
				continue;
			g[k].matched = true;
			if (!trips(d, &g[k], r))
				continue;
			if (!g[k].tripped)
				tripped++;
			g[k].tripped = true;
			if (r->p >= 0)
				evt_report("diff: '%s' tripped: %s %s %+.1f%% (p %.2g)", g[k].text,
					   r->key, metric_names[r->metric], r->change * 100, r->p);
			else
				evt_report("diff: '%s' tripped: %s %s %s", g[k].text, r->key,
					   metric_names[r->metric], !r->in_b ? "gone" :
					   !r->in_a ? "new" : "changed");
		}
		if (!g[k].matched)
			return cli_error("diff", "--fail-if '%s': no %s of a key '%s' in either "
					 "run", g[k].text, metric_names[g[k].metric],
					 g[k].key), -1;
	}
	return (int)tripped;
}

int cmd_diff(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "fail-if", required_argument, NULL, 'F' },
		{ "alpha", required_argument, NULL, 'a' },
		{ "min-change", required_argument, NULL, 'm' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct diff d = { .alpha = 0.001, .min_change = 0.05 };
	struct evt_summary a = { 0 }, b = { 0 };
	struct gate gates[MAX_GATES];
	unsigned ngates = 0;
	char err[4096], *end;
	bool json = false;
	int opt, ret = 2, tripped;

	while ((opt = getopt_long(argc, argv, "+h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'j':
			json = true;
			break;
		case 'F':
			if (ngates == MAX_GATES)
				return cli_error("diff", "more than %d --fail-if", MAX_GATES), 2;
			if (parse_gate(optarg, &gates[ngates]))
				return cli_error("diff", "--fail-if '%s': not KEY METRIC (> | <) "
						 "CHANGE%%, such as 'span/Get p99 > +10%%' (METRIC: "
						 "count, rate, p50, p90, p99 or mean)", optarg), 2;
			ngates++;
			break;
		case 'a':
			d.alpha = strtod(optarg, &end);
			if (*end || end == optarg || !(d.alpha > 0 && d.alpha < 1))
				return cli_error("diff", "--alpha %s: a probability between 0 "
						 "and 1", optarg), 2;
			break;
		case 'm': {
			size_t len = strlen(optarg);

			d.min_change = strtod(optarg, &end) / 100;
			if (end == optarg || (*end && strcmp(end, "%")) || len > 32 ||
			    !(d.min_change >= 0 && d.min_change < 1e6))
				return cli_error("diff", "--min-change %s: a percentage (5%%)",
						 optarg), 2;
			break;
		}
		case 'h':
			return cli_help("diff");
		default:
			return cli_usage("diff");
		}
	}
	if (argc - optind != 2) {
		cli_error("diff", "two trace directories to compare, A then B");
		return cli_usage("diff");
	}
	if (evt_summary_read(argv[optind], &a, err, sizeof(err)) ||
	    evt_summary_read(argv[optind + 1], &b, err, sizeof(err))) {
		cli_error("diff", "%s", err);
		ret = 1;
		goto out;
	}
	if (compare(&d, &a, &b)) {
		cli_error("diff", "out of memory");
		ret = 1;
		goto out;
	}
	tripped = apply_gates(&d, gates, ngates);
	if (tripped < 0)
		goto out;
	if (json)
		print_json(&d, argv[optind], &a, argv[optind + 1], &b, gates, ngates);
	else
		print_text(&d, argv[optind], &a, argv[optind + 1], &b);
	if (a.errors || b.errors)
		evt_report("diff: part of %s could not be read (report says where)",
			   a.errors ? argv[optind] : argv[optind + 1]);
	ret = tripped || a.errors || b.errors ? 1 : 0;
out:
	evt_summary_free(&a);
	evt_summary_free(&b);
	free(d.rows);
	return ret;
}
