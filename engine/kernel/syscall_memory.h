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

#include <stddef.h>
#include <stdint.h>

#include "syscall_capture.h"

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

#endif
