/*
 * print.c - the ftrace-style event lines shared by report, stream and the
 * filesystem's trace_pipe:
 *   <comm>-<tid> [<cpu>] <seconds>.<ns>: <path>: <message>
 * an event's format as `format` prints it; where a printk site is, from
 * its path (query's site table, Perfetto's source locations).  What the
 * traced program chose (its messages, paths, thread names) reaches the
 * reader's terminal escaped (safe_text.h).
 */
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ctl.h"
#include "lost_record.h"
#include "quote.h"
#include "safe_text.h"
#include "trace_reader.h"

/* v in decimal, at least width digits (zeros before), ending at end:
 * where it starts. */
static char *digits(char *end, uint64_t v, int width)
{
	do {
		*--end = (char)('0' + v % 10);
		v /= 10;
		width--;
	} while (v || width > 0);
	return end;
}

static char *append(char *at, const char *s, size_t n)
{
	memcpy(at, s, n);
	return at + n;
}

/*
 * A line's prefix, "%16s-%-7u [%s] %s: " of comm, tid, cpu and time, into
 * out (CLI_PREFIX_MAX bytes): its length.  Built by hand: lines of trace
 * and stream come by the hundred thousand a second, and printf's parsing
 * of its format was most of their cost.  A thread names itself (prctl):
 * its control characters become '?', so that no escape sequence of its
 * reaches a reader's terminal.
 */
#define CLI_PREFIX_MAX 256
static size_t prefix_of(char *out, const char *comm, uint32_t tid,
			const char *cpu, const char *time)
{
	char safe[64], num[24], *at = out, *d;
	size_t n;

	evt_printable(safe, sizeof(safe), comm);
	n = strlen(safe);
	if (n < 16) {
		memset(at, ' ', 16 - n);
		at += 16 - n;
	}
	at = append(at, safe, n);
	*at++ = '-';
	d = digits(num + sizeof(num), tid, 1);
	n = (size_t)(num + sizeof(num) - d);
	at = append(at, d, n);
	for (; n < 7; n++)
		*at++ = ' ';
	at = append(at, " [", 2);
	at = append(at, cpu, strnlen(cpu, 16));
	at = append(at, "] ", 2);
	at = append(at, time, strnlen(time, 64));
	at = append(at, ": ", 2);
	return (size_t)(at - out);
}

/* A CPU's number as %03u, into out[8]. */
static const char *cpu_text(char out[8], uint16_t cpu)
{
	char *d = digits(out + 7, cpu, 3);

	out[7] = '\0';
	return d;
}

/* A time as seconds.nanoseconds (a negative one as 0), into out[32]. */
static const char *time_text(char out[32], int64_t ns)
{
	char *d;

	if (ns < 0)
		ns = 0;
	out[31] = '\0';
	d = digits(out + 31, (uint64_t)ns % 1000000000, 9);
	*--d = '.';
	return digits(d, (uint64_t)ns / 1000000000, 1);
}

static size_t prefix(char *out, const char *comm, uint32_t tid, uint16_t cpu,
		     int64_t ns)
{
	char c[8], t[32];

	return prefix_of(out, comm, tid, cpu_text(c, cpu), time_text(t, ns));
}

void cli_fprint_event_at(FILE *f, const char *comm, uint32_t tid,
			 uint16_t cpu, const char *time, const char *path,
			 const char *text, size_t n)
{
	char line[CLI_PREFIX_MAX], c[8];

	if (n && text[n - 1] == '\n')
		n--;
	fwrite(line, 1, prefix_of(line, comm, tid, cpu_text(c, cpu), time), f);
	evt_safe_fwrite(f, path, strlen(path));
	fwrite(": ", 1, 2, f);
	/* as printf made it, but what a terminal would act on (safe_text.h) */
	evt_safe_fwrite(f, text, n);
	putc('\n', f);
}

void cli_fprint_event(FILE *f, const char *comm, uint32_t tid, uint16_t cpu,
		      int64_t monotonic_ns, const char *path, const char *text,
		      size_t n)
{
	char t[32];

	cli_fprint_event_at(f, comm, tid, cpu, time_text(t, monotonic_ns), path,
			    text, n);
}

void cli_print_event(const char *comm, uint32_t tid, uint16_t cpu,
		     int64_t monotonic_ns, const char *path, const char *text,
		     size_t n)
{
	cli_fprint_event(stdout, comm, tid, cpu, monotonic_ns, path, text, n);
}

void cli_fprint_line(FILE *f, const char *comm, uint32_t tid, uint16_t cpu,
		     int64_t monotonic_ns, const char *text, size_t n)
{
	char line[CLI_PREFIX_MAX + 512];
	size_t len = prefix(line, comm, tid, cpu, monotonic_ns);

	if (n < sizeof(line) - len && evt_safe_as_is(text, n)) {
		memcpy(line + len, text, n);	/* one write for the line */
		line[len + n] = '\n';
		fwrite(line, 1, len + n + 1, f);
		return;
	}
	fwrite(line, 1, len, f);
	evt_safe_fwrite(f, text, n);
	putc('\n', f);
}

unsigned cli_loss_parts(const struct evt_trace_item *it,
			struct evt_loss_part *parts)
{
	unsigned i;

	for (i = 0; i < it->nsites && i < EVT_LOSS_SITES_MAX; i++)
		parts[i] = (struct evt_loss_part){
			.path = it->sites[i].event ? it->sites[i].event->path : NULL,
			.cause = it->sites[i].cause,
			.count = it->sites[i].count,
		};
	return i;
}

void cli_fprint_lost_at(FILE *f, const char *time,
			const struct evt_trace_item *it)
{
	struct evt_loss_part parts[EVT_LOSS_SITES_MAX];
	unsigned n = cli_loss_parts(it, parts);
	char text[EVT_LOSS_SITES_MAX * (PATH_MAX / 4)], line[CLI_PREFIX_MAX];

	fwrite(line, 1, prefix_of(line, it->comm, it->tid, "---", time), f);
	evt_loss_text(text, sizeof(text), it->lost, parts, n);
	evt_safe_fwrite(f, text, strlen(text));	/* (sites' paths) */
	putc('\n', f);
}

void cli_fprint_lost(FILE *f, const char *comm, uint32_t tid,
		     int64_t monotonic_ns, uint64_t lost)
{
	char line[CLI_PREFIX_MAX], t[32];

	fwrite(line, 1, prefix_of(line, comm, tid, "---", time_text(t, monotonic_ns)), f);
	fprintf(f, "lost %" PRIu64 " event%s\n", lost, cli_plural(lost));
}

void cli_print_lost(const char *comm, uint32_t tid, int64_t monotonic_ns,
		    uint64_t lost)
{
	cli_fprint_lost(stdout, comm, tid, monotonic_ns, lost);
}

void cli_fprint_format(FILE *f, const struct evt_ctl_event *e,
		       const char *indent)
{
	cli_fprint_format_of(f, e->layout.kind, e->format, indent);
}

void cli_fprint_format_of(FILE *f, unsigned kind, const char *format,
			  const char *indent)
{
	const char *line, *nl;

	if (!evt_event_kind_is_typed(kind)) {
		fputs(indent, f);
		evt_quote(f, format);
		putc('\n', f);
		return;
	}
	for (line = format; *line; line = nl + 1) {
		nl = strchr(line, '\n');
		if (!nl)
			nl = line + strlen(line);
		fprintf(f, "%s%.*s\n", indent, (int)(nl - line), line);
		if (!*nl)
			break;
	}
}

bool cli_site_location(const char *path, struct cli_site_location *loc)
{
	const char *file, *line = strrchr(path, '/');

	if (strncmp(path, "printk/", 7))
		return false;
	file = strchr(path + 7, '/');
	if (!file || line <= file)
		return false;
	loc->module = path + 7;
	loc->module_len = (size_t)(file - loc->module);
	loc->file = file + 1;
	loc->file_len = (size_t)(line - file - 1);
	loc->line = strtoul(line + 1, NULL, 10);
	return true;
}
