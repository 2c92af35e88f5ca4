/*
 * caps.h - the rate caps a collection set (record --guard, a consumer's
 * evt_consumer_set_rate()), which are its own and end with it: kept
 * here, published in the run directory as slot-<N>.caps so that ls names
 * the collection that set each, and lifted, where no one changed them
 * since, when it ends.  (enable --rate sets a rule of the default
 * collection instead, which lasts until --rate 0 or disable.)
 *
 * slot-<N>.caps: "evtrace-caps 1", then a line "PID ID RATE KIND" a cap
 * (KIND: guard or rate).
 */
#ifndef EVT_ENGINE_CAPS_H
#define EVT_ENGINE_CAPS_H

#include <stdint.h>

#include "ctl.h"
#include "rundir.h"

enum evt_cap_kind { EVT_CAP_GUARD = 1, EVT_CAP_RATE = 2 };

struct evt_cap {
	uint32_t pid, id, rate;
	enum evt_cap_kind kind;
};

struct evt_caps {
	struct evt_cap *v;
	unsigned n;
};

/* Notes that the collection set event id of pid to rate (0: took its
 * cap away).  0, or -1 out of memory (the cap stands, unnoted). */
int evt_caps_note(struct evt_caps *caps, uint32_t pid, uint32_t id, uint32_t rate,
		  enum evt_cap_kind kind);
/* Writes slot-<number>.caps (best effort: ls then names no one). */
void evt_caps_publish(const struct evt_rundir *rd, unsigned number,
		      const struct evt_caps *caps);
/* Takes back, in process c, the caps noted there that still hold the
 * rate they were given (a rate set since, by another, stays). */
void evt_caps_lift(const struct evt_caps *caps, struct evt_ctl *c);
/* Removes slot-<number>.caps and frees what was noted. */
void evt_caps_end(const struct evt_rundir *rd, unsigned number, struct evt_caps *caps);

/* Every cap published by a collection that runs (its slot held), with
 * its collection's number. */
struct evt_caps_seen {
	struct evt_cap *v;
	unsigned *number;
	unsigned n;
};
void evt_caps_read_all(const struct evt_rundir *rd, struct evt_caps_seen *seen);
/* The published cap of event id of pid at rate, or NULL. */
const struct evt_cap *evt_caps_find(const struct evt_caps_seen *seen, uint32_t pid,
				    uint32_t id, uint32_t rate, unsigned *number);
void evt_caps_seen_free(struct evt_caps_seen *seen);

#endif
