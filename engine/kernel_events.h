/*
 * kernel_events.h - the kernel's tracepoints as evtrace events,
 * kernel/<system>/<event>, read from tracefs with libtracefs and
 * libtraceevent.
 *
 * Their formats are the kernel's, turned into evtrace's format syntax
 * (event_format.h) field by field: a fixed array stays an array, a
 * __data_loc string becomes a string and another dynamic array a
 * sequence (of bytes when it is not an array: a bitmask), a pointer an
 * unsigned integer of its size, a field of another size its bytes; the
 * common fields
 * (common_type, common_pid, ...) are left out, being what every record's
 * header says.  The syscall events carry the kernel's CAP_ANY flag.
 */
#ifndef EVT_ENGINE_KERNEL_EVENTS_H
#define EVT_ENGINE_KERNEL_EVENTS_H

#include <stdbool.h>
#include <stddef.h>

#include "event_format.h"

#define EVT_KERNEL_PREFIX "kernel/"

/* Whether a pattern or path is about kernel events ("kernel", "kernel/..."). */
bool evt_is_kernel_path(const char *path);

/*
 * The paths of every kernel event, sorted; *n how many.  0, or -1 with err
 * saying why (tracefs not mounted; not readable by this user: then errno
 * is EACCES, as after evt_kernel_event_format()).
 */
int evt_kernel_event_paths(char ***paths, unsigned *n, char *err,
			   size_t err_size);
void evt_kernel_event_paths_free(char **paths, unsigned n);

/* The kernel's tracepoint id of the event at path (tracefs's "id" file),
 * or -1 with err set. */
long evt_kernel_event_id(const char *path, char *err, size_t err_size);

/*
 * The format of the kernel event at path, converted (evt_event_format_free
 * it).  0; or -1 with err set (no such event, a format libtraceevent
 * cannot parse or evtrace cannot express).
 */
int evt_kernel_event_format(const char *path, struct evt_event_format *out,
			    char *err, size_t err_size);

#endif
