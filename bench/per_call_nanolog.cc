/*
 * per_call_nanolog.cc - W1 timed call by call (per_call.h) with NanoLog,
 * a binary printf-style logger (its C++17 API): the same format and
 * arguments, logged to a file of its own (argv[3]) by its background
 * thread.  Built by `make bench NANOLOG=DIR` where DIR holds NanoLog's
 * runtime, built (see bench/README).
 *
 *   per_call_nanolog N REPS FILE
 */
#include <array>

#include <NanoLogCpp17.h>

#include "per_call.h"

using namespace NanoLog::LogLevels;

static const char *comm = "kworker";

PER_CALL_MAIN("per_call_nanolog",
	      (NanoLog::setLogFile(argc > 3 ? argv[3] : "/dev/null"), NanoLog::preallocate()),
	      NANO_LOG(NOTICE, "migrate task %s:%d", comm, (int)i))
