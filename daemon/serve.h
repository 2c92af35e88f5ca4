/*
 * serve.h - evtraced's work for one client, in a process of its own.
 */
#ifndef EVT_DAEMON_SERVE_H
#define EVT_DAEMON_SERVE_H

#include <stddef.h>
#include <sys/types.h>

/* Runs evtrace's command argv[0] (ls, record, ...); its exit status. */
typedef int (*evt_command_fn)(int argc, char **argv);

/*
 * Reads the client's request on sock, checks it against the permission
 * rules and runs the command in a worker process of the client's run
 * directory, relaying what it prints and its exit status.  Returns when
 * the command has ended.
 */
void evt_serve(int sock, evt_command_fn run);

/*
 * A client that takes nothing of what is sent to it for this long is
 * dropped: its command ends as if it had left, and everything it held
 * (a slot, a worker) goes.  10 s unless set.
 */
void evt_serve_set_stall_timeout(unsigned seconds);

struct evt_trace_seats;
/* Where a user's trace takes its seat (trace_seats.h): the daemon's
 * table, made before it forks.  Without one, users' traces are refused. */
void evt_serve_set_trace_seats(struct evt_trace_seats *seats);

/*
 * In a worker, before any thread: files are created and written as uid
 * and gid (their owner from the start, their quotas and reserved blocks
 * applying), while the worker keeps root's access to the run directory
 * it serves (act_as_client.c).  0, or -1 with err set.
 */
int evt_act_as_client(uid_t uid, gid_t gid, char *err, size_t err_size);

struct evt_peer;
/*
 * Opens paths[0 .. n) for reading as the client p would (its uids, gids
 * and groups, in a child of its own), into fds (close-on-exec): only
 * regular files.  0, or -1 with err naming the file and why, none open.
 */
int evt_open_as_client(const struct evt_peer *p, const char *const *paths,
		       unsigned n, int *fds, char *err, size_t err_size);

#endif
