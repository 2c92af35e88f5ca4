/*
 * slot_owner.h - whose a collection slot is, and letting it go: the one
 * protocol the traced process (lib/) and engines (engine/control/slots.c)
 * both follow on shared memory and the run directory's lock files.
 *
 * A collection holds number n by an exclusive flock on slot-<n>.lock,
 * whose text names its id (rundir.h, evt_rundir_lock_id).  A slot of a
 * process is its collection's while that lock is held and names the id
 * the slot's descriptor holds.  Whoever frees a slot swaps its state from
 * ACTIVE to FREE first, so that of several who find it left over one
 * alone goes on; clears its bits in the enable words; and stores 0 as its
 * id last, so that no new owner takes the slot before its bits are clear.
 * System calls and atomics only: the process may do this in a signal
 * handler.
 */
#ifndef EVT_FORMAT_SLOT_OWNER_H
#define EVT_FORMAT_SLOT_OWNER_H

#include <stdbool.h>
#include <stdint.h>

#include "layout.h"

/*
 * Whether an engine holds the lock open on fd (a shared flock, never
 * waited for, fails while it holds it exclusively) for collection id:
 * the lock's text names id.  id 0: held by anyone.  A shared lock taken
 * here goes with the caller's close(fd).
 */
bool evt_slot_lock_holds(int fd, uint64_t id);

/*
 * Takes the exclusive lock on fd, without waiting for an engine that
 * holds it: 0, or -1 with errno (EWOULDBLOCK: an engine holds it).  A
 * look by evt_slot_lock_holds() (or anyone's shared flock) that holds
 * the lock for a moment is waited out, for 200 ms at most: a claim that
 * met one would otherwise fail, or take the next number, for nothing.
 */
int evt_slot_lock_take(int fd);

/* Clears slot s's bits and view bits in enable[0 .. n); stop as below. */
void evt_slot_clear_bits(uint32_t *enable, uint32_t n, unsigned s,
			 const volatile int *stop);

/*
 * Frees slot s of a process, which was collection id's: state (when
 * active: a slot taken but not set up has none to swap), then s's bits
 * and view bits in enable[0 .. n), then the number, then the id.  stop,
 * when not NULL, ends the clearing early once it is non-zero (an engine's
 * mapping of a file that shrank).  Whether this call freed it.
 */
bool evt_slot_let_go(struct evt_ctl_slot *sl, unsigned s, uint64_t id,
		     bool active, uint32_t *enable, uint32_t n,
		     const volatile int *stop);

/* A slot's settings, as its collection sets them up. */
struct evt_slot_settings {
	uint32_t number;
	uint64_t collection_id;
	uint32_t mode, block_us, packet_size, packet_count;
};

/*
 * Writes the settings of slot sl, the one writer of them (an engine that
 * takes the slot, the process that sets up its default slot or applies
 * rules): a seqlock on gen, odd while they change.  The odd gen is
 * stored, then each setting with release (which keeps it after the odd
 * gen); the even gen's release store keeps them before it.  A writing
 * thread reads gen with acquire, each setting with acquire (which keeps
 * the next look after it), gen again (lib/write.c tslot_acquire): equal
 * and even, it read them whole.  No fence: ThreadSanitizer follows these
 * pairs, and on x86-64 every one is a plain move.  The state is the
 * caller's to set (ACTIVE after this).
 */
void evt_slot_write(struct evt_ctl_slot *sl, const struct evt_slot_settings *set);

#endif
