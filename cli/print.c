/*
 * print.c - the ftrace-style event lines shared by report and stream:
 *   <comm>-<tid> [<cpu>] <seconds>.<ns>: <path>: <message>
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

static void print_prefix(const char *comm, uint32_t tid, const char *cpu,
			 int64_t ns)
{
	if (ns < 0)
		ns = 0;
	printf("%16s-%-7u [%s] %" PRId64 ".%09" PRId64 ": ", comm, tid, cpu,
	       ns / 1000000000, ns % 1000000000);
}

void cli_print_event(const char *comm, uint32_t tid, uint16_t cpu,
		     int64_t monotonic_ns, const char *path, const char *text,
		     size_t n)
{
	char cpu_text[8];

	if (n && text[n - 1] == '\n')
		n--;
	snprintf(cpu_text, sizeof(cpu_text), "%03u", cpu);
	print_prefix(comm, tid, cpu_text, monotonic_ns);
	printf("%s: ", path);
	fwrite(text, 1, n, stdout);	/* as printf made it, NULs included */
	putchar('\n');
}

void cli_print_line(const char *comm, uint32_t tid, uint16_t cpu,
		    int64_t monotonic_ns, const char *text, size_t n)
{
	char cpu_text[8];

	snprintf(cpu_text, sizeof(cpu_text), "%03u", cpu);
	print_prefix(comm, tid, cpu_text, monotonic_ns);
	fwrite(text, 1, n, stdout);
	putchar('\n');
}

void cli_print_lost(const char *comm, uint32_t tid, int64_t monotonic_ns,
		    uint64_t lost)
{
	print_prefix(comm, tid, "---", monotonic_ns);
	printf("lost %" PRIu64 " events\n", lost);
}
