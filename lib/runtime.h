/*
 * runtime.h - the one process-wide state of libevtrace, and what the parts
 * of lib/ share.  Owned by lib/process.c; the write path only reads it.
 *
 * Everything the process relies on (offsets, sizes, ids) is kept here in
 * private memory; the control file is written, and read back only for
 * values an engine is meant to set (enable bits, slot configuration,
 * consumed counters, buffer state), each checked before use.
 */
#ifndef EVT_LIB_RUNTIME_H
#define EVT_LIB_RUNTIME_H

#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "evtrace/evtrace.h"
#include "layout.h"
#include "printk_format.h"
#include "rules.h"
#include "rundir.h"

/* What the write path needs of a registered site or builtin event. */
struct evt__site_rt {
	uint32_t id;
	uint32_t nargs;
	uint32_t max_record_bytes;
	uint8_t types[EVT_PRINTK_MAX_ARGS];	/* how to store each: an
						 * enum evt_arg_type or one below */
	/* Of an EVT__ARG_STRING_LIMITED argument: the most bytes printf
	 * would read of it (its precision), or EVT__STR_STAR_LIMIT. */
	uint16_t str_limit[EVT_PRINTK_MAX_ARGS];
	/* Spans: the runtime of the switch, whose id records of the head
	 * alone carry (a rider's end is its switch's record). */
	const struct evt__site_rt *head_rt;
};

/* Stored like EVT_ARG_I32, and the precision of the string after it. */
#define EVT__ARG_PRECISION	(EVT_ARG_TYPE_MAX + 1)
/* Stored like EVT_ARG_STRING, at most str_limit bytes of it read. */
#define EVT__ARG_STRING_LIMITED	(EVT_ARG_TYPE_MAX + 2)
#define EVT__STR_STAR_LIMIT	0xffff	/* '*': the EVT__ARG_PRECISION before */

struct evt__event {
	struct evt__site_rt *rt;	/* &rt_store once registered: kept
					 * across dlclose, as another thread
					 * may still use it */
	char *path;
	char *format;
	char *func;			/* a site's function, or NULL */
	uint32_t reg_off;		/* its registry entry, kept privately */
	uint32_t parent;		/* stable events: their raw event */
	uint16_t kind;
	uint16_t loaded;		/* modules that define it now */
	uint8_t flags;			/* EVT_REG_REFUSED */
	uint8_t nargs;
	const volatile uint8_t *flag;	/* the byte its C site's fast path
					 * tests, mapped (site_flags.c), or
					 * NULL */
	struct evt__site_rt rt_store;	/* in the table, no allocation */
};

struct evt__tbuf_priv {
	uint64_t offset;		/* in the file */
	uint32_t packet_size;
	uint32_t packet_count;
	uint32_t ready;			/* release-stored once the above is set */
	uint64_t reserved;		/* bytes from its start whose pages are
					 * the file's and mapped in: only the
					 * thread that owns it grows it */
	bool drops_ready;		/* its struct evt_ctl_drops's page is
					 * the file's */
};

struct evt__process {
	pthread_mutex_t lock;		/* registration and fork */
	int fd;				/* control file, -1 without one */
	dev_t fd_dev;			/* and which file it is */
	ino_t fd_ino;
	uint8_t *base;
	size_t size;
	struct evt_ctl_header *hdr;
	struct evt_ctl_slot *slots;
	struct evt_ctl_tbuf *tbufs;
	uint32_t *enable;
	uint8_t *registry;
	struct evt_ctl_drops *drops;	/* [EVT_MAX_TBUFS] */
	uint64_t rates_off;		/* in the file: read with pread */
	uint64_t flag_of_off;		/* in the file */
	uint64_t flag_of_reserved;	/* its pages fallocate'd, a bit each */
	uint64_t flags_off;
	/* The translation units' pages of site flags mapped from the file
	 * (site_flags.c): entry n is the file's flag page n. */
	struct evt__flag_page {
		uint8_t *at;		/* NULL: free */
		const void *owner;	/* its module (struct evt_module) */
	} flag_pages[EVT_MAX_FLAG_PAGES];
	uint32_t nflag_pages;		/* entries ever used */
	char path[PATH_MAX];
	char rundir[EVT_RUNDIR_PATH_MAX];	/* resolved once, at init */
	volatile int shrank;		/* the control file was truncated: the
					 * mapping is private zeroes since */
	char shrank_msg[PATH_MAX + 100];
	uint64_t arena_off;		/* private copies of what the header */
	uint32_t pid;			/* says: the header is writable by engines */
	uint32_t fork_gen;		/* bumped in every forked child */
	bool detached;			/* a forked child without its own control
					 * file yet: the mapping is still its
					 * parent's, only read (process.c) */
	uint32_t clock_kind;
	ptrdiff_t rseq_cpu_off;		/* of rseq's cpu_id from the thread
					 * pointer; 0: not the TSC, or no rseq */

	struct evt__event *events;	/* [EVT_MAX_EVENTS], by local id */
	uint32_t nevents;
	uint32_t *hash;			/* path -> id + 1, open addressing */
	uint32_t registry_used;
	uint32_t registry_reserved;	/* bytes of it fallocate'd */
	uint64_t arena_used;		/* authoritative, atomically bumped */
	uint64_t guest_arena_used;	/* of it, by guest collections'
					 * buffers (EVT_GUEST_ARENA_BYTES) */
	uint32_t ntbufs;		/* atomically bumped */
	struct evt__tbuf_priv tbuf_priv[EVT_MAX_TBUFS];

	struct evt_rules *rules[EVT_NSLOTS];	/* by slot: the rules files
						 * covering it (published_rules.c) */
	struct evt__site_rt ftrace_rt;
	pthread_key_t thread_key;
};

extern struct evt__process evt__proc;

/* process.c */
int evt__process_init_locked(void);
/* A forked child's first write: its control file made now, unless it has
 * one (0); -1 when it cannot have one, or the lock is busy. */
int evt__process_attach_child(void);
/* A module is about to register this many events: the tables take huge
 * pages for a large one. */
void evt__tables_expect(uint32_t more);
uint32_t evt__event_add_locked(const char *path, const char *format,
			       uint16_t kind, const uint8_t *types,
			       uint8_t nargs, uint32_t parent, int *reused);
/* A printk site whose format was refused, or a typed event (kind) whose
 * definition was: in the registry, flagged, with that format (a typed
 * event's: EVT_REFUSED_PREFIX and why) and no arguments, so that tools
 * can say why it stays off. */
uint32_t evt__event_add_refused_locked(const char *path, const char *format,
				       uint16_t kind, const char *func,
				       int *reused);
/* A printk site's event, with the function it is in (or NULL). */
uint32_t evt__event_add_site_locked(const char *path, const char *format,
				    const uint8_t *types, uint8_t nargs,
				    const char *func, int *reused);
void evt__event_unload_locked(uint32_t id);
/* Sets slot s up for collection id, number number (layout.h). */
void evt__slot_configure(uint32_t s, uint32_t number, uint32_t mode,
			 uint64_t id, uint32_t block_us, uint32_t packet_size,
			 uint32_t packet_count);

/* dead_files.c: removes the control files of processes that are gone
 * and that no collection but the default one wants, looking at the
 * first look entries of the directory (0: all), and not at the files of
 * pid parent (a forked child's, alive; 0: none). */
#define EVT_DEAD_FILES_CHILD_LOOK 256
void evt__dead_files_remove(const struct evt_rundir *rd, unsigned look,
			    pid_t parent);

/* published_rules.c */
void evt__rules_load_locked(const struct evt_rundir *rd);
void evt__rules_reload_default_locked(void);
void evt__rules_apply_locked(uint32_t id, const char *path, uint32_t parent);
void evt__orphan_check(unsigned s, uint64_t now);

/* register.c */
void evt__site_register_lazy(struct evt_site *site);
/* Points the site (and its fast path's copy, evt_site.enable_slot) at
 * the enable word. */
void evt__site_point(struct evt_site *site, const volatile uint32_t *word);
/* Where refused sites point: they stay off for good. */
void evt__site_stays_off(struct evt_site *site);
/* The site's function, or NULL when its headers were too old to say. */
const char *evt__site_func(const struct evt_site *site);
/* How the write path stores each argument of format f, into rt. */
void evt__site_write_types(const struct evt_printk_format *f,
			   struct evt__site_rt *rt);
/* s as a C literal would show it (for messages), cut to size. */
const char *evt__escape(const char *s, char *out, size_t size);

/* The sizes of struct evt_site that headers of each version made: 0.1.0's
 * ends before order, 0.1.1-0.1.4's before kind, and so on. */
#define EVT_SITE_SIZE_0_1_0 offsetof(struct evt_site, order)
#define EVT_SITE_SIZE_0_1_4 offsetof(struct evt_site, kind)
#define EVT_SITE_SIZE_0_1_5 offsetof(struct evt_site, enable_slot)
#define EVT_SITE_SIZE_0_1_7 offsetof(struct evt_site, flag)
#define EVT_SITE_SIZE_0_1_10 offsetof(struct evt_site, arg_types)
#define EVT_SITE_SIZE_0_1_12 offsetof(struct evt_site, inline_id)
#define EVT_SITE_SIZE_0_1_14 sizeof(struct evt_site)

/* site_flags.c: the bytes C sites' fast paths test (layout.h). */
/* After the site's event id is registered: its flag mapped and set from
 * the enable word; owner is its module, or NULL. */
void evt__site_flag_attach_locked(struct evt_site *site, uint32_t id,
				  const void *owner);
/* The site found its word 0: its flag goes to 0 unless the word changed
 * meanwhile.  Any thread, signal handlers too. */
void evt__site_flag_settle(const struct evt_site *site, uint32_t id);
/* A bit of event id's word went on, set by the process itself. */
void evt__flag_raise(uint32_t id);
/* Event id has no site any more (its module went). */
void evt__flag_drop_locked(uint32_t id);
/* The module's pages are free again (its sites are gone). */
void evt__flag_pages_release_locked(const void *owner);
/* In a forked child: the pages mapped from its own file fd (just made,
 * flag_of copied), or private zero pages when fd is -1. */
void evt__flag_pages_remap(int fd);

/* register_span.c: a span or counter site, under the lock; *id is the
 * event its records carry, or UINT32_MAX. */
void evt__span_site_register_locked(struct evt_site *site, uint32_t *id);
/* The name of the module holding addr, control characters as '?'; under
 * evt__proc.lock, valid until the next call. */
const char *evt__module_name(const void *addr);

/* register_event.c */
int evt__event_register_locked(struct evt_event *ev, const char *module);
void evt__events_register_locked(struct evt_event **start,
				 struct evt_event **stop, const char *module);
void evt__events_unregister_locked(struct evt_event **start,
				   struct evt_event **stop);
void evt__event_register_lazy(struct evt_event *ev);

/* write.c */
uint32_t evt__record_max_bytes(const uint8_t *types, uint32_t nargs);
void evt__thread_exit(void *thread);
/* In a forked child, at fork: the thread's window taken back. */
void evt__write_forked(void);
void evt__write_fork_child(void);
/* Maps the pool thread states come from, at the process's start. */
void evt__write_init(void);

/* clock.c */
uint32_t evt__clock_detect(void);

/* debug.c: off unless $EVTRACE_DEBUG is set; safe in signal handlers. */
void evt__debug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The group the process opted into ($EVTRACE_GROUP, evt_trace_allow_group),
 * or EVT_NO_GROUP (optin_group.c). */
uint32_t evt__optin_gid(void);
void evt__warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
