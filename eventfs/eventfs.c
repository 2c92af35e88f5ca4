/*
 * eventfs.c - the events filesystem's FUSE operations and its mount loop
 * (see eventfs.h).
 */
#define FUSE_USE_VERSION 312
#include <errno.h>
#include <fcntl.h>
#include <fuse.h>
#include <fuse_lowlevel.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "eventfs.h"
#include "kernel_events.h"
#include "probes_view.h"
#include "report.h"
#include "view.h"

#define MAX_AGE_NS (50 * 1000 * 1000)
/* How old the list of a process's USDT probes may be: its files' notes
 * are read again (a library it dlopened shows within it). */
#define PROBES_AGE_S 1

struct fs {
	struct evt_eventfs_opts o;
	pthread_mutex_t mu;		/* the view */
	struct evt_view view;
	struct evt_pipe *pipe;
	time_t mounted;
	struct evt_probes_view probes;	/* mount -p: events/usdt/ */
	time_t probes_loaded;
};

enum kind {
	K_ROOT, K_README, K_AVAILABLE, K_PIPE, K_PROCS, K_PID, K_DIR,
	K_ENABLE, K_FORMAT, K_ID, K_RATE,
};

/* Where a path leads; node and tree point into the view (under mu). */
struct loc {
	enum kind kind;
	int pid;				/* tree's: 0 for events/ */
	bool kernel;				/* node is a kernel event's */
	bool usdt;				/* ... or a USDT probe's */
	bool events_root;
	const struct evt_view_tree *tree;
	const struct evt_tree_node *node;
	const char *tree_path;			/* in the tree ("" the root) */
};

static const char readme[] =
	"evtrace events filesystem\n"
	"\n"
	"events/                the events of the traced processes this mount shows\n"
	"events/enable          0, 1, X (some on) or ? (none): every event but\n"
	"                       printk/; write 0 or 1 to switch them\n"
	"events/<dir>/enable    the same for everything under <dir>; a write also\n"
	"                       covers events registered there later\n"
	"events/<event>/enable  the event itself, 0 or 1\n"
	"events/.../rate        a cap on each event below: at most that many a\n"
	"                       second in each thread (0: none; X: they differ);\n"
	"                       write a number to set it (evtrace enable --rate)\n"
	"events/<event>/format  its format, as `evtrace format` prints it\n"
	"events/<event>/id      its id (`evtrace ls --ids`)\n"
	"events/kernel/         the kernel's tracepoints (read-only; root only)\n"
	"events/usdt/           mount -p: the USDT probes of the process's files;\n"
	"                       their enable is a rule its trace_pipe follows\n"
	"                       (root only: uprobes are root's to make); their\n"
	"                       format lists where each is\n"
	"proc/<pid>/events/     one process's events, switched in it alone\n"
	"available_events       every event path, one per line\n"
	"trace_pipe             the enabled events as text, consumed as read:\n"
	"                       blocks until there are some; at most 16 readers\n"
	"                       share them; the owner's and root's alone\n"
	"\n"
	"Writing anything but 0 or 1 to enable is EINVAL; writing any other file\n"
	"is EACCES, and so is switching a process that is not yours (root, its\n"
	"user and the group it opted into may).  Unmount with fusermount3 -u.\n";

static struct fs *fs_of(void)
{
	return fuse_get_context()->private_data;
}

static int parse_pid(const char *s, size_t len)
{
	int pid = 0;
	size_t i;

	if (!len || len > 9 || s[0] == '0')
		return -1;
	for (i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		pid = pid * 10 + (s[i] - '0');
	}
	return pid;
}

/* rest: what follows "events" ("" or "/..."). */
static int resolve_tree(struct fs *fs, int pid, const char *rest, struct loc *l)
{
	const struct evt_tree_node *root, *n;
	const char *slash, *leaf;
	char dir[PATH_MAX];

	l->pid = pid;
	l->tree = evt_view_tree(&fs->view, pid);
	if (!l->tree)
		return -ENOENT;
	while (*rest == '/')
		rest++;
	l->kernel = !pid && fs->view.kernel_root &&
		    !strncmp(rest, "kernel", 6) && (!rest[6] || rest[6] == '/');
	l->usdt = !pid && fs->o.pid > 0 && !strncmp(rest, "usdt", 4) &&
		  (!rest[4] || rest[4] == '/');
	if (l->usdt) {
		if (time(NULL) - fs->probes_loaded >= PROBES_AGE_S) {
			struct evt_probes_view now;

			/* (a process gone keeps the probes it had) */
			evt_probes_view_load(&now, fs->o.pid);
			if (now.nfiles || !fs->probes_loaded) {
				evt_probes_view_free(&fs->probes);
				fs->probes = now;
			} else {
				evt_probes_view_free(&now);
			}
			fs->probes_loaded = time(NULL);
		}
		if (!fs->probes.root)
			return -ENOENT;
		evt_probes_view_states(&fs->probes, &fs->view.rd);
	}
	root = l->kernel ? fs->view.kernel_root :
	       l->usdt ? fs->probes.root : l->tree->root;
	if (!*rest) {
		l->kind = K_DIR;
		l->events_root = true;
		l->node = root;
		l->tree_path = "";
		return 0;
	}
	n = evt_tree_find(root, rest);
	if (n) {
		l->kind = K_DIR;
		l->node = n;
		l->tree_path = n->path;
		return 0;
	}
	slash = strrchr(rest, '/');
	leaf = slash ? slash + 1 : rest;
	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - rest) : 0, rest);
	n = evt_tree_find(root, dir);
	if (!n)
		return -ENOENT;
	l->node = n;
	l->tree_path = n->path;
	if (!strcmp(leaf, "enable"))
		l->kind = K_ENABLE;
	else if (!strcmp(leaf, "rate") && !l->kernel && !l->usdt)
		l->kind = K_RATE;
	else if (n->event >= 0 && !strcmp(leaf, "format"))
		l->kind = K_FORMAT;
	else if (n->event >= 0 && !strcmp(leaf, "id") && !l->usdt)
		l->kind = K_ID;
	else
		return -ENOENT;
	return 0;
}

/* Under fs->mu: the view refreshed when old. */
static int resolve(struct fs *fs, const char *path, struct loc *l)
{
	const char *p;
	size_t len;
	int pid;

	memset(l, 0, sizeof(*l));
	evt_view_refresh(&fs->view, MAX_AGE_NS);
	if (!strcmp(path, "/"))
		return l->kind = K_ROOT, 0;
	if (!strcmp(path, "/README"))
		return l->kind = K_README, 0;
	if (!strcmp(path, "/available_events"))
		return l->kind = K_AVAILABLE, 0;
	if (!strcmp(path, "/trace_pipe"))
		return l->kind = K_PIPE, 0;
	if (!strncmp(path, "/events", 7) && (!path[7] || path[7] == '/'))
		return resolve_tree(fs, 0, path + 7, l);
	if (strncmp(path, "/proc", 5) || (path[5] && path[5] != '/'))
		return -ENOENT;
	p = path + 5;
	if (!*p || !strcmp(p, "/"))
		return l->kind = K_PROCS, 0;
	p++;
	len = strcspn(p, "/");
	pid = parse_pid(p, len);
	if (pid <= 0 || !evt_view_tree(&fs->view, pid))
		return -ENOENT;
	p += len;
	if (!*p || !strcmp(p, "/")) {
		l->pid = pid;
		return l->kind = K_PID, 0;
	}
	if (strncmp(p, "/events", 7) || (p[7] && p[7] != '/'))
		return -ENOENT;
	return resolve_tree(fs, pid, p + 7, l);
}

static bool is_dir(enum kind k)
{
	return k == K_ROOT || k == K_PROCS || k == K_PID || k == K_DIR;
}

/* Who the events belong to: the run directory's owner, else (none yet)
 * the user who mounted it.  Under fs->mu. */
static uid_t owner_of(const struct fs *fs)
{
	return fs->view.rd.fd >= 0 ? fs->view.rd.owner : getuid();
}

/* The group a process opted into (evt_trace_allow_group), whose members
 * may switch its events, or EVT_NO_GROUP.  Under fs->mu. */
static uint32_t optin_gid_of(const struct fs *fs, int pid)
{
	for (unsigned i = 0; pid && i < fs->view.nctls; i++)
		if ((int)fs->view.ctls[i]->h.pid == pid)
			return evt_ctl_optin_gid(fs->view.ctls[i]);
	return EVT_NO_GROUP;
}

/*
 * Whether the caller may read trace_pipe: the default collection's
 * records, every field of every process, are root's and the owner's, as
 * evtraced gives `stream` without -e to the privileged alone.  A member
 * of a process's opt-in group reads that process through evtraced
 * (`evtrace stream -p PID`): this one pipe is shared by its readers.
 */
static bool may_read_pipe(const struct fs *fs)
{
	uid_t uid = fuse_get_context()->uid;

	return uid == 0 || uid == owner_of(fs);
}

static int fs_getattr(const char *path, struct stat *st,
		      struct fuse_file_info *fi)
{
	struct fs *fs = fs_of();
	struct loc l;
	int ret;

	(void)fi;
	memset(st, 0, sizeof(*st));
	pthread_mutex_lock(&fs->mu);
	ret = resolve(fs, path, &l);
	if (!ret) {
		bool switch_file = l.kind == K_ENABLE || l.kind == K_RATE;
		bool theirs = l.kind == K_DIR || switch_file ||
			      l.kind == K_FORMAT || l.kind == K_ID || l.kind == K_PID;

		uint32_t optin = optin_gid_of(fs, l.pid);

		st->st_uid = theirs || l.kind == K_PIPE ? owner_of(fs) : getuid();
		st->st_gid = theirs && fs->view.rd.fd >= 0 ? fs->view.rd.group : getgid();
		if (is_dir(l.kind)) {
			st->st_mode = S_IFDIR | 0555;
			st->st_nlink = 2;
		} else if (l.kind == K_PIPE) {
			st->st_mode = S_IFREG | 0400;	/* and root's */
			st->st_nlink = 1;
		} else if (switch_file && !l.kernel && !l.usdt && optin != EVT_NO_GROUP) {
			st->st_gid = optin;	/* its members may switch it */
			st->st_mode = S_IFREG | 0664;
			st->st_nlink = 1;
		} else {
			st->st_mode = S_IFREG | (switch_file && !l.kernel ?
						 0644 : 0444);
			st->st_nlink = 1;
		}
		st->st_atime = st->st_mtime = st->st_ctime = fs->mounted;
	}
	pthread_mutex_unlock(&fs->mu);
	return ret;
}

static int fs_readdir(const char *path, void *buf, fuse_fill_dir_t fill,
		      off_t off, struct fuse_file_info *fi,
		      enum fuse_readdir_flags flags)
{
	struct fs *fs = fs_of();
	struct loc l;
	unsigned i;
	int ret;

	(void)off;
	(void)fi;
	(void)flags;
	pthread_mutex_lock(&fs->mu);
	ret = resolve(fs, path, &l);
	if (!ret && !is_dir(l.kind))
		ret = -ENOTDIR;
	if (ret)
		goto out;
	fill(buf, ".", NULL, 0, 0);
	fill(buf, "..", NULL, 0, 0);
	switch (l.kind) {
	case K_ROOT:
		fill(buf, "README", NULL, 0, 0);
		fill(buf, "available_events", NULL, 0, 0);
		fill(buf, "trace_pipe", NULL, 0, 0);
		fill(buf, "events", NULL, 0, 0);
		fill(buf, "proc", NULL, 0, 0);
		break;
	case K_PROCS: {
		int pids[4096];
		unsigned n = evt_view_pids(&fs->view, pids, 4096);
		char name[16];

		for (i = 0; i < n; i++) {
			snprintf(name, sizeof(name), "%d", pids[i]);
			fill(buf, name, NULL, 0, 0);
		}
		break;
	}
	case K_PID:
		fill(buf, "events", NULL, 0, 0);
		break;
	default:
		fill(buf, "enable", NULL, 0, 0);
		if (!l.kernel && !l.usdt)
			fill(buf, "rate", NULL, 0, 0);
		if (l.node->event >= 0) {
			fill(buf, "format", NULL, 0, 0);
			if (!l.usdt)
				fill(buf, "id", NULL, 0, 0);
		}
		if (l.events_root && !l.pid && fs->view.kernel_root)
			fill(buf, "kernel", NULL, 0, 0);
		if (l.events_root && !l.pid && fs->o.pid > 0) {
			struct loc u;

			if (resolve_tree(fs, 0, "/usdt", &u) == 0)
				fill(buf, "usdt", NULL, 0, 0);
		}
		for (i = 0; i < l.node->nchildren; i++)
			fill(buf, l.node->children[i]->name, NULL, 0, 0);
		break;
	}
out:
	pthread_mutex_unlock(&fs->mu);
	return ret;
}

/* What an open file holds: its text, made at open, or the pipe. */
struct open_file {
	enum kind kind;
	int pid;
	bool kernel;
	bool usdt;
	char *data;
	size_t len;
	char path[];			/* in the tree, for enable */
};

static void write_available(FILE *f, const struct evt_tree_node *n)
{
	unsigned i;

	if (n->event >= 0)
		fprintf(f, "%s\n", n->path);
	for (i = 0; i < n->nchildren; i++)
		write_available(f, n->children[i]);
}

/* Every distinct format (or id) of the events at the node's path: two
 * processes may define one path two ways. */
static void write_event(struct fs *fs, FILE *f, const struct loc *l)
{
	const struct evt_view_tree *t = l->tree;
	const char *path = l->node->path;
	uint32_t ids[64];
	unsigned i, k, nids = 0, nformats = 0;
	const char *formats[64];

	if (l->usdt) {
		evt_probes_view_format(&fs->probes, path, f);
		return;
	}
	if (l->kernel) {
		struct evt_event_format ef;
		char err[PATH_MAX + 300];
		long id;

		if (l->kind == K_ID) {
			id = evt_kernel_event_id(path, err, sizeof(err));
			if (id >= 0)
				fprintf(f, "%ld\n", id);
		} else if (evt_kernel_event_format(path, &ef, err, sizeof(err)) == 0) {
			evt_event_format_write(f, &ef);
			evt_event_format_free(&ef);
		} else {
			fprintf(f, "%s\n", err);
		}
		return;
	}
	for (i = 0; i < t->nrefs; i++) {
		const struct evt_ctl_event *e = t->refs[i].event;

		if (strcmp(e->path, path))
			continue;
		if (l->kind == K_ID) {
			uint32_t id = evt_view_event_id(&fs->view, e);

			for (k = 0; k < nids && ids[k] != id; k++)
				;
			if (k == nids && nids < 64) {
				ids[nids++] = id;
				fprintf(f, "%" PRIu32 "\n", id);
			}
			continue;
		}
		for (k = 0; k < nformats && strcmp(formats[k], e->format); k++)
			;
		if (k < nformats || nformats == 64)
			continue;
		if (nformats)
			putc('\n', f);	/* two processes, two formats */
		formats[nformats++] = e->format;
		fs->o.format(f, e);
	}
}

static int make_text(struct fs *fs, const struct loc *l, struct open_file *of)
{
	FILE *f = open_memstream(&of->data, &of->len);

	if (!f)
		return -ENOMEM;
	switch (l->kind) {
	case K_README:
		fputs(readme, f);
		break;
	case K_AVAILABLE: {
		const struct evt_view_tree *t = evt_view_tree(&fs->view, 0);
		unsigned i;

		if (t)
			write_available(f, t->root);
		for (i = 0; fs->view.kernel_paths && i < fs->view.nkernel; i++)
			fprintf(f, "%s\n", fs->view.kernel_paths[i]);
		break;
	}
	case K_ENABLE:
		fprintf(f, "%c\n", l->node->state);
		break;
	case K_RATE: {
		int64_t rate = evt_view_rate(l->tree, l->tree_path);

		if (rate < 0)
			fputs("X\n", f);
		else
			fprintf(f, "%lld\n", (long long)rate);
		break;
	}
	case K_FORMAT:
	case K_ID:
		write_event(fs, f, l);
		break;
	default:
		break;
	}
	if (fclose(f))
		return -ENOMEM;
	return 0;
}

static void caller(struct evt_view_caller *who, gid_t *groups, unsigned max)
{
	struct fuse_context *ctx = fuse_get_context();
	int n = fuse_getgroups((int)max - 1, groups + 1);

	groups[0] = ctx->gid;
	who->uid = ctx->uid;
	who->groups = groups;
	who->ngroups = 1 + (n <= 0 ? 0 : n < (int)max ? (unsigned)n : max - 1);
}

/* Whether the caller may switch any process of the tree. */
static bool may_switch(struct fs *fs, int pid)
{
	struct evt_view_caller who;
	gid_t groups[256];
	unsigned i;

	caller(&who, groups, 256);
	if (who.uid == 0 || (fs->view.rd.fd >= 0 && who.uid == fs->view.rd.owner))
		return true;
	for (i = 0; i < fs->view.nctls; i++)
		if ((!pid || (int)fs->view.ctls[i]->h.pid == pid) &&
		    evt_view_may_switch(&fs->view, fs->view.ctls[i], &who))
			return true;
	return false;
}

static int fs_open(const char *path, struct fuse_file_info *fi)
{
	struct fs *fs = fs_of();
	bool writing = (fi->flags & O_ACCMODE) != O_RDONLY;
	struct open_file *of = NULL;
	char err[PATH_MAX + 300];
	struct loc l;
	int ret;

	pthread_mutex_lock(&fs->mu);
	ret = resolve(fs, path, &l);
	if (!ret && is_dir(l.kind))
		ret = -EISDIR;
	else if (!ret && writing && l.kind != K_ENABLE && l.kind != K_RATE)
		ret = -EACCES;
	else if (!ret && writing && l.usdt && !may_read_pipe(fs))
		ret = -EACCES;	/* (a rule of the owner's default.rules) */
	else if (!ret && writing && !l.kernel && !l.usdt && !may_switch(fs, l.pid))
		ret = -EACCES;
	else if (!ret && l.kind == K_PIPE && !may_read_pipe(fs))
		ret = -EACCES;
	if (!ret) {
		of = calloc(1, sizeof(*of) + strlen(l.tree_path ? l.tree_path : "") + 1);
		if (!of)
			ret = -ENOMEM;
	}
	if (!ret) {
		of->kind = l.kind;
		of->pid = l.pid;
		of->kernel = l.kernel;
		of->usdt = l.usdt;
		strcpy(of->path, l.tree_path ? l.tree_path : "");
		if (l.kind != K_PIPE)
			ret = make_text(fs, &l, of);
	}
	pthread_mutex_unlock(&fs->mu);
	if (!ret && l.kind == K_PIPE) {
		ret = evt_pipe_open(fs->pipe, err, sizeof(err));
		if (ret)
			evt_report("trace_pipe: %s", err);
		fi->nonseekable = 1;
	}
	if (ret) {
		if (of)
			free(of->data);
		free(of);
		return ret;
	}
	fi->fh = (uintptr_t)of;
	fi->direct_io = 1;	/* no page cache: the text is made now */
	return 0;
}

static bool interrupted(void)
{
	return fuse_interrupted() != 0;
}

static int fs_read(const char *path, char *buf, size_t size, off_t off,
		   struct fuse_file_info *fi)
{
	struct open_file *of = (struct open_file *)(uintptr_t)fi->fh;

	(void)path;
	if (of->kind == K_PIPE)
		return (int)evt_pipe_read(fs_of()->pipe, buf, size,
					  fi->flags & O_NONBLOCK, interrupted);
	if (off < 0 || (size_t)off >= of->len)
		return 0;
	if (size > of->len - (size_t)off)
		size = of->len - (size_t)off;
	memcpy(buf, of->data + off, size);
	return (int)size;
}

/* A number written to a rate file: the events there capped at it. */
static int write_rate(struct fs *fs, const struct open_file *of,
		      const char *buf, size_t size)
{
	const struct evt_view_tree *t;
	struct evt_view_caller who;
	char err[PATH_MAX + 300], text[16];
	unsigned long long rate;
	gid_t groups[256];
	char *end;
	int ret;

	if (size == 0 || size >= sizeof(text))
		return -EINVAL;
	memcpy(text, buf, size);
	text[size] = '\0';
	if (text[size - 1] == '\n')
		text[size - 1] = '\0';
	errno = 0;
	rate = strtoull(text, &end, 10);
	if (text[0] < '0' || text[0] > '9' || *end || errno || rate > EVT_RATE_MAX)
		return -EINVAL;
	caller(&who, groups, 256);
	pthread_mutex_lock(&fs->mu);
	evt_view_refresh(&fs->view, MAX_AGE_NS);
	t = evt_view_tree(&fs->view, of->pid);
	ret = t ? evt_view_set_rate(&fs->view, t, of->path, (uint32_t)rate, &who,
				    err, sizeof(err)) : -ENOENT;
	pthread_mutex_unlock(&fs->mu);
	if (ret == -EIO)
		evt_report("%s", err);
	return ret ? ret : (int)size;
}

static int fs_write(const char *path, const char *buf, size_t size, off_t off,
		    struct fuse_file_info *fi)
{
	struct open_file *of = (struct open_file *)(uintptr_t)fi->fh;
	struct fs *fs = fs_of();
	const struct evt_view_tree *t;
	struct evt_view_caller who;
	char err[PATH_MAX + 300];
	gid_t groups[256];
	int ret;

	(void)path;
	(void)off;
	if (of->kind == K_RATE)
		return write_rate(fs, of, buf, size);
	if (of->kind != K_ENABLE)
		return -EACCES;
	if (!(size == 1 || (size == 2 && buf[1] == '\n')) ||
	    (buf[0] != '0' && buf[0] != '1'))
		return -EINVAL;
	if (of->kernel)
		return -EOPNOTSUPP;	/* not in the default collection */
	if (of->usdt) {
		pthread_mutex_lock(&fs->mu);
		ret = evt_probes_view_set(&fs->probes, &fs->view.rd, of->path,
					  buf[0] == '1', err, sizeof(err));
		pthread_mutex_unlock(&fs->mu);
		if (ret)
			evt_report("%s", err);
		return ret ? -EIO : (int)size;
	}
	caller(&who, groups, 256);
	pthread_mutex_lock(&fs->mu);
	evt_view_refresh(&fs->view, MAX_AGE_NS);
	t = evt_view_tree(&fs->view, of->pid);
	ret = t ? evt_view_set(&fs->view, t, of->path, buf[0] == '1', &who, err,
			       sizeof(err)) : -ENOENT;
	pthread_mutex_unlock(&fs->mu);
	if (ret == -EIO)
		evt_report("%s; the events there now were switched, those "
			   "registered later will not be", err);
	return ret ? ret : (int)size;
}

static int fs_truncate(const char *path, off_t size, struct fuse_file_info *fi)
{
	struct fs *fs = fs_of();
	struct loc l;
	int ret;

	(void)size;
	(void)fi;
	pthread_mutex_lock(&fs->mu);
	ret = resolve(fs, path, &l);
	if (!ret && is_dir(l.kind))
		ret = -EISDIR;
	else if (!ret && l.kind != K_ENABLE && l.kind != K_RATE)
		ret = -EACCES;
	pthread_mutex_unlock(&fs->mu);
	return ret;	/* `echo 1 > enable` truncates first: nothing to do */
}

static int fs_release(const char *path, struct fuse_file_info *fi)
{
	struct open_file *of = (struct open_file *)(uintptr_t)fi->fh;

	(void)path;
	if (of->kind == K_PIPE)
		evt_pipe_release(fs_of()->pipe);
	free(of->data);
	free(of);
	return 0;
}

/* The tree is not the user's to change; a name it does not have is
 * unknown, also to `echo 1 > events/printk/enabel`. */
static int fs_create(const char *path, mode_t mode, struct fuse_file_info *fi)
{
	(void)path;
	(void)mode;
	(void)fi;
	return -ENOENT;
}

static int fs_mkdir(const char *path, mode_t mode)
{
	(void)path;
	(void)mode;
	return -EACCES;
}

static int fs_unlink(const char *path)
{
	(void)path;
	return -EACCES;
}

static int fs_rename(const char *from, const char *to, unsigned flags)
{
	(void)from;
	(void)to;
	(void)flags;
	return -EACCES;
}

static void *fs_init(struct fuse_conn_info *conn, struct fuse_config *cfg)
{
	(void)conn;
	/* Nothing cached by the kernel: what a lookup says is now. */
	cfg->entry_timeout = 0;
	cfg->negative_timeout = 0;
	cfg->attr_timeout = 0;
	/* A reader waiting on trace_pipe can be interrupted: libfuse then
	 * sends SIGUSR1 to the thread serving it (set_signals() handles it). */
	cfg->intr = 1;
	cfg->intr_signal = SIGUSR1;
	return fuse_get_context()->private_data;
}

static const struct fuse_operations ops = {
	.init = fs_init,
	.getattr = fs_getattr,
	.readdir = fs_readdir,
	.open = fs_open,
	.read = fs_read,
	.write = fs_write,
	.truncate = fs_truncate,
	.release = fs_release,
	.create = fs_create,
	.mkdir = fs_mkdir,
	.unlink = fs_unlink,
	.rmdir = fs_unlink,
	.rename = fs_rename,
};

/*
 * Stopping: a signal wakes the stopper thread, which ends trace_pipe's
 * reads first (their readers get the end of the file, not an aborted
 * connection), then ends the loop.
 */
static int stop_pipe[2] = { -1, -1 };
static pthread_t main_thread;

static void on_stop(int sig)
{
	int saved = errno;

	(void)sig;
	if (write(stop_pipe[1], "", 1) < 0) {
		/* full: a stop is on its way */
	}
	errno = saved;
}

static void on_wake(int sig)
{
	(void)sig;	/* only breaks the loop's wait */
}

struct stopper {
	struct fs *fs;
	struct fuse_session *se;
};

static void *stopper(void *arg)
{
	struct stopper *s = arg;
	struct timespec grace = { 0, 100 * 1000 * 1000 };
	char c;

	while (read(stop_pipe[0], &c, 1) < 0 && errno == EINTR)
		;
	evt_pipe_shutdown(s->fs->pipe);
	nanosleep(&grace, NULL);	/* the readers' answers go out */
	fuse_session_exit(s->se);
	pthread_kill(main_thread, SIGUSR2);
	return NULL;
}

static int set_signals(void)
{
	struct sigaction sa = { 0 };

	sa.sa_handler = on_stop;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGINT, &sa, NULL) || sigaction(SIGTERM, &sa, NULL) ||
	    sigaction(SIGHUP, &sa, NULL))
		return -1;
	sa.sa_handler = on_wake;
	if (sigaction(SIGUSR1, &sa, NULL) || sigaction(SIGUSR2, &sa, NULL))
		return -1;
	sa.sa_handler = SIG_IGN;
	return sigaction(SIGPIPE, &sa, NULL);
}

int evt_eventfs_run(const struct evt_eventfs_opts *o, char *err,
		    size_t err_size)
{
	struct fuse_args args = FUSE_ARGS_INIT(0, NULL);
	struct fuse_loop_config *cfg = NULL;
	struct stopper stop;
	pthread_t stop_thread;
	struct fuse *f = NULL;
	struct fs *fs;
	int ret = -1;
	char opts[128];

	fs = calloc(1, sizeof(*fs));
	if (!fs)
		return snprintf(err, err_size, "out of memory"), -1;
	fs->o = *o;
	fs->mounted = time(NULL);
	pthread_mutex_init(&fs->mu, NULL);
	if (evt_view_init(&fs->view, o->rundir, o->pid, err, err_size))
		goto out_free;
	if (evt_pipe_create(o->rundir, o->pid, o->line, &fs->pipe)) {
		snprintf(err, err_size, "out of memory");
		goto out_view;
	}
	/* auto_unmount: a mount whose server was killed goes with it. */
	snprintf(opts, sizeof(opts), "fsname=evtrace,subtype=evtrace,auto_unmount%s",
		 o->allow_other ? ",allow_other" : "");
	if (fuse_opt_add_arg(&args, "evtrace") || fuse_opt_add_arg(&args, "-o") ||
	    fuse_opt_add_arg(&args, opts)) {
		snprintf(err, err_size, "out of memory");
		goto out_pipe;
	}
	f = fuse_new(&args, &ops, sizeof(ops), fs);
	if (!f) {
		snprintf(err, err_size, "libfuse refused the options (see above)");
		goto out_pipe;
	}
	if (fuse_mount(f, o->mountpoint)) {
		snprintf(err, err_size, "%s: cannot mount here (libfuse said why "
			 "above; is fuse3 installed, /dev/fuse there?)", o->mountpoint);
		goto out_fuse;
	}
	if (fuse_daemonize(!o->daemonize)) {
		snprintf(err, err_size, "cannot go to the background");
		goto out_unmount;
	}
	/* Threads only now: fuse_daemonize() forks. */
	main_thread = pthread_self();
	stop.fs = fs;
	stop.se = fuse_get_session(f);
	/* The stopper waits on the read end; a handler never blocks on the
	 * write end. */
	if (pipe2(stop_pipe, O_CLOEXEC) ||
	    fcntl(stop_pipe[1], F_SETFL, O_NONBLOCK) || set_signals() ||
	    evt_pipe_start(fs->pipe) ||
	    pthread_create(&stop_thread, NULL, stopper, &stop)) {
		snprintf(err, err_size, "cannot start its threads: %s", strerror(errno));
		goto out_unmount;
	}
	cfg = fuse_loop_cfg_create();
	if (cfg)
		fuse_loop_cfg_set_max_threads(cfg, 64);	/* readers wait in theirs */
	ret = cfg ? fuse_loop_mt(f, cfg) : -1;
	if (ret)
		snprintf(err, err_size, "the filesystem's loop failed");
	else
		ret = 0;
	fuse_loop_cfg_destroy(cfg);
	/* Unmounted from outside: the stopper still waits. */
	on_stop(0);
	pthread_join(stop_thread, NULL);
out_unmount:
	fuse_unmount(f);
out_fuse:
	fuse_destroy(f);
out_pipe:
	fuse_opt_free_args(&args);
	evt_pipe_destroy(fs->pipe);
out_view:
	evt_view_free(&fs->view);
	evt_probes_view_free(&fs->probes);
out_free:
	pthread_mutex_destroy(&fs->mu);
	free(fs);
	return ret;
}
