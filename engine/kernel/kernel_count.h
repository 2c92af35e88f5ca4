/*
 * kernel_count.h - counting kernel tracepoints in processes, with
 * perf_event_open(2) in counting mode: PERF_TYPE_TRACEPOINT, bound to a
 * process and inherited by the children it forks from then on.  The
 * kernel's own rules decide who may (kernel.perf_event_paranoid,
 * CAP_PERFMON); a refusal names the event, the rule and the setting.
 */
#ifndef EVT_ENGINE_KERNEL_COUNT_H
#define EVT_ENGINE_KERNEL_COUNT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct evt_kernel_count;

/*
 * Opens a counter for every kernel event the patterns name (those that
 * are kernel paths; the others are not its business) in process pid, and
 * for the USDT probes the usdt/ ones name in files[0 .. nfiles) (uprobes
 * made for it, usdt_probes.h).  With on_exec, counting starts when pid
 * next execs (for a command not yet started).  0 and *out set (NULL when
 * no pattern is a kernel one); or -1 with err set: a pattern that names
 * no kernel event or probe, tracefs not readable or writable, or the
 * kernel's refusal.
 */
int evt_kernel_count_open(const char *const *patterns, unsigned npatterns,
			  const char *const *files, unsigned nfiles, pid_t pid,
			  bool on_exec, struct evt_kernel_count **out, char *err,
			  size_t err_size);
/* Calls cb for every event counted, in path order, with its count so
 * far (its exited children's included).  0, or -1 with err set. */
int evt_kernel_count_read(struct evt_kernel_count *k,
			  void (*cb)(const char *path, uint64_t count, void *ctx),
			  void *ctx, char *err, size_t err_size);
void evt_kernel_count_close(struct evt_kernel_count *k);

#endif
