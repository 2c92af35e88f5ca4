/*
 * args.c - what the commands share to read their arguments: a pid, a
 * list of them, a collection number, a size, a pattern, a file of
 * patterns, and the one way to say what is wrong with them
 * ("evtrace: <command>: <what>: <why>").
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "layout.h"
#include "pattern.h"
#include "syscall_capture.h"

int cli_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "evtrace: %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return 1;
}

int cli_parse_pid(const char *cmd, const char *arg)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno || end == arg || *end || v <= 0 || v > 0x3fffffff) {
		cli_error(cmd, "'%s': not a process id", arg);
		return -1;
	}
	return (int)v;
}

int cli_parse_slot(const char *cmd, const char *opt, const char *arg)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno || *end || end == arg || v < 1 || v >= EVT_MAX_NUMBERS)
		return cli_error(cmd, "%s '%s': not a collection number (1 to %d, "
				 "as ls shows them)", opt, arg, EVT_MAX_NUMBERS - 1), -1;
	return (int)v;
}

int cli_parse_kernel_buffer(const char *cmd, const char *arg, uint32_t *kib)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(arg, &end, 10);
	if (errno || end == arg || *end || v < 8 || v > (1u << 20) || (v & (v - 1)))
		return cli_error(cmd, "--kernel-buffer %s: not a power of two from 8 "
				 "to 1048576 (KiB)", arg), -1;
	*kib = (uint32_t)v;
	return 0;
}

int cli_parse_strsize(const char *cmd, const char *option, const char *arg,
		      uint32_t *bytes)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(arg, &end, 10);
	if (errno || end == arg || *end || *arg == '-' || v > EVT_CAP_BYTES_MAX)
		return cli_error(cmd, "%s %s: not a size from 0 to %u bytes", option,
				 arg, EVT_CAP_BYTES_MAX), -1;
	*bytes = (uint32_t)v;
	return 0;
}

bool cli_pattern_ok(const char *cmd, const char *pattern)
{
	char err[200];

	if (evt_pattern_check(pattern, err, sizeof(err)) == 0)
		return true;
	cli_error(cmd, "pattern '%s': %s", pattern, err);
	return false;
}

int cli_read_patterns(const char *cmd, const char *file, const char **patterns,
		      unsigned *n, unsigned cap)
{
	char line[4096], err[200];
	unsigned lineno = 0;
	FILE *f = fopen(file, "r");

	if (!f)
		return cli_error(cmd, "--events-from %s: %s", file, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		size_t len = strcspn(line, "\r\n");

		lineno++;
		if (line[len] == '\0' && !feof(f)) {
			fclose(f);
			return cli_error(cmd, "%s:%u: a line longer than %zu bytes",
					 file, lineno, sizeof(line) - 2);
		}
		line[len] = '\0';
		if (!line[0] || line[0] == '#')
			continue;
		if (evt_pattern_check(line, err, sizeof(err))) {
			fclose(f);
			return cli_error(cmd, "%s:%u: pattern '%s': %s", file,
					 lineno, line, err);
		}
		if (*n >= cap || !(patterns[*n] = strdup(line))) {
			fclose(f);
			return cli_error(cmd, "%s:%u: more than %u patterns in all", file,
					 lineno, cap);
		}
		(*n)++;
	}
	fclose(f);
	return 0;
}

int cli_parse_pids(const char *cmd, const char *arg, int **pids, unsigned *npids)
{
	char *copy = strdup(arg), *tok, *save = NULL;
	int *grown, pid;

	if (!copy)
		return cli_error(cmd, "out of memory"), -1;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		pid = cli_parse_pid(cmd, tok);
		if (pid < 0 || !(grown = realloc(*pids, (*npids + 1) * sizeof(int)))) {
			free(copy);
			return -1;
		}
		*pids = grown;
		(*pids)[(*npids)++] = pid;
	}
	free(copy);
	if (!*npids)
		return cli_error(cmd, "-p '%s': no process id", arg), -1;
	return 0;
}
