/*
 * usdt_probes.h - the USDT probes a recording names (usdt/PROVIDER/NAME)
 * made kernel events: one uprobe per place a probe is, in tracefs's
 * uprobe_events, its arguments fetched as the note types them
 * (usdt_notes.h) and its semaphore counted up by the kernel while it is
 * on (the uprobe's reference counter).  They are sampled as any kernel
 * tracepoint (kernel_sampler.h) under the path usdt/PROVIDER/NAME.
 *
 * The uprobes of engine PID are the tracefs group evtrace_usdt_PID;
 * removed when done, and by the next engine when their engine is gone.
 */
#ifndef EVT_ENGINE_USDT_PROBES_H
#define EVT_ENGINE_USDT_PROBES_H

#include <stdbool.h>
#include <stddef.h>

struct evt_usdt_set;

/* (evt_is_usdt_path(): pattern.h) */

/*
 * Makes the uprobes of the probes in files[0 .. nfiles) that the usdt/
 * patterns among patterns name.  0 with *out (NULL when no pattern is a
 * usdt/ one), or -1 with err set: tracefs not writable (not root), a
 * pattern no probe of the files matches, a file that does not read.
 */
int evt_usdt_set_create(const char *const *patterns, unsigned npatterns,
			const char *const *files, unsigned nfiles,
			struct evt_usdt_set **out, char *err, size_t err_size);
/* Whether each usdt/ pattern among patterns names a probe of files[0 ..
 * nfiles) (the error evt_usdt_set_create gives otherwise), making none:
 * what a user checks before asking evtraced.  0, or -1 with err set. */
int evt_usdt_check(const char *const *patterns, unsigned npatterns,
		   const char *const *files, unsigned nfiles, char *err,
		   size_t err_size);
/* The uprobes made: their tracefs paths (kernel/GROUP/EVENT), and the
 * path each stands for (usdt/PROVIDER/NAME). */
unsigned evt_usdt_set_count(const struct evt_usdt_set *s);
const char *evt_usdt_set_kernel_path(const struct evt_usdt_set *s, unsigned i);
const char *evt_usdt_set_path(const struct evt_usdt_set *s, unsigned i);
/* Removes its uprobes (their perf events closed first). */
void evt_usdt_set_destroy(struct evt_usdt_set *s);

/*
 * The files a command's probes are in: its executable (found as execvp
 * finds it) and the libraries it links, as the dynamic loader finds them
 * (its RUNPATH, LD_LIBRARY_PATH, the system's directories); or the files
 * process pid maps code from.  0 with *files (free with
 * evt_usdt_files_free), or -1 with err set.
 */
int evt_usdt_files_of_command(const char *cmd, char ***files, unsigned *n,
			      char *err, size_t err_size);
int evt_usdt_files_of_process(int pid, char ***files, unsigned *n, char *err,
			      size_t err_size);
void evt_usdt_files_free(char **files, unsigned n);
/* The events the probes of files[0 .. nfiles) are (usdt/PROVIDER/NAME),
 * each once, into *out (free with evt_usdt_files_free); a file that does
 * not read has none.  0, or -1 out of memory. */
int evt_usdt_paths(const char *const *files, unsigned nfiles, char ***out,
		   unsigned *n);
/* Those files when a usdt/ pattern is among patterns: process pid's
 * (pid > 0), else command cmd's; none (0 and *n 0) otherwise. */
int evt_usdt_files_for(const char *const *patterns, unsigned npatterns, int pid,
		       const char *cmd, char ***files, unsigned *n, char *err,
		       size_t err_size);

#endif
