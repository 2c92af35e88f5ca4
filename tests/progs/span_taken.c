/*
 * span_taken.c - a span whose name a typed event took first: the span's
 * sites stay off and say so; the typed event is recorded as ever.
 */
#include <evtrace/evtrace.h>

EVT_EVENT(span, clash, EVT_PROTO(int v), EVT_ARGS(v),
	  EVT_FIELDS(evt_integer(int, v, v)))

int main(void)
{
	trace_span_clash(7);
	trace_span_begin("clash");
	trace_span_end("clash");
	return 0;
}
