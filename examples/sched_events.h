/*
 * sched_events.h - the scheduler demo's tracepoints: two raw events that
 * its developers may change at will, and the two stable views of them that
 * tools may depend on (the stable-tracepoint proposal's examples).
 */
#ifndef SCHED_EVENTS_H
#define SCHED_EVENTS_H

#include <sys/types.h>

#include <evtrace/evtrace.h>

struct task {
	char comm[16];
	pid_t pid;
	int prio;
	long state;		/* 0 running, 1 sleeping, 2 disk sleep, 4 stopped */
	int cpu;
};

EVT_ENUM(task_state, {"R", 0}, {"S", 1}, {"D", 2}, {"T", 4})

EVT_EVENT(sched, switch,
	EVT_PROTO(const struct task *prev, const struct task *next),
	EVT_ARGS(prev, next),
	EVT_FIELDS(
		evt_array(char, prev_comm, 16, prev->comm),
		evt_integer(pid_t, prev_pid, prev->pid),
		evt_integer(int, prev_prio, prev->prio),
		evt_enum(long, prev_state, task_state, prev->state),
		evt_array(char, next_comm, 16, next->comm),
		evt_integer(pid_t, next_pid, next->pid),
		evt_integer(int, next_prio, next->prio)))

EVT_EVENT(sched, migrate_task,
	EVT_PROTO(const struct task *p, int dest_cpu),
	EVT_ARGS(p, dest_cpu),
	EVT_FIELDS(
		evt_array(char, comm, 16, p->comm),
		evt_integer(pid_t, pid, p->pid),
		evt_integer(int, prio, p->prio),
		evt_integer(int, orig_cpu, p->cpu),
		evt_integer(int, dest_cpu, dest_cpu)))
EVT_EVENT_FLAGS(sched, migrate_task, EVT_FL_CAP_ANY)

/* The stable views: fewer fields, prev_state narrowed to a char. */
EVT_STABLE_EVENT(sched_switch, sched, switch,
	EVT_FIELDS(
		evt_array(char, prev_comm, 16, args->prev->comm),
		evt_integer(pid_t, prev_pid, args->prev->pid),
		evt_integer(char, prev_state, args->prev->state),
		evt_array(char, next_comm, 16, args->next->comm),
		evt_integer(pid_t, next_pid, args->next->pid)))

EVT_STABLE_EVENT(sched_migrate_task, sched, migrate_task,
	EVT_FIELDS(
		evt_array(char, comm, 16, args->p->comm),
		evt_integer(pid_t, pid, args->p->pid),
		evt_integer(int, orig_cpu, args->p->cpu),
		evt_integer(int, dest_cpu, args->dest_cpu)))

#endif
