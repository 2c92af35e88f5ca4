/*
 * session.c - what record, count, trace and stream do while they run (see
 * session.h).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "cli.h"
#include "report.h"
#include "session.h"

static volatile sig_atomic_t stops, last_signal;
/* The command, once it runs: a stop signal sent to the front end alone
 * is passed on to it; one from the terminal reached it already (its
 * whole process group gets it), and is not sent twice. */
static pid_t forward_to;
/* A first stop that came while the command was being started, its pid
 * not known yet: its sender's pid (-1: not said), passed on once the
 * command's is known unless the command sent it (cli_session_spawn). */
static pid_t forward_pending;

static void on_stop(int sig, siginfo_t *si, void *uc)
{
	int saved = errno;

	(void)uc;
	stops++;
	last_signal = sig;
	if (stops == 1 && si->si_code != SI_KERNEL) {
		/* The command being started: cli_session_spawn passes it on,
		 * or, if it has the pid already, this does (seq_cst on both
		 * sides: whichever thread this runs on, one of the two sees
		 * the other's store; the exchange makes it one). */
		pid_t to = __atomic_load_n(&forward_to, __ATOMIC_SEQ_CST);

		if (to <= 0) {
			__atomic_store_n(&forward_pending, si->si_pid ? si->si_pid : -1,
					 __ATOMIC_SEQ_CST);
			to = __atomic_load_n(&forward_to, __ATOMIC_SEQ_CST);
			if (to <= 0 || !__atomic_exchange_n(&forward_pending, 0,
							    __ATOMIC_SEQ_CST))
				to = 0;
		}
		if (to > 0 && si->si_pid != to)
			kill(to, sig);
	}
	errno = saved;
}

void cli_session_catch(void)
{
	struct sigaction sa = { 0 };

	sa.sa_sigaction = on_stop;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

void cli_session_start(struct cli_session *s, const char *cmd,
		       const char *doing, const char *done)
{
	memset(s, 0, sizeof(*s));
	s->cmd = cmd;
	s->doing = doing;
	s->done = done;
	cli_session_catch();	/* (what came since the first catch counts) */
}

int cli_session_spawn(struct cli_session *s, char **argv, const char *rules,
		      const char *rundir, int (*ready)(pid_t child, void *ctx),
		      void *ctx)
{
	int exec_errno = 0;
	pid_t child, from;

	/* Stopped while it was being set up: the command is not started
	 * (it would not get the signal that stopped us). */
	if (stops) {
		evt_report("%s: stopped before '%s' was started", s->cmd, argv[0]);
		return 128 + (last_signal ? last_signal : SIGINT);
	}
	child = cli_spawn(argv, rules, rundir, ready, ctx, &exec_errno);

	if (exec_errno == -1)	/* ready said why */
		return 1;
	if (child < 0 || exec_errno) {
		cli_error(s->cmd, "cannot run '%s': %s", argv[0],
			  strerror(child < 0 ? errno : exec_errno));
		return 127;
	}
	s->child = child;
	s->name = argv[0];
	/* A stop that came while it was being started goes to it now
	 * (on_stop says how the two agree). */
	__atomic_store_n(&forward_to, child, __ATOMIC_SEQ_CST);
	from = __atomic_exchange_n(&forward_pending, 0, __ATOMIC_SEQ_CST);
	if (from && from != child)	/* (not one the command sent us) */
		kill(child, last_signal);
	return 0;
}

int cli_session_stops(void)
{
	return stops;
}

bool cli_session_over(struct cli_session *s)
{
	int now = stops;

	if (s->child && !s->exited &&
	    waitpid(s->child, &s->status, WNOHANG) == s->child)
		s->exited = true;
	if (s->exited)
		return true;
	if (!s->child)
		return now > 0;
	if (now == 1 && s->told == 0)
		evt_report("%s: waiting for '%s' (pid %d) to exit; Ctrl-C again "
			   "to stop %s now", s->cmd, s->name, (int)s->child,
			   s->doing);
	s->told = now;
	return now >= 2;
}

/* A command a signal killed is said, as a shell says it, unless the
 * signal was the user's stop (a ^C reaches the command too) or a closed
 * pipe; what it wrote before is in what the session made. */
static void said_killed(const struct cli_session *s, int sig)
{
	const char *abbrev = sigabbrev_np(sig);

	if (sig == SIGPIPE || (stops && sig == last_signal) || (stops && sig == SIGINT))
		return;
	evt_report("%s: '%s' (pid %d) was killed by %s%s (%s)%s%s%s", s->cmd,
		   s->name, (int)s->child, abbrev ? "SIG" : "signal ",
		   abbrev ? abbrev : "", strsignal(sig),
		   WCOREDUMP(s->status) ? ", core dumped" : "",
		   s->died_writing[0] ? ": " : "", s->died_writing);
}

int cli_session_end(struct cli_session *s)
{
	__atomic_store_n(&forward_to, 0, __ATOMIC_SEQ_CST);
	if (!s->child)
		return 0;
	if (!s->exited && waitpid(s->child, &s->status, WNOHANG) == s->child)
		s->exited = true;
	if (!s->exited) {
		evt_report("%s: stopped by a second signal before '%s' (pid %d) "
			   "ended: it runs on, and what it does from now on is "
			   "not %s", s->cmd, s->name, (int)s->child, s->done);
		return 128 + (last_signal ? last_signal : SIGINT);
	}
	if (WIFSIGNALED(s->status))
		said_killed(s, WTERMSIG(s->status));
	return WIFEXITED(s->status) ? WEXITSTATUS(s->status) :
	       WIFSIGNALED(s->status) ? 128 + WTERMSIG(s->status) : 1;
}
