/*
 * trigger_expr.c - a trigger's expression, parsed (trigger_expr.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pattern.h"
#include "trigger_expr.h"

int evt_trigger_duration(const char *s, int64_t *ns)
{
	char *end;
	double v = strtod(s, &end);
	double unit = !strcmp(end, "ns") ? 1 : !strcmp(end, "us") ? 1e3 :
		      !strcmp(end, "ms") ? 1e6 : !strcmp(end, "s") ? 1e9 : 0;

	if (end == s || !unit || !(v >= 0) || v * unit > 9e18)
		return -1;
	*ns = (int64_t)(v * unit);
	return 0;
}

void evt_trigger_free(struct evt_trigger *t)
{
	if (!t)
		return;
	free(t->text);
	free(t->pattern);
	field_test_free(&t->test);
	free(t);
}

/* The length of the word at p: to a space, but a quoted name ("L0
 * slowdown") holds its spaces. */
static size_t word_length(const char *p)
{
	size_t len = 0;

	while (p[len] && p[len] != ' ') {
		if (p[len] == '"' && strchr(p + len + 1, '"'))
			len = (size_t)(strchr(p + len + 1, '"') - p);
		len++;
	}
	return len;
}

/* The words of expr, at most max, with where each starts; a word too
 * long for w, where *too_long is set, ends them. */
static unsigned words(const char *expr, char (*w)[256], unsigned *at, unsigned max,
		      int *too_long)
{
	unsigned n = 0;
	const char *p = expr;

	*too_long = -1;
	while (*p && n < max) {
		size_t len;

		while (*p == ' ')
			p++;
		if (!*p)
			break;
		len = word_length(p);
		at[n] = (unsigned)(p - expr);
		if (len >= sizeof(w[n])) {
			*too_long = (int)at[n];
			break;
		}
		snprintf(w[n], sizeof(w[n]), "%.*s", (int)len, p);
		n++;
		p += len;
	}
	return n;
}

static struct evt_trigger *fail(struct evt_trigger *t, char *err, size_t err_size,
			    const char *expr, unsigned at, const char *why)
{
	snprintf(err, err_size, "--trigger '%s': at position %u: %s", expr, at + 1, why);
	evt_trigger_free(t);
	return NULL;
}

static struct evt_trigger *parse_span(struct evt_trigger *t, const char *expr,
				  char (*w)[256], unsigned *at, unsigned n,
				  char *err, size_t err_size)
{
	unsigned end = (unsigned)strlen(expr);
	char pattern[300], why[200];

	if (n < 2)
		return fail(t, err, err_size, expr, end, "a span's name is missing");
	if (n < 3 || strcmp(w[2], ">"))
		return fail(t, err, err_size, expr, n < 3 ? end : at[2],
			    "expected '>' after the span's name");
	if (n < 4 || evt_trigger_duration(w[3], &t->threshold_ns))
		return fail(t, err, err_size, expr, n < 4 ? end : at[3],
			    "expected a duration: a number and ns, us, ms or s");
	if (n > 4)
		return fail(t, err, err_size, expr, at[4], "unexpected after the duration");
	snprintf(pattern, sizeof(pattern), "span/%s", w[1]);
	if (strchr(w[1], '/') || evt_pattern_check(pattern, why, sizeof(why)))
		return fail(t, err, err_size, expr, at[1], "not a span's name");
	t->kind = EVT_TRIGGER_SPAN;
	if (!(t->pattern = strdup(pattern)))
		return fail(t, err, err_size, expr, 0, "out of memory");
	return t;
}

static struct evt_trigger *parse_field(struct evt_trigger *t, const char *expr,
				   unsigned at, char *err, size_t err_size)
{
	char why[200];
	unsigned where;

	if (field_test_parse(&t->test, expr + at, &where, why, sizeof(why)))
		return fail(t, err, err_size, expr, at + where, why);
	t->kind = EVT_TRIGGER_FIELD;
	return t;
}

struct evt_trigger *evt_trigger_parse(const char *expr, char *err, size_t err_size)
{
	struct evt_trigger *t = calloc(1, sizeof(*t));
	char w[6][256], why[200];
	unsigned at[6], n;
	int too_long;

	if (!t || !(t->text = strdup(expr))) {
		snprintf(err, err_size, "out of memory");
		evt_trigger_free(t);
		return NULL;
	}
	n = words(expr, w, at, 6, &too_long);
	if (too_long >= 0)
		return fail(t, err, err_size, expr, (unsigned)too_long,
			    "a word of more than 255 characters");
	if (n == 0)
		return fail(t, err, err_size, expr, 0, "an empty trigger");
	if (!strcmp(w[0], "span"))
		return parse_span(t, expr, w, at, n, err, err_size);
	if (!strcmp(w[0], "lost")) {
		if (n > 1)
			return fail(t, err, err_size, expr, at[1], "unexpected after "
				    "'lost' (it fires on any event lost)");
		t->kind = EVT_TRIGGER_LOST;
		return t;
	}
	if (evt_pattern_check(w[0], why, sizeof(why)))
		return fail(t, err, err_size, expr, 0, why);
	t->kernel = evt_is_kernel_path(w[0]);
	if (!(t->pattern = strdup(w[0])))
		return fail(t, err, err_size, expr, 0, "out of memory");
	if (n == 1) {
		t->kind = EVT_TRIGGER_EVENT;
		return t;
	}
	if (strcmp(w[1], "if"))
		return fail(t, err, err_size, expr, at[1], "expected 'if FIELD OP VALUE' after the pattern");
	return parse_field(t, expr, n > 2 ? at[2] : (unsigned)strlen(expr), err,
			   err_size);
}

const char *evt_trigger_kernel_pattern(const struct evt_trigger *t)
{
	return t->kernel ? t->pattern : NULL;
}

const char *evt_trigger_field(const struct evt_trigger *t)
{
	return t->kind == EVT_TRIGGER_FIELD ? t->test.field : NULL;
}
