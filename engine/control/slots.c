/*
 * slots.c - collection slots in a run directory and in running processes
 * (see slots.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "live.h"
#include "policy.h"
#include "slots.h"

int evt_rundir_slot_lock(const struct evt_rundir *rd, unsigned s, char *err,
			 size_t err_size)
{
	char name[32];

	snprintf(name, sizeof(name), "slot-%u.lock", s);
	return evt_rundir_openat(rd, name, O_RDWR | O_CREAT, 0600, err, err_size);
}

/* "slot 3: pid 1234, evtrace record -o tr" from a held lock file. */
static void describe_holder(int fd, unsigned s, char *out, size_t out_size)
{
	char text[200];
	ssize_t n = pread(fd, text, sizeof(text) - 1, 0);
	int pid = 0, at = 0;

	text[n > 0 ? n : 0] = '\0';
	text[strcspn(text, "\n")] = '\0';
	if (sscanf(text, "%d %n", &pid, &at) == 1 && pid > 0 && at > 0)
		snprintf(out, out_size, "slot %u: pid %d, %s", s, pid, text + at);
	else
		snprintf(out, out_size, "slot %u: an engine that did not say", s);
}

bool evt_slot_holder(const struct evt_rundir *rd, unsigned s, char *out,
		     size_t out_size)
{
	char name[32], err[PATH_MAX + 200];
	bool held;
	int fd;

	if (s == 0 || s >= EVT_NSLOTS)
		return false;
	snprintf(name, sizeof(name), "slot-%u.lock", s);
	fd = evt_rundir_openat(rd, name, O_RDONLY, 0, err, sizeof(err));
	if (fd < 0)
		return false;
	held = flock(fd, LOCK_SH | LOCK_NB) != 0;
	if (held && out)
		describe_holder(fd, s, out, out_size);
	close(fd);
	return held;
}

bool evt_slot_held(const struct evt_rundir *rd, unsigned s)
{
	return evt_slot_holder(rd, s, NULL, 0);
}

int evt_slot_claim(const struct evt_rundir *rd, const char *what,
		   int *lock_fd, char *err, size_t err_size)
{
	char holders[EVT_NSLOTS][256];
	unsigned first = evt_policy_guest() ? EVT_GUEST_SLOT_FIRST : 1, s, k;
	size_t len;

	for (s = first; s < EVT_NSLOTS; s++) {
		char line[256];
		int fd = evt_rundir_slot_lock(rd, s, err, err_size), n;

		if (fd < 0)
			return -1;
		if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
			n = snprintf(line, sizeof(line), "%d %s\n", (int)getpid(), what);
			if (ftruncate(fd, 0) == 0 && n > 0)
				(void)!pwrite(fd, line, (size_t)n < sizeof(line) ?
					      (size_t)n : sizeof(line) - 1, 0);
			*lock_fd = fd;
			return (int)s;
		}
		describe_holder(fd, s, holders[s], sizeof(holders[s]));
		close(fd);
	}
	if (first > 1)
		len = (size_t)snprintf(err, err_size, "%s: both collection slots "
				       "open to other users are in use (", rd->path);
	else
		len = (size_t)snprintf(err, err_size, "%s: all %d collection slots "
				       "are in use (", rd->path, EVT_NSLOTS - 1);
	for (k = first; k < EVT_NSLOTS && len < err_size; k++)
		len += (size_t)snprintf(err + len, err_size - len, "%s%s",
					k > first ? "; " : "", holders[k]);
	if (len < err_size)
		snprintf(err + len, err_size - len, "): end one of them first");
	errno = EBUSY;
	return -1;
}

/* Clears slot s's bits, and its view bits, in every enable word. */
static void clear_bits(struct evt_ctl *c, unsigned s)
{
	uint32_t mask = ~((1u << s) | (1u << (EVT_VIEW_SHIFT + s))), id;

	for (id = 0; id < c->h.max_events && !c->shrank; id++)
		if (__atomic_load_n(&c->enable[id], __ATOMIC_RELAXED) & ~mask)
			__atomic_fetch_and(&c->enable[id], mask, __ATOMIC_RELEASE);
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

void evt_slot_attach(struct evt_ctl *c, unsigned s, uint64_t collection_id,
		     uint32_t block_us, uint32_t mode, uint32_t packet_size, uint32_t packet_count)
{
	struct evt_ctl_slot *sl = &c->slots[s];

	uint32_t gen = __atomic_load_n(&sl->gen, __ATOMIC_RELAXED);

	__atomic_store_n(&sl->state, EVT_SLOT_FREE, __ATOMIC_RELEASE);
	clear_bits(c, s);
	free_leftovers(c, s);
	/* Odd while the fields change (lib/write.c); a hostile odd gen
	 * from before is made even by the second step. */
	__atomic_store_n(&sl->gen, gen | 1, __ATOMIC_RELEASE);
	sl->mode = mode;
	sl->block_us = block_us;
	sl->collection_id = collection_id;
	sl->packet_size = packet_size;
	sl->packet_count = packet_count;
	__atomic_store_n(&sl->nobuf_lost, 0, __ATOMIC_RELAXED);
	evt_ctl_drops_empty(c, EVT_DROPS_OF_SLOT(c->h.max_tbufs, s));
	/* Pairs with the thread's acquire before it compares gen again. */
	__atomic_store_n(&sl->gen, (gen | 1) + 1, __ATOMIC_RELEASE);
	__atomic_store_n(&sl->state, EVT_SLOT_ACTIVE, __ATOMIC_RELEASE);
}

void evt_slot_detach(struct evt_ctl *c, unsigned s)
{
	if (c->shrank)
		return;
	clear_bits(c, s);
	__atomic_store_n(&c->slots[s].state, EVT_SLOT_FREE, __ATOMIC_RELEASE);
}

unsigned evt_slot_release_orphans(const struct evt_rundir *rd, struct evt_ctl *c)
{
	char err[PATH_MAX + 200];
	unsigned s, released = 0;

	for (s = 1; s < EVT_NSLOTS && !c->shrank; s++) {
		int fd;

		if (__atomic_load_n(&c->slots[s].state, __ATOMIC_ACQUIRE) !=
		    EVT_SLOT_ACTIVE)
			continue;
		/* Held while we clear, so that no new owner comes in between. */
		fd = evt_rundir_slot_lock(rd, s, err, sizeof(err));
		if (fd < 0)
			continue;
		if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
			evt_slot_detach(c, s);
			free_leftovers(c, s);
			released++;
		}
		close(fd);
	}
	return released;
}
