/*
 * slots.h - collection slots: who holds one in a run directory, and
 * taking one up or letting it go in a running process.
 *
 * Slot 0 is the default collection, the one `evtrace enable` switches.
 * Slots 1..EVT_NSLOTS-1 are collections; each is held by one engine at a
 * time through an exclusive flock on "slot-<s>.lock" in the run directory,
 * which also says who holds it (pid and a description, for messages).
 * Whoever holds the lock owns bit s of every enable word and slot
 * descriptor s of every control file in that directory: what it finds
 * there from before is left over from an owner that went away.
 */
#ifndef EVT_ENGINE_SLOTS_H
#define EVT_ENGINE_SLOTS_H

#include <stddef.h>
#include <stdint.h>

#include "ctl.h"
#include "rundir.h"

/*
 * The last slots are the only ones an engine acting for users without
 * privilege towards the processes may take (evt_policy_guest): however
 * many such users come, the run directory's owner and root keep the
 * others.
 */
#define EVT_GUEST_SLOTS 2
#define EVT_GUEST_SLOT_FIRST (EVT_NSLOTS - EVT_GUEST_SLOTS)

/*
 * (All taken: errno EBUSY.)
 * Takes the first free slot of 1..EVT_NSLOTS-1 (of the guest slots alone
 * for a guest engine) and writes "what" (e.g. "evtrace record -o tr")
 * into its lock file.  Returns the slot and sets *lock_fd, or returns -1
 * with err naming the holders of every slot it could take.
 */
int evt_slot_claim(const struct evt_rundir *rd, const char *what,
		   int *lock_fd, char *err, size_t err_size);

/*
 * Makes slot s of a running process ours: whatever a former owner left in
 * it (enable bits, buffers) is let go of, the descriptor is rewritten for
 * this collection, and gen bumped before and after so that a thread that
 * read it half-written asks again.
 */
void evt_slot_attach(struct evt_ctl *c, unsigned s, uint64_t collection_id,
		     uint32_t block_us, uint32_t mode, uint32_t packet_size,
		     uint32_t packet_count);
/* Switches off every event of slot s in the process and frees the slot. */
void evt_slot_detach(struct evt_ctl *c, unsigned s);

/* Whether an engine holds slot s's lock, and if so "slot 3: pid 1234,
 * evtrace record -o tr" in out (when not NULL). */
bool evt_slot_holder(const struct evt_rundir *rd, unsigned s, char *out,
		     size_t out_size);
/* Whether an engine holds slot s's lock (false for slot 0). */
bool evt_slot_held(const struct evt_rundir *rd, unsigned s);

/*
 * Slots of live processes whose owner went away (a collection killed):
 * their events are switched off and the slots freed.  Returns how many
 * slots were let go of.
 */
unsigned evt_slot_release_orphans(const struct evt_rundir *rd,
				  struct evt_ctl *c);

#endif
