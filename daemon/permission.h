/*
 * permission.h - who may do what to a traced process through evtraced.
 *
 * Privileged towards a process: root, the process's own user, or a member
 * of the group it opted into (evt_trace_allow_group, $EVTRACE_GROUP).  They
 * may do anything.  Anyone else may list the events of a process they can
 * see (one in their own pid namespace), and record the fields only of
 * events flagged CAP_ANY, only in a collection bound to the process
 * (`-p`), in the two slots of a run directory open to them; counting its
 * events (which puts every counted site of a hot path on the counting
 * path, perf asks ptrace access for it), switching its events for others,
 * or reading its default collection, is refused.
 */
#ifndef EVT_DAEMON_PERMISSION_H
#define EVT_DAEMON_PERMISSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "process_info.h"

#define EVT_PEER_MAX_GROUPS 256

/* A client, as the kernel vouches for it (SO_PEERCRED, SO_PEERGROUPS). */
struct evt_peer {
	pid_t pid;
	uid_t uid;
	gid_t gid;
	gid_t groups[EVT_PEER_MAX_GROUPS];
	int ngroups;
};

/* 0, or -1 with errno. */
int evt_peer_get(int sock, struct evt_peer *p);
bool evt_peer_privileged(const struct evt_peer *p, uid_t euid,
			 uint32_t optin_gid);
/* Whether the peer can see pid, in the same pid namespace: 1 yes, 0 no,
 * -1 (errno) when that namespace cannot be read (a process even root
 * may not inspect, such as a sandbox's init). */
int evt_peer_sees(const struct evt_peer *p, pid_t pid);
/*
 * Whether the peer could ptrace pid to read it, as the kernel decides for
 * perf_event_open and /proc/PID/mem (ptrace_may_access with the caller's
 * real ids): all the process's uids the peer's, all its gids the peer's
 * group, and dumpable.  Asked of the kernel, by a child with the peer's
 * ids.  1 yes; 0 no, with why (a clause) in buf; -1 (errno) when it
 * could not be asked.
 */
int evt_peer_may_read(const struct evt_peer *p, pid_t pid, char *why,
		      size_t why_size);
/*
 * Who is privileged towards t, for refusals: "root, user alice, or a
 * member of group team, which it opted into" or "root or user alice (it
 * opted into no group)".
 */
void evt_privileged_who(const struct evt_process_info *t, uint32_t optin_gid,
			char *buf, size_t size);

/* The refusal of recording event path of process t (pid): it names the
 * event and the rule. */
void evt_refuse_fields(const struct evt_process_info *t, uint32_t pid,
		       uint32_t optin_gid, const char *path, char *buf,
		       size_t size);

#endif