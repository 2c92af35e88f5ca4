/*
 * regular_file.h - opening a file that must be a regular one: never
 * blocked on by a FIFO, never reading a device, and saying what was found
 * instead.  Shared by the run directory's checks and the trace readers.
 */
#ifndef EVT_FORMAT_REGULAR_FILE_H
#define EVT_FORMAT_REGULAR_FILE_H

#include <stddef.h>
#include <sys/stat.h>

/* "a symbolic link", "a FIFO", ...: what a mode says a file is. */
const char *evt_file_kind(mode_t mode);

/*
 * Opens path read-only, without blocking; the fd, its size in *size, or
 * -1 with err "PATH: why" ("a FIFO, not a regular file" and the like).
 */
int evt_open_regular(const char *path, size_t *size, char *err, size_t err_size);

#endif
