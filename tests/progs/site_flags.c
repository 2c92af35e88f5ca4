/*
 * site_flags.c - what a C site's fast path tests: its byte in this
 * translation unit's pages of flags (evtrace.h, evt__unit_flags).
 *
 * Says "ready PID", then at each SIGUSR1 runs its two sites once ("site
 * one N", "site two N", N the round from 1), and at each SIGUSR1 or
 * SIGUSR2 prints
 *   flags N mapped M
 * N: how many flag bytes are not 0; M: how many pages of them are mapped
 * from a control file (/proc/self/maps).  Ends at SIGTERM.
 */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <evtrace/evtrace.h>

static void sites(int round)
{
	trace_printk("site one %d\n", round);
	trace_printk("site two %d\n", round);
}

static unsigned on_bytes(void)
{
	unsigned i, n = 0;

	for (i = 0; i < sizeof(evt__unit_flags); i++)
		n += ((volatile unsigned char *)evt__unit_flags)[i] != 0;
	return n;
}

/* Pages of evt__unit_flags mapped from a *.ctl file. */
static unsigned mapped_pages(void)
{
	uintptr_t lo = (uintptr_t)evt__unit_flags, hi = lo + sizeof(evt__unit_flags);
	char line[4096];
	unsigned n = 0;
	FILE *f = fopen("/proc/self/maps", "r");

	while (f && fgets(line, sizeof(line), f)) {
		unsigned long a, b;
		size_t len = strlen(line);

		if (sscanf(line, "%lx-%lx", &a, &b) == 2 && a >= lo && b <= hi &&
		    len > 5 && !strcmp(line + len - 5, ".ctl\n"))
			n += (unsigned)((b - a) / 4096);
	}
	if (f)
		fclose(f);
	return n;
}

int main(void)
{
	int sig, round = 0;
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGUSR2);
	sigaddset(&set, SIGTERM);
	sigprocmask(SIG_BLOCK, &set, NULL);
	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	while (!sigwait(&set, &sig) && sig != SIGTERM) {
		if (sig == SIGUSR1)
			sites(++round);
		printf("flags %u mapped %u\n", on_bytes(), mapped_pages());
		fflush(stdout);
	}
	return 0;
}
