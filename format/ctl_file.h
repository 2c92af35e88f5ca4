/*
 * ctl_file.h - a control file's life, told by its lock: the one protocol
 * the traced process (lib/) and every engine that removes control files
 * follow.
 *
 * A process holds a shared flock on its control file for as long as it
 * runs (a forked child that has not made a file of its own shares the
 * parent's), from just after making it: a file never published (magic
 * 0) is dead only when its pid is gone too (or is this very process's,
 * an earlier image's).  An exclusive lock got on a published file is
 * proof that the writer is gone, for good: no one takes a shared lock
 * on an existing file.
 *
 * Removing one goes by name, and a name comes back: after an exec, the
 * next image of the same pid may make the same <pid>-<n>.ctl once the
 * old file is gone.  So whoever removes a file holds its exclusive lock
 * and checks that the name still is that file; while the lock is held
 * and the name is the file, no one else removes it, and no one can make
 * the name anew (O_EXCL), so the unlink removes that file.
 */
#ifndef EVT_FORMAT_CTL_FILE_H
#define EVT_FORMAT_CTL_FILE_H

#include <stdbool.h>

/*
 * Removes name, in the directory dirfd, when it is the file open on fd
 * and its writer is gone (the exclusive lock is got; it is let go of
 * after).  Whether it was removed.
 */
bool evt_ctl_file_remove_dead(int dirfd, const char *name, int fd);

#endif
