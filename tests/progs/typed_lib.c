/* typed_lib.c - a shared library that defines and emits the same event. */
#include "typed_events.h"

void typed_lib_emit(const struct row *r)
{
	trace_typed_all(r, 1);
}
