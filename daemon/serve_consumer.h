/*
 * serve_consumer.h - a consumer.h session served by evtraced.
 */
#ifndef EVT_DAEMON_SERVE_CONSUMER_H
#define EVT_DAEMON_SERVE_CONSUMER_H

#include <stdbool.h>
#include <sys/types.h>

#include "ctl.h"
#include "permission.h"
#include "process_info.h"

struct evt_session {
	int sock;
	uid_t uid;			/* the client's */
	gid_t gid;
	pid_t client_pid;
	const struct evt_process_info *info;	/* the process read */
	struct evt_ctl *ctl;		/* its control file, open */
	const char *rundir;
	bool count;			/* a counting consumer */
	bool restricted;		/* record only CAP_ANY events */
	const struct evt_request *req;	/* relay mode: its relay keys;
					 * flight mode: overwrite */
	const struct evt_peer *peer;	/* for the audit */
};

/* Opens the consumer and answers the client's requests until it stops or
 * leaves. */
void evt_serve_consumer(struct evt_session *s);

#endif
