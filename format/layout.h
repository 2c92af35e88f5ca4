/*
 * layout.h - every byte layout that crosses a process boundary.
 *
 * The control file (one per traced process, in the run directory) and the
 * packets inside it are shared between the traced process (the only writer
 * of records) and engines (which read packets and write enable bits).  Each
 * structure starts with a size or version, only grows at the end, and is
 * pinned by static assertions.  Readers check sizes before touching fields
 * and never trust an offset they did not compute themselves.
 *
 * Total events lost by a thread buffer = lost + nested_lost: the first is
 * stored by the thread's normal context only, the second is added to
 * atomically by a write that interrupted another write on the same thread.
 *
 * Control file:
 *
 *   0            +-----------------------------+
 *                | struct evt_ctl_header       |
 *   slots_off    | struct evt_ctl_slot [8]     |  collection slots (below)
 *   tbufs_off    | struct evt_ctl_tbuf [N]     |  one per (thread, slot) buffer
 *   enable_off   | uint32_t enable[max_events] |  bit s = slot s wants it
 *   registry_off | registry entries ...        |  append-only
 *   drops_off    | struct evt_ctl_drops [N+8]  |  one per buffer, one per slot
 *   rates_off    | uint32_t rate[max_events]   |  events a second a thread
 *   flag_of_off  | uint32_t flag_of[max_events]|  its site's flag byte + 1
 *   flags_off    | flag pages [max_flag_pages] |  a byte per C site
 *   arena_off    | packet buffers ...          |  bump-allocated
 *   file_size    +-----------------------------+
 *
 * A thread buffer is packet_count packets of packet_size bytes.  Packet
 * number seq lives at index seq % packet_count and is a CTF packet as it
 * stands: struct evt_packet_header, then records.
 */
#ifndef EVT_FORMAT_LAYOUT_H
#define EVT_FORMAT_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

#define EVT_CTL_MAGIC		0x43545645u	/* "EVTC" little endian */
/*
 * The control file's ABI version (doc/versions.md, ctl_version.h):
 * header.version is its major, header.minor its minor.  Within a major a
 * structure only grows at its end, and what a minor adds reads 0 in an
 * earlier minor's file; a layout an earlier reader would misread takes a
 * new major.  Major 8 is the first kept so (libevtrace 0.1.10 made 8.0);
 * a reader reads EVT_CTL_MAJOR_FIRST to EVT_CTL_MAJOR.
 */
#define EVT_CTL_MAJOR		8
#define EVT_CTL_MINOR		2
#define EVT_CTL_MAJOR_FIRST	8
/* What each minor of major 8 brought: */
#define EVT_CTL_MINOR_RELEASE	1	/* header.release; a guest
					 * collection's buffers bounded
					 * (EVT_GUEST_ARENA_BYTES); a
					 * privileged (AT_SECURE) program
					 * not traced */
#define EVT_CTL_MINOR_COMMIT_MARK 2	/* the word after a buffer's commit
					 * is 0 unless a record is being
					 * written there (record_header.h) */
/*
 * A process has EVT_NSLOTS collection slots.  Slot 0 is the default
 * collection's (what `evtrace enable` switches); each other collection
 * takes the first slot free in each process it records, so slot 2 of one
 * process and slot 5 of another may be the same collection's.  The slot's
 * descriptor names it by its id, and by its number in the run directory
 * (1 .. EVT_MAX_NUMBERS-1: its lock file slot-<n>.lock, its requests,
 * `snapshot --collection N`).  A user may so run any number of
 * collections at once (up to the numbers), a process be in EVT_NSLOTS-1
 * of them.
 */
#define EVT_NSLOTS		8
#define EVT_MAX_NUMBERS		256
/*
 * The last numbers and, in a process, the last slots are the only ones a
 * collection of a user without privilege towards the processes may take
 * (evtraced acting for a guest): however many such users come, the run
 * directory's owner and root keep the others.
 */
#define EVT_GUEST_SLOTS		2
#define EVT_GUEST_SLOT_FIRST	(EVT_NSLOTS - EVT_GUEST_SLOTS)
#define EVT_GUEST_NUMBERS	32
#define EVT_GUEST_NUMBER_FIRST	(EVT_MAX_NUMBERS - EVT_GUEST_NUMBERS)
/*
 * The buffer arena is handed out once, never given back (a free buffer is
 * taken again only by one of its geometry): the buffers the guest
 * numbers' collections make take this much of it at most, over the
 * process's life, so that however large a stranger asks them, the run
 * directory's owner and root keep the rest.  A guest's thread that finds
 * none is counted as a drop (no buffer for the thread).
 */
#define EVT_GUEST_ARENA_BYTES	(EVT_ARENA_BYTES / 4)
#define EVT_MAX_EVENTS		16384
#define EVT_MAX_TBUFS		512
#define EVT_REGISTRY_BYTES	(1u << 20)
#define EVT_ARENA_BYTES		(64ull << 20)	/* default memory bound */

#define EVT_PACKET_MAGIC	0xC1FC1FC1u
#define EVT_PACKET_MIN_BYTES	(16u << 10)
#define EVT_PACKET_MAX_BYTES	(16u << 20)
#define EVT_PACKET_DEFAULT_BYTES (64u << 10)
#define EVT_PACKETS_MIN		2
#define EVT_PACKETS_MAX		4096
#define EVT_PACKETS_DEFAULT	16

enum evt_clock_kind {
	EVT_CLOCK_TSC = 1,		/* rdtscp, constant and nonstop */
	EVT_CLOCK_MONOTONIC = 2,	/* CLOCK_MONOTONIC nanoseconds */
};

enum evt_buffer_mode {
	EVT_MODE_DISCARD = 0,	/* full buffer: drop new events, count them */
	EVT_MODE_OVERWRITE = 1,	/* full buffer: reuse the oldest packet */
	EVT_MODE_COUNT = 2,	/* no records: a counter per event per thread */
};

/*
 * A thread's counters for a counting slot live in a buffer descriptor of
 * that slot too: packet_count is 1 and packet_size the bytes of a uint64_t
 * array indexed by local event id (a multiple of EVT_COUNTERS_CHUNK, at
 * most max_events counters).  Only the thread adds to them, with one
 * instruction that a signal cannot split; readers load each whole.  A
 * thread whose event ids outgrow its array lets it go (EXITED, for the
 * engine to add up and free) and takes a larger one.
 */
#define EVT_COUNTERS_CHUNK	8192u

struct evt_ctl_header {
	uint32_t magic;
	uint32_t version;
	uint32_t header_size;		/* sizeof(struct evt_ctl_header) */
	uint32_t pid;
	uint64_t file_size;
	uint32_t clock_kind;		/* enum evt_clock_kind */
	uint32_t nslots;
	uint32_t slots_off;
	uint32_t max_tbufs;
	uint32_t tbufs_off;
	uint32_t max_events;
	uint32_t enable_off;
	uint32_t registry_off;
	uint32_t registry_size;
	uint32_t registry_used;		/* release-stored after an entry is whole */
	uint32_t nevents;		/* release-stored with registry_used */
	uint32_t ppid;
	uint64_t arena_off;
	uint64_t arena_size;
	uint64_t arena_used;		/* bytes handed out, grows only */
	char comm[16];
	uint32_t tbufs_used;		/* buffer descriptors ever claimed: the
					 * rest are untouched, readers skip them */
	uint32_t optin_gid;		/* the group whose members may trace it
					 * as its own user may (evtraced), or
					 * EVT_NO_GROUP */
	uint64_t drops_off;		/* max_tbufs struct evt_ctl_drops */
	uint64_t rates_off;		/* max_events uint32_t */
	uint64_t flag_of_off;		/* max_events uint32_t (below) */
	uint64_t flags_off;		/* max_flag_pages pages, page-aligned */
	uint32_t max_flag_pages;
	uint32_t minor;			/* the ABI's minor (0 in 0.1.10) */
	/* Minor 1: */
	char release[16];		/* the library's release, e.g. "0.1.11",
					 * NUL ended */
};

/*
 * The header of major 8, minor 0 (the least a reader takes), and the
 * fields every later major keeps where they are, so that any reader can
 * say what made a file it cannot read: magic, version (the major),
 * header_size, pid, minor and release.
 */
#define EVT_CTL_HEADER_MIN_BYTES	160u
#define EVT_CTL_MINOR_OFFSET		156u
#define EVT_CTL_RELEASE_OFFSET		160u

/*
 * Site flags: what a C trace_printk() site's fast path tests, one load
 * (evtrace.h).  Each translation unit keeps a page-aligned page of flag
 * bytes, one per site, which the process maps over with a page of the
 * control file (flags_off + 4096 * n); flag_of[id] is the number + 1 of
 * the byte of event id's site in those pages (0: none).  A flag of 1 is
 * always safe: the site then reads its enable word, and the process
 * clears the flag itself when it finds the word 0 (never the engine, so
 * that two engines cannot race a clear against a set).  An engine that
 * sets a bit in enable[id] afterwards sets flag byte flag_of[id] - 1 to
 * 1, with pread and pwrite (the pages are the file's only once written).
 */
#define EVT_MAX_FLAG_PAGES	1024
#define EVT_FLAG_PAGE_BYTES	4096

#define EVT_NO_GROUP		0xffffffffu

enum evt_slot_state {
	EVT_SLOT_FREE = 0,
	EVT_SLOT_ACTIVE = 1,
};

struct evt_ctl_slot {
	uint32_t state;			/* enum evt_slot_state */
	uint32_t mode;			/* enum evt_buffer_mode */
	uint64_t collection_id;		/* owner; 0 for the default slot and
					 * a free one (a collection takes a
					 * slot by swapping 0 for its id, and
					 * whoever frees it swaps state ACTIVE
					 * for FREE first, then clears its
					 * bits, then stores 0 here) */
	uint32_t packet_size;		/* bytes */
	uint32_t packet_count;
	uint32_t gen;			/* bumped when the slot changes owner;
					 * odd while an engine rewrites it */
	uint32_t waiting;		/* futex: the owner sleeps; a writer whose
					 * buffer is half full zeroes and wakes it */
	uint64_t nobuf_lost;		/* events dropped: no buffer to be had */
	uint32_t block_us;		/* discard mode: a writer that finds its
					 * buffer full waits this long at most
					 * for a packet back, instead of dropping
					 * (at most EVT_BLOCK_MAX_US), or as long
					 * as its engine lives (EVT_BLOCK_INF) */
	uint32_t keep_of;		/* a record --keep collection: the
					 * number + 1 of the recording whose
					 * pinned sites it holds; 0 otherwise
					 * (engines only; for snapshot) */
	uint32_t number;		/* the collection's number in the run
					 * directory (its lock, slot-<n>.lock);
					 * 0 for the default slot */
	uint32_t heartbeat;		/* bumped by its engine at every turn
					 * of its loop (EVT_BLOCK_INF) */
	uint32_t applied;		/* how many of the registry's events
					 * (in its order) the engine has set
					 * to its selection, release-stored
					 * after their bits; 0 when taken
					 * (engines since 0.1.11: others
					 * leave it 0) */
	uint8_t reserved[4];
};

#define EVT_BLOCK_MAX_US	1000000u
/*
 * block_us EVT_BLOCK_INF: a writer waits as long as the slot's engine
 * lives, which it tells by the heartbeat moving: one that has not moved
 * for EVT_BLOCK_STALL_MS (an engine stopped, killed, or stuck) ends the
 * wait, and the event is dropped and counted.
 */
#define EVT_BLOCK_INF		0xffffffffu
#define EVT_BLOCK_STALL_MS	1000u
#define EVT_BLOCK_DEFAULT_MS	5u

enum evt_tbuf_state {
	EVT_TBUF_FREE = 0,		/* may be claimed by any thread */
	EVT_TBUF_OWNED = 1,		/* a live thread writes it */
	EVT_TBUF_EXITED = 2,		/* its thread is gone, data may remain */
};

/*
 * One thread's buffer for one slot.  Writer: the owning thread stores
 * produced, commit and lost; reader: the engine stores consumed.
 *
 *   produced  packets closed so far = seq of the open packet (release)
 *   commit    bytes of the open packet that hold whole records (release,
 *             pairs with the reader's acquire before copying them)
 *   consumed  packets the reader is done with (release by the reader,
 *             acquire by the writer before reusing a packet in discard mode)
 *
 * A live reader of the default slot also leaves its place, so that the
 * next one starts where it stopped instead of printing again what it
 * printed: read_seq (packet), read_pos (epoch << 32 | byte offset in it,
 * 0 before its header) and read_discarded (the lost count it reported).
 */
struct evt_ctl_tbuf {
	uint32_t state;			/* enum evt_tbuf_state */
	uint32_t tid;
	uint32_t slot;
	uint32_t slot_gen;
	uint64_t offset;		/* in the file, inside the arena */
	uint32_t packet_size;
	uint32_t packet_count;
	uint64_t produced;
	uint64_t consumed;
	uint32_t commit;
	uint32_t epoch;			/* bumped each time a thread claims it */
	uint64_t lost;			/* cumulative drops, outside handlers */
	char comm[16];
	uint64_t nested_lost;		/* drops by a nested (signal) write */
	uint64_t read_seq;		/* a live reader's place, see above */
	uint64_t read_pos;
	uint64_t read_discarded;
	uint32_t writer_waits;		/* the writer waits (futex on the low
					 * half of consumed): wake it after
					 * storing consumed */
	uint32_t reserved32;
	uint64_t reserved[1];		/* two whole cache lines: no thread
					 * shares a line with another's commit */
} __attribute__((aligned(64)));

/*
 * What a thread buffer dropped since its last packet opened, by site (its
 * local event id) and cause (lost_record.h), kept by its writer: the next
 * packet it opens names them in evtrace/lost records and the entry
 * empties.  When no packet comes (its thread ended, or the recording,
 * while the buffer was full), the recorder names them in the stream's
 * last packet.  Drops past EVT_DROP_SITES sites are counted by cause in
 * other[cause - 1].  Only the buffer's writer stores; a recorder reads it
 * once the thread let go of the buffer (or at the end, and then checks
 * the counts against the buffer's lost count).  The process makes the
 * entries' pages the file's as it hands out buffers; a recorder reads
 * them with pread, never faulting a hole in.  After the max_tbufs
 * entries, one per slot (EVT_DROPS_OF_SLOT) counts the drops of threads
 * that found no buffer of the slot: every thread adds to it, claiming
 * entries atomically; its recorder names them in the packet that counts
 * them (nobuf_lost), and whoever takes the slot up empties it.
 */
#define EVT_DROPS_ENTRIES(max_tbufs)	((max_tbufs) + EVT_NSLOTS)
#define EVT_DROPS_OF_SLOT(max_tbufs, s)	((max_tbufs) + (s))
#define EVT_DROP_SITES		5
#define EVT_DROP_CAUSES		5

struct evt_ctl_drop {
	uint32_t id;
	uint32_t cause;
	uint64_t count;
};

struct evt_ctl_drops {
	uint32_t nsites;		/* of site[] in use */
	uint32_t reserved32;
	struct evt_ctl_drop site[EVT_DROP_SITES];
	uint64_t other[EVT_DROP_CAUSES];
};

/*
 * Registry entry, appended by the process, 4-byte aligned:
 *
 *   +0  size        whole entry, strings and padding included
 *   +4  id          local event id (index into enable[])
 *   +8  kind        enum evt_event_kind
 *   +10 nargs       number of stored arguments
 *   +12 path_len    bytes, NUL excluded
 *   +14 format_len  bytes, NUL excluded
 *   +16 flags       EVT_REG_*
 *   +20 parent      stable events: the id of their raw event; else ~0
 *   +24 arg types   uint8_t[nargs] (enum evt_arg_type)
 *       path        path_len bytes + NUL
 *       format      format_len bytes + NUL
 */
enum evt_event_kind {
	EVT_KIND_PRINTK = 1,
	EVT_KIND_FTRACE = 2,
	EVT_KIND_TYPED = 3,		/* format: event_format.h text */
	EVT_KIND_STABLE = 4,		/* the same, a view of event parent */
	EVT_KIND_KERNEL = 5,		/* a kernel tracepoint, typed: only in
					 * traces, never in a registry */
	/*
	 * Spans and counters (span.h): the event span/<name>, async/<name>
	 * or counter/<name> is the switch every site of that name reads.
	 * Its records store a fixed head (EVT_SPAN_HEAD_*: the phase, the
	 * async id, the counter's value), and its format is "".  A site
	 * whose records store more (printf-style arguments after the head,
	 * a counter of doubles) has an event of its own, a rider: its
	 * parent is the switch, its path the switch's and "@" and its
	 * format (or "@double"), and readers show it by the switch's path.
	 */
	EVT_KIND_SPAN = 6,		/* head: u8 phase */
	EVT_KIND_ASYNC = 7,		/* head: u8 phase, u64 id */
	EVT_KIND_COUNTER = 8,		/* head: i64 value, or a double */
};

/* The phase of a span record, its first byte. */
enum evt_span_phase {
	EVT_SPAN_BEGIN = 1,
	EVT_SPAN_END = 2,
};

/*
 * Enable word bits: bit s, slot s wants the event; bit EVT_VIEW_SHIFT + s
 * of a raw typed event, slot s wants one of its stable views (set by the
 * engine with the view's bit s, so that one call site test covers both).
 */
#define EVT_SLOT_MASK		((1u << EVT_NSLOTS) - 1)
#define EVT_VIEW_SHIFT		EVT_NSLOTS
/*
 * Rate limits: rate[id] caps event id at that many events a second in
 * each thread (0: none, at most EVT_RATE_MAX).  Engines write it with
 * pwrite (its pages are the file's only once written) and set
 * EVT_RATE_BIT in the enable word with a slot bit, so that the writer
 * looks at the rate only for an event that has one; a writer that finds
 * the bit with no slot or view bit left takes it away, so that a
 * disabled site stays a compare and a branch.  A writer reads rate[id]
 * with pread, once a second at most per thread and event.
 */
#define EVT_RATE_BIT		(1u << (EVT_VIEW_SHIFT + EVT_NSLOTS))
#define EVT_RATE_MAX		100000000u

#define EVT_REG_UNLOADED 0x1u		/* its module was dlclose'd */
/* A printk site whose format was refused, or a typed or stable event
 * whose definition was: registered so that tools can say why, and it
 * stays off.  No arguments; a printk site's format is the refused one,
 * a typed event's is EVT_REFUSED_PREFIX and why (a typed event's format
 * text never starts so: it starts with a tab). */
#define EVT_REG_REFUSED 0x2u
#define EVT_REFUSED_PREFIX "refused: "
/* A printk site whose arguments disagree with its format (since 0.1.12:
 * evt_site.arg_types) is registered refused with, for format, this and
 * why, naming its own format: a format that starts with "%!" is refused
 * by the parser, so no site that writes has one. */
#define EVT_REFUSED_ARGS "%!evtrace: its arguments disagree: "
/* The entry's strings go on after the format: the site's function, NUL
 * ended, within size. */
#define EVT_REG_FUNC 0x4u

struct evt_reg_entry {
	uint32_t size;
	uint32_t id;
	uint16_t kind;
	uint16_t nargs;
	uint16_t path_len;
	uint16_t format_len;
	uint32_t flags;
	uint32_t parent;
	uint8_t data[];
};

/*
 * Packet header and context, as CTF sees them (all little endian, byte
 * aligned): packet.header = { magic, stream_id }, packet.context = the rest.
 * The writer fills everything but stream_id and packet_size, which the
 * engine sets in the copy it writes out.
 */
/*
 * Kernel tracepoint records (engine/kernel/kernel_record.c) go to streams of
 * their own, one per CPU, of one stream class whose id is
 * EVT_KERNEL_STREAM_ID; their records carry, after the header, whose
 * they are (struct evt_kernel_context), then the payload.
 */
#define EVT_KERNEL_STREAM_ID	0x40000000u

struct evt_kernel_context {
	uint32_t pid;
	uint32_t tid;
	char comm[16];
};

struct evt_packet_header {
	uint32_t magic;
	uint32_t stream_id;
	uint64_t timestamp_begin;
	uint64_t timestamp_end;
	uint64_t content_size;		/* bits */
	uint64_t packet_size;		/* bits */
	uint64_t packet_seq_num;
	uint64_t events_discarded;	/* cumulative, at packet open */
	uint64_t first_event;		/* events written before this packet */
	uint32_t pid;
	uint32_t tid;
	char comm[16];
};

/*
 * The one constructor of a packet header, used by the writer (lib/) and
 * every packet the engine makes: a packet of packet_bytes opened at time
 * now, holding nothing but its header yet, after discarded events lost
 * and first_event written; comm is 16 bytes.  evt_packet_header_close()
 * ends it.
 */
static inline void evt_packet_header_open(struct evt_packet_header *h,
					  uint32_t stream_id, uint64_t seq,
					  uint64_t now, uint32_t packet_bytes,
					  uint64_t discarded, uint64_t first_event,
					  uint32_t pid, uint32_t tid,
					  const char *comm)
{
	h->magic = EVT_PACKET_MAGIC;
	h->stream_id = stream_id;
	h->timestamp_begin = now;
	h->timestamp_end = now;
	h->content_size = 0;
	h->packet_size = (uint64_t)packet_bytes * 8;
	h->packet_seq_num = seq;
	h->events_discarded = discarded;
	h->first_event = first_event;
	h->pid = pid;
	h->tid = tid;
	__builtin_memcpy(h->comm, comm, sizeof(h->comm));
}

/* Ends packet h at time end with content_bytes of header and records. */
static inline void evt_packet_header_close(struct evt_packet_header *h,
					   uint64_t end, uint32_t content_bytes)
{
	h->timestamp_end = end;
	h->content_size = (uint64_t)content_bytes * 8;
}

/*
 * Record: a header of 4 bytes (id, the low bits of the time since the
 * record before it) or 12 (id, whole time), then the payload, packed (no
 * padding anywhere); the CPU is a record of its own where it changes
 * (record_header.h).
 */

/* Argument storage types of printk payloads. */
enum evt_arg_type {
	EVT_ARG_I8 = 1, EVT_ARG_U8, EVT_ARG_I16, EVT_ARG_U16,
	EVT_ARG_I32, EVT_ARG_U32, EVT_ARG_I64, EVT_ARG_U64,
	EVT_ARG_DOUBLE, EVT_ARG_STRING, EVT_ARG_PTR,
	EVT_ARG_TYPE_MAX = EVT_ARG_PTR,
};

#define EVT_PRINTK_MAX_ARGS	32
/* Stored string, NUL included; also public in evtrace.h (the library sees
 * both, so they cannot differ). */
#define EVT_STRING_MAX_BYTES	256
/* Room for any record rendered as text: a full packet of 8-bit integers
 * in brackets takes 5 characters a byte. */
#define EVT_RENDER_MAX_BYTES	(96u << 10)

_Static_assert(sizeof(struct evt_ctl_header) == 176, "ctl header layout");
_Static_assert(offsetof(struct evt_ctl_header, minor) == EVT_CTL_MINOR_OFFSET &&
	       offsetof(struct evt_ctl_header, release) == EVT_CTL_RELEASE_OFFSET &&
	       offsetof(struct evt_ctl_header, pid) == 12,
	       "ctl header: the fields every major keeps");
_Static_assert(sizeof(struct evt_ctl_drops) == 128, "drops layout");
_Static_assert(sizeof(struct evt_ctl_slot) == 64, "slot layout");
_Static_assert(sizeof(struct evt_ctl_tbuf) == 128, "tbuf layout");
_Static_assert(sizeof(struct evt_reg_entry) == 24, "registry entry layout");
_Static_assert(sizeof(struct evt_packet_header) == 88, "packet header layout");
_Static_assert(sizeof(struct evt_kernel_context) == 24, "kernel context layout");
_Static_assert(offsetof(struct evt_packet_header, events_discarded) == 48,
	       "packet context layout");
_Static_assert(offsetof(struct evt_ctl_tbuf, produced) == 32, "tbuf layout");

#endif
