/*
 * ls_probes.c - evtrace ls --probes: the USDT probes a binary carries, or
 * those of the files a running process has mapped, as the events that
 * name them (usdt/PROVIDER/NAME) with their arguments' types.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "usdt_notes.h"
#include "usdt_probes.h"

/* The probes of one file; -1 (said) when it cannot be read. */
static int print_file(const char *path, bool quiet_if_none)
{
	struct evt_usdt_probe *p;
	char err[PATH_MAX + 200];
	unsigned n, i;

	if (evt_usdt_probes(path, &p, &n, err, sizeof(err)))
		return cli_error("ls", "%s", err), -1;
	if (!n && !quiet_if_none)
		printf("# %s: no USDT probes\n", path);
	for (i = 0; i < n; i++)
		evt_usdt_probe_write(stdout, path, &p[i]);
	free(p);
	return 0;
}

/* The files process pid maps code from, each once, in their order. */
static int print_process(int pid)
{
	char err[PATH_MAX + 200], **files;
	unsigned n, i;
	int ret = 0;

	if (evt_usdt_files_of_process(pid, &files, &n, err, sizeof(err)))
		return cli_error("ls", "%s", err);
	printf("# pid %d\n", pid);
	for (i = 0; i < n; i++)
		if (print_file(files[i], true))
			ret = 1;
	evt_usdt_files_free(files, n);
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
