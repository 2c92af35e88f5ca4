/*
 * process.c - the traced process's control file and event registry.
 *
 * The control file is created on the first registration, in the run
 * directory (rundir.h), as <pid>-<n>.ctl, the first n free.  The process
 * holds a shared flock on it for its life; an engine that can take an
 * exclusive lock knows the writer is gone (exit, crash, kill or exec:
 * ctl_file.h).
 *
 * Registration and fork run under evt__proc.lock; the write path takes it
 * only for a forked child's first write.  A forked child gets a control
 * file of its own when it first needs one (child_file_locked), mapped at
 * the same address, so every site's enable pointer stays valid; it keeps
 * the parent's events and enable bits (collections follow children).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clock.h"
#include "pattern.h"
#include "rundir.h"
#include "runtime.h"
#include "span_kind.h"
#include "shm_guard.h"
#include "slot_owner.h"

struct evt__process evt__proc = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.fd = -1,
};

static const uint32_t ftrace_off;
EVT_API const volatile uint32_t *evt__ftrace_enable = &ftrace_off;

struct layout {
	uint32_t slots_off, tbufs_off, enable_off, registry_off;
	uint64_t drops_off, rates_off, flag_of_off, flags_off, arena_off, size;
};

static struct layout compute_layout(void)
{
	struct layout l;

	l.slots_off = 4096;
	l.tbufs_off = l.slots_off + EVT_NSLOTS * sizeof(struct evt_ctl_slot);
	l.enable_off = l.tbufs_off + EVT_MAX_TBUFS * sizeof(struct evt_ctl_tbuf);
	l.registry_off = l.enable_off + EVT_MAX_EVENTS * sizeof(uint32_t);
	l.drops_off = l.registry_off + EVT_REGISTRY_BYTES;
	l.rates_off = l.drops_off + EVT_DROPS_ENTRIES(EVT_MAX_TBUFS) *
				    sizeof(struct evt_ctl_drops);
	l.flag_of_off = l.rates_off + EVT_MAX_EVENTS * sizeof(uint32_t);
	l.flags_off = (l.flag_of_off + EVT_MAX_EVENTS * sizeof(uint32_t) +
		       EVT_FLAG_PAGE_BYTES - 1) & ~(uint64_t)(EVT_FLAG_PAGE_BYTES - 1);
	l.arena_off = l.flags_off + (uint64_t)EVT_MAX_FLAG_PAGES * EVT_FLAG_PAGE_BYTES;
	l.size = l.arena_off + EVT_ARENA_BYTES;
	return l;
}

/* Another user holds the default run directory's name and this user has
 * no fallback: said only on a terminal (or with $EVTRACE_DEBUG), never
 * into a service's log at each of its starts; `evtrace ls` says it. */
static bool planted_quietly;

/*
 * Where the run directory is, the first time.  When another user holds
 * the default's name, the fallback (rundir.h) is used, and the process
 * that makes it says so: once per boot, not at every start.
 */
static int rundir_resolve(void)
{
	char err[EVT_RUNDIR_PATH_MAX + 300], why[EVT_RUNDIR_PATH_MAX + 64];
	const char *env = secure_getenv("EVTRACE_RUNDIR");
	int kind;

	/* A program that gained privilege at its exec (setgid, file
	 * capabilities, setuid to another user) holds what its user may not
	 * read (the kernel lets nobody but root ptrace it): its events are
	 * not put where its user reads them.  Setuid root: root's. */
	if (getauxval(AT_SECURE) && geteuid() != 0) {
		evt__debug("this process gained privilege at its exec: not traced "
			   "in its user's run directory");
		return -EPERM;
	}
	if (env && *env) {
		if (!evt_rundir_path(evt__proc.rundir, sizeof(evt__proc.rundir), err,
				     sizeof(err)))
			return 0;
		evt__warn("%s; this process runs untraced", err);
		return -EINVAL;
	}
	kind = evt_rundir_default_made(geteuid(), secure_getenv("XDG_RUNTIME_DIR"),
				       secure_getenv("HOME"), evt__proc.rundir,
				       sizeof(evt__proc.rundir), why, sizeof(why));
	planted_quietly = kind < 0 && !isatty(2);
	if (kind == 2)
		evt__warn("%s; this user's run directory is %s instead", why,
			  evt__proc.rundir);
	return 0;
}

/*
 * Opens the run directory, checked, creating it when missing.  A process
 * that cannot use it runs untraced and says why, once.
 */
static int rundir_open(struct evt_rundir *rd)
{
	char err[EVT_RUNDIR_PATH_MAX + 300];
	int ret;

	if (!evt__proc.rundir[0] && (ret = rundir_resolve()))
		return ret;
	if (evt_rundir_open(rd, evt__proc.rundir, EVT_RUNDIR_CREATE, err,
			    sizeof(err))) {
		ret = -errno;
		if (planted_quietly)
			evt__debug("%s; this process runs untraced", err);
		else
			evt__warn("%s; this process runs untraced", err);
		return ret;
	}
	return 0;
}

/* Why this process runs untraced: its control file cannot be made. */
static void untraced(const struct evt_rundir *rd, const char *path, int e)
{
	char why[2 * EVT_RUNDIR_PATH_MAX + 400];

	evt__warn("%s: %s; this process runs untraced", path,
		  evt_rundir_strerror(rd->path, e, why, sizeof(why)));
}

/* Opens a new, empty, locked control file; returns its fd or -errno. */
static int create_file(const struct evt_rundir *rd, const struct layout *l,
		       char *path, size_t size)
{
	char name[64];
	int fd = -1, n, ret;

	for (n = 0; n < 1000; n++) {
		snprintf(name, sizeof(name), "%d-%d.ctl", (int)getpid(), n);
		/* O_EXCL: never an existing file, nor through a symlink. */
		fd = openat(rd->fd, name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW |
			    O_CLOEXEC, 0600);
		if (fd >= 0 || errno != EEXIST)
			break;
	}
	snprintf(path, size, "%s/%s", rd->path, name);
	if (fd < 0) {
		ret = -errno;
		untraced(rd, path, errno);
		return ret;
	}
	/* The file is sparse; the pages the process will touch are reserved
	 * now or when needed, so that a full tmpfs is an error here, never a
	 * SIGBUS in a traced thread.  The registry is reserved as it grows. */
	if (ftruncate(fd, (off_t)l->size) || flock(fd, LOCK_SH | LOCK_NB) ||
	    fallocate(fd, 0, 0, l->registry_off)) {
		ret = -errno;
		untraced(rd, path, errno);
		unlinkat(rd->fd, name, 0);
		close(fd);
		return ret;
	}
	return fd;
}

/* Remembers which file fd is, so that it is never mistaken for another. */
static void own_fd(int fd)
{
	struct stat st;

	evt__proc.fd = fd;
	if (fstat(fd, &st) == 0) {
		evt__proc.fd_dev = st.st_dev;
		evt__proc.fd_ino = st.st_ino;
	}
}

/* Closes the control file's fd, unless the program closed it and the
 * number now holds one of its own files. */
static void close_own_fd(void)
{
	struct stat st;

	if (fstat(evt__proc.fd, &st) == 0 && st.st_dev == evt__proc.fd_dev &&
	    st.st_ino == evt__proc.fd_ino)
		close(evt__proc.fd);
	evt__proc.fd = -1;
}

static void fill_header(struct evt_ctl_header *h, const struct layout *l)
{
	h->version = EVT_CTL_MAJOR;
	h->minor = EVT_CTL_MINOR;
	_Static_assert(sizeof(EVT_RELEASE) <= sizeof(h->release), "release too long");
	memcpy(h->release, EVT_RELEASE, sizeof(EVT_RELEASE));
	h->header_size = sizeof(*h);
	h->pid = getpid();
	h->ppid = getppid();
	h->file_size = l->size;
	h->clock_kind = evt__proc.clock_kind;
	h->nslots = EVT_NSLOTS;
	h->slots_off = l->slots_off;
	h->max_tbufs = EVT_MAX_TBUFS;
	h->tbufs_off = l->tbufs_off;
	h->max_events = EVT_MAX_EVENTS;
	h->enable_off = l->enable_off;
	h->registry_off = l->registry_off;
	h->registry_size = EVT_REGISTRY_BYTES;
	h->arena_off = l->arena_off;
	h->arena_size = EVT_ARENA_BYTES;
	h->drops_off = l->drops_off;
	h->rates_off = l->rates_off;
	h->flag_of_off = l->flag_of_off;
	h->flags_off = l->flags_off;
	h->max_flag_pages = EVT_MAX_FLAG_PAGES;
	h->optin_gid = evt__optin_gid();
	prctl(PR_GET_NAME, h->comm);
}

static void set_pointers(uint8_t *base, const struct layout *l)
{
	evt__proc.arena_off = l->arena_off;
	evt__proc.pid = getpid();
	evt__proc.base = base;
	evt__proc.size = l->size;
	evt__proc.hdr = (struct evt_ctl_header *)base;
	evt__proc.slots = (struct evt_ctl_slot *)(base + l->slots_off);
	evt__proc.tbufs = (struct evt_ctl_tbuf *)(base + l->tbufs_off);
	evt__proc.enable = (uint32_t *)(base + l->enable_off);
	evt__proc.registry = base + l->registry_off;
	evt__proc.drops = (struct evt_ctl_drops *)(base + l->drops_off);
	evt__proc.rates_off = l->rates_off;
	evt__proc.flag_of_off = l->flag_of_off;
	evt__proc.flags_off = l->flags_off;
}

/*
 * The control file was truncated under the mapping (by its owner, by
 * mistake): the guard made the mapping private zeroes, so every site reads
 * off.  Runs in the SIGBUS handler.
 */
static void on_shrank(void)
{
	if (write(2, evt__proc.shrank_msg, strlen(evt__proc.shrank_msg)) < 0)
		return;
}

/* What on_shrank says, made beforehand: a handler cannot format. */
static void set_shrank_msg(void)
{
	evt__proc.shrank = 0;
	snprintf(evt__proc.shrank_msg, sizeof(evt__proc.shrank_msg),
		 "evtrace: %s: the control file shrank under this process; it "
		 "runs untraced from now on\n", evt__proc.path);
}

/* Guards the mapping against the file shrinking (shm_guard.h). */
static void guard_mapping(void)
{
	set_shrank_msg();
	if (evt_shm_guard_add(evt__proc.base, evt__proc.size, &evt__proc.shrank,
			      on_shrank))
		evt__warn("%s: cannot guard the mapping against truncation",
			  evt__proc.path);
}

static void publish_header(void)
{
	/* Pairs with the engine's acquire of magic: the rest is set. */
	__atomic_store_n(&evt__proc.hdr->magic, EVT_CTL_MAGIC, __ATOMIC_RELEASE);
}

void evt__slot_configure(uint32_t s, uint32_t number, uint32_t mode,
			 uint64_t id, uint32_t block_us, uint32_t packet_size,
			 uint32_t packet_count)
{
	const struct evt_slot_settings set = {
		.number = number, .collection_id = id, .mode = mode,
		.block_us = block_us, .packet_size = packet_size,
		.packet_count = packet_count,
	};

	evt_slot_write(&evt__proc.slots[s], &set);
	__atomic_store_n(&evt__proc.slots[s].state, EVT_SLOT_ACTIVE, __ATOMIC_RELEASE);
}

static const uint8_t ftrace_types[1] = { EVT_ARG_STRING };

/*
 * The hash of event paths and the event table, in one private mapping
 * aligned to a huge page, pages given as they are touched.  A module of
 * thousands of sites touches the table page by page at start, and each
 * page fault costs microseconds on virtual machines (10,000 sites: 400
 * of the table's); such a module asks for huge pages (evt__tables_expect),
 * a fault or two instead, for 2 MiB of memory the table would mostly have
 * taken anyway.  The hash comes first, so that up to some
 * 12,000 events all of it is in the first huge page.
 */
#define HUGE_PAGE (2u << 20)
#define HUGE_TABLE_EVENTS 2000
#define HASH_BYTES ((size_t)2 * EVT_MAX_EVENTS * sizeof(uint32_t))
#define TABLES_BYTES ((HASH_BYTES + (size_t)EVT_MAX_EVENTS * \
		       sizeof(struct evt__event) + HUGE_PAGE - 1) & \
		      ~(size_t)(HUGE_PAGE - 1))

static bool tables_huge;

static int map_tables(void)
{
	uint8_t *m = mmap(NULL, TABLES_BYTES + HUGE_PAGE, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uintptr_t at;

	if (m == MAP_FAILED)
		return -1;
	at = ((uintptr_t)m + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
	if (at > (uintptr_t)m)
		munmap(m, at - (uintptr_t)m);
	munmap((uint8_t *)at + TABLES_BYTES,
	       (uintptr_t)m + HUGE_PAGE - at);
	evt__proc.hash = (uint32_t *)at;
	evt__proc.events = (struct evt__event *)(at + HASH_BYTES);
	if (tables_huge)
		madvise(evt__proc.hash, TABLES_BYTES, MADV_HUGEPAGE);
	return 0;
}

#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE 25
#endif

/* The process's first events (made at its start) have already put small
 * pages in the first huge page's place: they are collapsed into one
 * (Linux 6.1; before, the first 2 MiB stay small pages). */
void evt__tables_expect(uint32_t more)
{
	int saved = errno;

	if (tables_huge || more < HUGE_TABLE_EVENTS)
		return;
	tables_huge = true;
	if (evt__proc.hash &&
	    madvise(evt__proc.hash, TABLES_BYTES, MADV_HUGEPAGE) == 0)
		madvise(evt__proc.hash, HUGE_PAGE, MADV_COLLAPSE);
	errno = saved;
}

static int child_file_locked(void);

int evt__process_init_locked(void)
{
	struct layout l = compute_layout();
	struct evt_rundir rd;
	uint8_t *base;
	int fd, reused;
	uint32_t id;

	if (evt__proc.fd >= 0)
		return 0;
	if (evt__proc.detached)
		return child_file_locked();
	if (evt__proc.events)	/* an earlier attempt failed: stay off */
		return -ENOENT;
	if (map_tables())
		return -ENOMEM;
	evt__proc.clock_kind = evt_clock_detect();
	if (evt__proc.clock_kind == EVT_CLOCK_TSC && __rseq_size >= 8)
		evt__proc.rseq_cpu_off = __rseq_offset +
			(ptrdiff_t)offsetof(struct rseq, cpu_id);
	fd = rundir_open(&rd);
	if (fd < 0)
		return fd;
	fd = create_file(&rd, &l, evt__proc.path, sizeof(evt__proc.path));
	if (fd < 0) {
		evt_rundir_close(&rd);
		return fd;
	}
	base = mmap(NULL, l.size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (base == MAP_FAILED) {
		int ret = -errno;

		unlink(evt__proc.path);
		close(fd);
		evt_rundir_close(&rd);
		return ret;
	}
	own_fd(fd);
	set_pointers(base, &l);
	guard_mapping();
	fill_header(evt__proc.hdr, &l);
	evt__slot_configure(0, 0, EVT_MODE_DISCARD, 0, 0, EVT_PACKET_DEFAULT_BYTES,
			    EVT_PACKETS_DEFAULT);
	evt__rules_load_locked(&rd);
	evt__dead_files_remove(&rd, 0, 0);
	evt_rundir_close(&rd);
	pthread_key_create(&evt__proc.thread_key, evt__thread_exit);
	evt__write_init();

	id = evt__event_add_locked("ftrace/print", "%s", EVT_KIND_FTRACE,
				   ftrace_types, 1, UINT32_MAX, &reused);
	if (id >= EVT_MAX_EVENTS) {	/* cannot happen in an empty registry */
		publish_header();
		return 0;
	}
	evt__proc.ftrace_rt.id = id;
	evt__proc.ftrace_rt.nargs = 1;
	evt__proc.ftrace_rt.types[0] = EVT_ARG_STRING;
	evt__proc.ftrace_rt.max_record_bytes =
		evt__record_max_bytes(ftrace_types, 1);
	evt__ftrace_enable = &evt__proc.enable[id];
	publish_header();
	return 0;
}

static uint32_t hash_path(const char *s)
{
	uint32_t h = 2166136261u;

	while (*s)
		h = (h ^ (uint8_t)*s++) * 16777619u;
	return h;
}

/* The event named path, or -1 with *place where its id would go in the
 * hash (the path hashed once per registration). */
static int event_find_locked(const char *path, uint32_t *place)
{
	uint32_t mask = 2 * EVT_MAX_EVENTS - 1, i = hash_path(path) & mask;

	for (; evt__proc.hash[i]; i = (i + 1) & mask)
		if (!strcmp(evt__proc.events[evt__proc.hash[i] - 1].path, path))
			return (int)evt__proc.hash[i] - 1;
	*place = i;
	return -1;
}

#define REGISTRY_CHUNK (64u << 10)

/* Appends the registry entry of event id (its stored argument types
 * given: the table keeps none); returns 0 or -ENOSPC. */
static int registry_append(uint32_t id, const struct evt__event *e,
			   const uint8_t *types)
{
	size_t plen = strlen(e->path), flen = strlen(e->format);
	size_t fnlen = e->func ? strlen(e->func) : 0;
	size_t size = (sizeof(struct evt_reg_entry) + e->nargs + plen + 1 +
		       flen + 1 + (e->func ? fnlen + 1 : 0) + 3) & ~(size_t)3;
	struct evt_reg_entry *r;
	uint8_t *p;

	if (plen > UINT16_MAX || flen > UINT16_MAX ||
	    evt__proc.registry_used + size > EVT_REGISTRY_BYTES)
		return -ENOSPC;
	if (evt__proc.registry_used + size > evt__proc.registry_reserved) {
		uint32_t want = (evt__proc.registry_used + size + REGISTRY_CHUNK - 1) &
				~(REGISTRY_CHUNK - 1);

		if (want > EVT_REGISTRY_BYTES)
			want = EVT_REGISTRY_BYTES;
		if (fallocate(evt__proc.fd, 0,
			      (off_t)(evt__proc.registry - evt__proc.base),
			      want))
			return -ENOSPC;
		evt__proc.registry_reserved = want;
	}
	r = (struct evt_reg_entry *)(evt__proc.registry + evt__proc.registry_used);
	evt__proc.events[id].reg_off = evt__proc.registry_used;
	r->size = size;
	r->id = id;
	r->kind = e->kind;
	r->nargs = e->nargs;
	r->path_len = plen;
	r->format_len = flen;
	r->flags = e->flags | (e->func ? EVT_REG_FUNC : 0);
	r->parent = e->parent;
	p = r->data;
	if (e->nargs)
		memcpy(p, types, e->nargs);
	p += e->nargs;
	memcpy(p, e->path, plen + 1);
	p += plen + 1;
	memcpy(p, e->format, flen + 1);
	p += flen + 1;
	if (e->func)
		memcpy(p, e->func, fnlen + 1);
	evt__proc.registry_used += size;
	/* Pairs with the engine's acquire of nevents: the entry is whole. */
	__atomic_store_n(&evt__proc.hdr->registry_used, evt__proc.registry_used,
			 __ATOMIC_RELEASE);
	__atomic_store_n(&evt__proc.hdr->nevents, id + 1, __ATOMIC_RELEASE);
	return 0;
}

/* Marks the registry entry too, so that ls can tell. */
static void unload_mark(uint32_t id, uint32_t flags)
{
	struct evt_reg_entry *r = (struct evt_reg_entry *)
		(evt__proc.registry + evt__proc.events[id].reg_off);

	__atomic_store_n(&r->flags, flags | (evt__proc.events[id].flags & EVT_REG_REFUSED) |
			 (evt__proc.events[id].func ? EVT_REG_FUNC : 0), __ATOMIC_RELAXED);
}

/*
 * An event's strings, kept for the life of the process (an event is never
 * forgotten, only unloaded): packed into chunks, not a malloc each, which
 * at thousands of sites a module made registration slower by a fifth.
 */
#define STRING_CHUNK (64u << 10)

struct string_chunk {
	struct string_chunk *next;	/* all kept reachable */
	size_t used;
	char data[];
};

static struct string_chunk *string_chunks;

static char *keep_string(const char *s)
{
	size_t n = strlen(s) + 1;
	struct string_chunk *c = string_chunks;

	if (n > STRING_CHUNK / 4) {	/* a long one: a chunk of its own */
		c = malloc(sizeof(*c) + n);
		if (!c)
			return NULL;
		c->used = STRING_CHUNK;	/* full: nothing else goes in */
		c->next = string_chunks;
		string_chunks = c;
		return memcpy(c->data, s, n);
	}
	if (!c || c->used + n > STRING_CHUNK) {
		c = malloc(sizeof(*c) + STRING_CHUNK);
		if (!c)
			return NULL;
		c->used = 0;
		c->next = string_chunks;
		string_chunks = c;
	}
	c->used += n;
	return memcpy(c->data + c->used - n, s, n);
}

/*
 * Whether two sites' functions are instantiations of one C++ template
 * (a function template, or a member of a class template): their
 * signatures agree up to the template arguments gcc and clang append,
 * " [with T = int]" and " [T = int]".
 */
static bool one_template(const char *a, const char *b)
{
	const char *ea = a ? strstr(a, " [") : NULL;
	const char *eb = b ? strstr(b, " [") : NULL;
	size_t n;

	if (!ea || !eb || a[strlen(a) - 1] != ']' || b[strlen(b) - 1] != ']')
		return false;
	n = (size_t)(ea - a);
	return n == (size_t)(eb - b) && !strncmp(a, b, n);
}

static uint32_t add_locked(const char *path, const char *format,
			   uint16_t kind, const uint8_t *types, uint8_t nargs,
			   uint32_t parent, bool refused, const char *func,
			   int *reused)
{
	uint32_t id, place = 0;
	int found = event_find_locked(path, &place);
	struct evt__event *e;

	*reused = 0;
	if (found >= 0) {
		e = &evt__proc.events[found];
		/* A typed event defined alike by several modules is one
		 * event; a printk site's path is its own while loaded, but
		 * for the other instantiations of its template. */
		if ((!e->loaded || kind == EVT_KIND_TYPED || kind == EVT_KIND_STABLE ||
		     evt_kind_is_span(kind) ||
		     (kind == EVT_KIND_PRINTK && !refused &&
		      !(e->flags & EVT_REG_REFUSED) && one_template(e->func, func))) &&
		    e->kind == kind && e->parent == parent &&
		    !strcmp(e->format, format) && e->loaded < UINT16_MAX) {
			if (!e->loaded++)
				unload_mark(found, 0);
			*reused = 1;
			return (uint32_t)found;
		}
		return UINT32_MAX;	/* taken: the caller picks another path */
	}
	if (evt__proc.nevents >= EVT_MAX_EVENTS)
		return UINT32_MAX - 1;
	id = evt__proc.nevents;
	e = &evt__proc.events[id];
	e->path = keep_string(path);
	e->format = keep_string(format);
	e->func = func && strlen(func) <= UINT16_MAX ? keep_string(func) : NULL;
	if (!e->path || !e->format) {
		e->path = e->format = e->func = NULL;
		return UINT32_MAX - 1;
	}
	e->kind = kind;
	e->parent = parent;
	e->flags = refused ? EVT_REG_REFUSED : 0;
	e->nargs = nargs;
	e->loaded = 1;
	if (registry_append(id, e, types)) {
		e->path = e->format = e->func = NULL;	/* their room is lost */
		return UINT32_MAX - 1;
	}
	evt__proc.nevents++;
	evt__proc.hash[place] = id + 1;
	/* A rider's word is never read: its switch's is. */
	if (!refused && !(evt_kind_is_span(kind) && parent != UINT32_MAX))
		evt__rules_apply_locked(id, path, parent);
	return id;
}

uint32_t evt__event_add_locked(const char *path, const char *format,
			       uint16_t kind, const uint8_t *types,
			       uint8_t nargs, uint32_t parent, int *reused)
{
	return add_locked(path, format, kind, types, nargs, parent, false, NULL,
			  reused);
}

uint32_t evt__event_add_site_locked(const char *path, const char *format,
				    const uint8_t *types, uint8_t nargs,
				    const char *func, int *reused)
{
	return add_locked(path, format, EVT_KIND_PRINTK, types, nargs, UINT32_MAX,
			  false, func, reused);
}

uint32_t evt__event_add_refused_locked(const char *path, const char *format,
				       uint16_t kind, const char *func,
				       int *reused)
{
	return add_locked(path, format, kind, NULL, 0, UINT32_MAX, true, func,
			  reused);
}

void evt__event_unload_locked(uint32_t id)
{
	struct evt__event *e = &evt__proc.events[id];

	if (e->loaded && --e->loaded == 0) {
		unload_mark(id, EVT_REG_UNLOADED);
		evt__flag_drop_locked(id);
	}
	/* A rider holds its switch as long as it is held. */
	if (evt_kind_is_span(e->kind) && e->parent != UINT32_MAX)
		evt__event_unload_locked(e->parent);
}

/*
 * A forked child's control file, made when it first needs one: at fork
 * when a recording follows children, else at its first write or
 * registration.  Until then the child keeps its parent's mapping, only
 * reading its enable words, so that a child that never traces (most of
 * them: a pre-fork server's, one that execs or _exits) costs no file, and
 * none is left behind by a child whose destructor never runs.
 *
 * The file gets the header and slots of the mapping as they are now, the
 * enable words and registry entries of the child's own events (the
 * parent may have registered more since), and no buffers; it is mapped
 * at the same address, so every site's enable pointer stays valid.
 */
/* The rates of the first n events, from the parent's file to the child's
 * (holes read as zeroes; only chunks with a rate are written).  -1 when
 * the child's file cannot take them (full). */
static int copy_rates(int from, int to, const struct layout *l, uint32_t n)
{
	uint32_t chunk[256], i, k;

	for (i = 0; from >= 0 && i < n; i += k) {
		off_t at = (off_t)(l->rates_off + (uint64_t)i * sizeof(chunk[0]));
		size_t bytes;
		bool any = false;

		k = n - i < 256 ? n - i : 256;
		bytes = k * sizeof(chunk[0]);
		if (pread(from, chunk, bytes, at) != (ssize_t)bytes)
			return 0;	/* the parent's: none to inherit */
		for (uint32_t j = 0; j < k && !any; j++)
			any = chunk[j] != 0;
		if (any && pwrite(to, chunk, bytes, at) != (ssize_t)bytes)
			return -1;
	}
	return 0;
}

static int child_file_locked(void)
{
	struct layout l = compute_layout();
	uint8_t head[4096 + EVT_NSLOTS * sizeof(struct evt_ctl_slot)];
	struct evt_ctl_header *h = (struct evt_ctl_header *)head;
	struct evt_rundir rd;
	char path[PATH_MAX];
	size_t words = (size_t)evt__proc.nevents * sizeof(uint32_t);
	uint8_t *old = evt__proc.base;
	pid_t parent = getppid();
	int fd;

	_Static_assert(sizeof(head) == 4096 + EVT_NSLOTS * 64, "head = header + slots");
	if (rundir_open(&rd))
		goto off;
	fd = create_file(&rd, &l, path, sizeof(path));
	/* Children that write and end by _exit leave their files: the next
	 * child's look keeps them few (bounded: this is a write's slow path). */
	if (fd >= 0)
		evt__dead_files_remove(&rd, EVT_DEAD_FILES_CHILD_LOOK, parent);
	evt_rundir_close(&rd);
	if (fd < 0)
		goto off;
	/* The header goes out unpublished (magic 0) until it is the child's. */
	memcpy(head, old, sizeof(head));
	h->magic = 0;
	h->pid = getpid();
	h->ppid = parent;
	h->arena_used = 0;
	h->tbufs_used = 0;
	h->nevents = evt__proc.nevents;
	h->registry_used = evt__proc.registry_used;
	h->optin_gid = evt__optin_gid();
	for (unsigned s = 0; s < EVT_NSLOTS; s++)
		((struct evt_ctl_slot *)(head + l.slots_off))[s].nobuf_lost = 0;
	/* The registry as reserved: its pages are the file's before any
	 * entry is appended to them. */
	if (pwrite(fd, head, sizeof(head), 0) != (ssize_t)sizeof(head) ||
	    pwrite(fd, old + l.enable_off, words, l.enable_off) != (ssize_t)words ||
	    pwrite(fd, old + l.registry_off, evt__proc.registry_reserved,
		   l.registry_off) != (ssize_t)evt__proc.registry_reserved ||
	    copy_rates(evt__proc.fd, fd, &l, evt__proc.nevents) ||
	    mmap(old, l.size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED,
		 fd, 0) == MAP_FAILED) {
		unlink(path);
		close(fd);
		goto off;
	}
	own_fd(fd);
	evt__flag_pages_remap(fd);
	memcpy(evt__proc.path, path, sizeof(path));
	set_shrank_msg();	/* the range is guarded since the parent's */
	__atomic_store_n(&evt__proc.detached, false, __ATOMIC_RELAXED);
	evt__proc.pid = getpid();
	evt__proc.arena_used = 0;
	evt__proc.ntbufs = 0;
	memset(evt__proc.tbuf_priv, 0, sizeof(evt__proc.tbuf_priv));
	evt__write_fork_child();
	publish_header();
	return 0;
off:
	/* No file of its own: never write into the parent's.  The mapping
	 * becomes private zeroes, so every enable word reads 0. */
	__atomic_store_n(&evt__proc.detached, false, __ATOMIC_RELAXED);
	mmap(old, l.size, PROT_READ | PROT_WRITE,
	     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	evt__flag_pages_remap(-1);
	return -1;
}

/* Whether a collection other than the default one is active: a recording
 * that follows children wants to see this one from its start. */
static bool followed(void)
{
	for (unsigned s = 1; s < EVT_NSLOTS; s++)
		if (__atomic_load_n(&evt__proc.slots[s].state, __ATOMIC_ACQUIRE) ==
		    EVT_SLOT_ACTIVE)
			return true;
	return false;
}

/* Read by the parent before fork, whose mapping of the slots is in its
 * page tables: the child's own look would fault a page in (a shared
 * mapping's entries are not copied at fork). */
static bool follow_at_fork;

/* Runs between fork and the child's first instruction of its own. */
static void fork_child(void)
{
	evt__proc.fork_gen++;	/* every thread state is stale */
	evt__write_forked();
	if (!evt__proc.base || (evt__proc.fd < 0 && !evt__proc.detached))
		return;		/* untraced */
	if (evt__proc.fd >= 0)
		close_own_fd();	/* its lock says the parent lives */
	evt__proc.detached = true;
	if (follow_at_fork)
		child_file_locked();
}

int evt__process_attach_child(void)
{
	int ret;

	/* Maybe in a signal handler that interrupted this thread's own
	 * registration: then the event is dropped. */
	if (pthread_mutex_trylock(&evt__proc.lock))
		return -1;
	if (evt__proc.detached)
		ret = child_file_locked();
	else
		ret = evt__proc.fd >= 0 ? 0 : -1;
	pthread_mutex_unlock(&evt__proc.lock);
	return ret;
}

static void fork_prepare(void)
{
	pthread_mutex_lock(&evt__proc.lock);
	follow_at_fork = evt__proc.base && !evt__proc.shrank && followed();
}

static void fork_parent(void)
{
	pthread_mutex_unlock(&evt__proc.lock);
}

static void fork_child_unlock(void)
{
	fork_child();
	pthread_mutex_unlock(&evt__proc.lock);
}

__attribute__((constructor)) static void process_ctor(void)
{
	pthread_atfork(fork_prepare, fork_parent, fork_child_unlock);
	pthread_mutex_lock(&evt__proc.lock);
	evt__process_init_locked();
	pthread_mutex_unlock(&evt__proc.lock);
}

/*
 * At exit the file goes unless a collection other than the default one is
 * active in it: that collection's engine drains and removes it.
 */
__attribute__((destructor)) static void process_dtor(void)
{
	unsigned s;

	if (evt__proc.fd < 0)
		return;
	for (s = 1; s < EVT_NSLOTS; s++)
		if (__atomic_load_n(&evt__proc.slots[s].state, __ATOMIC_ACQUIRE))
			return;
	unlink(evt__proc.path);
}
