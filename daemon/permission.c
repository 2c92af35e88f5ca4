/*
 * permission.c - the clients of evtraced and their rights.
 */
#include <errno.h>
#include <grp.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include "layout.h"
#include "policy.h"
#include "permission.h"

int evt_peer_get(int sock, struct evt_peer *p)
{
	struct ucred cred;
	socklen_t len = sizeof(cred);

	memset(p, 0, sizeof(*p));
	if (getsockopt(sock, SOL_SOCKET, SO_PEERCRED, &cred, &len))
		return -1;
	p->pid = cred.pid;
	p->uid = cred.uid;
	p->gid = cred.gid;
	len = sizeof(p->groups);
	if (getsockopt(sock, SOL_SOCKET, SO_PEERGROUPS, p->groups, &len) == 0)
		p->ngroups = (int)(len / sizeof(gid_t));
	else if (errno != ERANGE)	/* more groups than we keep: the first */
		return -1;
	else
		p->ngroups = 0;
	return 0;
}

bool evt_peer_privileged(const struct evt_peer *p, uid_t euid,
			 uint32_t optin_gid)
{
	return evt_privileged(p->uid, p->gid, p->groups,
			      p->ngroups > 0 ? (unsigned)p->ngroups : 0, euid,
			      optin_gid);
}

int evt_peer_sees(const struct evt_peer *p, pid_t pid)
{
	char mine[64], theirs[64];
	struct stat a, b;

	snprintf(mine, sizeof(mine), "/proc/%d/ns/pid", (int)p->pid);
	snprintf(theirs, sizeof(theirs), "/proc/%d/ns/pid", (int)pid);
	if (stat(mine, &a))
		return 0;	/* the client is gone */
	if (stat(theirs, &b))
		return errno == ENOENT || errno == ESRCH ? 0 : -1;
	return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

void evt_privileged_who(const struct evt_process_info *t, uint32_t optin_gid,
			char *buf, size_t size)
{
	struct group g, *found = NULL;
	char name[64], gbuf[4096];

	if (optin_gid == EVT_NO_GROUP) {
		snprintf(buf, size, "root or user %s (it opted into no group)", t->user);
		return;
	}
	if (getgrgid_r(optin_gid, &g, gbuf, sizeof(gbuf), &found) == 0 && found)
		snprintf(name, sizeof(name), "%s", g.gr_name);
	else
		snprintf(name, sizeof(name), "%u", (unsigned)optin_gid);
	snprintf(buf, size, "root, user %s, or a member of group %s, which it "
		 "opted into", t->user, name);
}

void evt_refuse_fields(const struct evt_process_info *t, uint32_t pid,
		       uint32_t optin_gid, const char *path, char *buf,
		       size_t size)
{
	char who[400];

	evt_privileged_who(t, optin_gid, who, sizeof(who));
	snprintf(buf, size, "%s in pid %u (%s, user %s): recording its fields "
		 "needs privilege towards the process: %s; others may record "
		 "only events flagged CAP_ANY", path, pid,
		 t->comm, t->user, who);
}
