/*
 * evtraced.h - the system engine: a unix socket that serves evtrace's
 * commands on other users' processes, within the permission rules
 * (permission.h), one process per client.
 */
#ifndef EVT_DAEMON_EVTRACED_H
#define EVT_DAEMON_EVTRACED_H

#include <stddef.h>

#include "protocol.h"
#include "serve.h"

/*
 * Listens on path (or on the socket systemd passed: $LISTEN_FDS) and
 * serves clients until SIGTERM or SIGINT.  Returns 0 then, or -1 with err
 * set when it cannot listen.
 */
int evt_daemon_run(const char *path, evt_command_fn run, char *err,
		   size_t err_size);

#endif
