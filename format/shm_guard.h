/*
 * shm_guard.h - survive a shared file that shrinks under its mapping.
 *
 * Touching a MAP_SHARED page past the end of its file raises SIGBUS.  A
 * control file is shared by a traced process and the engines reading it,
 * and any of them (or its owner, by mistake) can truncate it.  The guard
 * installs one SIGBUS handler: a fault inside a guarded range replaces the
 * whole range with private zero pages (so the faulting access, retried,
 * reads zeroes and every later one too) and sets the range's flag; the
 * code that owns the range checks the flag and gives the file up.  Any
 * other SIGBUS goes to the handler that was there before, or kills the
 * process as it would have.
 */
#ifndef EVT_FORMAT_SHM_GUARD_H
#define EVT_FORMAT_SHM_GUARD_H

#include <stddef.h>

/*
 * Guards [base, base + size); after a fault in it *flag becomes 1 and
 * on_fault (when given) runs, in the signal handler: it may only call
 * async-signal-safe functions.  The handler is installed on first use.
 * 0, or -1 when it cannot be (a fault then kills the process as before).
 */
int evt_shm_guard_add(void *base, size_t size, volatile int *flag,
		      void (*on_fault)(void));
/* Stops guarding the range at base (before unmapping it). */
void evt_shm_guard_remove(void *base);

#endif
