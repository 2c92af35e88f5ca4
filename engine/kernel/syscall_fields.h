/*
 * syscall_fields.h - a system call's copied memory as fields of its
 * syscalls/ event that any CTF reader reads (since evtrace 0.1.13):
 * a path or other string as a string, a buffer or struct as a sequence
 * of bytes with its length, an argv's or iovec's first elements each as
 * one, so that babeltrace2 shows `filename = "/etc/passwd"`.
 *
 * The event's format is the kernel's with these changes:
 *
 * - At an entry, an argument copied whole (a string, an input buffer or
 *   struct) takes the place of the kernel's field of the same name: its
 *   bytes instead of its address.
 * - After the kernel's fields comes evtrace_capture (1 when the record
 *   holds its call's arguments: always at an entry; at an exit, when its
 *   entry was seen), then, argument by argument in the call's order:
 *   - at an entry, for an argument copied whole: X_addr (its address)
 *     and X_flags (EVT_CAP_CUT, EVT_CAP_FAULT); for an argv or iovec:
 *     X_0 .. X_3, each with X_len_I (an iovec's iov_len) and X_flags_I,
 *     then X_count (elements copied) and X_flags (the array's own:
 *     EVT_CAP_FAULT, EVT_CAP_MORE);
 *   - at an exit, every argument of the call: one copied at the exit as
 *     X (its bytes), X_addr and X_flags, or as an iovec's elements as
 *     above with X_addr; any other as its value at the entry, named as
 *     the entry's format names it.
 *
 * Traces of evtrace 0.1.8 to 0.1.12 kept the memory in one field of
 * their own encoding instead (EVT_SYSCALL_MEMORY_FIELD, still read).
 */
#ifndef EVT_ENGINE_SYSCALL_FIELDS_H
#define EVT_ENGINE_SYSCALL_FIELDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "event_format.h"
#include "syscall_memory.h"

#define EVT_SYSCALL_CAPTURE_FIELD "evtrace_capture"
/* The most fields such an event has (the kernel's, then the most six
 * arguments add). */
#define EVT_CAPF_FIELDS_MAX 96

/* What a field of such an event holds. */
enum evt_capf_role {
	EVT_CAPF_KERNEL = 0,	/* the kernel's own (a number, the result) */
	EVT_CAPF_ARG,		/* the kernel's: argument arg's value */
	EVT_CAPF_MARK,		/* evtrace_capture */
	EVT_CAPF_CONTENT,	/* argument arg's bytes (elem >= 0: its
				 * element elem's) */
	EVT_CAPF_ADDR,
	EVT_CAPF_FLAGS,		/* of the argument, or of element elem */
	EVT_CAPF_COUNT,		/* elements copied */
	EVT_CAPF_LEN,		/* element elem's iov_len */
	EVT_CAPF_ENTRY_ARG,	/* an exit's: argument arg at the entry */
};

struct evt_capf {
	uint8_t role;		/* enum evt_capf_role */
	uint8_t arg;
	int8_t elem;		/* -1: the argument itself */
};

/*
 * The tracefs format text of call's entry (enter) or exit event in this
 * layout, from the kernel's text and its format kf; entry_names the
 * names of the call's arguments (an exit's; NULL: arg0 .. arg5), nargs
 * of them.  NULL when the text cannot be made (free it).
 */
char *evt_capf_format_text(const char *text, const char *call, bool enter,
			   const struct evt_event_format *kf,
			   char *const *entry_names, unsigned nargs);

/*
 * The roles of f's fields (roles[f->nfields]) for call's enter or exit
 * event: 1 when f is in this layout, 0 when it is not (no
 * evtrace_capture field), -1 when it has the field but not the layout
 * the call's copies make (a trace to be read as plain fields).
 */
int evt_capf_roles(const char *call, bool enter,
		   const struct evt_event_format *f, struct evt_capf *roles);

/* What a record of this layout holds, read back: the call's values (its
 * arguments at an entry, its result at an exit), its arguments at the
 * entry (an exit's, when have_args), and its copied memory as the pieces
 * syscall_memory.h describes (an iovec element's bytes led by its
 * iov_len, in scratch). */
struct evt_capf_read {
	uint64_t values[EVT_CAP_NARGS];
	unsigned nvalues;
	uint64_t args[EVT_CAP_NARGS];
	bool have_args;
	struct evt_cap_bytes mem[EVT_CAP_NARGS * (1 + EVT_CAP_VEC_MAX)];
	unsigned nmem;
	uint8_t scratch[EVT_CAP_VEC_MAX * (8 + EVT_SEQUENCE_MAX_BYTES)];
};

/* Reads payload (size bytes) of format f with roles: 0, or -1 when it
 * does not read. */
int evt_capf_read(const struct evt_event_format *f, const struct evt_capf *roles,
		  const uint8_t *payload, size_t size, struct evt_capf_read *out);

#endif
