/*
 * two_units.c - one event with a site in each of two translation units
 * (inline_site.h).  Says "ready PID", then for each line on stdin runs
 * unit a's site, then unit b's, and says "round N" (N from 0).
 */
#include <stdio.h>
#include <unistd.h>

#include "inline_site.h"

int main(void)
{
	char line[64];
	int round;

	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	for (round = 0; fgets(line, sizeof(line), stdin); round++) {
		inline_site("a", round);
		unit_b_run(round);
		printf("round %d\n", round);
		fflush(stdout);
	}
	return 0;
}
