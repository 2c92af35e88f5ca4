/*
 * usdt_probes.c - USDT probes made kernel events through tracefs's
 * uprobe_events (see usdt_probes.h).
 */
#include <dirent.h>
#include <fcntl.h>
#include <errno.h>
#include <glob.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gelf.h>
#include <libelf.h>
#include <tracefs.h>

#include "kernel_events.h"
#include "pattern.h"
#include "usdt_notes.h"
#include "usdt_probes.h"

#define GROUP_PREFIX "evtrace_usdt_"

struct made {
	char kernel_path[128];		/* kernel/GROUP/EVENT */
	char path[2 * EVT_USDT_NAME_MAX + 8];	/* usdt/PROVIDER/NAME */
};

struct evt_usdt_set {
	char group[32];
	struct made *made;
	unsigned n;
};

/* Removes uprobe event group/event: 0, or -1. */
static int remove_event(const char *group, const char *event)
{
	char line[160];

	snprintf(line, sizeof(line), "-:%s/%s\n", group, event);
	return tracefs_instance_file_append(NULL, "uprobe_events", line) < 0 ? -1 : 0;
}

/* The uprobes of engines that are gone (their group names a pid that is
 * no longer): removed. */
static void sweep(void)
{
	char *text = tracefs_instance_file_read(NULL, "uprobe_events", NULL);
	char *line, *save = NULL;

	for (line = text ? strtok_r(text, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save)) {
		char group[64], event[128];
		int pid;

		if (sscanf(line, "%*[pr]:%63[^/]/%127s", group, event) != 2 ||
		    strncmp(group, GROUP_PREFIX, strlen(GROUP_PREFIX)) ||
		    sscanf(group + strlen(GROUP_PREFIX), "%d", &pid) != 1 || pid <= 0)
			continue;
		if (kill(pid, 0) && errno == ESRCH)
			remove_event(group, event);
	}
	free(text);
}

static bool wanted(const char *const *patterns, unsigned n, const char *path,
		   bool *matched)
{
	bool any = false;
	unsigned i;

	for (i = 0; i < n; i++)
		if (evt_is_usdt_path(patterns[i]) && evt_pattern_match(patterns[i], path)) {
			matched[i] = true;
			any = true;
		}
	return any;
}

/* The uprobe of probe p of file, as event number k of s. */
static int make_uprobe(struct evt_usdt_set *s, const char *file,
		       const struct evt_usdt_probe *p, char *err, size_t err_size)
{
	char line[PATH_MAX + 1024], event[64], fetch[96];
	struct made *grown, *m;
	size_t at;
	unsigned a, i;

	if (strpbrk(file, " \t\n"))
		return snprintf(err, err_size, "%s: a uprobe cannot name a file "
				"whose path has a space", file), -1;
	/* tracefs's names: letters, digits and '_' */
	at = (size_t)snprintf(event, sizeof(event), "%.24s__%.24s", p->provider, p->name);
	for (i = 0; i < at; i++)
		if (!((event[i] >= 'a' && event[i] <= 'z') || (event[i] >= 'A' && event[i] <= 'Z') ||
		      (event[i] >= '0' && event[i] <= '9')))
			event[i] = '_';
	snprintf(event + at, sizeof(event) - at, "_%u", s->n);
	at = (size_t)snprintf(line, sizeof(line), "p:%s/%s %s:0x%" PRIx64, s->group,
			      event, file, p->offset);
	if (p->sema_addr)
		at += (size_t)snprintf(line + at, sizeof(line) - at, "(0x%" PRIx64 ")",
				       p->sema_offset);
	for (a = 0; a < p->nargs; a++) {
		const char *type = evt_usdt_arg_type(p, a);

		if (!type || evt_usdt_fetcharg(&p->args[a], !strcmp(type, "string"),
					       fetch, sizeof(fetch)))
			continue;	/* (ls --probes says which) */
		at += (size_t)snprintf(line + at, sizeof(line) - at, " arg%u=%s", a + 1, fetch);
	}
	snprintf(line + at, sizeof(line) - at, "\n");
	if (!(grown = realloc(s->made, (s->n + 1) * sizeof(*grown))))
		return snprintf(err, err_size, "out of memory"), -1;
	s->made = grown;
	if (tracefs_instance_file_append(NULL, "uprobe_events", line) < 0)
		return snprintf(err, err_size, "usdt/%s/%s: tracefs refused its uprobe "
				"(%s:0x%" PRIx64 "): %s", p->provider, p->name, file,
				p->offset, strerror(errno)), -1;
	m = &s->made[s->n++];
	snprintf(m->kernel_path, sizeof(m->kernel_path), EVT_KERNEL_PREFIX "%s/%s",
		 s->group, event);
	snprintf(m->path, sizeof(m->path), "usdt/%s/%s", p->provider, p->name);
	return 0;
}

/*
 * Calls made(ctx, file, probe) for each probe of files[0 .. nfiles) a
 * usdt/ pattern names (none: only checked); then a usdt/ pattern that
 * named none is an error.  0, or -1 with err set.
 */
static int each_named(const char *const *patterns, unsigned npatterns,
		      const char *const *files, unsigned nfiles,
		      int (*made)(void *ctx, const char *file,
				  const struct evt_usdt_probe *p, char *err,
				  size_t err_size),
		      void *ctx, char *err, size_t err_size)
{
	bool *matched = calloc(npatterns ? npatterns : 1, sizeof(bool));
	unsigned i, f, k, n;
	int ret = -1;

	if (!matched)
		return snprintf(err, err_size, "out of memory"), -1;
	for (f = 0; f < nfiles; f++) {
		struct evt_usdt_probe *p;

		if (evt_usdt_probes(files[f], &p, &n, err, err_size))
			goto out;
		for (k = 0; k < n; k++) {
			char path[2 * EVT_USDT_NAME_MAX + 8];

			snprintf(path, sizeof(path), "usdt/%s/%s", p[k].provider, p[k].name);
			if (wanted(patterns, npatterns, path, matched) && made &&
			    made(ctx, files[f], &p[k], err, err_size)) {
				free(p);
				goto out;
			}
		}
		free(p);
	}
	for (i = 0; i < npatterns; i++)
		if (evt_is_usdt_path(patterns[i]) && !matched[i]) {
			snprintf(err, err_size, "%s: no USDT probe of that name in %s%s "
				 "(evtrace ls --probes FILE lists a file's)", patterns[i],
				 nfiles ? files[0] : "no file", nfiles > 1 ?
				 " or the libraries it maps" : "");
			goto out;
		}
	ret = 0;
out:
	free(matched);
	return ret;
}

static int make_one(void *ctx, const char *file, const struct evt_usdt_probe *p,
		    char *err, size_t err_size)
{
	return make_uprobe(ctx, file, p, err, err_size);
}

int evt_usdt_check(const char *const *patterns, unsigned npatterns,
		   const char *const *files, unsigned nfiles, char *err,
		   size_t err_size)
{
	return each_named(patterns, npatterns, files, nfiles, NULL, NULL, err,
			  err_size);
}

int evt_usdt_set_create(const char *const *patterns, unsigned npatterns,
			const char *const *files, unsigned nfiles,
			struct evt_usdt_set **out, char *err, size_t err_size)
{
	struct evt_usdt_set *s;
	bool any = false;
	unsigned i;

	*out = NULL;
	for (i = 0; i < npatterns; i++)
		any |= evt_is_usdt_path(patterns[i]);
	if (!any)
		return 0;
	if (!nfiles)
		return snprintf(err, err_size, "usdt/: USDT probes are looked for in "
				"a command's files (record -e usdt/... -- CMD) or those "
				"of -p processes; in every process (-a), name the "
				"binaries or libraries with --probes-in FILE"), -1;
	if (access("/sys/kernel/tracing/uprobe_events", W_OK) &&
	    access("/sys/kernel/debug/tracing/uprobe_events", W_OK))
		return snprintf(err, err_size, "usdt/: USDT probes need uprobes, which "
				"only root may make (tracefs's uprobe_events); for your "
				"own processes, 'evtrace trace -e usdt/...' has evtraced "
				"make them"), -1;
	if (!(s = calloc(1, sizeof(*s))))
		return snprintf(err, err_size, "out of memory"), -1;
	snprintf(s->group, sizeof(s->group), GROUP_PREFIX "%d", (int)getpid());
	sweep();
	if (each_named(patterns, npatterns, files, nfiles, make_one, s, err,
		       err_size)) {
		evt_usdt_set_destroy(s);
		return -1;
	}
	*out = s;
	return 0;
}

unsigned evt_usdt_set_count(const struct evt_usdt_set *s)
{
	return s ? s->n : 0;
}

const char *evt_usdt_set_kernel_path(const struct evt_usdt_set *s, unsigned i)
{
	return s->made[i].kernel_path;
}

const char *evt_usdt_set_path(const struct evt_usdt_set *s, unsigned i)
{
	return s->made[i].path;
}

void evt_usdt_set_destroy(struct evt_usdt_set *s)
{
	unsigned i;

	if (!s)
		return;
	for (i = 0; i < s->n; i++)
		remove_event(s->group, strrchr(s->made[i].kernel_path, '/') + 1);
	free(s->made);
	free(s);
}

/* ---- the files ---- */

struct files {
	char **v;
	unsigned n;
	bool failed;
};

static void add_file(struct files *fs, const char *path)
{
	char real[PATH_MAX], **grown;
	unsigned i;

	if (!realpath(path, real))
		return;
	for (i = 0; i < fs->n; i++)
		if (!strcmp(fs->v[i], real))
			return;
	if (!(grown = realloc(fs->v, (fs->n + 1) * sizeof(*grown))) ||
	    !(grown[fs->n] = strdup(real))) {
		fs->v = grown ? grown : fs->v;
		fs->failed = true;
		return;
	}
	fs->v = grown;
	fs->n++;
}

/* Appends the directories of a colon list (with $ORIGIN as origin) to
 * dirs (size bytes, colon-separated). */
static void add_dirs(char *dirs, size_t size, const char *list, const char *origin)
{
	while (list && *list) {
		size_t n = strcspn(list, ":"), at = strlen(dirs);

		if (n) {
			if (n >= 7 && !strncmp(list, "$ORIGIN", 7))
				snprintf(dirs + at, size - at, "%s%s%.*s", at ? ":" : "",
					 origin, (int)(n - 7), list + 7);
			else
				snprintf(dirs + at, size - at, "%s%.*s", at ? ":" : "",
					 (int)n, list);
		}
		list += n + (list[n] == ':');
	}
}

/* The directories of /etc/ld.so.conf and the files it includes. */
static void conf_dirs(const char *conf, char *dirs, size_t size, int depth)
{
	char line[PATH_MAX];
	FILE *f = depth < 4 ? fopen(conf, "re") : NULL;

	while (f && fgets(line, sizeof(line), f)) {
		char *p = line + strspn(line, " \t");

		p[strcspn(p, "#\n")] = '\0';
		while (*p && p[strlen(p) - 1] == ' ')
			p[strlen(p) - 1] = '\0';
		if (!strncmp(p, "include", 7) && (p[7] == ' ' || p[7] == '\t')) {
			glob_t g;
			size_t i;

			p += 8 + strspn(p + 8, " \t");
			if (glob(p, 0, NULL, &g) == 0)
				for (i = 0; i < g.gl_pathc; i++)
					conf_dirs(g.gl_pathv[i], dirs, size, depth + 1);
			globfree(&g);
		} else if (*p == '/') {
			add_dirs(dirs, size, p, "");
		}
	}
	if (f)
		fclose(f);
}

/* The libraries path links, and theirs, as the loader would find them. */
static void add_needed(struct files *fs, const char *path, int depth)
{
	char needed[64][256], runpath[2048] = "", rpath[2048] = "", origin[PATH_MAX];
	char dirs[8192] = "", candidate[PATH_MAX];
	unsigned nneeded = 0, i;
	Elf_Scn *scn = NULL;
	Elf *e;
	int fd;

	if (depth > 16 || (fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) < 0)
		return;
	if (elf_version(EV_CURRENT) == EV_NONE || !(e = elf_begin(fd, ELF_C_READ, NULL))) {
		close(fd);
		return;
	}
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;
		GElf_Dyn dyn;
		size_t k;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_DYNAMIC ||
		    !(d = elf_getdata(scn, NULL)))
			continue;
		for (k = 0; gelf_getdyn(d, (int)k, &dyn); k++) {
			const char *str = elf_strptr(e, sh.sh_link, dyn.d_un.d_val);

			if (!str)
				continue;
			if (dyn.d_tag == DT_NEEDED && nneeded < 64)
				snprintf(needed[nneeded++], sizeof(needed[0]), "%s", str);
			else if (dyn.d_tag == DT_RUNPATH)
				snprintf(runpath, sizeof(runpath), "%s", str);
			else if (dyn.d_tag == DT_RPATH)
				snprintf(rpath, sizeof(rpath), "%s", str);
		}
	}
	elf_end(e);
	close(fd);
	snprintf(origin, sizeof(origin), "%s", path);
	*strrchr(origin, '/') = '\0';
	if (!runpath[0])
		add_dirs(dirs, sizeof(dirs), rpath, origin);
	add_dirs(dirs, sizeof(dirs), getenv("LD_LIBRARY_PATH"), origin);
	add_dirs(dirs, sizeof(dirs), runpath, origin);
	conf_dirs("/etc/ld.so.conf", dirs, sizeof(dirs), 0);
	add_dirs(dirs, sizeof(dirs), "/lib/x86_64-linux-gnu:/usr/lib/x86_64-linux-gnu:"
		 "/lib64:/usr/lib64:/lib:/usr/lib", "");
	for (i = 0; i < nneeded; i++) {
		const char *d = dirs;

		if (strchr(needed[i], '/'))
			continue;
		while (*d) {
			size_t n = strcspn(d, ":");

			snprintf(candidate, sizeof(candidate), "%.*s/%s", (int)n, d, needed[i]);
			if (access(candidate, R_OK) == 0) {
				unsigned before = fs->n;

				add_file(fs, candidate);
				if (fs->n > before)
					add_needed(fs, fs->v[fs->n - 1], depth + 1);
				break;
			}
			d += n + (d[n] == ':');
		}
	}
}

/* cmd as execvp finds it (through $PATH when it has no '/'), into path:
 * 0, or -1. */
static int find_in_path(const char *cmd, char *path, size_t size)
{
	const char *dirs = getenv("PATH");

	if (strchr(cmd, '/')) {
		snprintf(path, size, "%s", cmd);
		return 0;
	}
	for (dirs = dirs ? dirs : "/usr/bin:/bin"; *dirs; ) {
		size_t len = strcspn(dirs, ":");

		snprintf(path, size, "%.*s/%s", (int)len, len ? dirs : ".", cmd);
		if (access(path, X_OK) == 0)
			return 0;
		dirs += len + (dirs[len] == ':');
	}
	path[0] = '\0';
	return -1;
}

/* A script's interpreter ("#!/usr/bin/python3 -u": /usr/bin/python3)
 * into path, in its place: 1; 0 when path is no script; -1 when its
 * interpreter is one too, or names none. */
static int interpreter(char *path, size_t size)
{
	char line[PATH_MAX + 3];
	FILE *f = fopen(path, "re");
	int got = f && fgets(line, sizeof(line), f) && !strncmp(line, "#!", 2);
	size_t at, n;

	if (f)
		fclose(f);
	if (!got)
		return 0;
	at = 2 + strspn(line + 2, " \t");
	n = strcspn(line + at, " \t\n");
	if (!n || line[at] != '/')
		return -1;
	if (n >= 4 && !strncmp(line + at + n - 4, "/env", 4)) {
		/* #!/usr/bin/env python3: the command env finds */
		at += n + strspn(line + at + n, " \t");
		n = strcspn(line + at, " \t\n");
		if (!n || line[at] == '-')
			return -1;
		line[at + n] = '\0';
		if (find_in_path(line + at, path, size))
			return -1;
	} else {
		snprintf(path, size, "%.*s", (int)n, line + at);
	}
	f = fopen(path, "re");
	got = f && fgets(line, sizeof(line), f) && !strncmp(line, "#!", 2);
	if (f)
		fclose(f);
	return got ? -1 : 1;
}

void evt_usdt_files_free(char **files, unsigned n)
{
	unsigned i;

	for (i = 0; i < n; i++)
		free(files[i]);
	free(files);
}

int evt_usdt_files_of_command(const char *cmd, char ***files, unsigned *n,
			      char *err, size_t err_size)
{
	struct files fs = { 0 };
	char path[PATH_MAX];

	*files = NULL;
	*n = 0;
	find_in_path(cmd, path, sizeof(path));
	if (!path[0] || access(path, R_OK))
		return snprintf(err, err_size, "%s: %s", cmd, path[0] ? strerror(errno) :
				"no such command in $PATH"), -1;
	if (interpreter(path, sizeof(path)) < 0)
		return snprintf(err, err_size, "%s: a script whose interpreter is "
				"itself a script, or none", cmd), -1;
	add_file(&fs, path);
	if (fs.n)
		add_needed(&fs, fs.v[0], 0);
	if (fs.failed || !fs.n) {
		evt_usdt_files_free(fs.v, fs.n);
		return snprintf(err, err_size, "%s: %s", cmd, fs.failed ? "out of memory" :
				strerror(errno)), -1;
	}
	*files = fs.v;
	*n = fs.n;
	return 0;
}

int evt_usdt_files_of_process(int pid, char ***files, unsigned *n, char *err,
			      size_t err_size)
{
	struct files fs = { 0 };
	char maps[64], line[PATH_MAX + 128];
	FILE *f;

	*files = NULL;
	*n = 0;
	snprintf(maps, sizeof(maps), "/proc/%d/maps", pid);
	if (!(f = fopen(maps, "re")))
		return snprintf(err, err_size, "pid %d: %s", pid, strerror(errno)), -1;
	while (fgets(line, sizeof(line), f)) {
		char perms[8], *path = strchr(line, '/');

		line[strcspn(line, "\n")] = '\0';
		if (sscanf(line, "%*s %7s", perms) == 1 && strchr(perms, 'x') && path &&
		    !strstr(path, " (deleted)"))
			add_file(&fs, path);
	}
	fclose(f);
	if (fs.failed) {
		evt_usdt_files_free(fs.v, fs.n);
		return snprintf(err, err_size, "out of memory"), -1;
	}
	*files = fs.v;
	*n = fs.n;
	return 0;
}

int evt_usdt_files_for(const char *const *patterns, unsigned npatterns, int pid,
		       const char *cmd, char ***files, unsigned *n, char *err,
		       size_t err_size)
{
	unsigned i;

	*files = NULL;
	*n = 0;
	for (i = 0; i < npatterns && !evt_is_usdt_path(patterns[i]); i++)
		;
	if (i == npatterns || (!pid && !cmd))
		return 0;
	return pid > 0 ? evt_usdt_files_of_process(pid, files, n, err, err_size) :
			 evt_usdt_files_of_command(cmd, files, n, err, err_size);
}

int evt_usdt_paths(const char *const *files, unsigned nfiles, char ***out,
		   unsigned *n)
{
	struct evt_usdt_probe *p;
	char err[PATH_MAX + 200];
	unsigned i, f, np, j;
	struct files fs = { 0 };

	*out = NULL;
	*n = 0;
	for (f = 0; f < nfiles; f++) {
		if (evt_usdt_probes(files[f], &p, &np, err, sizeof(err)))
			continue;	/* (a file that does not read has none) */
		for (i = 0; i < np && !fs.failed; i++) {
			char path[2 * EVT_USDT_NAME_MAX + 8], **grown;

			snprintf(path, sizeof(path), "usdt/%s/%s", p[i].provider, p[i].name);
			for (j = 0; j < fs.n && strcmp(fs.v[j], path); j++)
				;
			if (j < fs.n)
				continue;
			if (!(grown = realloc(fs.v, (fs.n + 1) * sizeof(*grown))) ||
			    !(grown[fs.n] = strdup(path))) {
				fs.v = grown ? grown : fs.v;
				fs.failed = true;
				break;
			}
			fs.v = grown;
			fs.n++;
		}
		free(p);
	}
	if (fs.failed) {
		evt_usdt_files_free(fs.v, fs.n);
		return -1;
	}
	*out = fs.v;
	*n = fs.n;
	return 0;
}
