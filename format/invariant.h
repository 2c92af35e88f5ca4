/*
 * invariant.h - evt_invariant(cond): a fact about evtrace's own state
 * that, false, would corrupt or lose data (a record past its packet, a
 * count that does not add up).  Checked in debug and sanitizer builds
 * (meson defines EVT_CHECK_INVARIANTS there), where a false one aborts
 * with where it is; compiled out elsewhere, so that the write path pays
 * nothing.  Never for what another process or a file says (a control
 * file, a trace): that is checked and reported, whatever the build.
 */
#ifndef EVT_FORMAT_INVARIANT_H
#define EVT_FORMAT_INVARIANT_H

#ifdef EVT_CHECK_INVARIANTS
#undef NDEBUG
#include <assert.h>
#define evt_invariant(cond) assert(cond)
#else
#define evt_invariant(cond) ((void)0)
#endif

#endif
