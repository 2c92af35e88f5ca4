/*
 * trace_seats.c - evtraced's trace sessions counted (trace_seats.h).
 */
#include <stddef.h>
#include <stdint.h>
#include <sys/mman.h>

#include "invariant.h"
#include "trace_seats.h"

struct seat {
	int32_t holder;		/* a client's process, 0: free */
	uint32_t uid;
};

struct evt_trace_seats {
	struct seat seat[EVT_TRACE_SEATS];
};

struct evt_trace_seats *evt_trace_seats_create(void)
{
	void *m = mmap(NULL, sizeof(struct evt_trace_seats), PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	return m == MAP_FAILED ? NULL : m;
}

int evt_trace_seat_take(struct evt_trace_seats *s, uid_t uid, pid_t holder)
{
	unsigned i, mine = 0;
	int at = -1;

	if (!s)
		return -2;
	for (i = 0; i < EVT_TRACE_SEATS && at < 0; i++) {
		int32_t free_seat = 0;

		/* (the uid first: a seat is counted by whoever sees its
		 * holder, after the release that pairs with this acquire) */
		if (__atomic_load_n(&s->seat[i].holder, __ATOMIC_RELAXED) == 0 &&
		    __atomic_compare_exchange_n(&s->seat[i].holder, &free_seat, -1, 0,
						__ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
			__atomic_store_n(&s->seat[i].uid, (uint32_t)uid, __ATOMIC_RELAXED);
			__atomic_store_n(&s->seat[i].holder, (int32_t)holder,
					 __ATOMIC_RELEASE);
			at = (int)i;
		}
	}
	if (at < 0)
		return -2;
	/* Two of one user taking seats at once may both count the other
	 * and both give theirs back: refused, never over the bound. */
	for (i = 0; i < EVT_TRACE_SEATS; i++) {
		int32_t h = __atomic_load_n(&s->seat[i].holder, __ATOMIC_ACQUIRE);

		mine += h > 0 && __atomic_load_n(&s->seat[i].uid, __ATOMIC_RELAXED) ==
				 (uint32_t)uid;
	}
	if (mine > EVT_TRACE_SEATS_PER_USER) {
		__atomic_store_n(&s->seat[at].holder, 0, __ATOMIC_RELEASE);
		return -1;
	}
	/* (it counted its own seat, which it holds) */
	evt_invariant(mine >= 1 && __atomic_load_n(&s->seat[at].holder,
						   __ATOMIC_RELAXED) == (int32_t)holder);
	return 0;
}

void evt_trace_seat_free(struct evt_trace_seats *s, pid_t holder)
{
	unsigned i;

	for (i = 0; s && i < EVT_TRACE_SEATS; i++)
		if (__atomic_load_n(&s->seat[i].holder, __ATOMIC_ACQUIRE) == (int32_t)holder)
			__atomic_store_n(&s->seat[i].holder, 0, __ATOMIC_RELEASE);
}
