/*
 * sql_time.h - questions about time, as SQL over the tables of
 * trace_sql (slice, counter, flow) and the event table.
 *
 * Views, which any database of these tables has (query's, and the file
 * convert --to sqlite writes):
 *   counter_span    each counter sample with the time it held: end_ts
 *                   and dur up to its process's next sample of that name
 *                   (NULL for the last)
 *   thread_state    each thread's state over time, from the kernel's
 *                   sched_switch and sched_wakeup events: Running, R
 *                   (runnable), R+ (preempted), S, D, ... as the kernel
 *                   prints them, from ts to end_ts (NULL: the thread's
 *                   last state seen)
 * Functions, which query's database has:
 *   ancestor_slices(id)          the spans around a span, nearest first
 *   descendant_slices(id)        the spans inside one, in order of begin
 *   overlapping_slices(id[, scope])  the slices whose time overlaps one's,
 *                   on any thread ('any', the default), its process's
 *                   ('process') or its thread's ('thread')
 *   counter_at(name, ts[, pid])  the value a counter held at ts: its last
 *                   sample at or before ts (of that process, or of any)
 */
#ifndef EVT_READER_SQL_TIME_H
#define EVT_READER_SQL_TIME_H

#include <sqlite3.h>
#include <stddef.h>

/* The views, in schema ("main" or "temp": where event is): 0, or -1 with
 * err set. */
int evt_sql_time_views(sqlite3 *db, const char *schema, char *err, size_t err_size);

/* The functions: 0, or -1 with err set. */
int evt_sql_time_functions(sqlite3 *db, char *err, size_t err_size);

#endif
