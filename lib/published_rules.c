/*
 * published_rules.c - the rules files that cover this process (rules.h),
 * read from the run directory and applied to each event as it registers.
 *
 * At start: the collections named in $EVTRACE_COLLECTION (one, or several
 * separated by commas: a recording and the stream of its triggers), every collection
 * of scope "all", and default.rules (number 0).  A collection's file
 * counts only while an engine holds its number's lock for it
 * (slot_owner.h): a file left by a dead one configures nothing; each
 * takes a free slot of the process.
 * default.rules is read again whenever a module registers (dlopen), so
 * that an `enable` of a directory after the process started covers the
 * libraries it loads later.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime.h"
#include "slot_owner.h"

/* Rules files are small; a line may carry a pid. */
#define RULES_FILE_MAX (EVT_RULES_MAX_PATTERNS * (EVT_RULES_PATTERN_MAX + 24) + 256)

/* Reads and parses name; NULL (said when it matters) if it cannot. */
static struct evt_rules *read_rules(const struct evt_rundir *rd, const char *name,
				    const char *what, bool quiet_if_absent)
{
	char err[EVT_RUNDIR_PATH_MAX + 300];
	struct evt_rules *r;
	char *buf;
	ssize_t n;
	int fd = evt_rundir_openat(rd, name, O_RDONLY, 0, err, sizeof(err));

	if (fd < 0) {
		if (errno == ENOENT && quiet_if_absent)
			evt__debug("%s", err);
		else
			evt__warn("%s; no %s rules applied", err, what);
		return NULL;
	}
	buf = malloc(RULES_FILE_MAX);
	r = malloc(sizeof(*r));
	n = buf && r ? read(fd, buf, RULES_FILE_MAX) : -1;
	close(fd);
	if (n < 0 || n == RULES_FILE_MAX) {
		if (buf && r)
			evt__warn("%s/%s: unreadable or too large; ignored",
				  rd->path, name);
		goto fail;
	}
	if (evt_rules_parse(buf, (size_t)n, r, err, sizeof(err))) {
		evt__warn("%s/%s: %s; ignored", rd->path, name, err);
		goto fail;
	}
	free(buf);
	return r;
fail:
	free(buf);
	free(r);
	return NULL;
}

/*
 * Whether collection id runs: an engine holds the lock of its number n
 * for it (slot_owner.h).  System calls only: a thread may ask in a signal
 * handler (evt__orphan_check).
 */
static bool collection_runs(int dfd, uint32_t n, uint64_t id)
{
	char name[32] = "slot-";
	bool runs;
	int fd, k = 5;
	uint32_t d;

	if (n == 0 || n >= EVT_MAX_NUMBERS || !id)
		return false;
	for (d = 100; d; d /= 10)	/* by hand, as snprintf is not safe */
		if (n >= d || d == 1)
			name[k++] = (char)('0' + n / d % 10);
	memcpy(name + k, ".lock", 6);
	fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return false;
	runs = evt_slot_lock_holds(fd, id);
	close(fd);	/* and with it a shared lock it may have got */
	return runs;
}

/* Takes up a collection's rules: a free slot configured for it, its
 * lines kept.  Before the control file is published: no engine takes
 * slots in it meanwhile. */
static void adopt(const struct evt_rundir *rd, struct evt_rules *r,
		  const char *name)
{
	unsigned s, first = r->number >= EVT_GUEST_NUMBER_FIRST ?
			    EVT_GUEST_SLOT_FIRST : 1;

	if (!collection_runs(rd->fd, r->number, r->collection_id)) {
		evt__debug("%s/%s: not applied (its engine is gone)", rd->path,
			   name);
		free(r);
		return;
	}
	for (s = 1; s < EVT_NSLOTS; s++)
		if (evt__proc.slots[s].collection_id == r->collection_id) {
			free(r);	/* named twice */
			return;
		}
	for (s = first; s < EVT_NSLOTS; s++)
		if (evt__proc.slots[s].state == EVT_SLOT_FREE &&
		    !evt__proc.slots[s].collection_id)
			break;
	if (s == EVT_NSLOTS) {
		evt__warn("%s/%s: not applied: every collection slot of this "
			  "process is taken (evtrace ls -p %d names them); "
			  "collection %u does not record it", rd->path, name,
			  (int)evt__proc.pid, r->number);
		free(r);
		return;
	}
	evt__proc.rules[s] = r;
	evt__slot_configure(s, r->number, r->mode, r->collection_id,
			    r->block_us, r->packet_size, r->packet_count);
}

/* Whether name is one of the comma-separated names of list. */
static bool listed(const char *list, const char *name)
{
	size_t n = strlen(name);

	for (; list && *list; list += strcspn(list, ",") + (list[strcspn(list, ",")] == ','))
		if (strcspn(list, ",") == n && !strncmp(list, name, n))
			return true;
	return false;
}

/* Collections of scope "all": every process of the run directory. */
static void load_scope_all(const struct evt_rundir *rd, const char *env_names)
{
	int fd = openat(rd->fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *dh = fd < 0 ? NULL : fdopendir(fd);
	struct dirent *d;

	if (!dh) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while ((d = readdir(dh))) {
		size_t len = strlen(d->d_name);
		struct evt_rules *r;

		if (strncmp(d->d_name, "collection-", 11) || len < 17 ||
		    strcmp(d->d_name + len - 6, ".rules") ||
		    listed(env_names, d->d_name))
			continue;
		r = read_rules(rd, d->d_name, "collection", true);
		if (r && r->scope == EVT_SCOPE_ALL)
			adopt(rd, r, d->d_name);
		else
			free(r);
	}
	closedir(dh);
}

static void load_default(const struct evt_rundir *rd)
{
	struct evt_rules *r = read_rules(rd, "default.rules", "default", true);

	if (r && r->number != 0) {
		evt__warn("%s/default.rules: not for number 0; ignored", rd->path);
		free(r);
		r = NULL;
	}
	free(evt__proc.rules[0]);
	evt__proc.rules[0] = r;
}

void evt__rules_load_locked(const struct evt_rundir *rd)
{
	const char *names = secure_getenv("EVTRACE_COLLECTION"), *p;
	char name[256];
	struct evt_rules *r;

	for (p = names; p && *p; p += strcspn(p, ",") + (p[strcspn(p, ",")] == ',')) {
		size_t n = strcspn(p, ",");

		if (n == 0 || n >= sizeof(name))
			continue;
		memcpy(name, p, n);
		name[n] = '\0';
		if (strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, "..")) {
			evt__warn("EVTRACE_COLLECTION '%.200s': not a file name in "
				  "the run directory; ignored", name);
			continue;
		}
		if ((r = read_rules(rd, name, "collection", true)))
			adopt(rd, r, name);
	}
	load_scope_all(rd, names);
	load_default(rd);
}

void evt__rules_reload_default_locked(void)
{
	struct evt_rundir rd;
	char err[EVT_RUNDIR_PATH_MAX + 300];

	if (!evt__proc.rundir[0] ||
	    evt_rundir_open(&rd, evt__proc.rundir, 0, err, sizeof(err))) {
		return;		/* said at start, if it mattered */
	}
	load_default(&rd);
	evt_rundir_close(&rd);
}

/* A rate line of default.rules that names the event: its rate written
 * where engines and the write path read it (layout.h).  Whether it has
 * one. */
static bool apply_rate(uint32_t id, const char *path)
{
	const struct evt__event *e = &evt__proc.events[id];
	int64_t rate = evt__proc.rules[0] ?
		       evt_rules_rate(evt__proc.rules[0], path, e->func, e->format,
				      evt__proc.pid) : -1;
	uint32_t r32 = (uint32_t)rate;
	int saved = errno;
	bool ok;

	if (rate <= 0 || evt__proc.fd < 0)
		return false;
	ok = pwrite(evt__proc.fd, &r32, sizeof(r32),
		    (off_t)(evt__proc.rates_off + (uint64_t)id * sizeof(r32))) ==
	     (ssize_t)sizeof(r32);
	errno = saved;
	return ok;
}

void evt__rules_apply_locked(uint32_t id, const char *path, uint32_t parent)
{
	bool rated = apply_rate(id, path);
	unsigned s;

	for (s = 0; s < EVT_NSLOTS; s++) {
		const struct evt_rules *r = evt__proc.rules[s];

		/* (A slot let go of since is another collection's now.) */
		if (!r || (s && (evt__proc.slots[s].collection_id != r->collection_id ||
				 __atomic_load_n(&evt__proc.slots[s].state,
						 __ATOMIC_ACQUIRE) != EVT_SLOT_ACTIVE)) ||
		    evt_rules_decide(r, path, evt__proc.events[id].func,
					   evt__proc.events[id].format,
					   evt__proc.pid) != 1)
			continue;
		__atomic_fetch_or(&evt__proc.enable[id], 1u << s, __ATOMIC_RELEASE);
		/* A stable view is written from its raw event's site: the
		 * same union an engine keeps (engine/control/ctl.c). */
		if (parent != UINT32_MAX)
			__atomic_fetch_or(&evt__proc.enable[parent],
					  1u << (EVT_VIEW_SHIFT + s),
					  __ATOMIC_RELEASE);
		if (rated)
			__atomic_fetch_or(&evt__proc.enable[id], EVT_RATE_BIT,
					  __ATOMIC_RELEASE);
		evt__flag_raise(id);
		if (parent != UINT32_MAX)
			evt__flag_raise(parent);
	}
}

/*
 * A thread found slot s's buffer full: is its engine gone?  (A killed
 * stream or recording leaves its events on until the next engine starts;
 * the process need not wait for one.)  At most about once a second per
 * process, with system calls only (this may run in a signal handler): if
 * nobody holds the lock of the slot's number for its collection, its
 * events are switched off and the slot freed, in the order slots.h gives
 * (state, bits, id), so that of several who find it one alone does it.
 */
void evt__orphan_check(unsigned s, uint64_t now)
{
	static uint64_t last;
	uint64_t prev = __atomic_load_n(&last, __ATOMIC_RELAXED);
	struct evt_ctl_slot *sl = &evt__proc.slots[s];
	uint64_t owner;
	int dfd, saved = errno;
	bool runs;

	/* 2^31 clock units: 0.7 s of a 3 GHz TSC, 2.1 s of nanoseconds. */
	if (now - prev < (1ull << 31) && prev)
		return;
	if (!__atomic_compare_exchange_n(&last, &prev, now, 0, __ATOMIC_RELAXED,
					 __ATOMIC_RELAXED))
		return;		/* another thread looks */
	owner = __atomic_load_n(&sl->collection_id, __ATOMIC_ACQUIRE);
	dfd = open(evt__proc.rundir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0)
		goto out;
	runs = collection_runs(dfd, __atomic_load_n(&sl->number, __ATOMIC_RELAXED),
			       owner);
	close(dfd);
	if (!runs && owner)
		evt_slot_let_go(sl, s, owner, true, evt__proc.enable,
				__atomic_load_n(&evt__proc.nevents, __ATOMIC_ACQUIRE),
				NULL);
out:
	errno = saved;
}
