/*
 * report_filter.c - which items of a trace report and the converters
 * keep.  Relative times count from the first item of the trace, whether
 * it is kept or not; a lost-events notice is kept by -e, since a loss may
 * have hidden any event.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "pattern.h"
#include "record_fields.h"
#include "report_filter.h"

static int parse_time(const char *cmd, const char *opt, const char *arg,
		      struct report_time *t)
{
	char err[300];

	if (report_time_parse(arg, t, err, sizeof(err))) {
		cli_error(cmd, "--%s %s", opt, err);
		return -1;
	}
	return 0;
}

int report_field_filter_parse(struct report_field_filter *ff, const char *cmd,
			      const char *arg)
{
	size_t plen = strcspn(arg, " ");
	const char *rest = arg + plen;
	char why[200];
	unsigned at;

	memset(ff, 0, sizeof(*ff));
	while (*rest == ' ')
		rest++;
	if (!plen || strncmp(rest, "if ", 3))
		return cli_error(cmd, "--filter '%s': expected 'PATTERN if FIELD "
				 "OP VALUE'", arg), -1;
	ff->text = arg;
	ff->pattern = strndup(arg, plen);
	if (!ff->pattern || !cli_pattern_ok(cmd, ff->pattern)) {
		free(ff->pattern);
		return -1;
	}
	if (field_test_parse(&ff->test, rest + 3, &at, why, sizeof(why))) {
		cli_error(cmd, "--filter '%s': at position %u: %s", arg,
			  (unsigned)(rest + 3 - arg) + at + 1, why);
		free(ff->pattern);
		return -1;
	}
	return 0;
}

bool report_field_filter_holds(struct report_field_filter *ff,
			       const struct evt_field *fields, int n)
{
	const struct evt_field *fl = field_test_find(&ff->test, fields, n);

	ff->named = true;
	if (!fl) {
		ff->lacking = true;
		return false;
	}
	if (!field_test_holds(&ff->test, fl))
		return false;
	ff->matched = true;
	return true;
}

void report_field_filter_note(const struct report_field_filter *ff,
			      const char *cmd, bool others)
{
	if (ff->matched)
		return;
	if (!ff->named)
		fprintf(stderr, "evtrace: %s: --filter '%s': %s named no event%s\n",
			cmd, ff->text, ff->pattern,
			others ? " of those the other filters kept" : "");
	else if (ff->lacking)
		fprintf(stderr, "evtrace: %s: --filter '%s': the events %s names "
			"have no field %s (evtrace format shows an event's "
			"fields)\n", cmd, ff->text, ff->pattern, ff->test.field);
	else
		fprintf(stderr, "evtrace: %s: --filter '%s': no event passed it\n",
			cmd, ff->text);
}

void report_field_filter_free(struct report_field_filter *ff)
{
	free(ff->pattern);
	field_test_free(&ff->test);
}

/* -F 'PATTERN if FIELD OP VALUE' */
static int add_field_filter(struct report_filter *f, const char *cmd,
			    const char *arg)
{
	struct report_field_filter *grown;

	grown = realloc(f->filters, (f->nfilters + 1) * sizeof(*grown));
	if (!grown) {
		cli_error(cmd, "out of memory");
		return -1;
	}
	f->filters = grown;
	if (report_field_filter_parse(&f->filters[f->nfilters], cmd, arg))
		return -1;
	f->nfilters++;
	return 1;
}

/* Whether the event of it passes filter ff (which names it). */
static bool passes(struct report_field_filter *ff, const struct evt_trace_item *it)
{
	struct evt_field fields[EVT_FIELDS_MAX];
	evt_arg_name names[EVT_PRINTK_MAX_ARGS];
	int n = evt_record_fields(&it->event->layout, it->payload,
				  it->payload_size, fields, names);

	return report_field_filter_holds(ff, fields, n);
}

int report_filter_option(struct report_filter *f, const char *cmd, int opt,
			 const char *arg)
{
	const char **grown;
	bool *more;

	switch (opt) {
	case 'e':
		if (!cli_pattern_ok(cmd, arg))
			return -1;
		grown = realloc(f->patterns, (f->npatterns + 1) * sizeof(*grown));
		if (grown)
			f->patterns = grown;
		more = realloc(f->matched, (f->npatterns + 1) * sizeof(*more));
		if (more)
			f->matched = more;
		if (!grown || !more) {
			cli_error(cmd, "out of memory");
			return -1;
		}
		f->matched[f->npatterns] = false;
		f->patterns[f->npatterns++] = arg;
		return 1;
	case 'F':
		return add_field_filter(f, cmd, arg);
	case 'p':
		return cli_parse_pids(cmd, arg, &f->pids, &f->npids) ? -1 : 1;
	case 't':
		return cli_parse_pids(cmd, arg, &f->tids, &f->ntids) ? -1 : 1;
	case 'S':
		return parse_time(cmd, "since", arg, &f->since) ? -1 : 1;
	case 'U':
		return parse_time(cmd, "until", arg, &f->until) ? -1 : 1;
	}
	return 0;
}

static bool listed(const int *ids, unsigned n, uint32_t id)
{
	unsigned i;

	for (i = 0; i < n; i++)
		if ((uint32_t)ids[i] == id)
			return true;
	return false;
}

/* The instant t names for a trace whose first item is it, and on which
 * clock (*real: CLOCK_REALTIME). */
static int64_t resolve(const struct report_filter *f, const struct report_time *t,
		       const struct evt_trace_item *it, bool *real)
{
	*real = false;
	switch (t->kind) {
	case TIME_UNSET:
		return 0;
	case TIME_RELATIVE:
		return it->monotonic_ns + t->ns;
	case TIME_ON_CLOCK:
		*real = f->clock == REPORT_REALTIME;
		return f->clock == REPORT_RELATIVE ? it->monotonic_ns + t->ns : t->ns;
	default:
		*real = true;
		return report_time_resolve(t, it->realtime_ns);
	}
}

static void start(struct report_filter *f, const struct evt_trace_item *it)
{
	f->started = true;
	f->start_monotonic_ns = it->monotonic_ns;
	f->realtime_offset_ns = it->realtime_ns - it->monotonic_ns;
	f->since_ns = resolve(f, &f->since, it, &f->since_real);
	f->until_ns = resolve(f, &f->until, it, &f->until_real);
}

/* Whether it lies in --since/--until. */
static bool in_range(const struct report_filter *f, const struct evt_trace_item *it)
{
	if (f->since.kind && (f->since_real ? it->realtime_ns : it->monotonic_ns) < f->since_ns)
		return false;
	return !f->until.kind ||
	       (f->until_real ? it->realtime_ns : it->monotonic_ns) <= f->until_ns;
}

/* The first and last items of every trace read, and how many were in
 * range. */
static void seen(struct report_filter *f, const struct evt_trace_item *it, bool in)
{
	if (!f->items || it->monotonic_ns < f->first_monotonic_ns) {
		f->first_monotonic_ns = it->monotonic_ns;
		f->first_realtime_ns = it->realtime_ns;
	}
	if (!f->items || it->monotonic_ns > f->last_monotonic_ns) {
		f->last_monotonic_ns = it->monotonic_ns;
		f->last_realtime_ns = it->realtime_ns;
	}
	f->items++;
	f->in_range += in;
}

static bool wanted(struct report_filter *f, const struct evt_trace_item *it)
{
	bool hit = false, in;
	unsigned i;

	if (!f->started)
		start(f, it);
	in = in_range(f, it);
	seen(f, it, in);
	if (!in)
		return false;
	if (f->npids && !listed(f->pids, f->npids, it->pid))
		return false;
	if (f->ntids && !listed(f->tids, f->ntids, it->tid))
		return false;
	if (it->kind == EVT_ITEM_LOST || (!f->npatterns && !f->nfilters))
		return true;
	/* Every pattern is tried until it has named an event, so that one
	 * that never does can be said. */
	for (i = 0; i < f->npatterns; i++) {
		if (hit && f->matched[i])
			continue;
		if (evt_pattern_match_site(f->patterns[i], it->event->path,
					   it->event->func, it->event->format))
			hit = f->matched[i] = true;
	}
	for (i = 0; i < f->nfilters && !hit; i++) {
		struct report_field_filter *ff = &f->filters[i];

		if (evt_pattern_match_site(ff->pattern, it->event->path,
					   it->event->func, it->event->format) &&
		    passes(ff, it))
			hit = true;
	}
	return hit;
}

bool report_filter_wanted(struct report_filter *f, const struct evt_trace_item *it)
{
	if (!wanted(f, it))
		return false;
	if (it->kind == EVT_ITEM_LOST)
		f->kept_lost += it->lost;
	else
		f->kept_events++;
	return true;
}

bool report_filter_note_unmatched(const struct report_filter *f, const char *cmd)
{
	bool any = false;
	unsigned i;

	for (i = 0; i < f->npatterns; i++)
		if (!f->matched[i]) {
			fprintf(stderr, "evtrace: %s: -e %s matched no event%s "
				"(report --stats lists the trace's)\n", cmd,
				f->patterns[i], f->npids || f->ntids || f->since.kind ||
				f->until.kind ? " of those the other filters kept" : "");
			any = true;
		}
	for (i = 0; i < f->nfilters; i++) {
		report_field_filter_note(&f->filters[i], cmd, f->npids || f->ntids ||
					 f->since.kind || f->until.kind);
		any |= !f->filters[i].matched;
	}
	return any;
}

/* A bound's words for a note: "--since TEXT". */
static void bound_text(char *buf, size_t size, const char *opt,
		       const struct report_time *t)
{
	if (t->kind)
		snprintf(buf, size, "--%s %s", opt, t->text);
	else
		buf[0] = '\0';
}

/* Whether t is a bare number on CLOCK_MONOTONIC before the trace, which
 * was most likely meant as seconds after its start. */
static bool meant_after_start(const struct report_filter *f, const struct report_time *t)
{
	return t->kind == TIME_ON_CLOCK && f->clock == REPORT_MONOTONIC &&
	       t->ns < f->first_monotonic_ns;
}

void report_filter_note_range(const struct report_filter *f, const char *cmd)
{
	char from[64], to[64], since[300], until[300];
	const struct report_time *odd = meant_after_start(f, &f->since) ? &f->since :
					meant_after_start(f, &f->until) ? &f->until : NULL;

	if (!f->items || !(f->since.kind || f->until.kind) || (f->in_range && !odd))
		return;
	report_time_text(from, sizeof(from), f->clock, f->first_monotonic_ns,
			 f->first_realtime_ns, f->first_monotonic_ns);
	report_time_text(to, sizeof(to), f->clock, f->last_monotonic_ns,
			 f->last_realtime_ns, f->first_monotonic_ns);
	bound_text(since, sizeof(since), "since", &f->since);
	bound_text(until, sizeof(until), "until", &f->until);
	if (!f->in_range)
		fprintf(stderr, "evtrace: %s: %s%s%s selects nothing: the trace "
			"runs from %s to %s (%s)\n", cmd, since,
			*since && *until ? " " : "", until, from, to,
			report_clock_name(f->clock));
	else
		fprintf(stderr, "evtrace: %s: --%s %s is before the trace's first "
			"event (%s, CLOCK_MONOTONIC seconds as report prints them): "
			"it cuts nothing\n", cmd, odd == &f->since ? "since" : "until",
			odd->text, from);
	if (odd)
		fprintf(stderr, "evtrace: %s: %s seconds after the trace's first "
			"event are written +%s (or %ss)\n", cmd, odd->text, odd->text,
			odd->text);
}

bool report_filter_any(const struct report_filter *f)
{
	return f->npatterns || f->nfilters || f->npids || f->ntids ||
	       f->since.kind || f->until.kind;
}

void report_filter_restart(struct report_filter *f)
{
	f->started = false;
}

void report_filter_free(struct report_filter *f)
{
	unsigned i;

	for (i = 0; i < f->nfilters; i++)
		report_field_filter_free(&f->filters[i]);
	free(f->filters);
	free(f->patterns);
	free(f->matched);
	free(f->pids);
	free(f->tids);
}
