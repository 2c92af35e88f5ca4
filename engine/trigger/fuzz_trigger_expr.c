/* libFuzzer harness for trigger expressions (trigger_expr.c):
 * the bytes, cut at their first NUL, are an expression.  Whatever comes,
 * it is taken whole or refused with the position of what is wrong inside
 * it (1 to its length plus one), and a taken one names itself, its field
 * when it compares one, and its kernel pattern only under kernel/. */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trigger_expr.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(c) do { if (!(c)) { fprintf(stderr, "broken: %s\n", #c); abort(); } } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *expr = strndup((const char *)data, size), err[1024] = "";
	struct evt_trigger *t;
	const char *at;

	if (!expr)
		return 0;
	t = evt_trigger_parse(expr, err, sizeof(err));
	if (t) {
		CHECK(!strcmp(t->text, expr));
		CHECK(!evt_trigger_field(t) || strstr(expr, " if "));
		CHECK(!evt_trigger_kernel_pattern(t) ||
		      !strncmp(evt_trigger_kernel_pattern(t) + strspn(evt_trigger_kernel_pattern(t), "/"),
			       "kernel", 6));
		evt_trigger_free(t);
	} else if (strlen(expr) < 600 && !strncmp(err, "--trigger '", 11) &&
		   !strncmp(err + 11, expr, strlen(expr)) &&
		   !strncmp(at = err + 11 + strlen(expr), "': at position ", 15)) {
		/* (an expression too long for err is cut in it) */
		long pos = strtol(at + 15, NULL, 10);

		CHECK(pos >= 1 && pos <= (long)strlen(expr) + 1);
	} else {
		CHECK(err[0]);
	}
	free(expr);
	return 0;
}
