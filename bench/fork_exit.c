/*
 * fork_exit.c - a pre-fork server's cost: N children that _exit at once,
 * one after another.  Built with evtrace (one site, off) and without
 * (-DFORK_PLAIN); prints "fork_exit NS" per child, mean over N.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef FORK_PLAIN
#include <evtrace/evtrace.h>
#endif

int main(int argc, char **argv)
{
	int n = argc == 2 ? atoi(argv[1]) : 1000, i;
	struct timespec a, b;

#ifndef FORK_PLAIN
	trace_printk("fork_exit %d children\n", n);
#endif
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (i = 0; i < n; i++) {
		pid_t child = fork();

		if (child == 0)
			_exit(0);
		if (child < 0)
			return 1;
		waitpid(child, NULL, 0);
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("fork_exit %.0f\n", ((b.tv_sec - a.tv_sec) * 1e9 +
				    (b.tv_nsec - a.tv_nsec)) / n);
	return 0;
}
