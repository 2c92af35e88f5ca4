/*
 * view.c - the processes and event trees the events filesystem shows
 * (see view.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "id_registry.h"
#include "kernel_events.h"
#include "pattern.h"
#include "policy.h"
#include "report.h"
#include "default_switch.h"
#include "rules_files.h"
#include "view.h"

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void load_kernel_events(struct evt_view *v)
{
	char err[PATH_MAX + 300];
	bool *off;

	/* Only where tracefs is the user's to read: a user's kernel events
	 * come from evtraced, which the filesystem does not ask. */
	if (evt_kernel_event_paths(&v->kernel_paths, &v->nkernel, err, sizeof(err))) {
		v->kernel_paths = NULL;
		return;
	}
	off = calloc(v->nkernel + 1, sizeof(*off));
	if (off)
		v->kernel_root = evt_tree_build_paths((const char *const *)v->kernel_paths,
						      off, v->nkernel);
	free(off);
}

int evt_view_init(struct evt_view *v, const char *rundir, int pid,
		  char *err, size_t err_size)
{
	memset(v, 0, sizeof(*v));
	v->rd.fd = -1;
	v->pid = pid;
	if (strlen(rundir) >= sizeof(v->rundir)) {
		snprintf(err, err_size, "%s: run directory path too long", rundir);
		return -1;
	}
	strcpy(v->rundir, rundir);
	load_kernel_events(v);
	return 0;
}

static void drop_trees(struct evt_view *v)
{
	unsigned i;

	for (i = 0; i < v->ntrees; i++) {
		evt_tree_free(v->trees[i].root);
		free(v->trees[i].refs);
		free(v->trees[i].node_of);
	}
	free(v->trees);
	v->trees = NULL;
	v->ntrees = 0;
}

void evt_view_free(struct evt_view *v)
{
	unsigned i;

	drop_trees(v);
	for (i = 0; i < v->nctls; i++)
		evt_ctl_close(v->ctls[i]);
	free(v->ctls);
	for (i = 0; i < v->nrefused; i++)
		free(v->refused[i]);
	free(v->refused);
	evt_event_ids_free(&v->ids);
	evt_tree_free(v->kernel_root);
	if (v->kernel_paths)
		evt_kernel_event_paths_free(v->kernel_paths, v->nkernel);
	if (v->rd.fd >= 0)
		evt_rundir_close(&v->rd);
}

/* Files already open, or given up on, are known by name and inode: a new
 * process may get the name of a file swept meanwhile. */
static void file_key(const struct evt_view *v, const char *name, char *key,
		     size_t size)
{
	struct stat st;

	if (fstatat(v->rd.fd, name, &st, AT_SYMLINK_NOFOLLOW))
		st.st_ino = 0;
	snprintf(key, size, "%s@%llu", name, (unsigned long long)st.st_ino);
}

static bool listed(char *const *keys, unsigned n, const char *key)
{
	unsigned i;

	for (i = 0; i < n; i++)
		if (!strcmp(keys[i], key))
			return true;
	return false;
}

static void refuse(struct evt_view *v, const char *key)
{
	char **grown = realloc(v->refused, (v->nrefused + 1) * sizeof(*grown));

	if (!grown)
		return;
	v->refused = grown;
	v->refused[v->nrefused] = strdup(key);
	if (v->refused[v->nrefused])
		v->nrefused++;
}

static bool is_open(const struct evt_view *v, const char *name)
{
	unsigned i;

	for (i = 0; i < v->nctls; i++)
		if (!strcmp(v->ctls[i]->name, name))
			return true;
	return false;
}

static uint32_t unloaded(const struct evt_ctl *c)
{
	uint32_t i, n = 0;

	for (i = 0; i < c->nevents; i++)
		n += c->events[i].unloaded;
	return n;
}

/* Lets go of processes that exited (and files truncated under us), reads
 * what the others registered or unloaded since. */
static void close_dead(struct evt_view *v)
{
	char err[PATH_MAX + 300], key[128];
	unsigned i, kept = 0;

	for (i = 0; i < v->nctls; i++) {
		struct evt_ctl *c = v->ctls[i];

		if (!c->shrank && evt_ctl_alive(c)) {
			uint32_t n = c->nevents, u = unloaded(c);

			if (evt_ctl_refresh(c, err, sizeof(err)))
				evt_report("%s", err);
			if (c->nevents != n || unloaded(c) != u)
				v->shape_changed = true;
			v->ctls[kept++] = c;
			continue;
		}
		file_key(v, c->name, key, sizeof(key));
		refuse(v, key);
		evt_ctl_close(c);
		v->shape_changed = true;
	}
	v->nctls = kept;
}

/* Opens the control files that appeared.  The files given up on are
 * listed again from this scan, so that the list holds only those still
 * there (a long mount sees many processes come and go). */
static void open_new(struct evt_view *v)
{
	char err[PATH_MAX + 300], key[128], **was = v->refused;
	unsigned i, nwas = v->nrefused;
	struct dirent *d;
	DIR *dir;
	int fd = openat(v->rd.fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	dir = fd >= 0 ? fdopendir(fd) : NULL;
	if (!dir) {
		if (fd >= 0)
			close(fd);
		return;
	}
	v->refused = NULL;
	v->nrefused = 0;
	while ((d = readdir(dir))) {
		int pid = evt_ctl_name_pid(d->d_name);
		struct evt_ctl *c, **grown;
		int ret;

		if (pid < 0 || (v->pid && pid != v->pid) || is_open(v, d->d_name))
			continue;
		file_key(v, d->d_name, key, sizeof(key));
		if (listed(was, nwas, key)) {
			refuse(v, key);
			continue;
		}
		ret = evt_ctl_open(&v->rd, d->d_name, &c, err, sizeof(err));
		if (ret == -EAGAIN || ret == -ENOENT)
			continue;	/* not published yet, or gone */
		if (ret) {
			evt_report("%s", err);
			refuse(v, key);
			continue;
		}
		if (!evt_ctl_alive(c)) {
			evt_ctl_close(c);
			refuse(v, key);
			continue;
		}
		/* A bad entry: what was parsed before it is shown. */
		if (evt_ctl_refresh(c, err, sizeof(err)))
			evt_report("%s", err);
		grown = realloc(v->ctls, (v->nctls + 1) * sizeof(*grown));
		if (!grown) {
			evt_ctl_close(c);
			break;
		}
		v->ctls = grown;
		v->ctls[v->nctls++] = c;
		v->shape_changed = true;
	}
	closedir(dir);
	for (i = 0; i < nwas; i++)
		free(was[i]);
	free(was);
}

static enum evt_tristate state_of(const struct evt_view_ref *r)
{
	if (r->event->refused)	/* never on: not part of a directory's state */
		return EVT_STATE_EMPTY;
	return evt_ctl_enabled(r->ctl, r->event->id, 0) ? EVT_STATE_ON :
							 EVT_STATE_OFF;
}

/* The trees stand: only their states are read again (someone may have
 * switched events meanwhile). */
static void read_states(struct evt_view *v)
{
	unsigned i, k;

	for (i = 0; i < v->ntrees; i++) {
		struct evt_view_tree *t = &v->trees[i];
		enum evt_tristate *joined = malloc((t->nrefs + 1) * sizeof(*joined));

		if (!joined) {
			drop_trees(v);
			return;
		}
		for (k = 0; k < t->nrefs; k++)
			joined[k] = EVT_STATE_EMPTY;
		for (k = 0; k < t->nrefs; k++) {
			enum evt_tristate *j = &joined[t->node_of[k]];
			enum evt_tristate st = state_of(&t->refs[k]);

			*j = *j == EVT_STATE_EMPTY || *j == st ? st : EVT_STATE_MIXED;
		}
		evt_tree_refold(t->root, joined);
		free(joined);
	}
}

void evt_view_refresh(struct evt_view *v, uint64_t max_age_ns)
{
	uint64_t now = now_ns();
	char err[PATH_MAX + 300];

	if (v->refreshed_ns && now - v->refreshed_ns < max_age_ns)
		return;
	/* The run directory may be made after the mount. */
	if (v->rd.fd < 0) {
		if (evt_rundir_open(&v->rd, v->rundir, EVT_RUNDIR_ROOT_ENTERS, err,
				    sizeof(err)) == 0)
			v->ids.registry = evt_id_registry_open(&v->rd);
		else
			v->rd.fd = -1;
	}
	if (v->rd.fd >= 0) {
		close_dead(v);
		open_new(v);
	}
	if (v->shape_changed)
		drop_trees(v);
	else
		read_states(v);
	v->shape_changed = false;
	v->refreshed_ns = now;
}

static bool wanted(const struct evt_ctl *c, int pid)
{
	return !pid || (int)c->h.pid == pid;
}

static int build(struct evt_view *v, struct evt_view_tree *t)
{
	enum evt_tristate *states;
	const char **paths;
	unsigned i, n = 0;
	uint32_t k;

	for (i = 0; i < v->nctls; i++)
		if (wanted(v->ctls[i], t->pid))
			n += v->ctls[i]->nevents;
	paths = malloc((n + 1) * sizeof(*paths));
	states = malloc((n + 1) * sizeof(*states));
	t->refs = malloc((n + 1) * sizeof(*t->refs));
	t->node_of = malloc((n + 1) * sizeof(*t->node_of));
	if (!paths || !states || !t->refs || !t->node_of) {
		free(paths);
		free(states);
		return -1;
	}
	for (i = 0; i < v->nctls; i++) {
		struct evt_ctl *c = v->ctls[i];

		if (!wanted(c, t->pid))
			continue;
		for (k = 0; k < c->nevents; k++) {
			const struct evt_ctl_event *e = &c->events[k];

			if (e->unloaded || e->rider)	/* a rider is its switch */
				continue;
			paths[t->nrefs] = e->path;
			t->refs[t->nrefs].ctl = c;
			t->refs[t->nrefs].event = e;
			states[t->nrefs] = state_of(&t->refs[t->nrefs]);
			t->nrefs++;
		}
	}
	t->root = evt_tree_build_states(paths, states, t->nrefs, t->node_of);
	free(paths);
	free(states);
	return t->root ? 0 : -1;
}

const struct evt_view_tree *evt_view_tree(struct evt_view *v, int pid)
{
	struct evt_view_tree *grown, *t;
	unsigned i;

	for (i = 0; i < v->ntrees; i++)
		if (v->trees[i].pid == pid)
			return &v->trees[i];
	if (pid) {
		for (i = 0; i < v->nctls && !wanted(v->ctls[i], pid); i++)
			;
		if (i == v->nctls)
			return NULL;
	}
	grown = realloc(v->trees, (v->ntrees + 1) * sizeof(*grown));
	if (!grown)
		return NULL;
	v->trees = grown;
	t = &v->trees[v->ntrees];
	memset(t, 0, sizeof(*t));
	t->pid = pid;
	if (build(v, t)) {
		free(t->refs);
		free(t->node_of);
		return NULL;
	}
	return &v->trees[v->ntrees++];
}

static int by_value(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

unsigned evt_view_pids(const struct evt_view *v, int *pids, unsigned max)
{
	unsigned i, n = 0, out = 0;

	for (i = 0; i < v->nctls && n < max; i++)
		pids[n++] = (int)v->ctls[i]->h.pid;
	qsort(pids, n, sizeof(*pids), by_value);
	for (i = 0; i < n; i++)
		if (!out || pids[out - 1] != pids[i])
			pids[out++] = pids[i];
	return out;
}

bool evt_view_may_switch(const struct evt_view *v, const struct evt_ctl *c,
			 const struct evt_view_caller *who)
{
	/* (who->groups holds the primary group first) */
	return evt_privileged(who->uid, who->ngroups ? who->groups[0] : (gid_t)-1,
			      who->groups, who->ngroups, v->rd.owner,
			      evt_ctl_optin_gid(c));
}

struct switch_ctx {
	const struct evt_view *v;
	int pid;
	const struct evt_view_caller *who;
};

static enum evt_switch_verdict may_set(const struct evt_ctl *c, void *ctx)
{
	const struct switch_ctx *x = ctx;

	if (!wanted(c, x->pid))
		return EVT_SWITCH_SKIP;
	return evt_view_may_switch(x->v, c, x->who) ? EVT_SWITCH_YES :
						      EVT_SWITCH_REFUSE;
}

int evt_view_set(struct evt_view *v, const struct evt_view_tree *t,
		 const char *path, bool on, const struct evt_view_caller *who,
		 char *err, size_t err_size)
{
	const char *pattern = *path ? path : "/";
	bool everyone = who->uid == 0 || who->uid == v->rd.owner;
	struct switch_ctx x = { v, t->pid, who };
	struct evt_switch_result res;
	int ret;

	/* A rule too, as `evtrace enable` writes: events registered later
	 * there follow it.  A group member's rule is for its processes. */
	ret = evt_default_switch(&v->rd, v->ctls, v->nctls, pattern, on,
				 (uint32_t)t->pid, !everyone && !t->pid, may_set,
				 &x, &res, err, err_size);
	evt_view_mark_stale(v);
	if (!res.events)
		return res.refused ? -EACCES : -ENOENT;
	return ret ? -EIO : 0;
}

int evt_view_set_rate(struct evt_view *v, const struct evt_view_tree *t,
		      const char *path, uint32_t rate,
		      const struct evt_view_caller *who, char *err,
		      size_t err_size)
{
	const char *pattern = *path ? path : "/";
	struct switch_ctx x = { v, t->pid, who };
	struct evt_switch_result res;
	int ret;

	ret = evt_default_set_rate(&v->rd, v->ctls, v->nctls, pattern, rate,
				   (uint32_t)t->pid, may_set, &x, &res, err,
				   err_size);
	evt_view_mark_stale(v);
	if (!res.events)
		return res.refused ? -EACCES : -ENOENT;
	return ret ? -EIO : 0;
}

int64_t evt_view_rate(const struct evt_view_tree *t, const char *path)
{
	const char *pattern = *path ? path : "/";
	int64_t rate = -2;
	unsigned i;

	for (i = 0; i < t->nrefs; i++) {
		const struct evt_ctl_event *e = t->refs[i].event;
		int64_t r;

		if (e->rider || !evt_pattern_match_site(pattern, e->path, e->func,
							e->format))
			continue;
		r = evt_ctl_rate(t->refs[i].ctl, e->id);
		if (rate == -2)
			rate = r;
		else if (rate != r)
			return -1;
	}
	return rate == -2 ? 0 : rate;
}

uint32_t evt_view_event_id(struct evt_view *v, const struct evt_ctl_event *e)
{
	return evt_event_ids_public(&v->ids, evt_event_ids_get(&v->ids, e));
}
