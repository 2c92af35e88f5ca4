/*
 * slot_owner.c - whose a collection slot is, and letting it go (see
 * slot_owner.h).
 */
#include <errno.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "rundir.h"
#include "slot_owner.h"

bool evt_slot_lock_holds(int fd, uint64_t id)
{
	char text[300];
	struct stat st;
	ssize_t len;

	if (fstat(fd, &st) || !S_ISREG(st.st_mode) ||
	    flock(fd, LOCK_SH | LOCK_NB) == 0 || errno != EWOULDBLOCK)
		return false;
	if (!id)
		return true;
	len = pread(fd, text, sizeof(text) - 1, 0);
	if (len <= 0)
		return false;
	text[len] = '\0';
	return evt_rundir_lock_id(text) == id;
}

int evt_slot_lock_take(int fd)
{
	struct timespec pause = { 0, 100 * 1000 };
	int tries;

	for (tries = 0; tries < 2000; tries++) {
		if (flock(fd, LOCK_EX | LOCK_NB) == 0)
			return 0;
		if (errno != EWOULDBLOCK)
			return -1;
		/* Only shared locks in the way: looks, which end soon.  (An
		 * engine's exclusive one fails this at once: EWOULDBLOCK.) */
		if (flock(fd, LOCK_SH | LOCK_NB))
			return -1;
		flock(fd, LOCK_UN);
		nanosleep(&pause, NULL);
	}
	errno = EWOULDBLOCK;
	return -1;
}

void evt_slot_clear_bits(uint32_t *enable, uint32_t n, unsigned s,
			 const volatile int *stop)
{
	uint32_t mask = ~((1u << s) | (1u << (EVT_VIEW_SHIFT + s))), i;

	for (i = 0; i < n && !(stop && *stop); i++)
		if (__atomic_load_n(&enable[i], __ATOMIC_RELAXED) & ~mask)
			__atomic_fetch_and(&enable[i], mask, __ATOMIC_RELEASE);
}

bool evt_slot_let_go(struct evt_ctl_slot *sl, unsigned s, uint64_t id,
		     bool active, uint32_t *enable, uint32_t n,
		     const volatile int *stop)
{
	uint32_t state = EVT_SLOT_ACTIVE;

	if (active && !__atomic_compare_exchange_n(&sl->state, &state,
						   EVT_SLOT_FREE, 0,
						   __ATOMIC_ACQ_REL,
						   __ATOMIC_RELAXED))
		return false;
	if (active)
		evt_slot_clear_bits(enable, n, s, stop);
	__atomic_store_n(&sl->number, 0, __ATOMIC_RELAXED);
	return __atomic_compare_exchange_n(&sl->collection_id, &id, 0, 0,
					   __ATOMIC_RELEASE, __ATOMIC_RELAXED);
}

void evt_slot_write(struct evt_ctl_slot *sl, const struct evt_slot_settings *set)
{
	uint32_t gen = __atomic_load_n(&sl->gen, __ATOMIC_RELAXED);

	/* (a hostile odd gen from before is made even by the second step) */
	__atomic_store_n(&sl->gen, gen | 1, __ATOMIC_RELAXED);
	/* Each setting with release: pairs with the reader's acquire load
	 * of it, so that a reader that sees a new setting sees the odd gen
	 * (or a later one) at its second look. */
	__atomic_store_n(&sl->mode, set->mode, __ATOMIC_RELEASE);
	__atomic_store_n(&sl->block_us, set->block_us, __ATOMIC_RELEASE);
	__atomic_store_n(&sl->collection_id, set->collection_id, __ATOMIC_RELEASE);
	__atomic_store_n(&sl->number, set->number, __ATOMIC_RELEASE);
	__atomic_store_n(&sl->packet_size, set->packet_size, __ATOMIC_RELEASE);
	__atomic_store_n(&sl->packet_count, set->packet_count, __ATOMIC_RELEASE);
	__atomic_store_n(&sl->applied, 0, __ATOMIC_RELAXED);
	/* Pairs with the reader's acquire load of gen. */
	__atomic_store_n(&sl->gen, (gen | 1) + 1, __ATOMIC_RELEASE);
}

