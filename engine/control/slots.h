/*
 * slots.h - collections in a run directory and their slots in running
 * processes (layout.h).
 *
 * Slot 0 is the default collection, the one `evtrace enable` switches.
 * Every other collection holds a number n in the run directory, through
 * an exclusive flock on "slot-<n>.lock", which also says who holds it
 * (pid and a description, for messages) and the collection's id.  In each
 * process it records it takes a slot of its own (evt_slot_take), whose
 * descriptor names its id and number.  A slot whose number's lock is not
 * held, or held by another collection, is left over from an owner that
 * went away: whoever finds it frees it (evt_slot_release_orphans).
 */
#ifndef EVT_ENGINE_SLOTS_H
#define EVT_ENGINE_SLOTS_H

#include <stddef.h>
#include <stdint.h>

#include "ctl.h"
#include "rundir.h"

/* An engine acting for users without privilege towards the processes
 * (evt_policy_guest) takes only guest numbers and slots (layout.h). */

/*
 * (All taken: errno EBUSY.)
 * Takes the first free number of 1..EVT_MAX_NUMBERS-1 (of the guest
 * numbers alone for a guest engine) for collection id, and writes "what"
 * (e.g. "evtrace record -o tr") and the id into its lock file.  Returns
 * the number and sets *lock_fd, or returns -1 with err set.
 */
int evt_slot_claim(const struct evt_rundir *rd, uint64_t id, const char *what,
		   int *lock_fd, char *err, size_t err_size);
/* Writes who holds lock_fd now (pid, what, id) into it. */
void evt_slot_lock_describe(int lock_fd, uint64_t id, const char *what);

/*
 * The slot collection id has in process c: one it took, or else the
 * first free one (of the guest slots alone for a guest engine), taken
 * now.  -1 when every slot it may take is another collection's; then
 * why, when not NULL, says so and whose they are ("pid 12: not
 * <done>: every collection slot of the process is taken (slot 1:
 * collection 3: pid 1234, evtrace record ...; ...): ...").
 */
int evt_slot_take(const struct evt_rundir *rd, struct evt_ctl *c, uint64_t id,
		  const char *done, char *why, size_t why_size);
/* The slot collection id took in process c and set up, or -1. */
int evt_slot_find(const struct evt_ctl *c, uint64_t id);
/* The collection number slot s of process c was taken for (0: none). */
uint32_t evt_slot_number(const struct evt_ctl *c, unsigned s);

/*
 * Sets up slot s of a running process, taken by evt_slot_take: whatever a former owner left in
 * it (enable bits, buffers) is let go of, the descriptor is rewritten for
 * this collection, and gen bumped before and after so that a thread that
 * read it half-written asks again.
 */
void evt_slot_attach(struct evt_ctl *c, unsigned s, uint32_t number,
		     uint64_t collection_id, uint32_t block_us, uint32_t mode, uint32_t packet_size,
		     uint32_t packet_count);
/* Switches off every event of slot s in the process and frees the slot. */
void evt_slot_detach(struct evt_ctl *c, unsigned s);

/* Whether an engine holds number n's lock, and if so "collection 3: pid
 * 1234, evtrace record -o tr" in out (when not NULL). */
bool evt_slot_holder(const struct evt_rundir *rd, unsigned n, char *out,
		     size_t out_size);
/* Whether an engine holds number n's lock (false for 0). */
bool evt_slot_held(const struct evt_rundir *rd, unsigned n);
/* Whether collection id runs: an engine holds number n's lock for it. */
bool evt_slot_live(const struct evt_rundir *rd, unsigned n, uint64_t id);
/* Whether slot s of process c is a running collection's. */
bool evt_slot_owned(const struct evt_rundir *rd, const struct evt_ctl *c,
		    unsigned s);

/*
 * Slots of live processes whose owner went away (a collection killed):
 * their events are switched off and the slots freed.  Returns how many
 * slots were let go of.
 */
unsigned evt_slot_release_orphans(const struct evt_rundir *rd,
				  struct evt_ctl *c);

#endif
