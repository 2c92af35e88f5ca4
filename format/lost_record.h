/*
 * lost_record.h - which sites lost events, and why, as the writer says it.
 *
 * A packet's events_discarded counts what its thread lost before it.  The
 * writer knows more: the site of each event it dropped and the cause.  It
 * keeps a few (site, cause, count) entries while it drops and writes them
 * as records of event EVT_LOST_EVENT_ID ("evtrace/lost", always extended,
 * after a CPU record like every packet's first record) at the start of the
 * next packet it opens, before that packet's first event.  So the records
 * travel wherever packets go (trace files, windows, a relay, a live
 * stream), CTF readers see them as events, and evtrace's readers fold them
 * into the loss the packet header counts.
 *
 * They attribute what the header counts, never add to it: their counts of
 * one packet sum to at most its events_discarded minus the packet's
 * before.  What they leave out (a signal handler's write dropped, drops
 * still pending when the thread ended) is the site-unknown remainder.
 * site is the local id of the event in the packet's stream class, or
 * EVT_LOST_SITE_OTHER for drops at more sites than the writer keeps.
 */
#ifndef EVT_FORMAT_LOST_RECORD_H
#define EVT_FORMAT_LOST_RECORD_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define EVT_LOST_EVENT_ID	0xfffeu
#define EVT_LOST_PAYLOAD_BYTES	13	/* uint32 site, uint8 cause, uint64 count */
#define EVT_LOST_SITE_OTHER	0xffffffffu

enum evt_loss_cause {
	EVT_LOSS_FULL = 1,		/* discard mode: the buffer was full */
	EVT_LOSS_BLOCK_TIMEOUT = 2,	/* --block: waited, the recorder gave
					 * nothing back in time */
	EVT_LOSS_NO_SPACE = 3,		/* the file system of the run
					 * directory (/dev/shm) was full */
	EVT_LOSS_RATE_LIMIT = 4,	/* the site's rate limit */
	EVT_LOSS_NO_BUFFER = 5,		/* the thread found no buffer: the
					 * process's buffers (EVT_MAX_TBUFS)
					 * or their memory (EVT_ARENA_BYTES)
					 * were all taken */
	EVT_LOSS_RELAY_FULL = 6,	/* the relay's queue had no room for
					 * the packet (the recorder's) */
	EVT_LOSS_WRITE_ERROR = 7,	/* the trace could not be written (a
					 * full disk): what the buffers held
					 * when the recording stopped (the
					 * recorder's) */
	EVT_LOSS_CAUSES = 8,		/* causes are below this */
};

/* The cause's name ("buffer full"), or NULL for none of them. */
const char *evt_loss_cause_name(unsigned cause);
/* The cause's word for tables and SQL ("full"), or NULL. */
const char *evt_loss_cause_word(unsigned cause);

/* A site's part of a loss, for evt_loss_text(). */
struct evt_loss_part {
	const char *path;		/* NULL: sites the writer did not name */
	unsigned cause;
	uint64_t count;
};

/*
 * A loss as one line of text, without a newline: "lost 12 events", and
 * after it what parts name, "lost 12 events: 7 of printk/app/svc.c/42
 * (buffer full), 3 of other sites (buffer full), 2 not named".  The
 * parts sum to lost at most.  Returns the length snprintf would.
 */
int evt_loss_text(char *out, size_t size, uint64_t lost,
		  const struct evt_loss_part *parts, unsigned nparts);

struct evt_lost_entry {
	uint32_t site;
	uint8_t cause;
	uint64_t count;
};

static inline void evt_lost_payload_put(uint8_t *p, const struct evt_lost_entry *e)
{
	memcpy(p, &e->site, 4);
	p[4] = e->cause;
	memcpy(p + 5, &e->count, 8);
}

/* 0, or -1 when p holds fewer bytes than a payload or an unknown cause. */
static inline int evt_lost_payload_get(const uint8_t *p, size_t avail,
				       struct evt_lost_entry *e)
{
	if (avail < EVT_LOST_PAYLOAD_BYTES)
		return -1;
	memcpy(&e->site, p, 4);
	e->cause = p[4];
	memcpy(&e->count, p + 5, 8);
	return e->cause && e->cause < EVT_LOSS_CAUSES ? 0 : -1;
}

#endif
