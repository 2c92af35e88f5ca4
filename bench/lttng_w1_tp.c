/* lttng_w1_tp.c - defines and registers the LTTng-UST peer tracepoint. */
#define TRACEPOINT_DEFINE
#define TRACEPOINT_CREATE_PROBES
#include "lttng_w1_tp.h"
