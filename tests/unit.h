/* unit.h - the few assertions unit tests need; failures name the line. */
#ifndef EVT_TESTS_UNIT_H
#define EVT_TESTS_UNIT_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int unit_failures;

#define CHECK(cond)							\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "%s:%d: CHECK(%s) failed\n",	\
				__FILE__, __LINE__, #cond);		\
			unit_failures++;				\
		}							\
	} while (0)

#define CHECK_STR(got, want)						\
	do {								\
		const char *g_ = (got), *w_ = (want);			\
		if (strcmp(g_, w_)) {					\
			fprintf(stderr, "%s:%d: got \"%s\", want \"%s\"\n", \
				__FILE__, __LINE__, g_, w_);		\
			unit_failures++;				\
		}							\
	} while (0)

#define UNIT_DONE() return unit_failures ? 1 : 0

#endif
