/*
 * cmd_abi_check.c - evtrace abi-check: compare a program's stable event
 * formats with a saved baseline, one file <name>.format per stable event.
 *
 * The formats come from a trace (its index lists every event the traced
 * processes registered, enabled or not), or from running a command under
 * `evtrace record` into a scratch directory.  A format that changed, a
 * stable event the baseline has and the program lost, and one the program
 * added are each reported; --update writes the program's formats instead.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "trace_index.h"
#include "trace_names.h"

#define STABLE_PREFIX "stable/"

/* Runs `evtrace record -e stable/... -o trace -- argv` for its index. */
static int record_command(char **argv, const char *trace)
{
	char self[PATH_MAX];
	int n = 0, status;
	char **args;
	ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	pid_t pid;

	if (len < 0)
		return cli_error("abi-check", "/proc/self/exe: %s", strerror(errno));
	self[len] = '\0';
	while (argv[n])
		n++;
	args = calloc(n + 8, sizeof(char *));
	if (!args)
		return cli_error("abi-check", "out of memory");
	args[0] = self;
	args[1] = "record";
	args[2] = "-e";
	args[3] = STABLE_PREFIX "*";
	args[4] = "-o";
	args[5] = (char *)trace;
	args[6] = "--";
	memcpy(args + 7, argv, (n + 1) * sizeof(char *));
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		if (null >= 0)
			dup2(null, 1);	/* the program's output is not ours */
		execv(self, args);
		_exit(127);
	}
	free(args);
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		return cli_error("abi-check", "cannot run evtrace record: %s",
				 strerror(errno));
	return 0;
}

static int remove_entry(const char *path, const struct stat *st, int flag,
			struct FTW *ftw)
{
	(void)st; (void)flag; (void)ftw;
	remove(path);
	return 0;
}

/* The file's contents, NUL-terminated, or NULL (errno set). */
static char *read_file(const char *path)
{
	FILE *f = fopen(path, "r");
	char *text = NULL;
	size_t len = 0, n;
	char buf[4096];

	if (!f)
		return NULL;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0) {
		char *grown = realloc(text, len + n + 1);

		if (!grown || len + n > (1u << 20)) {
			free(grown ? grown : text);
			fclose(f);
			errno = EFBIG;
			return NULL;
		}
		text = grown;
		memcpy(text + len, buf, n);
		len += n;
	}
	fclose(f);
	if (!text)
		text = calloc(1, 1);
	else
		text[len] = '\0';
	return text;
}

static int split_lines(char *text, char **lines, int max)
{
	int n = 0;
	char *save = NULL, *l;

	for (l = strtok_r(text, "\n", &save); l && n < max; l = strtok_r(NULL, "\n", &save))
		lines[n++] = l;
	return n;
}

/* A line diff (longest common subsequence) of two formats, on stdout. */
static void print_diff(const char *name, const char *old_text, const char *new_text)
{
	enum { MAX = 128 };
	char *a_copy = strdup(old_text), *b_copy = strdup(new_text);
	char *a[MAX], *b[MAX];
	static int lcs[MAX + 1][MAX + 1];
	int na, nb, i, j;

	if (!a_copy || !b_copy) {
		free(a_copy);
		free(b_copy);
		return;
	}
	na = split_lines(a_copy, a, MAX);
	nb = split_lines(b_copy, b, MAX);
	for (i = na; i >= 0; i--)
		for (j = nb; j >= 0; j--)
			lcs[i][j] = i == na || j == nb ? 0 :
				!strcmp(a[i], b[j]) ? lcs[i + 1][j + 1] + 1 :
				lcs[i + 1][j] > lcs[i][j + 1] ? lcs[i + 1][j] : lcs[i][j + 1];
	printf("--- baseline %s.format\n+++ program\n", name);
	for (i = 0, j = 0; i < na || j < nb;) {
		if (i < na && j < nb && !strcmp(a[i], b[j])) {
			printf(" %s\n", a[i++]);
			j++;
		} else if (i < na && (j == nb || lcs[i + 1][j] >= lcs[i][j + 1])) {
			printf("-%s\n", a[i++]);
		} else {
			printf("+%s\n", b[j++]);
		}
	}
	free(a_copy);
	free(b_copy);
}

static const struct evt_event_desc *find_stable(const struct evt_trace_index *ix,
						const char *name)
{
	uint32_t i;

	for (i = 0; i < ix->nevents; i++)
		if (ix->events[i].layout.kind == EVT_KIND_STABLE &&
		    !strcmp(ix->events[i].path + strlen(STABLE_PREFIX), name))
			return &ix->events[i];
	return NULL;
}

static int compare(const char *baseline, const struct evt_trace_index *ix,
		   int update)
{
	unsigned checked = 0, differ = 0;
	char path[PATH_MAX];
	struct dirent *d;
	uint32_t i, j;
	DIR *dir;

	if (update && mkdir(baseline, 0777) && errno != EEXIST)
		return cli_error("abi-check", "%s: %s", baseline, strerror(errno));
	for (i = 0; i < ix->nevents; i++) {
		const struct evt_event_desc *e = &ix->events[i];
		const char *name = e->path + strlen(STABLE_PREFIX);
		char *saved;

		if (e->layout.kind != EVT_KIND_STABLE || find_stable(ix, name) != e)
			continue;	/* another process image had it first */
		for (j = i + 1; j < ix->nevents; j++)
			if (!strcmp(ix->events[j].path, e->path) &&
			    strcmp(ix->events[j].format, e->format))
				printf("%s: two formats in the program's processes\n",
				       e->path);
		checked++;
		snprintf(path, sizeof(path), "%s/%s.format", baseline, name);
		if (update) {
			FILE *f = fopen(path, "w");

			if (!f || fputs(e->format, f) < 0 || fclose(f))
				return cli_error("abi-check", "%s: %s", path,
						 strerror(errno));
			continue;
		}
		saved = read_file(path);
		if (!saved) {
			printf("%s: new, not in the baseline (evtrace abi-check "
			       "--update adds it)\n", e->path);
			differ++;
		} else if (strcmp(saved, e->format)) {
			printf("%s: format changed\n", e->path);
			print_diff(name, saved, e->format);
			differ++;
		}
		free(saved);
	}
	if (update && !checked)
		return cli_error("abi-check", "the program registered no stable "
				 "event; nothing written to %s", baseline);
	if (update) {
		printf("abi-check: %u stable event formats written to %s\n",
		       checked, baseline);
		return 0;
	}
	dir = opendir(baseline);
	if (!dir)
		return cli_error("abi-check", "%s: %s", baseline, strerror(errno));
	while ((d = readdir(dir))) {
		size_t n = strlen(d->d_name);

		if (n <= 7 || strcmp(d->d_name + n - 7, ".format"))
			continue;
		d->d_name[n - 7] = '\0';
		if (!find_stable(ix, d->d_name)) {
			printf(STABLE_PREFIX "%s: in the baseline, not in the program\n",
			       d->d_name);
			differ++;
		}
	}
	closedir(dir);
	if (differ)
		return cli_error("abi-check", "%u stable event%s differ%s from the "
				 "baseline in %s", differ, differ == 1 ? "" : "s",
				 differ == 1 ? "s" : "", baseline);
	printf("abi-check: %u stable event formats match %s\n", checked, baseline);
	return 0;
}

int cmd_abi_check(int argc, char **argv)
{
	struct evt_trace_index ix = { 0 };
	char scratch[] = "/tmp/evtrace-abi.XXXXXX", index[PATH_MAX];
	char trace[PATH_MAX], err[PATH_MAX + 300];
	int i = 1, update = 0, ret;

	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")))
		return cli_help("abi-check");
	if (argc > 1 && (!strcmp(argv[1], "--update") || !strcmp(argv[1], "-u"))) {
		update = 1;
		i++;
	}
	if (argc - i < 2 || (strcmp(argv[i + 1], "--") && argc - i != 2) ||
	    (!strcmp(argv[i + 1], "--") && argc - i < 3)) {
		cli_error("abi-check", "a baseline directory and a trace directory "
			  "or -- COMMAND are needed");
		return cli_usage("abi-check");
	}
	if (!strcmp(argv[i + 1], "--")) {
		if (!mkdtemp(scratch))
			return cli_error("abi-check", "%s: %s", scratch, strerror(errno));
		snprintf(trace, sizeof(trace), "%s/trace", scratch);
		if (record_command(argv + i + 2, trace)) {
			nftw(scratch, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
			return 1;
		}
	} else {
		snprintf(trace, sizeof(trace), "%s", argv[i + 1]);
		scratch[0] = '\0';
	}
	snprintf(index, sizeof(index), "%s/" EVT_TRACE_INDEX_PATH, trace);
	if (evt_trace_index_read(index, &ix, err, sizeof(err)))
		ret = cli_error("abi-check", "%s", err);
	else
		ret = compare(argv[i], &ix, update);
	evt_trace_index_free(&ix);
	if (scratch[0])
		nftw(scratch, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
	return ret;
}
