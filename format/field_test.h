/*
 * field_test.h - "FIELD OP VALUE", the condition of a trigger
 * (record --trigger) and of a filter (report, convert, stream --filter):
 * OP is == != < <= > >=; VALUE a number (integer or real, compared
 * exactly with a 64-bit integer field: ids past 2^53 too), or a string
 * (a bare word, or in double quotes, which may hold spaces) that only
 * == and != compare: with a field's text, an enum's label, a char
 * array's bytes.
 */
#ifndef EVT_FORMAT_FIELD_TEST_H
#define EVT_FORMAT_FIELD_TEST_H

#include <stdbool.h>
#include <stddef.h>

#include "record_fields.h"

struct field_test {
	char *field;
	int op;			/* enum in field_test.c */
	bool is_text;
	char *str;
	long double num;	/* exact for every 64-bit integer */
};

/* Parses text into t.  0, or -1 with why, and *at the offset in text of
 * what is wrong; t is then freed. */
int field_test_parse(struct field_test *t, const char *text, unsigned *at,
		     char *why, size_t why_size);
/* Whether field f (of the name t->field) passes the test. */
bool field_test_holds(const struct field_test *t, const struct evt_field *f);
/* The field named t->field among n, or NULL. */
const struct evt_field *field_test_find(const struct field_test *t,
					const struct evt_field *fields, int n);
void field_test_free(struct field_test *t);

#endif
