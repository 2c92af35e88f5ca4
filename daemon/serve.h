/*
 * serve.h - evtraced's work for one client, in a process of its own.
 */
#ifndef EVT_DAEMON_SERVE_H
#define EVT_DAEMON_SERVE_H

/* Runs evtrace's command argv[0] (ls, record, ...); its exit status. */
typedef int (*evt_command_fn)(int argc, char **argv);

/*
 * Reads the client's request on sock, checks it against the permission
 * rules and runs the command in a worker process of the client's run
 * directory, relaying what it prints and its exit status.  Returns when
 * the command has ended.
 */
void evt_serve(int sock, evt_command_fn run);

#endif
