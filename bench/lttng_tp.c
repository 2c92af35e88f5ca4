/* lttng_tp.c - defines and registers the LTTng-UST peer tracepoints. */
#define TRACEPOINT_DEFINE
#define TRACEPOINT_CREATE_PROBES
#include "lttng_tp.h"
