/*
 * site_flags.c - the bytes C trace_printk() sites test when disabled.
 *
 * A C site's fast path is one compare of a byte in its translation unit's
 * page of flags (evtrace.h, evt__unit_flags).  Engines cannot write a
 * module's memory, so that page is replaced, at registration, by a page
 * of the control file mapped at its address; the file says which byte is
 * which event's (flag_of), and an engine that switches a bit of an event
 * on sets its byte to 1.  The byte goes back to 0 only here, when the
 * site finds its enable word 0 (layout.h says why that order is safe).
 *
 * Whatever cannot be mapped leaves the site correct and slower: a flag
 * of 1 sends it to its enable word every time.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "runtime.h"
#include "shm_guard.h"

#define PAGE EVT_FLAG_PAGE_BYTES

static uint64_t page_off(uint32_t n)
{
	return evt__proc.flags_off + (uint64_t)n * PAGE;
}

static uint8_t *page_of(const volatile uint8_t *flag)
{
	return (uint8_t *)((uintptr_t)flag & ~(uintptr_t)(PAGE - 1));
}

/* The file's page n at at, in place of what was there; 0 or -1. */
static int map_page(int fd, uint8_t *at, uint32_t n)
{
	/* Reserved first: a page of a full tmpfs would be a SIGBUS in the
	 * site, not an error here. */
	if (fallocate(fd, 0, (off_t)page_off(n), PAGE) ||
	    mmap(at, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd,
		 (off_t)page_off(n)) == MAP_FAILED)
		return -1;
	return 0;
}

/* Private zeroes at at again: every site of the page off. */
static void unmap_page(uint8_t *at)
{
	mmap(at, PAGE, PROT_READ | PROT_WRITE,
	     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
}

/* The entry of the flag page at at, mapped now if it is not; NULL when
 * it cannot be (the file's pages all taken, or the mapping refused). */
static struct evt__flag_page *page_for(uint8_t *at, const void *owner)
{
	uint32_t i, n = UINT32_MAX;

	for (i = 0; i < evt__proc.nflag_pages; i++) {
		if (evt__proc.flag_pages[i].at == at)
			return &evt__proc.flag_pages[i];
		if (!evt__proc.flag_pages[i].at && n == UINT32_MAX)
			n = i;
	}
	if (n == UINT32_MAX) {
		if (evt__proc.nflag_pages >= EVT_MAX_FLAG_PAGES)
			return NULL;
		n = evt__proc.nflag_pages;
	}
	if (map_page(evt__proc.fd, at, n)) {
		/* A MAP_FIXED that failed may have taken the page with it:
		 * private zeroes again, never a hole under a site. */
		unmap_page(at);
		evt__debug("site flags at %p: cannot map the control file's page "
			   "%u (%s); their sites read their enable words", (void *)at,
			   n, strerror(errno));
		return NULL;
	}
	/* A page a module that went had: its bytes are that module's. */
	memset(at, 0, PAGE);
	if (n == evt__proc.nflag_pages)
		evt__proc.nflag_pages++;
	evt__proc.flag_pages[n].at = at;
	evt__proc.flag_pages[n].owner = owner;
	evt_shm_guard_add(at, PAGE, &evt__proc.shrank, NULL);
	return &evt__proc.flag_pages[n];
}

static void set_flag(const volatile uint8_t *flag, uint8_t v)
{
	__atomic_store_n((uint8_t *)(uintptr_t)flag, v, __ATOMIC_SEQ_CST);
}

/* 0, unless the word is on: the engine's set of the word comes before
 * its store of 1, so one of the two stores of 1 comes last. */
static void settle(const volatile uint8_t *flag, uint32_t id)
{
	set_flag(flag, 0);
	if (__atomic_load_n(&evt__proc.enable[id], __ATOMIC_SEQ_CST))
		set_flag(flag, 1);
}

/*
 * flag_of[id] = v, through the mapping: one store, not a system call a
 * site (a program's start, and every trace of it, would show thousands).
 * The word's page is reserved first, so that a full tmpfs is an error
 * here and never a SIGBUS.  0, or -1 when it cannot be reserved.
 */
static int write_flag_of(uint32_t id, uint32_t v)
{
	uint64_t at = evt__proc.flag_of_off + (uint64_t)id * sizeof(v);
	uint32_t page = (uint32_t)(at / PAGE - evt__proc.flag_of_off / PAGE);

	if (!(evt__proc.flag_of_reserved & (1ull << page))) {
		if (fallocate(evt__proc.fd, 0, (off_t)(at & ~(uint64_t)(PAGE - 1)), PAGE))
			return -1;
		evt__proc.flag_of_reserved |= 1ull << page;
	}
	__atomic_store_n((uint32_t *)(evt__proc.base + at), v, __ATOMIC_RELEASE);
	return 0;
}

/* What flag_of says of the byte at flag, in page entry p. */
static uint32_t flag_number(const struct evt__flag_page *p,
			    const volatile uint8_t *flag)
{
	return (uint32_t)(p - evt__proc.flag_pages) * PAGE +
	       (uint32_t)(flag - p->at) + 1;
}

#ifndef EVT_AS_0_1_9
/* Says to modules that their C sites' bytes are looked after (evtrace.h). */
EVT_API void evt__site_flags_mapped(void)
{
}
#endif

void evt__site_flag_attach_locked(struct evt_site *site, uint32_t id,
				  const void *owner)
{
	struct evt__event *e = &evt__proc.events[id];
	const volatile uint8_t *flag;
	struct evt__flag_page *p;
	uint8_t *at;

#ifdef EVT_AS_0_1_9
	/* Built for tests as 0.1.9 was here: no flag pages, and no
	 * evt__site_flags_mapped to say there are. */
	return;
#endif
	if (site->size < EVT_SITE_SIZE_0_1_10 || !(flag = site->flag) ||
	    evt__proc.fd < 0)
		return;		/* (no file: nothing can switch it on) */
	at = page_of(flag);
	/* Mapped first: a byte set in the page before would be lost when
	 * another site of its unit has it mapped. */
	if (!(p = page_for(at, owner))) {
		set_flag(flag, 1);
		return;
	}
	if (e->flag && e->flag != flag) {
		/* A second site of one event: the first has the event's
		 * byte, this one reads the word.  (C sites do not share
		 * events while loaded, not even two units' copies of one
		 * inline function or two copies of one library: their paths
		 * get -1, -2...; this is for what registration may share.) */
		set_flag(flag, 1);
		return;
	}
	if (!e->flag && write_flag_of(id, flag_number(p, flag))) {
		set_flag(flag, 1);
		return;
	}
	e->flag = flag;
	settle(flag, id);
}

void evt__site_flag_settle(const struct evt_site *site, uint32_t id)
{
	/* Only the event's own byte: another site's stays 1. */
	if (site->size >= EVT_SITE_SIZE_0_1_10 && site->flag &&
	    id < EVT_MAX_EVENTS && evt__proc.events &&
	    evt__proc.events[id].flag == site->flag)
		settle(site->flag, id);
}

void evt__flag_raise(uint32_t id)
{
	const volatile uint8_t *flag = evt__proc.events[id].flag;

	if (flag)
		set_flag(flag, 1);
}

void evt__flag_drop_locked(uint32_t id)
{
	/* flag_of[id] stays: a byte an engine sets to 1 is never wrong,
	 * and the next site of the event writes its own. */
	evt__proc.events[id].flag = NULL;
}

void evt__flag_pages_release_locked(const void *owner)
{
	uint32_t i;

	for (i = 0; owner && i < evt__proc.nflag_pages; i++) {
		struct evt__flag_page *p = &evt__proc.flag_pages[i];

		if (p->at && p->owner == owner) {
			/* Its module unmaps it: no guard may outlive it. */
			evt_shm_guard_remove(p->at);
			p->at = NULL;
		}
	}
}

/* The mapped page entry holding flag, or NULL. */
static struct evt__flag_page *page_entry(const volatile uint8_t *flag)
{
	uint32_t i;

	for (i = 0; i < evt__proc.nflag_pages; i++)
		if (evt__proc.flag_pages[i].at == page_of(flag))
			return &evt__proc.flag_pages[i];
	return NULL;
}

/* Page n could not be the child's file's: its sites read their words
 * (private bytes of 1, and no byte is an event's to settle). */
static void page_lost(uint32_t n)
{
	uint8_t *at = evt__proc.flag_pages[n].at;
	uint32_t id;

	unmap_page(at);
	memset(at, 1, PAGE);
	for (id = 0; id < evt__proc.nevents; id++)
		if (evt__proc.events[id].flag && page_of(evt__proc.events[id].flag) == at)
			evt__proc.events[id].flag = NULL;
	evt_shm_guard_remove(at);
	evt__proc.flag_pages[n].at = NULL;
}

void evt__flag_pages_remap(int fd)
{
	uint32_t i;

	for (i = 0; i < evt__proc.nflag_pages; i++) {
		uint8_t *at = evt__proc.flag_pages[i].at;

		if (at && fd < 0)
			unmap_page(at);	/* untraced from now on: all off */
		else if (at && map_page(fd, at, i))
			page_lost(i);
	}
	if (fd < 0)
		return;
	evt__proc.flag_of_reserved = 0;	/* a new file */
	/* The child's file is told which byte is whose, and each event's
	 * goes to 1 (its site's first run settles it): the parent's bytes
	 * were the parent's words'. */
	for (i = 0; i < evt__proc.nevents; i++) {
		struct evt__event *e = &evt__proc.events[i];
		struct evt__flag_page *p = e->flag ? page_entry(e->flag) : NULL;

		if (!p || write_flag_of(i, flag_number(p, e->flag))) {
			if (e->flag)
				set_flag(e->flag, 1);
			e->flag = NULL;
			continue;
		}
		set_flag(e->flag, 1);
	}
}
