/*
 * sched.c - a toy scheduler with typed and stable tracepoints: two "CPUs"
 * (threads) switch between tasks and now and then migrate one.
 *
 *   evtrace record -e sched -e stable -o trace -- ./sched 5
 *   evtrace report trace
 *   evtrace abi-check abi/stable -- ./sched 1
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched_events.h"

#define NCPUS 2
#define NTASKS 4

static struct task tasks[NCPUS][NTASKS];
static int rounds = 3;

static void *cpu_loop(void *arg)
{
	int cpu = (int)(long)arg, r, i;
	struct task *prev = &tasks[cpu][NTASKS - 1];

	for (r = 0; r < rounds; r++) {
		for (i = 0; i < NTASKS; i++) {
			struct task *next = &tasks[cpu][i];

			prev->state = (r + i) % 3 == 0 ? 0 : (r + i) % 3;
			trace_sched_switch(prev, next);
			prev = next;
		}
		if (r % 2 == 1)
			trace_sched_migrate_task(&tasks[cpu][r % NTASKS], !cpu);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[NCPUS];
	long c;
	int i;

	if (argc > 1)
		rounds = atoi(argv[1]);
	for (c = 0; c < NCPUS; c++) {
		for (i = 0; i < NTASKS; i++) {
			struct task *k = &tasks[c][i];

			snprintf(k->comm, sizeof(k->comm), "task-%ld.%d", c, i);
			k->pid = (pid_t)(100 * (c + 1) + i);
			k->prio = 120 - i;
			k->cpu = (int)c;
		}
	}
	for (c = 0; c < NCPUS; c++)
		pthread_create(&t[c], NULL, cpu_loop, (void *)c);
	for (c = 0; c < NCPUS; c++)
		pthread_join(t[c], NULL);
	printf("sched: %d rounds on %d cpus\n", rounds, NCPUS);
	return 0;
}
