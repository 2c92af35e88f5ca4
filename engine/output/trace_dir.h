/*
 * trace_dir.h - a trace directory being written, safely.
 *
 * The directory is made with mode 0700, or, when it exists, taken only if
 * it is an evtrace trace of the caller's own that holds nothing but trace
 * files (which are removed first); anything else is refused with the rule
 * it broke.  Every file is then created through the directory's fd with
 * O_EXCL and O_NOFOLLOW, mode 0600 (the umask still applies), so a symlink
 * planted in an old trace is never written through.  Errors name the file.
 */
#ifndef EVT_ENGINE_TRACE_DIR_H
#define EVT_ENGINE_TRACE_DIR_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct evt_trace_dir {
	int fd;			/* the directory */
	int sub_fd;		/* its evtrace/ */
	char path[PATH_MAX];
};

/* Opens, or makes, the trace directory at path.  0, or -1 with err set. */
int evt_trace_dir_open(struct evt_trace_dir *d, const char *path, char *err,
		       size_t err_size);
void evt_trace_dir_close(struct evt_trace_dir *d);
/* Opens the trace directory at path, of the caller's own, to add files
 * to it, touching nothing in it.  0, or -1 with err set. */
int evt_trace_dir_add_to(struct evt_trace_dir *d, const char *path, char *err,
			 size_t err_size);
/*
 * An evtrace trace of the caller's at path, holding trace files, becomes
 * path.old, as evt_trace_dir_open() would do; nothing is done where there
 * is no trace.  For a directory handed over as an fd, whose name the
 * taker cannot rename (evtraced's).  0, or -1 with err set.
 */
int evt_trace_dir_keep_old(const char *path, char *err, size_t err_size);
/*
 * Undoes what opening path did for a recording that wrote nothing (its
 * command could not run): the directory goes when made (or emptied: an
 * old trace was kept), and the trace kept as path.old comes back.  Only
 * what a trace directory holds is removed; path NULL does nothing.
 */
void evt_trace_dir_undo(const char *path, bool made, bool kept_old);

/*
 * Creates name (in evtrace/ when sub) for writing; the fd, or -1 with err
 * "PATH/NAME: why" (and a word on it when the directory was removed).
 */
int evt_trace_dir_create(const struct evt_trace_dir *d, int sub, const char *name,
			 char *err, size_t err_size);

/*
 * Replaces name (in evtrace/ when sub) with what write() puts into a
 * stream: written to NAME.tmp, then renamed over it, so that a reader
 * never sees half a file.  0, or -1 with err set.
 */
int evt_trace_dir_replace(const struct evt_trace_dir *d, int sub, const char *name,
			  int (*write)(FILE *f, void *ctx), void *ctx,
			  char *err, size_t err_size);

/* Writes ix as evtrace/index and as the CTF metadata, each replaced whole
 * (readers never see half of one).  0, or -1 with err set. */
struct evt_trace_index;
int evt_trace_dir_describe(const struct evt_trace_dir *d,
			   const struct evt_trace_index *ix, char *err,
			   size_t err_size);

/* Says in err why an operation on PATH/NAME failed with errnum. */
void evt_trace_dir_error(const struct evt_trace_dir *d, int sub, const char *name,
			 int errnum, char *err, size_t err_size);

#endif
