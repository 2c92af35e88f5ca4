/*
 * span_taken.c - spans that cannot be: one whose name a typed event took
 * first, and one whose begin has more arguments than a record of its
 * kind holds (31 after the phase).  Their sites stay off and say so; the
 * typed event is recorded as ever.
 */
#include <evtrace/evtrace.h>

EVT_EVENT(span, clash, EVT_PROTO(int v), EVT_ARGS(v),
	  EVT_FIELDS(evt_integer(int, v, v)))

int main(void)
{
	trace_span_clash(7);
	trace_span_begin("clash");
	trace_span_end("clash");
	trace_span_begin("wide",
		"%d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d "
		"%d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d",
		1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
		17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32);
	trace_span_end("wide");
	return 0;
}
