/*
 * event_table.h - a trace's events as columns in memory, over the trace
 * files themselves, and the SQL table "event" that reads them.
 *
 * A row is what the walk found of an event (its time on the caller's
 * clock, its source, thread and CPU) and where its payload is in the
 * mapped trace: 30 bytes an event, 30 MB a million.  Its message and
 * fields are made from the payload only when a query asks for them, so
 * that building the table is a walk without rendering (trace_reader.h's
 * EVT_TRACE_NO_TEXT), and the traces stay open, mapped, as long as the
 * table: it closes them.
 *
 * A source is what the rows of one event description of one trace share:
 * the description (its path is the row's name), the trace set and the
 * reader that render it, and the ids SQL gives its site and trace.
 */
#ifndef EVT_READER_EVENT_TABLE_H
#define EVT_READER_EVENT_TABLE_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

#include "trace_reader.h"

struct evt_event_table;

/* The kind of an event description as SQL tables say it: "printk",
 * "typed", "span", ... */
const char *evt_event_kind_word(unsigned kind);

struct evt_event_table *evt_event_table_new(void);
/* Frees t and closes the trace sets it took. */
void evt_event_table_free(struct evt_event_table *t);

/* Takes s, closed with t: its number among t's sets, or -1 without
 * memory (s is then closed). */
int evt_event_table_take_set(struct evt_event_table *t, struct evt_trace_set *s);
/* A source: its number, or -1 without memory. */
int64_t evt_event_table_source(struct evt_event_table *t, unsigned set,
			       unsigned reader, const struct evt_event_desc *e,
			       int64_t site_id, uint32_t trace_id);
/* A thread: its number, or -1 without memory. */
int64_t evt_event_table_thread(struct evt_event_table *t, uint32_t pid,
			       uint32_t tid);
/* A row, the next id (1 for the first): 0, or -1 without memory. */
int evt_event_table_add(struct evt_event_table *t, uint32_t source,
			uint32_t thread, int64_t ts, uint16_t cpu,
			const uint8_t *payload, size_t payload_size);
size_t evt_event_table_rows(const struct evt_event_table *t);

/* The columns as they are, for a reader that takes them in place (the
 * Python module's arrays): valid, and unchanged, while t lives with no
 * more rows added.  Row i is event id i + 1; source and thread number
 * the sources and threads below. */
struct evt_event_columns {
	size_t n;
	const int64_t *ts;
	const uint32_t *source, *thread;
	const uint16_t *cpu;
	uint32_t nsources, nthreads;
};
void evt_event_table_columns(const struct evt_event_table *t,
			     struct evt_event_columns *out);
/* Source s's name (its event's path), kind (evt_event_kind_word()), site
 * and trace ids as SQL has them. */
void evt_event_table_source_info(const struct evt_event_table *t, uint32_t s,
				 const char **name, const char **kind,
				 int64_t *site_id, uint32_t *trace_id);
void evt_event_table_thread_info(const struct evt_event_table *t, uint32_t i,
				 uint32_t *pid, uint32_t *tid);

/*
 * Makes t the table temp.event of db, and the view temp.args of its
 * fields; db owns t from then on, and frees it when it closes (also when
 * this fails).  The columns: id (the row's, from 1, in time order), ts,
 * name, kind, pid, tid, cpu, site_id, message (the rendered text, without
 * a last newline; NULL when the payload does not fit its format),
 * trace_id, and the hidden fields (a JSON object, as args spreads out).
 * 0, or -1 with err set.
 */
int evt_event_table_sql(sqlite3 *db, struct evt_event_table *t, char *err,
			size_t err_size);

#endif
