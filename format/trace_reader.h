/*
 * trace_reader.h - read an evtrace CTF trace directory, time-ordered.
 *
 * Every stream file is walked packet by packet and record by record with
 * each size checked against the packet and the file; what is wrong is
 * reported as an error item naming the file and offset, and reading goes
 * on with the next packet or stream.  Items come in time order across all
 * streams; within a stream, in file order.
 */
#ifndef EVT_FORMAT_TRACE_READER_H
#define EVT_FORMAT_TRACE_READER_H

#include <stddef.h>
#include <stdint.h>

#include "trace_index.h"

enum evt_item_kind {
	EVT_ITEM_EVENT,
	EVT_ITEM_LOST,		/* events lost before this point in a stream */
	EVT_ITEM_ERROR,
};

/*
 * Of a loss, what its writer named (lost_record.h): count events of a site
 * lost for one cause.  event is NULL for sites it did not name (more than
 * it keeps); what the entries leave of the loss is unnamed.
 */
struct evt_loss_site {
	const struct evt_event_desc *event;
	uint8_t cause;			/* enum evt_loss_cause */
	uint64_t count;
};

#define EVT_LOSS_SITES_MAX 16

struct evt_trace_item {
	enum evt_item_kind kind;
	uint64_t timestamp;		/* trace clock */
	int64_t monotonic_ns;
	int64_t realtime_ns;		/* the same instant, CLOCK_REALTIME */
	uint32_t pid;
	uint32_t tid;
	const char *comm;
	uint16_t cpu;
	const struct evt_event_desc *event;	/* EVENT */
	const uint8_t *payload;			/* EVENT */
	size_t payload_size;
	const char *text;			/* EVENT: the rendered message
						 * (NULL: EVT_TRACE_NO_TEXT's) */
	size_t text_len;			/* EVENT: may hold a NUL (%c of 0) */
	unsigned reader;			/* EVENT: of the set's traces and
						 * their keep/ ones (render) */
	unsigned trace;				/* of evt_trace_read_set's */
	uint64_t lost;				/* LOST */
	bool kernel;				/* LOST: a kernel CPU's stream's
						 * (stream_kernel_cpuN), cpu
						 * that CPU */
	const struct evt_loss_site *sites;	/* LOST: by site and cause, */
	unsigned nsites;			/* summing to lost at most */
	const char *message;			/* ERROR */
};

struct evt_trace_stats {
	uint64_t events;
	uint64_t lost;
	uint64_t errors;
	uint32_t streams;
	uint32_t processes;		/* the index's stream classes of processes */
	uint32_t first_pid;		/* the first one's */
	bool complete;			/* the index says the recording ended */
};

typedef int (*evt_trace_item_cb)(const struct evt_trace_item *item, void *ctx);

/*
 * How kernel events are printed where a trace keeps the kernel's format
 * files (the index's kernel-format lines): a printer a program registers
 * once, before reading (engine/kernel/kernel_print.h); without one, or
 * for a record it cannot print, the fields show as field=value.
 */
struct evt_kernel_printer_ops {
	/* The printer of the trace whose index is ix, or NULL. */
	void *(*open)(const struct evt_trace_index *ix);
	/* The text of e's record (e is one of ix's events), its length; or
	 * -1 to leave it to field=value. */
	int (*render)(void *printer, const struct evt_event_desc *e,
		      const uint8_t *payload, size_t size, uint32_t tid,
		      uint16_t cpu, char *out, size_t out_size);
	void (*close)(void *printer);
};

void evt_trace_reader_kernel_printer(const struct evt_kernel_printer_ops *ops);

/*
 * Reads the trace in dir, calling cb for each item in time order; a
 * non-zero return from cb stops the walk.  Returns 0 when the trace could
 * be opened (item errors are counted in stats), or -1 with err set.
 */
/*
 * The same in steps, for a reader that keeps what it was given: the
 * traces opened (a trace that cannot be: -1 with err set), walked once,
 * and closed.  Items' events and payloads stay valid until the close.
 * With EVT_TRACE_NO_TEXT, events come without their text (text NULL:
 * most of a walk's time is rendering), but for spans, async spans and
 * counters (whose text has the arguments span pairing keeps);
 * evt_trace_set_render() makes it when asked (its length, or -1 when the
 * payload does not fit the format: the walk has checked what decides
 * that, but for a typed or printk format's conversions).  Walk: 0, or -1
 * out of memory.
 */
#define EVT_TRACE_NO_TEXT 1u
/* Items' realtime_ns may be 0: for a walker that reads monotonic time
 * only (a single trace's conversion to real time is then not made). */
#define EVT_TRACE_NO_REALTIME 2u

struct evt_trace_set;

int evt_trace_set_open(const char *const *dirs, unsigned ndirs,
		       const int64_t *offsets_ns, unsigned flags,
		       struct evt_trace_stats *stats, struct evt_trace_set **out,
		       char *err, size_t err_size);
int evt_trace_set_walk(struct evt_trace_set *s, evt_trace_item_cb cb, void *ctx);
int evt_trace_set_render(const struct evt_trace_set *s, unsigned reader,
			 const struct evt_event_desc *e, const uint8_t *payload,
			 size_t payload_size, uint32_t tid, uint16_t cpu,
			 char *out, size_t out_size);
void evt_trace_set_close(struct evt_trace_set *s);

int evt_trace_read(const char *dir, evt_trace_item_cb cb, void *ctx,
		   struct evt_trace_stats *stats, char *err, size_t err_size);
/*
 * Several traces (of several machines) read as one, merged on real time:
 * trace i's clock values mapped through its snapshots (clock_map.h), plus
 * offsets_ns[i] (NULL: none).  Items say their trace; their monotonic_ns
 * is on the first trace's CLOCK_MONOTONIC, through real time, so that
 * one timeline serves every reader.  One trace without offsets (NULL)
 * reads as evt_trace_read.  A trace's keep/ (the pinned sites of record
 * --keep) is read with it, as part of it.
 * Stats are of them all; complete when every one is.
 */
int evt_trace_read_set(const char *const *dirs, unsigned ndirs,
		       const int64_t *offsets_ns, evt_trace_item_cb cb, void *ctx,
		       struct evt_trace_stats *stats, char *err, size_t err_size);

#endif
