/*
 * cmd_diff.c - evtrace diff A B: two runs side by side, per event (its
 * count and rate) and per span name (its count, rate and its durations'
 * p50, p90, p99 and mean), each with the p-value of "they are the same"
 * (compare.h), as text or JSON; --fail-if gates for CI.
 *
 * A and B are each a trace or a tree of them: one run a side, or several.
 * One run a side, only what one run's samples can tell is tested: the
 * p50 and p90 of durations, by the share of B's spans above A's
 * quantile.  A run's tail and mean, and its counts and rates, move with
 * the machine's other work from run to run, which one run does not
 * measure (untested).  With two runs or more a side, every figure is
 * tested on its values run by run (Welch's t, no side's variance under
 * its runs' own sampling variance).  A difference is marked
 * significant when its p-value is under --alpha (0.001) and it is at
 * least --min-change (5%): many samples make a little "significant".
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
#include "trace_set.h"
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

/* One side: its runs. */
struct side {
	const char *arg;
	struct trace_set set;
	struct evt_summary *runs;
	size_t n;
	const struct evt_summary_key **keys;	/* of the key compared, by run */
	double *values;				/* of the metric, by run */
	double least;	/* the runs' mean sampling variance of the metric */
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

static const double quantile_of[] = { [M_P50] = 0.5, [M_P90] = 0.9, [M_P99] = 0.99 };

/* Metric m of one run's key k (NULL: the run has none): in *v, its
 * sampling variance in *var (0 for counts and rates, which a run does
 * not sample); false when the run has no such figure (durations of a key
 * it lacks). */
static bool run_value(enum metric m, const struct evt_summary *run,
		      const struct evt_summary_key *k, double *v, double *var)
{
	double t = seconds(run);
	size_t n = k ? k->count : 0;

	*var = 0;
	switch (m) {
	case M_COUNT:
		*v = (double)n;
		return true;
	case M_RATE:
		*v = t > 0 ? (double)n / t : 0;
		return true;
	case M_MEAN:
		if (!n)
			return false;
		*v = evt_mean(k->durations, n);
		*var = evt_mean_var(k->durations, n);
		return true;
	default:
		if (!n)
			return false;
		*v = (double)evt_quantile(k->durations, n, quantile_of[m]);
		*var = evt_quantile_var(k->durations, n, quantile_of[m]);
		return true;
	}
}

/* The side's values of metric m, one a run that has it; how many, and
 * their mean in *mean, their mean sampling variance in sd->least. */
static size_t side_values(struct side *sd, enum metric m, double *mean)
{
	size_t i, n = 0;
	double sum = 0, var, vars = 0;

	for (i = 0; i < sd->n; i++)
		if (run_value(m, &sd->runs[i], sd->keys[i], &sd->values[n], &var)) {
			sum += sd->values[n++];
			vars += var;
		}
	*mean = n ? sum / (double)n : 0;
	sd->least = n ? vars / (double)n : 0;
	return n;
}

/* One run a side: the within-run tests of what one run tells. */
static double one_run_p(enum metric m, const struct evt_summary_key *a,
			const struct evt_summary_key *b)
{
	if (!a || !b || (m != M_P50 && m != M_P90))
		return -1;
	return evt_quantile_p(a->durations, a->count, b->durations, b->count,
			      quantile_of[m]);
}

/* The rows of one key, present in runs of a, b or both. */
static int compare_key(struct diff *d, const char *key, bool span, struct side *a,
		       struct side *b)
{
	size_t i;
	int m;

	for (i = 0; i < a->n; i++)
		a->keys[i] = evt_summary_find(&a->runs[i], key);
	for (i = 0; i < b->n; i++)
		b->keys[i] = evt_summary_find(&b->runs[i], key);
	for (m = 0; m < NMETRICS; m++) {
		struct row r = { key, (enum metric)m, false, false, 0, 0, NAN, -1,
				 false };
		size_t na, nb;

		if (m >= M_P50 && !span)
			break;
		na = side_values(a, (enum metric)m, &r.a);
		nb = side_values(b, (enum metric)m, &r.b);
		for (i = 0; i < a->n; i++)
			r.in_a |= a->keys[i] != NULL;
		for (i = 0; i < b->n; i++)
			r.in_b |= b->keys[i] != NULL;
		if (m >= M_P50 && (!r.in_a || !r.in_b))
			continue;
		if (a->n == 1 && b->n == 1)
			r.p = one_run_p((enum metric)m, a->keys[0], b->keys[0]);
		else
			r.p = evt_runs_p(a->values, na, a->least, b->values, nb, b->least);
		if (r.a > 0)
			r.change = (r.b - r.a) / r.a;
		r.significant = r.p >= 0 && r.p < d->alpha && !isnan(r.change) &&
				fabs(r.change) >= d->min_change;
		if (add_row(d, &r))
			return -1;
	}
	return 0;
}

static int cmp_name(const void *x, const void *y)
{
	const struct evt_summary_key *const *a = x, *const *b = y;

	return strcmp((*a)->key, (*b)->key);
}

/* Every key of any run of a and b, in order, once. */
static int compare(struct diff *d, struct side *a, struct side *b)
{
	const struct evt_summary_key **all;
	size_t n = 0, i, r;
	int ret = 0;

	for (r = 0; r < a->n; r++)
		n += a->runs[r].nkeys;
	for (r = 0; r < b->n; r++)
		n += b->runs[r].nkeys;
	if (!(all = malloc((n + 1) * sizeof(*all))))
		return -1;
	n = 0;
	for (r = 0; r < a->n; r++)
		for (i = 0; i < a->runs[r].nkeys; i++)
			all[n++] = &a->runs[r].keys[i];
	for (r = 0; r < b->n; r++)
		for (i = 0; i < b->runs[r].nkeys; i++)
			all[n++] = &b->runs[r].keys[i];
	qsort(all, n, sizeof(*all), cmp_name);
	for (i = 0; i < n && !ret; i++)
		if (!i || strcmp(all[i]->key, all[i - 1]->key))
			ret = compare_key(d, all[i]->key, all[i]->span, a, b);
	free(all);
	return ret;
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

/* The side's runs' events, seconds and losses, summed. */
static void totals(const struct side *sd, unsigned long long *events, double *secs,
		   unsigned long long *lost)
{
	size_t i;

	*events = *lost = 0;
	*secs = 0;
	for (i = 0; i < sd->n; i++) {
		*events += sd->runs[i].events;
		*lost += sd->runs[i].lost;
		*secs += seconds(&sd->runs[i]);
	}
}

static void print_side(const char *name, const struct side *sd)
{
	unsigned long long events, lost;
	double secs;

	totals(sd, &events, &secs, &lost);
	printf("# %s: %s: %zu run%s, %llu events in %.3f s, %llu lost\n", name, sd->arg,
	       sd->n, sd->n == 1 ? "" : "s", events, secs, lost);
}

static void print_text(const struct diff *d, const struct side *a, const struct side *b)
{
	size_t i;

	print_side("A", a);
	print_side("B", b);
	if (a->n > 1 || b->n > 1)
		printf("# (a figure: the mean of the runs'; p: Welch's t on them)\n");
	else
		printf("# (one run a side: only p50 and p90 of durations are tested; "
		       "give several runs a side to test the rest)\n");
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

static void json_side(const char *name, const struct side *sd)
{
	unsigned long long events, lost;
	double secs;
	size_t i;

	totals(sd, &events, &secs, &lost);
	printf("\"%s\":{\"traces\":[", name);
	for (i = 0; i < sd->n; i++) {
		if (i)
			putchar(',');
		report_json_string(stdout, sd->set.dirs[i], strlen(sd->set.dirs[i]));
	}
	printf("],\"events\":%llu,\"seconds\":", events);
	json_number(stdout, secs);
	printf(",\"lost\":%llu}", lost);
}

static void print_json(const struct diff *d, const struct side *a, const struct side *b,
		       const struct gate *g, unsigned ngates)
{
	size_t i;

	putchar('{');
	json_side("a", a);
	putchar(',');
	json_side("b", b);
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
 * -1 when one names no key of either run or a duration not tested (runs:
 * the most runs of a side). */
static int apply_gates(const struct diff *d, struct gate *g, unsigned n,
		       size_t runs)
{
	unsigned k, tripped = 0;
	size_t i;

	for (k = 0; k < n; k++) {
		for (i = 0; i < d->nrows; i++) {
			const struct row *r = &d->rows[i];

			if (r->metric != g[k].metric || fnmatch(g[k].key, r->key, 0))
				continue;
			g[k].matched = true;
			/* A duration untested would trip on the machine's noise. */
			if (r->metric >= M_P50 && r->p < 0 && r->in_a && r->in_b)
				return cli_error("diff", "--fail-if '%s': %s %s is not tested: %s",
						 g[k].text, r->key, metric_names[r->metric],
						 runs == 1 && (r->metric == M_P99 ||
							       r->metric == M_MEAN) ?
						 "with one run a side, a tail or a mean moves with "
						 "the machine's other work from run to run; give "
						 "several runs a side (a directory of traces each), "
						 "or gate p50 or p90" :
						 "too few spans (20 a run) or runs (2 a side)"), -1;
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

/* The runs of the side's argument, a trace or a tree of them, read. */
static int read_side(struct side *sd, char *err, size_t err_size)
{
	size_t i;

	if (trace_set_add(&sd->set, sd->arg, err, err_size))
		return -1;
	sd->runs = calloc(sd->set.n, sizeof(*sd->runs));
	sd->keys = calloc(sd->set.n, sizeof(*sd->keys));
	sd->values = calloc(sd->set.n, sizeof(*sd->values));
	if (!sd->runs || !sd->keys || !sd->values)
		return snprintf(err, err_size, "out of memory"), -1;
	for (i = 0; i < sd->set.n; i++, sd->n++)
		if (evt_summary_read(sd->set.dirs[i], &sd->runs[i], err, err_size))
			return -1;
	return 0;
}

static uint64_t side_errors(const struct side *sd)
{
	uint64_t n = 0;
	size_t i;

	for (i = 0; i < sd->n; i++)
		n += sd->runs[i].errors;
	return n;
}

static void side_free(struct side *sd)
{
	size_t i;

	for (i = 0; i < sd->n; i++)
		evt_summary_free(&sd->runs[i]);
	free(sd->runs);
	free(sd->keys);
	free(sd->values);
	trace_set_free(&sd->set);
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
	struct side a = { 0 }, b = { 0 };
	uint64_t errors;
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
		cli_error("diff", "two traces (or trees of runs) to compare, A then B");
		return cli_usage("diff");
	}
	a.arg = argv[optind];
	b.arg = argv[optind + 1];
	if (read_side(&a, err, sizeof(err)) || read_side(&b, err, sizeof(err))) {
		cli_error("diff", "%s", err);
		ret = 1;
		goto out;
	}
	if (compare(&d, &a, &b)) {
		cli_error("diff", "out of memory");
		ret = 1;
		goto out;
	}
	tripped = apply_gates(&d, gates, ngates, a.n > b.n ? a.n : b.n);
	if (tripped < 0)
		goto out;
	if (json)
		print_json(&d, &a, &b, gates, ngates);
	else
		print_text(&d, &a, &b);
	errors = side_errors(&a) + side_errors(&b);
	if (errors)
		evt_report("diff: part of the traces could not be read (report says where)");
	ret = tripped || errors ? 1 : 0;
out:
	side_free(&a);
	side_free(&b);
	free(d.rows);
	return ret;
}
