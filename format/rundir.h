/*
 * rundir.h - where traced processes publish their control files and
 * collections their rules: $EVTRACE_RUNDIR, or /dev/shm/evtrace/<uid>.
 * Shared by the library and the engines so that both agree.
 */
#ifndef EVT_FORMAT_RUNDIR_H
#define EVT_FORMAT_RUNDIR_H

#include <stddef.h>

void evt_rundir_path(char *out, size_t out_size);
/* Creates it (mode 0700) and its parents when missing.  0, or -1 with
 * errno set. */
int evt_rundir_make(const char *dir);

#endif
