/*
 * slots.c - collections' numbers in a run directory and their slots in
 * running processes (see slots.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "live.h"
#include "policy.h"
#include "slot_owner.h"
#include "slots.h"
#include "ctl_version.h"

int evt_rundir_slot_lock(const struct evt_rundir *rd, unsigned n, char *err,
			 size_t err_size)
{
	char name[32];

	snprintf(name, sizeof(name), "slot-%u.lock", n);
	return evt_rundir_openat(rd, name, O_RDWR | O_CREAT, 0600, err, err_size);
}

/* "collection 3: pid 1234, evtrace record -o tr" from a held lock file. */
static void describe_holder(int fd, unsigned n, char *out, size_t out_size)
{
	char text[300];
	ssize_t len = pread(fd, text, sizeof(text) - 1, 0);
	int pid = 0, at = 0;

	text[len > 0 ? len : 0] = '\0';
	text[strcspn(text, "\n")] = '\0';
	if (sscanf(text, "%d %n", &pid, &at) == 1 && pid > 0 && at > 0)
		snprintf(out, out_size, "collection %u: pid %d, %s", n, pid, text + at);
	else
		snprintf(out, out_size, "collection %u: an engine that did not say", n);
}

void evt_slot_lock_describe(int lock_fd, uint64_t id, const char *what)
{
	char line[300];
	int n = snprintf(line, sizeof(line), "%d %.200s\nid %" PRIu64 "\n",
			 (int)getpid(), what, id);

	if (ftruncate(lock_fd, 0) == 0 && n > 0)
		(void)!pwrite(lock_fd, line, (size_t)n < sizeof(line) ?
			      (size_t)n : sizeof(line) - 1, 0);
}

/* Number n's lock, open, when an engine holds it (for id, unless 0);
 * else -1. */
static int open_held(const struct evt_rundir *rd, unsigned n, uint64_t id)
{
	char name[32], err[PATH_MAX + 200];
	int fd;

	if (n == 0 || n >= EVT_MAX_NUMBERS)
		return -1;
	snprintf(name, sizeof(name), "slot-%u.lock", n);
	fd = evt_rundir_openat(rd, name, O_RDONLY, 0, err, sizeof(err));
	if (fd >= 0 && !evt_slot_lock_holds(fd, id)) {
		close(fd);	/* and the shared lock it may have got */
		fd = -1;
	}
	return fd;
}

bool evt_slot_holder(const struct evt_rundir *rd, unsigned n, char *out,
		     size_t out_size)
{
	int fd = open_held(rd, n, 0);

	if (fd < 0)
		return false;
	if (out)
		describe_holder(fd, n, out, out_size);
	close(fd);
	return true;
}

bool evt_slot_held(const struct evt_rundir *rd, unsigned n)
{
	return evt_slot_holder(rd, n, NULL, 0);
}

bool evt_slot_live(const struct evt_rundir *rd, unsigned n, uint64_t id)
{
	int fd = id ? open_held(rd, n, id) : -1;

	if (fd < 0)
		return false;
	close(fd);
	return true;
}

int evt_slot_claim(const struct evt_rundir *rd, uint64_t id, const char *what,
		   int *lock_fd, char *err, size_t err_size)
{
	bool guest = evt_policy_guest();
	unsigned first = guest ? EVT_GUEST_NUMBER_FIRST : 1, n;

	/* The first free number; a look that holds one for a moment
	 * (evt_slot_lock_holds) is waited out only when no number is free
	 * without it, so that claimers that look at each other's go on. */
	for (unsigned pass = 0; pass < 2; pass++)
		for (n = first; n < EVT_MAX_NUMBERS; n++) {
			int fd;

			/* Only the guests' numbers are left: leave them to
			 * guests. */
			if (!guest && n == EVT_GUEST_NUMBER_FIRST)
				break;
			fd = evt_rundir_slot_lock(rd, n, err, err_size);
			if (fd < 0)
				return -1;
			if (pass ? evt_slot_lock_take(fd) == 0 :
			    flock(fd, LOCK_EX | LOCK_NB) == 0) {
				evt_slot_lock_describe(fd, id, what);
				*lock_fd = fd;
				return (int)n;
			}
			close(fd);
		}
	snprintf(err, err_size, "%s: all %u collection numbers%s are in use "
		 "(evtrace ls -p PID names the collections of a process): end "
		 "one first", rd->path, guest ? EVT_GUEST_NUMBERS :
		 EVT_GUEST_NUMBER_FIRST - 1, guest ? " open to other users" : "");
	errno = EBUSY;
	return -1;
}

int evt_slot_find(const struct evt_ctl *c, uint64_t id)
{
	unsigned s;

	for (s = 1; s < EVT_NSLOTS && id && !c->shrank; s++)
		if (__atomic_load_n(&c->slots[s].collection_id, __ATOMIC_ACQUIRE) == id &&
		    __atomic_load_n(&c->slots[s].state, __ATOMIC_ACQUIRE) ==
		    EVT_SLOT_ACTIVE)
			return (int)s;
	return -1;
}

uint32_t evt_slot_number(const struct evt_ctl *c, unsigned s)
{
	if (s == 0 || s >= EVT_NSLOTS || c->shrank)
		return 0;
	return __atomic_load_n(&c->slots[s].number, __ATOMIC_RELAXED);
}

bool evt_slot_owned(const struct evt_rundir *rd, const struct evt_ctl *c,
		    unsigned s)
{
	if (s == 0 || s >= EVT_NSLOTS || c->shrank)
		return false;
	return evt_slot_live(rd, evt_slot_number(c, s),
			     __atomic_load_n(&c->slots[s].collection_id,
					     __ATOMIC_ACQUIRE));
}

/* The first free slot from first on, taken for id; -1 if none. */
static int take_free(struct evt_ctl *c, unsigned first, uint64_t id)
{
	unsigned s;

	for (s = first; s < EVT_NSLOTS && !c->shrank; s++) {
		uint64_t none = 0;

		if (__atomic_load_n(&c->slots[s].state, __ATOMIC_ACQUIRE) ==
		    EVT_SLOT_FREE &&
		    __atomic_compare_exchange_n(&c->slots[s].collection_id, &none,
						id, 0, __ATOMIC_ACQ_REL,
						__ATOMIC_RELAXED))
			return (int)s;
	}
	return -1;
}

int evt_slot_take(const struct evt_rundir *rd, struct evt_ctl *c, uint64_t id,
		  const char *done, char *why, size_t why_size)
{
	bool guest = evt_policy_guest();
	unsigned first = guest ? EVT_GUEST_SLOT_FIRST : 1, s;
	size_t len;
	int got;

	/* One it took before (a fork copied it, or the process took it up
	 * from our rules), set up or not. */
	for (s = first; s < EVT_NSLOTS && !c->shrank; s++)
		if (__atomic_load_n(&c->slots[s].collection_id, __ATOMIC_ACQUIRE) == id)
			return (int)s;
	/* A library that does not bound a guest's buffers lets a stranger
	 * take them all: the owner's and root's to record. */
	if (guest && !evt_ctl_has(&c->h, EVT_CTL_MINOR_RELEASE)) {
		char release[32];

		if (why)
			snprintf(why, why_size, "pid %u: not %s: it runs libevtrace "
				 "%s, which cannot bound the buffers another user's "
				 "collection takes from it: its owner or root may "
				 "record it, or restart it with libevtrace %s or "
				 "later", c->h.pid, done,
				 evt_ctl_release(&c->h, release, sizeof(release)),
				 EVT_RELEASE);
		return -1;
	}
	got = take_free(c, first, id);
	/* Slots a gone engine left: freed, unless this engine is a guest's
	 * (what a dead flight recorder left is its owner's to recover). */
	if (got < 0 && !guest && evt_slot_release_orphans(rd, c))
		got = take_free(c, first, id);
	if (got >= 0 || !why)
		return got;
	len = (size_t)snprintf(why, why_size, "pid %u: not %s: every collection "
			       "slot of the process is taken (", c->h.pid, done);
	for (s = first; s < EVT_NSLOTS && len < why_size && !c->shrank; s++) {
		char who[300];

		if (!evt_slot_holder(rd, evt_slot_number(c, s), who, sizeof(who)))
			snprintf(who, sizeof(who), "a collection starting or ending");
		len += (size_t)snprintf(why + len, why_size - len, "%sslot %u: %s",
					s > first ? "; " : "", s, who);
	}
	if (len < why_size)
		snprintf(why + len, why_size - len, "): end one of those "
			 "collections, or run fewer at once");
	return -1;
}

/* Buffers a former owner of slot s left behind, filled and let go of by
 * their threads: nobody will read them, the process may reuse them. */
static void free_leftovers(struct evt_ctl *c, unsigned s)
{
	uint32_t i, n = evt_ctl_tbufs_used(c);

	for (i = 0; i < n && !c->shrank; i++) {
		struct evt_ctl_tbuf *d = &c->tbufs[i];
		uint32_t exited = EVT_TBUF_EXITED;

		if (d->slot == s)
			__atomic_compare_exchange_n(&d->state, &exited,
						    EVT_TBUF_FREE, 0,
						    __ATOMIC_RELEASE,
						    __ATOMIC_RELAXED);
	}
}

void evt_slot_attach(struct evt_ctl *c, unsigned s, uint32_t number,
		     uint64_t collection_id, uint32_t block_us, uint32_t mode,
		     uint32_t packet_size, uint32_t packet_count)
{
	struct evt_ctl_slot *sl = &c->slots[s];
	const struct evt_slot_settings set = {
		.number = number, .collection_id = collection_id, .mode = mode,
		.block_us = block_us, .packet_size = packet_size,
		.packet_count = packet_count,
	};

	__atomic_store_n(&sl->state, EVT_SLOT_FREE, __ATOMIC_RELEASE);
	evt_slot_clear_bits(c->enable, c->h.max_events, s, &c->shrank);
	free_leftovers(c, s);
	/* (while FREE: no thread counts into them) */
	__atomic_store_n(&sl->nobuf_lost, 0, __ATOMIC_RELAXED);
	evt_ctl_drops_empty(c, EVT_DROPS_OF_SLOT(c->h.max_tbufs, s));
	evt_slot_write(sl, &set);
	__atomic_store_n(&sl->state, EVT_SLOT_ACTIVE, __ATOMIC_RELEASE);
}

/* Frees slot s, which was id's (slot_owner.h). */
static bool free_slot(struct evt_ctl *c, unsigned s, uint64_t id, bool active)
{
	return evt_slot_let_go(&c->slots[s], s, id, active, c->enable,
			       c->h.max_events, &c->shrank);
}

void evt_slot_detach(struct evt_ctl *c, unsigned s)
{
	if (c->shrank || s == 0 || s >= EVT_NSLOTS)
		return;
	free_slot(c, s, __atomic_load_n(&c->slots[s].collection_id,
					__ATOMIC_ACQUIRE), true);
}

unsigned evt_slot_release_orphans(const struct evt_rundir *rd, struct evt_ctl *c)
{
	unsigned s, released = 0;

	for (s = 1; s < EVT_NSLOTS && !c->shrank; s++) {
		struct evt_ctl_slot *sl = &c->slots[s];
		uint64_t id = __atomic_load_n(&sl->collection_id, __ATOMIC_ACQUIRE);
		bool active = __atomic_load_n(&sl->state, __ATOMIC_ACQUIRE) ==
			      EVT_SLOT_ACTIVE;
		uint32_t n = __atomic_load_n(&sl->number, __ATOMIC_RELAXED);

		/* A slot being taken (an id, no number yet) is left alone. */
		if (!id || (!active && !n) || evt_slot_live(rd, n, id))
			continue;
		if (free_slot(c, s, id, active)) {
			free_leftovers(c, s);
			released++;
		}
	}
	return released;
}
