/*
 * ls_probes.c - evtrace ls --probes: the USDT probes a binary carries, or
 * those of the files a running process has mapped, as the events that
 * name them (usdt/PROVIDER/NAME) with their arguments' types.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "usdt_notes.h"

/* The probes of one file; -1 (said) when it cannot be read. */
static int print_file(const char *path, bool quiet_if_none)
{
	struct evt_usdt_probe *p;
	char err[PATH_MAX + 200];
	unsigned n, i, a;

	if (evt_usdt_probes(path, &p, &n, err, sizeof(err)))
		return cli_error("ls", "%s", err), -1;
	if (!n && !quiet_if_none)
		printf("# %s: no USDT probes\n", path);
	for (i = 0; i < n; i++) {
		printf("usdt/%s/%s", p[i].provider, p[i].name);
		for (a = 0; a < p[i].nargs; a++) {
			const char *type = evt_usdt_arg_type(&p[i], a);

			if (type)
				printf(" arg%u:%s", a + 1, type);
			else
				printf(" arg%u:(not fetched: %s)", a + 1, p[i].args[a].spec);
		}
		printf("  (%s+0x%" PRIx64 "%s)\n", path, p[i].offset,
		       p[i].sema_addr ? ", semaphore" : "");
	}
	free(p);
	return 0;
}

/* The files process pid maps code from, each once, in their order. */
static int print_process(int pid)
{
	char maps[64], line[PATH_MAX + 128], **seen = NULL;
	unsigned nseen = 0, i;
	int ret = 0;
	FILE *f;

	snprintf(maps, sizeof(maps), "/proc/%d/maps", pid);
	if (!(f = fopen(maps, "re")))
		return cli_error("ls", "pid %d: %s", pid, strerror(errno));
	printf("# pid %d\n", pid);
	while (fgets(line, sizeof(line), f)) {
		char perms[8], *path = strchr(line, '/');
		char **grown;

		line[strcspn(line, "\n")] = '\0';
		if (sscanf(line, "%*s %7s", perms) != 1 || !strchr(perms, 'x') || !path ||
		    strstr(path, " (deleted)"))
			continue;
		for (i = 0; i < nseen && strcmp(seen[i], path); i++)
			;
		if (i < nseen)
			continue;
		if (!(grown = realloc(seen, (nseen + 1) * sizeof(*grown))) ||
		    !(grown[nseen] = strdup(path))) {
			seen = grown ? grown : seen;
			ret = cli_error("ls", "out of memory");
			break;
		}
		seen = grown;
		nseen++;
		if (print_file(path, true))
			ret = 1;
	}
	fclose(f);
	for (i = 0; i < nseen; i++)
		free(seen[i]);
	free(seen);
	return ret;
}

int cli_ls_probes(const char *path, int pid)
{
	if (pid)
		return print_process(pid);
	if (!path)
		return cli_error("ls", "--probes: name a binary or library, or -p PID");
	return print_file(path, false) ? 1 : 0;
}
