/*
 * trace_seats.h - how many trace sessions evtraced runs for users at
 * once.  Each one loads the eBPF program of evtrace trace, which runs at
 * every system call of every process of the machine, another user's
 * included, to find the ones it follows: a cheap call (getppid, 64 ns
 * here) took some 90 ns more with the first session and 50 more with
 * each one after, and each session's rings are kernel memory charged to
 * the daemon.  So a user has EVT_TRACE_SEATS_PER_USER sessions at once,
 * and all users EVT_TRACE_SEATS; root's traces need no seat.
 *
 * The seats are a table in memory the daemon shares with the processes
 * it forks for its clients: a client's process takes one by swapping its
 * pid into a free one, then counts its user's; the daemon frees the seat
 * of a client's process it reaps, however that process ended.
 */
#ifndef EVT_DAEMON_TRACE_SEATS_H
#define EVT_DAEMON_TRACE_SEATS_H

#include <sys/types.h>

#define EVT_TRACE_SEATS 8
#define EVT_TRACE_SEATS_PER_USER 2

struct evt_trace_seats;

/* The table, shared with the processes forked after; NULL without
 * memory (then no seat can be taken). */
struct evt_trace_seats *evt_trace_seats_create(void);
/* A seat for process holder of user uid: 0; -1 when the user holds
 * EVT_TRACE_SEATS_PER_USER already, -2 when every seat is taken. */
int evt_trace_seat_take(struct evt_trace_seats *s, uid_t uid, pid_t holder);
/* Frees the seat of process holder, if it has one. */
void evt_trace_seat_free(struct evt_trace_seats *s, pid_t holder);

#endif
