/*
 * trace_summary.h - what one trace says per event and per span name, for
 * comparing two runs (evtrace diff): each event path's count, each span
 * name's durations (its complete slices, from span_pairs.h), the time
 * the trace covers and what it lost.
 */
#ifndef EVT_READER_TRACE_SUMMARY_H
#define EVT_READER_TRACE_SUMMARY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct evt_summary_key {
	char *key;			/* an event's path, or span/NAME, async/NAME */
	bool span;
	uint64_t count;			/* events; spans: complete slices */
	uint64_t *durations;		/* span: ns, sorted once read */
	size_t cap;
};

struct evt_summary {
	struct evt_summary_key *keys;	/* sorted by key once read */
	size_t nkeys, cap;
	int64_t first_ns, last_ns;	/* CLOCK_MONOTONIC of its first and
					 * last event */
	uint64_t events, lost, errors;
	void *index;			/* (while reading) */
};

/* Reads the trace in dir.  0, or -1 with err set (it does not open, or
 * out of memory); what could not be read of it is counted in errors. */
int evt_summary_read(const char *dir, struct evt_summary *s, char *err,
		     size_t err_size);
/* The key named key, or NULL. */
const struct evt_summary_key *evt_summary_find(const struct evt_summary *s,
					       const char *key);
void evt_summary_free(struct evt_summary *s);

#endif
