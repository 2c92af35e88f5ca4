/*
 * usdt_prog.c - a program with USDT probes (<sys/sdt.h>), for the tests
 * of usdt/ events: its own trace_printk() events around them.
 *
 *   usdt_prog args N     N times: "step I", then evttest:args (I, -I,
 *                        the constant 7), then "done I"
 *   usdt_prog guarded    "ready", then waits (up to 60 s) for its
 *                        semaphore-guarded probe evttest:guarded to be
 *                        switched on: "on"; at SIGUSR1 the probe 10
 *                        times (0-9), "fired"; then waits for it to be
 *                        off again: "off"
 *   usdt_prog plugin LIB dlopens LIB, whose probe evttest_lib:hit it
 *                        runs 5 times (1-5)
 */
#define _SDT_HAS_SEMAPHORES 1
#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/sdt.h>

#include <evtrace/evtrace.h>

/* The kernel counts them up while a uprobe is on their probe. */
unsigned short evttest_args_semaphore __attribute__((section(".probes")));
unsigned short evttest_guarded_semaphore __attribute__((section(".probes")));

static int args(int n)
{
	int i;

	for (i = 0; i < n; i++) {
		long neg = -(long)i;

		trace_printk("step %d\n", i);
		STAP_PROBE3(evttest, args, i, neg, 7);
		trace_printk("done %d\n", i);
	}
	return 0;
}

/* Waits until the semaphore is (on) or is not set: 0, or -1 after 60 s. */
static int wait_semaphore(volatile unsigned short *sem, int on)
{
	struct timespec tick = { 0, 2 * 1000 * 1000 };
	int k;

	for (k = 0; k < 30000; k++) {
		if ((*sem != 0) == on)
			return 0;
		nanosleep(&tick, NULL);
	}
	return -1;
}

static int guarded(void)
{
	sigset_t usr1;
	int i, sig;

	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	sigprocmask(SIG_BLOCK, &usr1, NULL);
	trace_printk("guarded ready\n");	/* (a traced process from now) */
	printf("ready\n");
	fflush(stdout);
	if (wait_semaphore(&evttest_guarded_semaphore, 1))
		return printf("never on\n"), 1;
	printf("on\n");
	fflush(stdout);
	/* (the semaphore rises with the recorder's first CPU: the test
	 * says when all are open) */
	sigwait(&usr1, &sig);
	for (i = 0; i < 10; i++)
		if (evttest_guarded_semaphore)
			STAP_PROBE1(evttest, guarded, i);
	printf("fired\n");
	fflush(stdout);
	if (wait_semaphore(&evttest_guarded_semaphore, 0))
		return printf("never off\n"), 1;
	printf("off\n");
	return 0;
}

static int plugin(const char *lib)
{
	void *h = dlopen(lib, RTLD_NOW);
	void (*hit)(int);
	int i;

	if (!h || !(*(void **)&hit = dlsym(h, "usdt_lib_hit")))
		return fprintf(stderr, "%s\n", dlerror()), 1;
	for (i = 1; i <= 5; i++)
		hit(i);
	dlclose(h);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "args"))
		return args(atoi(argv[2]));
	if (argc == 2 && !strcmp(argv[1], "guarded"))
		return guarded();
	if (argc == 3 && !strcmp(argv[1], "plugin"))
		return plugin(argv[2]);
	fprintf(stderr, "usage: usdt_prog args N | guarded | plugin LIB\n");
	return 2;
}
