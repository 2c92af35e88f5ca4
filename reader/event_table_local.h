/*
 * event_table_local.h - the columns of event_table.h, shared by the file
 * that fills them and the one that serves them to SQL.
 */
#ifndef EVT_READER_EVENT_TABLE_LOCAL_H
#define EVT_READER_EVENT_TABLE_LOCAL_H

#include <stdbool.h>

#include "event_table.h"

struct evt_event_source {
	const struct evt_event_desc *event;
	unsigned set, reader;
	int64_t site_id;
	uint32_t trace_id;
	uint32_t name_rank;		/* its name's place among the sources' */
	int name_len;			/* of event->path */
};

struct evt_event_thread {
	uint32_t pid, tid;
};

struct evt_event_table {
	struct evt_trace_set **sets;
	unsigned nsets;
	struct evt_event_source *sources;
	uint32_t nsources, cap_sources;
	struct evt_event_thread *threads;
	uint32_t nthreads, cap_threads;

	/* The rows, a column each. */
	size_t n, cap;
	int64_t *ts;
	uint32_t *source;
	uint32_t *thread;
	uint16_t *cpu;
	const uint8_t **payload;
	uint32_t *payload_size;
	bool ts_sorted;			/* ts never goes down from row to row */

	/* The rows in the order of their names (then of their ids), made
	 * when a query first wants them so; the rows of names of rank r
	 * are by_name[rank_end[r - 1] (0 for r = 0), rank_end[r]), and
	 * rank_source[r] is one source of that name. */
	uint32_t *by_name;
	size_t *rank_end;
	uint32_t *rank_source;
	uint32_t nranks;
};

/* Makes t->by_name and its ranks (and the sources' name_rank): 0, or -1
 * without memory. */
int evt_event_table_order_by_name(struct evt_event_table *t);

/* The rows named name, as positions [*from, *to) of t->by_name (made). */
void evt_event_table_name_rows(const struct evt_event_table *t, const char *name,
			       size_t *from, size_t *to);

#endif
