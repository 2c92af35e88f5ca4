/*
 * live_record.h - a trace directory written from the records a live
 * stream decodes (live_stream.h), for evtrace trace -o: each thread's
 * records go, as they were stored, into packets of a stream file of its
 * own (stream_live_<pid>_<tid>), all of one stream class whose event ids
 * are the writer's, given as events first appear; what a thread lost is
 * counted in its next packet's header.  The index and metadata are
 * rewritten before any packet that needs what is new in them.  Kernel
 * events may share the directory (kernel_record.h, described into
 * evt_live_record_index()).
 */
#ifndef EVT_ENGINE_LIVE_RECORD_H
#define EVT_ENGINE_LIVE_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "clock.h"
#include "live_stream.h"
#include "trace_dir.h"
#include "trace_index.h"

struct evt_live_record;

/* Opens (makes) the trace directory dir (trace_dir.h's rules).  0, or -1
 * with err set. */
int evt_live_record_open(const char *dir, const struct evt_clock_calibration *clock,
			 uint32_t packet_size, struct evt_live_record **out,
			 char *err, size_t err_size);
const struct evt_trace_dir *evt_live_record_dir(const struct evt_live_record *w);
/* Its index, for others to describe their streams in; say so with
 * evt_live_record_changed(), then evt_live_record_flush() writes it. */
struct evt_trace_index *evt_live_record_index(struct evt_live_record *w);
void evt_live_record_changed(struct evt_live_record *w);
/* A record, or a thread's loss.  0, or -1 with err set (the output). */
int evt_live_record_add(struct evt_live_record *w, const struct evt_live_event *e,
			char *err, size_t err_size);
/* Writes the index if it changed, then the packets a second old (all,
 * with final, after the clock is measured again).  0, or -1 with err. */
int evt_live_record_flush(struct evt_live_record *w, bool final, char *err,
			  size_t err_size);
/* Records written, and lost. */
void evt_live_record_counts(const struct evt_live_record *w, uint64_t *events,
			    uint64_t *lost);
void evt_live_record_close(struct evt_live_record *w);

#endif
