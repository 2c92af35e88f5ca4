/*
 * syscall_memory.h - the user memory of system call arguments, as strace
 * shows it: which arguments of which calls are copied (the eBPF
 * program's table, syscall_capture.h) and how the bytes copied read:
 * strings quoted and escaped ("hello\n", "\33[31m"), cut at -s bytes with
 * "..." after the quote, paths whole, argv as ["ls", "-l"], and the
 * common structs: stat ({st_mode=S_IFREG|0644, st_size=6, ...}),
 * timespec ({tv_sec=1, tv_nsec=0}) and sockaddr (AF_INET, AF_INET6,
 * AF_UNIX).  Memory that could not be read shows as its address.
 */
#ifndef EVT_ENGINE_SYSCALL_MEMORY_H
#define EVT_ENGINE_SYSCALL_MEMORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "syscall_capture.h"

/* One argument's copied memory. */
struct evt_cap_bytes {
	const uint8_t *bytes;
	uint32_t len;
	uint32_t flags;			/* EVT_CAP_CUT, EVT_CAP_FAULT */
	uint64_t addr;			/* where it was */
	uint8_t arg;			/* as the record says (argv: 8 * (i + 1)
					 * + argument) */
};

/* The table entry of call (all EVT_CAP_NONE for a call with nothing
 * copied). */
void evt_syscall_memory_spec(const char *call, struct evt_cap_spec *out);

/*
 * The text of argument arg of call from its bytes (len of them, flags
 * EVT_CAP_*), addr its address (shown when flags say EVT_CAP_FAULT); an
 * argv's element i is argument 8 * (i + 1) + arg.  Strings that are not
 * paths (buffers, argv's) are cut at strsize bytes, as strace's -s cuts
 * them.  Into out; its length.
 */
int evt_syscall_memory_text(const char *call, unsigned arg,
			    const uint8_t *bytes, uint32_t len, uint32_t flags,
			    uint64_t addr, uint32_t strsize, char *out, size_t size);

/* An argv's text from its elements' texts (quoted strings), n of them;
 * cut: there were more. */
int evt_syscall_memory_argv(const char *const *elems, unsigned n, int cut,
			    char *out, size_t size);

/*
 * The texts of a call's copied memory (n pieces), by argument: texts[i]
 * is argument i's (an argv's or an iovec's elements joined), NULL where
 * nothing was copied.  Free them with evt_syscall_memory_texts_free().
 */
void evt_syscall_memory_texts(const char *call, const struct evt_cap_bytes *mem,
			      unsigned n, uint32_t strsize, char *texts[6]);
void evt_syscall_memory_texts_free(char *texts[6]);

/*
 * A recorded syscalls/ event keeps its call's copied memory in one field
 * of its own, after the kernel's (kernel_capture.h): a sequence of bytes
 * holding each piece as a 16-byte head (its arg, its flags, two zero
 * bytes, its length and its address, little-endian as the machine) and
 * its bytes.  An exit's first piece, EVT_SYSCALL_MEMORY_ARGS, holds the
 * call's six arguments at its entry, for the resumed call's text.
 */
#define EVT_SYSCALL_MEMORY_FIELD "evtrace_memory"
#define EVT_SYSCALL_MEMORY_ARGS 0xff
#define EVT_SYSCALL_MEMORY_HEAD 16

/* Packs the pieces (and args, when not NULL) into out, at most size
 * bytes: a piece that does not fit whole is cut (flagged so), one whose
 * head does not fit left out.  The bytes written. */
size_t evt_syscall_memory_pack(const struct evt_cap_bytes *mem, unsigned n,
			       const uint64_t *args, uint8_t *out, size_t size);
/* The pieces of a packed field (pointing into it), max at most; args
 * set and *have_args true when it holds them.  How many, or -1 when the
 * bytes are not such a field. */
int evt_syscall_memory_unpack(const uint8_t *in, size_t len,
			      struct evt_cap_bytes *mem, unsigned max,
			      uint64_t args[6], bool *have_args);

#endif
