/*
 * ctl.c - map and check a control file (see ctl.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <linux/futex.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ctl.h"
#include "ctl_version.h"
#include "printk_format.h"
#include "span_kind.h"
#include "rules.h"
#include "shm_guard.h"

static int bad(char *err, size_t err_size, const char *path, uint64_t off,
	       const char *why)
{
	snprintf(err, err_size, "%s: offset %llu: %s", path,
		 (unsigned long long)off, why);
	return -EPROTO;
}

static bool region_ok(uint64_t off, uint64_t count, uint64_t each,
		      uint64_t size)
{
	return off % 8 == 0 && count <= size && each <= size &&
	       off <= size && count * each <= size - off;
}

static int check_header(const struct evt_ctl_header *h, size_t size,
			const char *path, char *err, size_t err_size)
{
	if (evt_ctl_version_check(h, path, err, err_size))
		return -EPROTO;
	if (h->header_size < EVT_CTL_HEADER_MIN_BYTES || h->header_size > h->slots_off)
		return bad(err, err_size, path,
			   offsetof(struct evt_ctl_header, header_size),
			   "bad header size");
	if (h->file_size != size)
		return bad(err, err_size, path,
			   offsetof(struct evt_ctl_header, file_size),
			   "file size disagrees with the header");
	if (h->nslots != EVT_NSLOTS ||
	    !region_ok(h->slots_off, h->nslots, sizeof(struct evt_ctl_slot), size))
		return bad(err, err_size, path,
			   offsetof(struct evt_ctl_header, slots_off),
			   "slot table out of bounds");
	if (h->max_tbufs > 65536 ||
	    !region_ok(h->tbufs_off, h->max_tbufs, sizeof(struct evt_ctl_tbuf), size))
		return bad(err, err_size, path,
			   offsetof(struct evt_ctl_header, tbufs_off),
			   "buffer table out of bounds");
	if (h->max_events > 65536 ||
	    !region_ok(h->enable_off, h->max_events, sizeof(uint32_t), size))
		return bad(err, err_size, path,
			   offsetof(struct evt_ctl_header, enable_off),
			   "enable words out of bounds");
	if (!region_ok(h->registry_off, h->registry_size, 1, size))
		return bad(err, err_size, path,
			   offsetof(struct evt_ctl_header, registry_off),
			   "registry out of bounds");
	if (!region_ok(h->drops_off, EVT_DROPS_ENTRIES(h->max_tbufs),
		       sizeof(struct evt_ctl_drops),
		       size))
		return bad(err, err_size, path,
			   offsetof(struct evt_ctl_header, drops_off),
			   "drop table out of bounds");
	if (!region_ok(h->rates_off, h->max_events, sizeof(uint32_t), size))
		return bad(err, err_size, path,
			   offsetof(struct evt_ctl_header, rates_off),
			   "rate table out of bounds");
	if (!region_ok(h->flag_of_off, h->max_events, sizeof(uint32_t), size))
		return bad(err, err_size, path,
			   offsetof(struct evt_ctl_header, flag_of_off),
			   "site flag table out of bounds");
	if (h->max_flag_pages > EVT_MAX_FLAG_PAGES || h->flags_off % EVT_FLAG_PAGE_BYTES ||
	    !region_ok(h->flags_off, h->max_flag_pages, EVT_FLAG_PAGE_BYTES, size))
		return bad(err, err_size, path,
			   offsetof(struct evt_ctl_header, flags_off),
			   "site flag pages out of bounds");
	if (!region_ok(h->arena_off, h->arena_size, 1, size))
		return bad(err, err_size, path,
			   offsetof(struct evt_ctl_header, arena_off),
			   "buffer arena out of bounds");
	return 0;
}

int evt_ctl_open(const struct evt_rundir *rd, const char *name,
		 struct evt_ctl **out, char *err, size_t err_size)
{
	char path[PATH_MAX];
	struct evt_ctl *c;
	struct stat st;
	uint32_t magic;
	int fd, ret;

	*out = NULL;
	if (strlen(name) >= sizeof(c->name)) {
		snprintf(err, err_size, "%s/%.80s...: name too long", rd->path, name);
		return -ENAMETOOLONG;
	}
	snprintf(path, sizeof(path), "%s/%s", rd->path, name);
	fd = evt_rundir_openat(rd, name, O_RDWR, 0, err, err_size);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st)) {
		ret = -errno;
		snprintf(err, err_size, "%s: %s", path, strerror(errno));
		goto out_close;
	}
	if ((size_t)st.st_size < sizeof(struct evt_ctl_header)) {
		ret = st.st_size == 0 ? -EAGAIN :
			bad(err, err_size, path, 0, "shorter than a header");
		goto out_close;
	}
	c = calloc(1, sizeof(*c));
	if (!c) {
		ret = -ENOMEM;
		snprintf(err, err_size, "out of memory");
		goto out_close;
	}
	c->fd = fd;
	c->size = st.st_size;
	snprintf(c->path, sizeof(c->path), "%s", path);
	snprintf(c->name, sizeof(c->name), "%s", name);
	c->base = mmap(NULL, c->size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (c->base == MAP_FAILED) {
		ret = -errno;
		snprintf(err, err_size, "%s: mmap: %s", path, strerror(errno));
		free(c);
		goto out_close;
	}
	/* A file that shrinks from now on reads as zeroes, not SIGBUS. */
	if (evt_shm_guard_add(c->base, c->size, &c->shrank, NULL)) {
		ret = -ENOMEM;
		snprintf(err, err_size, "%s: cannot guard its mapping", path);
		munmap(c->base, c->size);
		free(c);
		goto out_close;
	}
	/* Pairs with the writer's release of magic: the header is whole.
	 * Read once: a second read may see it published meanwhile. */
	magic = __atomic_load_n((uint32_t *)c->base, __ATOMIC_ACQUIRE);
	if (magic != EVT_CTL_MAGIC) {
		ret = magic == 0 ? -EAGAIN : bad(err, err_size, path, 0, "bad magic");
		goto out_unmap;
	}
	memcpy(&c->h, c->base, sizeof(c->h));
	/* What an earlier minor's header has not reads 0 (ctl_version.h). */
	if (c->h.header_size < sizeof(c->h) && c->h.header_size >= EVT_CTL_HEADER_MIN_BYTES)
		memset((char *)&c->h + c->h.header_size, 0,
		       sizeof(c->h) - c->h.header_size);
	ret = check_header(&c->h, c->size, path, err, err_size);
	if (ret)
		goto out_unmap;
	c->h.comm[sizeof(c->h.comm) - 1] = '\0';
	c->slots = (struct evt_ctl_slot *)(c->base + c->h.slots_off);
	c->tbufs = (struct evt_ctl_tbuf *)(c->base + c->h.tbufs_off);
	c->enable = (uint32_t *)(c->base + c->h.enable_off);
	*out = c;
	return 0;
out_unmap:
	evt_shm_guard_remove(c->base);
	munmap(c->base, c->size);
	free(c);
out_close:
	close(fd);
	return ret;
}

void evt_ctl_close(struct evt_ctl *c)
{
	uint32_t i;

	if (!c)
		return;
	for (i = 0; i < c->nevents; i++) {
		free(c->events[i].path);
		free(c->events[i].format);
		free(c->events[i].func);
		evt_event_layout_free(&c->events[i].layout);
	}
	free(c->events);
	evt_shm_guard_remove(c->base);
	munmap(c->base, c->size);
	close(c->fd);
	free(c);
}

/* A stable event's parent is a typed event before it; a rider's, a
 * switch of its kind (layout.h); no other event has one. */
static bool parent_valid(const struct evt_ctl *c, const struct evt_reg_entry *r)
{
	const struct evt_ctl_event *p;

	if (r->parent == UINT32_MAX)
		return r->kind != EVT_KIND_STABLE;
	if (r->parent >= r->id)
		return false;
	p = &c->events[r->parent];
	if (r->kind == EVT_KIND_STABLE)
		return p->layout.kind == EVT_KIND_TYPED;
	return evt_kind_is_span(r->kind) && p->layout.kind == r->kind &&
	       p->parent == UINT32_MAX && !p->refused;
}

static int parse_entry(struct evt_ctl *c, uint32_t off, uint32_t limit,
		       uint32_t *size_out, char *err, size_t err_size)
{
	const uint8_t *reg = c->base + c->h.registry_off;
	struct evt_reg_entry r;
	struct evt_ctl_event *e;
	const char *path, *format;
	char why[300];
	size_t need;

	if (limit - off < sizeof(r))
		return bad(err, err_size, c->path, c->h.registry_off + off,
			   "registry entry truncated");
	memcpy(&r, reg + off, sizeof(r));
	need = sizeof(r) + (size_t)r.nargs + r.path_len + 1 + r.format_len + 1;
	if (r.size % 4 || r.size < need || r.size > limit - off)
		return bad(err, err_size, c->path, c->h.registry_off + off,
			   "registry entry size out of bounds");
	if (r.id != c->nevents || r.id >= c->h.max_events)
		return bad(err, err_size, c->path, c->h.registry_off + off,
			   "registry entry id out of order");
	if (r.kind < EVT_KIND_PRINTK || r.kind > EVT_KIND_COUNTER ||
	    r.kind == EVT_KIND_KERNEL)
		return bad(err, err_size, c->path, c->h.registry_off + off,
			   "registry entry of an unknown kind");
	if (!parent_valid(c, &r))
		return bad(err, err_size, c->path, c->h.registry_off + off,
			   "registry entry parent invalid");
	path = (const char *)reg + off + sizeof(r) + r.nargs;
	format = path + r.path_len + 1;
	if (path[r.path_len] || format[r.format_len] ||
	    strlen(path) != r.path_len || strlen(format) != r.format_len ||
	    r.path_len == 0)
		return bad(err, err_size, c->path, c->h.registry_off + off,
			   "registry entry strings malformed");
	if (c->nevents == c->events_cap) {
		/* Grown as entries come: most processes have few events. */
		uint32_t cap = c->events_cap ? 2 * c->events_cap : 64;
		void *grown = realloc(c->events, cap * sizeof(*c->events));

		if (!grown) {
			snprintf(err, err_size, "out of memory");
			return -ENOMEM;
		}
		c->events = grown;
		c->events_cap = cap;
	}
	e = &c->events[c->nevents];
	memset(e, 0, sizeof(*e));
	if (r.flags & EVT_REG_REFUSED) {
		/* A refused printk site (its format the one refused) or typed
		 * event (its format why): no arguments, never written. */
		if ((r.kind != EVT_KIND_PRINTK && r.kind != EVT_KIND_TYPED &&
		     r.kind != EVT_KIND_STABLE) || r.nargs)
			return bad(err, err_size, c->path, c->h.registry_off + off,
				   "registry entry refused but not a bare printk "
				   "site or typed event");
		e->refused = 1;
		e->layout.kind = EVT_KIND_PRINTK;
	} else if (evt_event_layout_load(&e->layout, r.kind, format,
				  reg + off + sizeof(r), r.nargs, why, sizeof(why))) {
		char msg[400];

		snprintf(msg, sizeof(msg), "registry entry of %.100s: %s", path, why);
		return bad(err, err_size, c->path, c->h.registry_off + off, msg);
	}
	e->id = r.id;
	e->reg_off = off;
	e->parent = r.parent;
	e->unloaded = !!(r.flags & EVT_REG_UNLOADED);
	if (r.flags & EVT_REG_FUNC) {
		const char *fn = format + r.format_len + 1;
		size_t room = r.size - need;

		if (!memchr(fn, '\0', room)) {
			evt_event_layout_free(&e->layout);
			return bad(err, err_size, c->path, c->h.registry_off + off,
				   "registry entry function name malformed");
		}
		e->func = strdup(fn);
	}
	/* A rider is shown as its switch: its records are the span's. */
	e->rider = evt_kind_is_span(r.kind) && r.parent != UINT32_MAX;
	e->path = strdup(e->rider ? c->events[r.parent].path : path);
	e->format = strdup(format);
	if (!e->path || !e->format || ((r.flags & EVT_REG_FUNC) && !e->func)) {
		free(e->path);
		free(e->format);
		free(e->func);
		evt_event_layout_free(&e->layout);
		snprintf(err, err_size, "out of memory");
		return -ENOMEM;
	}
	c->nevents++;
	*size_out = r.size;
	return 0;
}

bool evt_ctl_registry_grew(const struct evt_ctl *c)
{
	const struct evt_ctl_header *live = (const void *)c->base;

	/* Pairs with the writer's release of registry_used. */
	return !c->registry_bad && !c->shrank &&
	       __atomic_load_n(&live->registry_used, __ATOMIC_ACQUIRE) !=
	       c->registry_parsed;
}

int evt_ctl_refresh(struct evt_ctl *c, char *err, size_t err_size)
{
	struct evt_ctl_header *live = (struct evt_ctl_header *)c->base;
	uint32_t used, off, size, i;

	if (c->registry_bad)
		return 0;
	/* Pairs with the writer's release of registry_used. */
	used = __atomic_load_n(&live->registry_used, __ATOMIC_ACQUIRE);
	if (used > c->h.registry_size) {
		c->registry_bad = true;
		return bad(err, err_size, c->path,
			   offsetof(struct evt_ctl_header, registry_used),
			   "registry fill level past its end");
	}
	for (off = c->registry_parsed; off < used; off += size) {
		if (parse_entry(c, off, used, &size, err, err_size)) {
			c->registry_bad = true;
			return -1;
		}
		c->registry_parsed = off + size;
	}
	/* The unloaded flag may change after an entry is parsed. */
	for (i = 0; i < c->nevents; i++) {
		const struct evt_reg_entry *r = (const void *)
			(c->base + c->h.registry_off + c->events[i].reg_off);
		c->events[i].unloaded = !!(__atomic_load_n(&r->flags, __ATOMIC_RELAXED) &
					   EVT_REG_UNLOADED);
	}
	return 0;
}

uint32_t evt_ctl_optin_gid(const struct evt_ctl *c)
{
	const struct evt_ctl_header *h = (const struct evt_ctl_header *)c->base;
	uint32_t gid = __atomic_load_n(&h->optin_gid, __ATOMIC_ACQUIRE);

	return c->shrank ? EVT_NO_GROUP : gid;
}

bool evt_ctl_alive(const struct evt_ctl *c)
{
	/* The writer holds a shared lock for as long as it runs. */
	/* Only getting the lock says it is gone: an error says nothing, and
	 * taking a live process for dead would let go of its file. */
	if (flock(c->fd, LOCK_EX | LOCK_NB) == 0) {
		flock(c->fd, LOCK_UN);
		return false;
	}
	return true;
}

static void set_bit(uint32_t *word, uint32_t bit, bool on)
{
	/* Sequentially consistent: the process's clear of the site's flag
	 * and its second look at the word pair with it (layout.h). */
	if (on)
		__atomic_fetch_or(word, bit, __ATOMIC_SEQ_CST);
	else
		__atomic_fetch_and(word, ~bit, __ATOMIC_SEQ_CST);
}

/*
 * After a bit of event id's word went on: the flag byte its C site's fast
 * path tests goes to 1 (layout.h).  The process said which byte: it is
 * checked to be one of the flag pages, and written with pwrite, which
 * a page the process never reserved cannot turn into a SIGBUS here.
 */
static void raise_flag(const struct evt_ctl *c, uint32_t id)
{
	const uint8_t one = 1;
	uint32_t n = 0;

	if (!c->h.max_flag_pages ||
	    pread(c->fd, &n, sizeof(n),
		  (off_t)(c->h.flag_of_off + (uint64_t)id * sizeof(n))) !=
	    (ssize_t)sizeof(n) ||
	    n == 0 || n - 1 >= (uint64_t)c->h.max_flag_pages * EVT_FLAG_PAGE_BYTES)
		return;
	/* (A page the process no longer reserves: its loss.) */
	(void)!pwrite(c->fd, &one, 1, (off_t)(c->h.flags_off + n - 1));
}

uint32_t evt_ctl_rate(const struct evt_ctl *c, uint32_t id)
{
	uint32_t rate = 0;

	if (id >= c->h.max_events ||
	    pread(c->fd, &rate, sizeof(rate),
		  (off_t)(c->h.rates_off + (uint64_t)id * sizeof(rate))) !=
	    (ssize_t)sizeof(rate))
		return 0;
	return rate < EVT_RATE_MAX ? rate : EVT_RATE_MAX;
}

int evt_ctl_set_rate(struct evt_ctl *c, uint32_t id, uint32_t rate)
{
	uint32_t slots = EVT_SLOT_MASK | EVT_SLOT_MASK << EVT_VIEW_SHIFT;

	if (id >= c->h.max_events || rate > EVT_RATE_MAX)
		return errno = EINVAL, -1;
	if ((rate || evt_ctl_rate(c, id)) &&
	    pwrite(c->fd, &rate, sizeof(rate),
		   (off_t)(c->h.rates_off + (uint64_t)id * sizeof(rate))) !=
	    (ssize_t)sizeof(rate))
		return -1;
	/* The writer reads the rate once it sees the bit: after the pwrite. */
	set_bit(&c->enable[id], EVT_RATE_BIT,
		rate && (__atomic_load_n(&c->enable[id], __ATOMIC_RELAXED) & slots));
	return 0;
}

void evt_ctl_slot_set_applied(struct evt_ctl *c, unsigned s, uint32_t upto)
{
	if (c->shrank)
		return;
	/* Pairs with evt_ctl_slot_applied()'s acquire: the bits are set. */
	__atomic_store_n(&c->slots[s].applied, upto, __ATOMIC_RELEASE);
}

bool evt_ctl_slot_applied(const struct evt_ctl *c, unsigned s)
{
	return __atomic_load_n(&c->slots[s].applied, __ATOMIC_ACQUIRE) >= c->nevents;
}

void evt_ctl_set_enable(struct evt_ctl *c, uint32_t id, unsigned s, bool on)
{
	uint32_t parent, i;
	bool any = false;

	if (id >= c->h.max_events || s >= EVT_NSLOTS)
		return;
	set_bit(&c->enable[id], 1u << s, on);
	if (on && evt_ctl_rate(c, id))
		set_bit(&c->enable[id], EVT_RATE_BIT, true);
	if (on)
		raise_flag(c, id);
	if (id >= c->nevents || c->events[id].layout.kind != EVT_KIND_STABLE)
		return;
	/* The raw event's call site tests one word: keep its view bit the
	 * union of its views' bits.  Only this slot's owner changes bit s. */
	parent = c->events[id].parent;
	for (i = 0; i < c->nevents && !any; i++)
		any = c->events[i].layout.kind == EVT_KIND_STABLE &&
		      c->events[i].parent == parent &&
		      (__atomic_load_n(&c->enable[i], __ATOMIC_RELAXED) & (1u << s));
	set_bit(&c->enable[parent], 1u << (EVT_VIEW_SHIFT + s), any);
	if (any && parent < c->h.max_events)
		raise_flag(c, parent);
}

bool evt_ctl_enabled(const struct evt_ctl *c, uint32_t id, unsigned s)
{
	if (id >= c->h.max_events || s >= EVT_NSLOTS)
		return false;
	return __atomic_load_n(&c->enable[id], __ATOMIC_RELAXED) & (1u << s);
}

const uint64_t *evt_ctl_tbuf_counters(const struct evt_ctl *c,
				      const struct evt_ctl_tbuf *d, uint32_t *n)
{
	uint32_t size = __atomic_load_n(&d->packet_size, __ATOMIC_RELAXED);
	uint32_t count = __atomic_load_n(&d->packet_count, __ATOMIC_RELAXED);
	uint64_t offset = __atomic_load_n(&d->offset, __ATOMIC_RELAXED);

	if (count != 1 || size == 0 || size % EVT_COUNTERS_CHUNK ||
	    size > (uint64_t)EVT_MAX_EVENTS * 8 || offset % 8 ||
	    offset < c->h.arena_off || offset - c->h.arena_off > c->h.arena_size ||
	    size > c->h.arena_size - (offset - c->h.arena_off))
		return NULL;
	*n = size / 8;
	return (const uint64_t *)(c->base + offset);
}

uint32_t evt_ctl_tbufs_used(const struct evt_ctl *c)
{
	const struct evt_ctl_header *live = (const struct evt_ctl_header *)c->base;
	uint32_t n = __atomic_load_n(&live->tbufs_used, __ATOMIC_ACQUIRE);

	return n < c->h.max_tbufs ? n : c->h.max_tbufs;
}

int evt_ctl_drops_read(const struct evt_ctl *c, uint32_t i,
		       struct evt_ctl_drops *out)
{
	off_t at = (off_t)(c->h.drops_off + (uint64_t)i * sizeof(*out));

	if (i >= EVT_DROPS_ENTRIES(c->h.max_tbufs) ||
	    pread(c->fd, out, sizeof(*out), at) != (ssize_t)sizeof(*out))
		return -1;
	return 0;
}

void evt_ctl_drops_empty(const struct evt_ctl *c, uint32_t i)
{
	static const struct evt_ctl_drops zero;
	struct evt_ctl_drops d;
	off_t at = (off_t)(c->h.drops_off + (uint64_t)i * sizeof(d));

	/* Written only when there is something to empty: a hole stays one. */
	if (evt_ctl_drops_read(c, i, &d) == 0 && memcmp(&d, &zero, sizeof(d)) &&
	    pwrite(c->fd, &zero, sizeof(zero), at) != (ssize_t)sizeof(zero))
		return;	/* old names stay: name_drops() bounds them by the count */
}

int evt_ctl_name_pid(const char *name)
{
	char *end;
	long pid, n;

	if (name[0] < '1' || name[0] > '9')
		return -1;
	pid = strtol(name, &end, 10);
	if (*end != '-' || pid <= 0 || pid > 0x7fffffff || end[1] < '0' ||
	    end[1] > '9')
		return -1;
	n = strtol(end + 1, &end, 10);
	if (n < 0 || strcmp(end, ".ctl"))
		return -1;
	return (int)pid;
}


bool evt_refusal(const char *path, const char *format, char *why,
		 size_t why_size)
{
	size_t n = strlen(EVT_REFUSED_PREFIX);
	size_t args = strlen(EVT_REFUSED_ARGS);

	if (!strncmp(path, "printk/", 7) && !strncmp(format, EVT_REFUSED_ARGS, args)) {
		snprintf(why, why_size, "its arguments disagree with its %s",
			 format + args);
		return true;
	}
	if (!strncmp(path, "printk/", 7))
		return evt_printk_problems(format, why, why_size);
	if (strncmp(format, EVT_REFUSED_PREFIX, n))
		return false;
	snprintf(why, why_size, "%s", format + n);
	return true;
}
