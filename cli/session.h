/*
 * session.h - the skeleton record, count, trace and stream share while
 * they run: the command they start (or the processes they attach to),
 * the stop signals, and the exit status.
 *
 * Stop signals are SIGINT, SIGTERM and SIGHUP.  With a command, the first
 * is passed on to it as a terminal passes ^C (unless the terminal did
 * already, or it came from the command), the front end says at once that
 * it waits for the command, and goes on until it exits: what the command
 * does while it shuts down is kept.  The second stops at once and leaves
 * the command running, saying so.  Without a command, the first stops.
 */
#ifndef EVT_CLI_SESSION_H
#define EVT_CLI_SESSION_H

#include <stdbool.h>
#include <sys/types.h>

struct cli_session {
	const char *cmd;	/* "record", for messages */
	const char *doing;	/* "recording": "... to stop recording now" */
	const char *done;	/* "recorded": "... is not recorded" */
	const char *name;	/* the command's argv[0] */
	pid_t child;		/* the command, or 0 */
	bool exited;		/* reaped; status is its wait status */
	int status;
	int told;		/* stop signals answered so far */
	/* What a killed command was writing ("thread T was writing
	 * PATH"), told by the command before cli_session_end(). */
	char died_writing[512];
};

/*
 * Catches the stop signals from now on, counted for the session started
 * later: a command calls it first, before its setup (which takes tens of
 * milliseconds), so that a signal then is not lost (a shell starts a
 * background command with SIGINT ignored) nor kills it half set up.
 */
void cli_session_catch(void);
/* Catches the stop signals for s (before anything is started). */
void cli_session_start(struct cli_session *s, const char *cmd,
		       const char *doing, const char *done);
/*
 * Runs argv as cli_spawn() does and makes it s's command.  0; 127 when
 * it could not be run (said); 1 when ready refused (it said why); 128 +
 * the signal when a stop signal came before (said: it is not started).
 */
int cli_session_spawn(struct cli_session *s, char **argv, const char *rules,
		      const char *rundir, int (*ready)(pid_t child, void *ctx),
		      void *ctx);
/* Stop signals received so far. */
int cli_session_stops(void);
/*
 * Whether to stop now: the command exited (reaped), a second stop signal
 * came (a first without a command).  Answers a first stop signal at once.
 */
bool cli_session_over(struct cli_session *s);
/*
 * The exit status: the command's; 128 + the stop signal when it had not
 * ended (which is then said, with its pid); 0 without a command.
 */
int cli_session_end(struct cli_session *s);

#endif
