/*
 * field_test.c - one field compared with a value (see field_test.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "field_test.h"

enum op { OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE };

static int fail(struct field_test *t, unsigned *at, unsigned where, char *why,
		size_t why_size, const char *text)
{
	snprintf(why, why_size, "%s", text);
	*at = where;
	field_test_free(t);
	return -1;
}

int field_test_parse(struct field_test *t, const char *text, unsigned *at,
		     char *why, size_t why_size)
{
	static const char *const ops[] = { "==", "!=", "<", "<=", ">", ">=" };
	unsigned end = (unsigned)strlen(text), k, p = 0, op_at;
	size_t len;
	char *stop;

	memset(t, 0, sizeof(*t));
	while (text[p] == ' ')
		p++;
	len = strcspn(text + p, " ");
	if (!len)
		return fail(t, at, end, why, why_size, "a field's name is missing");
	t->field = strndup(text + p, len);
	for (p += (unsigned)len; text[p] == ' '; p++)
		;
	len = strcspn(text + p, " ");
	for (k = 0; k < 6 && (strlen(ops[k]) != len || strncmp(text + p, ops[k], len)); k++)
		;
	if (k == 6)
		return fail(t, at, len ? p : end, why, why_size,
			    "expected an operator (== != < <= > >=)");
	t->op = (int)k;
	op_at = p;
	for (p += (unsigned)len; text[p] == ' '; p++)
		;
	if (!text[p])
		return fail(t, at, end, why, why_size, "a value is missing");
	if (text[p] == '"') {	/* to the end: it may hold spaces */
		len = strlen(text + p);
		if (len < 2 || text[p + len - 1] != '"')
			return fail(t, at, p, why, why_size,
				    "a string without its closing quote");
		t->is_text = true;
		t->str = strndup(text + p + 1, len - 2);
	} else {
		t->num = strtold(text + p, &stop);
		if (stop == text + p || *stop) {	/* a bare word: a string */
			len = strcspn(text + p, " ");
			if (text[p + len])
				return fail(t, at, p + (unsigned)len + 1, why, why_size,
					    "unexpected after the value");
			t->is_text = true;
			t->str = strdup(text + p);
		}
	}
	if (t->is_text && t->op != OP_EQ && t->op != OP_NE)
		return fail(t, at, op_at, why, why_size,
			    "a string compares with == and != only");
	return 0;
}

bool field_test_holds(const struct field_test *t, const struct evt_field *fl)
{
	long double v;
	int c;

	if (t->is_text) {
		const char *s = fl->label ? fl->label :
				fl->type == EVT_VALUE_STRING ? fl->value.s : NULL;
		char text[256];

		if (!s && fl->type == EVT_VALUE_ARRAY && fl->value.array.elem_bytes == 1) {
			snprintf(text, sizeof(text), "%.*s", (int)fl->value.array.count,
				 (const char *)fl->value.array.data);
			s = text;
		}
		if (!s)
			return false;
		c = strcmp(s, t->str);
		return t->op == OP_EQ ? c == 0 : c != 0;
	}
	switch (fl->type) {
	case EVT_VALUE_INT:
		v = (long double)fl->value.i;
		break;
	case EVT_VALUE_UINT:
		v = (long double)fl->value.u;
		break;
	case EVT_VALUE_DOUBLE:
		v = fl->value.d;
		break;
	default:
		return false;
	}
	switch (t->op) {
	case OP_EQ: return v == t->num;
	case OP_NE: return v != t->num;
	case OP_LT: return v < t->num;
	case OP_LE: return v <= t->num;
	case OP_GT: return v > t->num;
	default: return v >= t->num;
	}
}

const struct evt_field *field_test_find(const struct field_test *t,
					const struct evt_field *fields, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(fields[i].name, t->field))
			return &fields[i];
	return NULL;
}

void field_test_free(struct field_test *t)
{
	free(t->field);
	free(t->str);
	memset(t, 0, sizeof(*t));
}
