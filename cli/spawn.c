/*
 * spawn.c - what record, count and stream share: the processes they
 * cover, given as a command to run or as pids, and the patterns that
 * name nothing there yet.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "collection.h"
#include "evtrace/consumer.h"
#include "kernel_events.h"
#include "pattern.h"
#include "rules.h"

bool cli_patterns_fit(const char *cmd, unsigned n, unsigned added)
{
	if (n + added <= EVT_RULES_MAX_PATTERNS)
		return true;
	cli_error(cmd, "more than %u -e patterns", EVT_RULES_MAX_PATTERNS - added);
	return false;
}

pid_t cli_spawn(char **argv, const char *rules, const char *rundir,
		int (*ready)(pid_t child, void *ctx), void *ctx, int *exec_errno)
{
	int pipefd[2], go[2] = { -1, -1 }, err = 0;
	pid_t pid;
	char c;

	if (pipe2(pipefd, O_CLOEXEC))
		return -1;
	if (ready && pipe2(go, O_CLOEXEC)) {
		close(pipefd[0]);
		close(pipefd[1]);
		return -1;
	}
	pid = fork();
	if (pid == 0) {
		close(pipefd[0]);
		setenv("EVTRACE_COLLECTION", rules, 1);
		setenv("EVTRACE_RUNDIR", rundir, 1);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		/* Until the parent has made ready what counts from exec on. */
		if (ready) {
			close(go[1]);
			if (read(go[0], &c, 1) != 1)
				_exit(127);
		}
		execvp(argv[0], argv);
		err = errno;
		if (write(pipefd[1], &err, sizeof(err)) < 0)
			_exit(127);
		_exit(127);
	}
	close(pipefd[1]);
	if (ready) {
		close(go[0]);
		if (pid > 0 && ready(pid, ctx)) {
			kill(pid, SIGKILL);
			waitpid(pid, NULL, 0);
			close(go[1]);
			close(pipefd[0]);
			*exec_errno = -1;	/* the hook said why */
			return pid;
		}
		c = 1;
		if (pid > 0 && write(go[1], &c, 1) != 1)
			kill(pid, SIGKILL);
		close(go[1]);
	}
	if (pid > 0 && read(pipefd[0], &err, sizeof(err)) == sizeof(err)) {
		*exec_errno = err;
		waitpid(pid, NULL, 0);
	}
	close(pipefd[0]);
	return pid;
}

bool cli_pattern_names(const char *pattern, const char *path,
		       const char *format, const char *func)
{
	if (!func && evt_pattern_has_selectors(pattern))	/* cannot tell */
		return !strncmp(path, "printk/", 7);
	return evt_pattern_match_site(pattern, path, func, format);
}

struct unmatched {
	const char *pattern;
	bool matched;
};

static void match_one(uint32_t id, const char *path, const char *format,
		      const char *func, void *ctx)
{
	struct unmatched *u = ctx;

	(void)id;
	u->matched |= cli_pattern_names(u->pattern, path, format, func);
}

void cli_note_unmatched(const char *cmd, const char *const *patterns,
			unsigned n, cli_events_fn events, void *source,
			bool ended)
{
	unsigned i;

	for (i = 0; i < n; i++) {
		struct unmatched u = { patterns[i], false };

		if (evt_is_kernel_path(patterns[i]))
			continue;	/* the kernel's own, checked when named */
		events(source, match_one, &u);
		if (u.matched)
			continue;
		if (ended)
			cli_error(cmd, "%s: named no event of the processes%s",
				  patterns[i], strncmp(patterns[i], "printk", 6) &&
				  !evt_pattern_has_selectors(patterns[i]) ?
				  " (printk events are named only by patterns that "
				  "start with printk)" : "");
		else
			cli_error(cmd, "%s: no such event or directory now; it "
				  "covers those registered later", patterns[i]);
	}
}

int cli_collection_events(void *source, cli_event_cb cb, void *ctx)
{
	return evt_collection_sites(source, cb, ctx);
}

/* A consumer's events, which come without functions. */
struct without_func {
	cli_event_cb cb;
	void *ctx;
};

static void no_func(uint32_t id, const char *path, const char *format,
		    void *ctx)
{
	struct without_func *w = ctx;

	w->cb(id, path, format, NULL, w->ctx);
}

int cli_consumer_events(void *source, cli_event_cb cb, void *ctx)
{
	struct without_func w = { cb, ctx };

	return evt_consumer_events(source, no_func, &w);
}
