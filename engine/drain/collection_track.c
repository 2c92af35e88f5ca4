/*
 * collection_track.c - the processes a collection follows: control files
 * found in the run directory, taken when in scope, their selection
 * applied, let go of once dead and drained.
 */
#include "collection_local.h"
#include "ctl_file.h"
#include "orphans.h"

/*
 * Whether the file name, inode ino, was looked at already.  A name comes
 * back for another process (an exec'd image whose first file was let go
 * of, a pid reused): a file we removed is forgotten then, one gone from
 * the directory at the next scan, and the inode tells the rest apart.
 */
static bool seen(struct evt_collection *c, const char *name, ino_t ino)
{
	unsigned i;

	for (i = 0; i < c->nforeign; i++)
		if (c->foreign[i].ino == ino && !strcmp(c->foreign[i].name, name))
			return c->foreign[i].present = true;
	for (i = 0; i < c->ntracked; i++)
		if (c->tracked[i].ino == ino && !strcmp(c->tracked[i].name, name))
			return true;
	return false;
}
static void remember_foreign(struct evt_collection *c, const char *name,
			     ino_t ino)
{
	struct foreign *grown = realloc(c->foreign,
					(c->nforeign + 1) * sizeof(*grown));

	if (!grown)
		return;
	c->foreign = grown;
	grown[c->nforeign].ino = ino;
	grown[c->nforeign].present = true;
	snprintf(grown[c->nforeign].name, sizeof(grown->name), "%s", name);
	c->nforeign++;
}
/* A process that cannot be followed further: said, and counted. */
void evt__coll_unfollowed(struct evt_collection *c, uint32_t pid, const char *path,
		       const char *why)
{
	evt_report("pid %u: %s: %s; its events from then on are "
		"missing, in a number nobody knows", pid, path, why);
	c->stats.unfollowed++;
}
/* A process whose control file was removed while it ran (orphans.h),
 * said and counted once; one this collection reads already loses
 * nothing to it (the collection holds the file). */
static void orphan_found(pid_t pid, const char *comm, const char *file, void *ctx)
{
	struct evt_collection *c = ctx;
	char why[300];
	unsigned i;
	pid_t *grown;

	for (i = 0; i < c->ntracked; i++)
		if (c->tracked[i].ctl && (pid_t)c->tracked[i].ctl->h.pid == pid)
			return;
	for (i = 0; i < c->norphans; i++)
		if (c->orphans[i] == pid)
			return;
	grown = realloc(c->orphans, (c->norphans + 1) * sizeof(*grown));
	if (!grown)
		return;
	c->orphans = grown;
	c->orphans[c->norphans++] = pid;
	snprintf(why, sizeof(why), "(%s) its control file was removed from the run "
		 "directory while it ran, not by evtrace: it writes on into a file "
		 "no engine finds", comm);
	evt__coll_unfollowed(c, (uint32_t)pid, file, why);
}

/* (a command's processes start under the recording: its scope has none
 * before, and they are read as they go) */
void evt__coll_orphans(struct evt_collection *c)
{
	unsigned i;

	if (c->o.snapshot || c->o.recover)
		return;
	if (c->o.all)
		evt_rundir_orphans(&c->rd, 0, orphan_found, c);
	for (i = 0; !c->o.all && i < c->nscope; i++)
		evt_rundir_orphans(&c->rd, c->scope[i], orphan_found, c);
}

/* Whether -p named pid. */
static bool named(const struct evt_collection *c, int pid)
{
	unsigned i;

	for (i = 0; i < c->o.npids; i++)
		if (c->o.pids[i] == pid)
			return true;
	return false;
}
/*
 * The collection's slot in the process, or -1 when it is not ours: it
 * took up our slot itself (our rules), or a fork copied it, or it is in
 * an attached collection's scope and we take a slot in it now.
 */
static int ours(struct evt_collection *c, struct evt_ctl *ctl)
{
	int s = evt_slot_find(ctl, c->id);

	if (s > 0) {
		/* (a snapshot or recovery reads the slot: its owner says) */
		if (!c->o.snapshot && !c->o.recover)
			__atomic_store_n(&ctl->slots[s].keep_of, c->o.keep_of,
					 __ATOMIC_RELAXED);
		return s;
	}
	if (c->failed || c->finishing || (!c->o.all && !c->o.npids) ||
	    c->o.snapshot || c->o.recover ||
	    (!c->o.all && !evt__coll_in_scope(c, (int)ctl->h.pid)) || !evt_ctl_alive(ctl))
		return -1;
	s = evt_slot_take(&c->rd, ctl, c->id, c->o.mode == EVT_MODE_COUNT ?
			  "counted" : "recorded", c->full, sizeof(c->full));
	if (s < 0) {
		/* Said once (for -p, by attach() as its error). */
		c->full_pid = (int)ctl->h.pid;
		if (c->o.all || c->o.untraced_ok || !named(c, c->full_pid))
			evt_report("%s", c->full);
		c->stats.unfollowed++;
		return -1;
	}
	evt_slot_attach(ctl, (unsigned)s, c->number, c->id, c->o.block_us,
			c->o.mode, c->o.packet_size, c->o.packet_count);
	__atomic_store_n(&ctl->slots[s].keep_of, c->o.keep_of, __ATOMIC_RELAXED);
	return s;
}
/* Starts following control file name, or sets it aside for good; false
 * when it is to be looked at again (not published yet, or fds or memory
 * ran short: those that drained processes give back).  While finishing,
 * a process still out of reach is reported. */
bool evt__coll_track(struct evt_collection *c, const char *name, ino_t ino)
{
	char err[PATH_MAX + 200];
	struct evt_ctl_slot *slot;
	struct evt_ctl *ctl;
	struct tracked *t;
	void *grown;
	int ret, ours_at;

	ret = evt_ctl_open(&c->rd, name, &ctl, err, sizeof(err));
	if (ret == -EAGAIN)
		return false;	/* not published yet: next time */
	if (ret == -EMFILE || ret == -ENFILE || ret == -ENOMEM) {
		if (!c->finishing)
			return false;
		snprintf(err, sizeof(err), "%s/%s", c->rd.path, name);
		evt__coll_unfollowed(c, (uint32_t)evt_ctl_name_pid(name), err,
			   strerror(-ret));
		remember_foreign(c, name, ino);
		return true;
	}
	if (ret) {
		if (ret != -ENOENT)
			evt_report("%s", err);
		remember_foreign(c, name, ino);
		return true;
	}
	ours_at = ours(c, ctl);
	if (ours_at < 0) {
		evt_ctl_close(ctl);
		remember_foreign(c, name, ino);
		return true;
	}
	slot = &ctl->slots[ours_at];
	if (ctl->h.clock_kind != c->clock_kind) {
		evt_report("%s: uses another trace clock; skipped",
			ctl->path);
		evt_ctl_close(ctl);
		remember_foreign(c, name, ino);
		return true;
	}
	grown = realloc(c->tracked, (c->ntracked + 1) * sizeof(*c->tracked));
	if (!grown) {
		evt_ctl_close(ctl);
		return false;
	}
	c->tracked = grown;
	t = &c->tracked[c->ntracked];
	memset(t, 0, sizeof(*t));
	t->streams = calloc(ctl->h.max_tbufs ? ctl->h.max_tbufs : 1,
			    sizeof(*t->streams));
	if (!t->streams) {
		evt_ctl_close(ctl);
		return false;
	}
	t->ctl = ctl;
	t->slot = (uint32_t)ours_at;
	t->cls = EVT_NO_CLASS;
	t->serial = c->stats.processes;
	t->slot_gen = slot->gen;
	snprintf(t->name, sizeof(t->name), "%s", name);
	t->ino = ino;
	c->ntracked++;
	c->stats.processes++;
	evt__coll_add_scope(c, (int)ctl->h.pid);
	return true;
}
void evt__coll_discover(struct evt_collection *c)
{
	int fd = openat(c->rd.fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct dirent *d;
	unsigned i, n;
	DIR *dh = fd < 0 ? NULL : fdopendir(fd);

	c->unpublished = false;
	if (!dh) {
		if (fd >= 0)
			close(fd);
		return;
	}
	for (i = 0; i < c->nforeign; i++)
		c->foreign[i].present = false;
	while ((d = readdir(dh)))
		if (evt_ctl_name_pid(d->d_name) > 0 &&
		    !seen(c, d->d_name, d->d_ino) && !evt__coll_track(c, d->d_name, d->d_ino))
			c->unpublished = true;
	closedir(dh);
	/* Forget the files that are gone: their names may come back. */
	for (i = n = 0; i < c->nforeign; i++)
		if (c->foreign[i].present)
			c->foreign[n++] = c->foreign[i];
	c->nforeign = n;
}
/* Whether any collection besides ours is active in this control file. */
static bool others_active(const struct evt_ctl *ctl, uint32_t slot)
{
	uint32_t s;

	for (s = 1; s < EVT_NSLOTS; s++)
		if (s != slot && __atomic_load_n(&ctl->slots[s].state,
						 __ATOMIC_ACQUIRE))
			return true;
	return false;
}
/*
 * Lets go of a process drained for the last time: its streams, its
 * mapping and fd, and, once it is dead and no other collection wants it,
 * its control file, so that memory and fds stay flat however many
 * processes come and go.
 */
void evt__coll_release(struct evt_collection *c, struct tracked *t)
{
	uint32_t i;

	for (i = 0; i < t->ctl->h.max_tbufs; i++) {
		if (t->streams[i].epoch && t->streams[i].fd >= 0)
			close(t->streams[i].fd);
		free(t->streams[i].frozen);	/* a snapshot's, not written */
	}
	free(t->streams);
	t->streams = NULL;
	free(t->gids);
	t->gids = NULL;
	if (t->dead && !t->ctl->shrank && !c->o.snapshot) {
		evt_slot_detach(t->ctl, t->slot);
		if (!others_active(t->ctl, t->slot) &&
		    evt_ctl_file_remove_dead(c->rd.fd, t->ctl->name, t->ctl->fd))
			t->name[0] = '\0';	/* the name may come back */
	}
	evt_ctl_close(t->ctl);
	t->ctl = NULL;
	c->released++;
}
/* Whether it wants event i of process t: selected, and, when it
 * records, allowed by the engine's policy. */
bool evt__coll_wanted(const struct evt_collection *c, const struct tracked *t,
		   uint32_t i)
{
	const struct evt_ctl_event *e = &t->ctl->events[i];

	return evt_selection_wants(&c->sel, evt_event_ids_public(&c->ids, t->gids[i]),
				   e->path, e->func, e->format) &&
	       (c->o.mode == EVT_MODE_COUNT || evt_policy_may_record(e));
}
/*
 * The selection is a rule: it covers events registered later (dlopen), and
 * when it changes, every event again.  A process that applied the
 * patterns itself at registration finds them applied.  Needs the global
 * ids of evt__coll_index_events().
 */
void evt__coll_apply_selection(struct evt_collection *c, struct tracked *t)
{
	struct evt_ctl *ctl = t->ctl;
	uint32_t i, from = t->enabled_upto, upto = t->nindexed;

	if (t->applied_gen != c->sel.gen) {
		from = 0;
		t->applied_gen = c->sel.gen;
	}
	for (i = from; i < upto && !ctl->shrank; i++) {
		bool want = evt__coll_wanted(c, t, i);

		if (want != evt_ctl_enabled(ctl, ctl->events[i].id, t->slot))
			evt_ctl_set_enable(ctl, ctl->events[i].id, t->slot, want);
	}
	t->enabled_upto = upto;
	evt_ctl_slot_set_applied(ctl, t->slot, upto);
}
