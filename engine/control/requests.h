/*
 * requests.h - asking a running collection to enable or disable events
 * (`evtrace enable --collection N PATH`), or to add its kernel events to
 * a snapshot of it (`evtrace snapshot`).
 *
 * The asker writes a request file "slot-<N>.req.<pid>-<k>" ("enable
 * PATTERN" or "disable PATTERN") into the run directory, whole (renamed
 * into place); the engine holding slot N, which follows the directory,
 * applies it to its selection, answers in "slot-<N>.ans.<pid>-<k>" ("ok
 * <events on now>" or "error <why>") and removes the request.  Only the
 * directory's owner (or root) can write there, as for everything else.
 */
#ifndef EVT_ENGINE_REQUESTS_H
#define EVT_ENGINE_REQUESTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rundir.h"

/*
 * Sends a request to the engine of slot and waits up to 2 s for its
 * answer.  Returns how many events the collection has on that the
 * pattern names (enable), 0 (disable), or -1 with err set: the engine's
 * error, or that it did not answer.
 */
int evt_request_send(const struct evt_rundir *rd, unsigned slot, bool enable,
		     const char *pattern, char *err, size_t err_size);

/* Applies a request: >= 0 (as evt_request_send returns), or -1 with err. */
typedef int (*evt_request_fn)(void *ctx, bool enable, const char *pattern,
			      char *err, size_t err_size);
/* Answers the requests waiting for slot. */
void evt_requests_serve(const struct evt_rundir *rd, unsigned slot,
			evt_request_fn fn, void *ctx);

/*
 * `evtrace snapshot` of a recording with kernel events: asks the engine
 * of slot to add its kernel events from from_ns (CLOCK_MONOTONIC; 0: the
 * window's start) to the window written into dir (an absolute path), in
 * files "slot-<N>.win.<pid>-<k>" ("FROM_NS DIR") answered as above.
 * Waits up to 2 s: 0, or -1 with err set.
 */
int evt_window_request_send(const struct evt_rundir *rd, unsigned slot,
			    int64_t from_ns, const char *dir, char *err,
			    size_t err_size);
typedef int (*evt_window_fn)(void *ctx, int64_t from_ns, const char *dir,
			     char *err, size_t err_size);
void evt_window_requests_serve(const struct evt_rundir *rd, unsigned slot,
			       evt_window_fn fn, void *ctx);

#endif
