/*
 * trace_pipe.h - the filesystem's trace_pipe: the default collection's
 * events as text lines (stream's), consumed by whoever reads first.
 *
 * While at least one reader has it open, a thread reads the default
 * collection live (live_stream.h) every 20 ms into a queue of whole
 * lines, up to 1 MiB; past that it stops reading, so that the traced
 * programs' buffers fill and what they drop is counted (a "lost" line
 * follows).  When the last reader closes, the default collection is let
 * go of (`evtrace stream` may take it); lines already queued stay for the
 * next reader, and the next one starts where this one stopped.
 */
#ifndef EVT_EVENTFS_TRACE_PIPE_H
#define EVT_EVENTFS_TRACE_PIPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include "live_stream.h"

struct evt_pipe;

/* Writes an event's line, or a lost-events line (e->path NULL), to f. */
typedef void (*evt_pipe_line_fn)(FILE *f, const struct evt_live_event *e);

/* For the processes of pid (0: all) in the run directory rundir.  0, or
 * -1 when out of memory. */
int evt_pipe_create(const char *rundir, int pid, evt_pipe_line_fn line,
		    struct evt_pipe **out);
/* Starts the thread that fills the queue. 0, or -1 with errno. */
int evt_pipe_start(struct evt_pipe *p);
/*
 * At most this many opens at once: a reader waiting for lines holds one
 * of the filesystem's threads (64), and the others must stay free for
 * everything else, the interrupt of a killed reader included.
 */
#define EVT_PIPE_MAX_READERS 16

/* A reader opens it.  0, or -EBUSY (err says who holds the default
 * collection, or that EVT_PIPE_MAX_READERS have it open) or another
 * -errno. */
int evt_pipe_open(struct evt_pipe *p, char *err, size_t err_size);
void evt_pipe_release(struct evt_pipe *p);
/*
 * Takes whole lines, at most size bytes (a longer first line in parts),
 * waiting for one unless nonblock (-EAGAIN).  Returns the bytes; 0 once
 * the pipe is shut down; -EINTR when interrupted() says so (asked every
 * 100 ms while it waits).
 */
ssize_t evt_pipe_read(struct evt_pipe *p, char *buf, size_t size,
		      bool nonblock, bool (*interrupted)(void));
/* Wakes every reader with the end of the file; reads after it end at
 * once. */
void evt_pipe_shutdown(struct evt_pipe *p);
/* Stops the thread and frees everything. */
void evt_pipe_destroy(struct evt_pipe *p);

#endif
