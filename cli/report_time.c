/*
 * report_time.c - report's clocks: --since/--until parsed and resolved,
 * and the time an item is printed with.
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "report_output.h"

#define NS INT64_C(1000000000)

/* Digits at *p, at least min and at most max of them; -1 when fewer. */
static long digits(const char **p, int min, int max)
{
	long v = 0;
	int n = 0;

	while (n < max && isdigit((unsigned char)**p)) {
		v = v * 10 + (**p - '0');
		(*p)++;
		n++;
	}
	return n < min ? -1 : v;
}

/* ".<1-9 digits>" as nanoseconds, or nothing (0); -1 when malformed. */
static int64_t fraction(const char **p)
{
	int64_t ns = 0;
	int n = 0;

	if (**p != '.')
		return 0;
	(*p)++;
	while (isdigit((unsigned char)**p)) {
		if (n == 9)
			return -1;
		ns = ns * 10 + (**p - '0');
		(*p)++;
		n++;
	}
	if (!n)
		return -1;
	while (n++ < 9)
		ns *= 10;
	return ns;
}

/* "HH:MM[:SS[.frac]]" at p, to its end. */
static int time_of_day(const char *p, struct report_time *t)
{
	t->hour = (int)digits(&p, 1, 2);
	if (t->hour < 0 || t->hour > 23 || *p++ != ':')
		return -1;
	t->min = (int)digits(&p, 2, 2);
	if (t->min < 0 || t->min > 59)
		return -1;
	t->sec = 0;
	if (*p == ':') {
		p++;
		t->sec = (int)digits(&p, 2, 2);
		if (t->sec < 0 || t->sec > 60)
			return -1;
		t->ns = fraction(&p);
		if (t->ns < 0)
			return -1;
	}
	return *p ? -1 : 0;
}

int report_time_parse(const char *arg, struct report_time *t, char *err,
		      size_t err_size)
{
	const char *p = arg;

	memset(t, 0, sizeof(*t));
	t->text = arg;
	if (strlen(arg) > 10 && arg[4] == '-') {
		t->kind = TIME_DATE;
		t->year = (int)digits(&p, 4, 4);
		if (*p++ != '-' || (t->mon = (int)digits(&p, 2, 2)) < 1 ||
		    t->mon > 12 || *p++ != '-' ||
		    (t->mday = (int)digits(&p, 2, 2)) < 1 || t->mday > 31 ||
		    (*p != 'T' && *p != ' ') || time_of_day(p + 1, t))
			goto bad;
		return 0;
	}
	if (strchr(arg, ':')) {
		t->kind = TIME_OF_DAY;
		if (time_of_day(p, t))
			goto bad;
		return 0;
	}
	{
		static const struct { const char *name; int64_t ns; } units[] = {
			{ "", NS }, { "s", NS }, { "ms", 1000000 }, { "us", 1000 },
			{ "ns", 1 },
		};
		bool sign = *p == '+';
		int64_t frac;
		unsigned u;
		long s;

		p += sign;
		s = digits(&p, *p == '.' ? 0 : 1, 18);	/* (.5 is 0.5) */
		frac = fraction(&p);
		for (u = 0; u < sizeof(units) / sizeof(units[0]); u++)
			if (!strcmp(p, units[u].name))
				break;
		if (s < 0 || frac < 0 || u == sizeof(units) / sizeof(units[0]) ||
		    s > INT64_MAX / units[u].ns - 1)
			goto bad;
		t->kind = sign || *p ? TIME_RELATIVE : TIME_ON_CLOCK;
		t->ns = s * units[u].ns + frac / (NS / units[u].ns);
	}
	return 0;
bad:
	snprintf(err, err_size, "'%s': not a time (a time as report prints it, "
		 "like 8312.004211965; seconds after the trace's first event with "
		 "a sign or a unit, like +1.5, 1.5s or 250ms; a time of day like "
		 "14:03:07.250; or a local date and time like 2026-12-04T14:03:07)",
		 arg);
	return -1;
}

int64_t report_time_resolve(const struct report_time *t,
			    int64_t start_realtime_ns)
{
	time_t start_s = (time_t)(start_realtime_ns / NS);
	struct tm tm;

	switch (t->kind) {
	case TIME_OF_DAY:
		localtime_r(&start_s, &tm);
		break;
	case TIME_DATE:
		memset(&tm, 0, sizeof(tm));
		tm.tm_year = t->year - 1900;
		tm.tm_mon = t->mon - 1;
		tm.tm_mday = t->mday;
		break;
	default:
		return 0;
	}
	tm.tm_hour = t->hour;
	tm.tm_min = t->min;
	tm.tm_sec = t->sec;
	tm.tm_isdst = -1;
	return (int64_t)mktime(&tm) * NS + t->ns;
}

void report_time_text(char *buf, size_t size, enum report_clock c,
		      int64_t monotonic_ns, int64_t realtime_ns,
		      int64_t start_monotonic_ns)
{
	int64_t ns = c == REPORT_RELATIVE ? monotonic_ns - start_monotonic_ns :
		     c == REPORT_REALTIME ? realtime_ns : monotonic_ns;
	time_t s;
	struct tm tm;
	size_t n;

	if (ns < 0)
		ns = 0;
	if (c != REPORT_REALTIME) {
		snprintf(buf, size, "%" PRId64 ".%09" PRId64, ns / NS, ns % NS);
		return;
	}
	s = (time_t)(ns / NS);
	localtime_r(&s, &tm);
	n = strftime(buf, size, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf + n, size - n, ".%09" PRId64, ns % NS);
}

const char *report_clock_name(enum report_clock c)
{
	return c == REPORT_REALTIME ? "realtime" :
	       c == REPORT_RELATIVE ? "relative" : "monotonic";
}

int report_clock_parse(const char *cmd, const char *arg, enum report_clock *c)
{
	if (!strcmp(arg, "monotonic"))
		*c = REPORT_MONOTONIC;
	else if (!strcmp(arg, "realtime"))
		*c = REPORT_REALTIME;
	else if (!strcmp(arg, "relative"))
		*c = REPORT_RELATIVE;
	else
		return cli_error(cmd, "--clock %s: not a clock (monotonic, "
				 "realtime or relative)", arg);
	return 0;
}
