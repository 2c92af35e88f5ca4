/*
 * trigger_expr.h - a trigger's expression, as record --trigger,
 * consumer.h's evt_consumer_arm() and evtraced take it:
 *
 *   PATTERN                     any event PATTERN names
 *   PATTERN if FIELD OP VALUE   one whose field compares (== != < <= > >=;
 *                               integers, reals; strings with == and !=)
 *   span NAME > DURATION        a span that lasted longer (ns us ms s), or
 *                               is still open past it
 *   lost                        events were lost
 *
 * A PATTERN under kernel/ names kernel events, which a recording records
 * and hands over as it writes them (evt_triggers_kernel_event()).
 */
#ifndef EVT_ENGINE_TRIGGER_EXPR_H
#define EVT_ENGINE_TRIGGER_EXPR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "field_test.h"

enum evt_trigger_kind { EVT_TRIGGER_EVENT, EVT_TRIGGER_FIELD, EVT_TRIGGER_SPAN,
			EVT_TRIGGER_LOST };

struct evt_trigger {
	char *text;			/* the expression, as given */
	enum evt_trigger_kind kind;
	char *pattern;			/* the events it looks at (a span's:
					 * span/NAME); NULL for lost */
	struct field_test test;		/* EVT_TRIGGER_FIELD */
	int64_t threshold_ns;		/* EVT_TRIGGER_SPAN */
	bool kernel;			/* its events are kernel/ ones */
};

/* A duration, a number and ns, us, ms or s, in ns: 0, or -1. */
int evt_trigger_duration(const char *s, int64_t *ns);
/* Parses expr; NULL with err set, naming the position of what is wrong
 * (or "out of memory"). */
struct evt_trigger *evt_trigger_parse(const char *expr, char *err, size_t err_size);
void evt_trigger_free(struct evt_trigger *t);
/* The kernel events a trigger is on (kernel/...), or NULL. */
const char *evt_trigger_kernel_pattern(const struct evt_trigger *t);
/* The field it compares, or NULL. */
const char *evt_trigger_field(const struct evt_trigger *t);

#endif
