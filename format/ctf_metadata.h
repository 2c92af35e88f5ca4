/*
 * ctf_metadata.h - the CTF 1.8 metadata (TSDL) of an evtrace trace.
 *
 * One stream class per traced process image (its events are numbered by
 * that process's local ids), one event class per event, fields named
 * arg0, arg1, ... in the order of the printk format's conversions (a '*'
 * width or precision is its own field, argN_width / argN_precision).
 */
#ifndef EVT_FORMAT_CTF_METADATA_H
#define EVT_FORMAT_CTF_METADATA_H

#include <stdio.h>

#include "trace_index.h"

int evt_ctf_metadata_write(FILE *f, const struct evt_trace_index *ix,
			   const char *hostname);
/*
 * What an earlier write of ix, when it had what the marks from say, did
 * not say (from NULL: all of it): TSDL to append to it (a live relay's
 * metadata only grows).  With a hostname, the trace's declarations first
 * (for the first part).
 */
int evt_ctf_metadata_write_part(FILE *f, const struct evt_trace_index *ix,
				const char *hostname,
				const struct evt_index_marks *from);

#endif
