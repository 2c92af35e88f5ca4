/*
 * audit.h - evtraced's record of who asked for what and what came of it:
 * a line per step on its standard error (the journal, under systemd),
 *
 *   evtraced: client pid 4235 uid 1001 (alice): asks ls -p 812 printk/demo
 *   evtraced: client pid 4235 uid 1001 (alice): refused: pid 812: ...
 *   evtraced: client pid 4236 uid 1001 (alice): served, exit status 0
 *
 * What the client sent is shown with its control characters as '?'.
 */
#ifndef EVT_DAEMON_AUDIT_H
#define EVT_DAEMON_AUDIT_H

#include "permission.h"
#include "protocol.h"

/* The request as the command line that would ask it. */
void evt_audit_request(const struct evt_peer *peer, const struct evt_request *r);
void evt_audit(const struct evt_peer *peer, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
