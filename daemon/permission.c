/*
 * permission.c - the clients of evtraced and their rights.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/kcmp.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

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

/* The child's answer, as its exit status. */
enum { MAY_READ, MAY_NOT, GONE, CANNOT_ASK };

/*
 * kcmp(2) of the process with itself checks exactly ptrace_may_access
 * (PTRACE_MODE_READ_REALCREDS) and changes nothing.  A kernel without
 * it (CONFIG_KCMP) is asked by opening /proc/PID/environ, whose check is
 * the same with the file system ids, which are the real ones here.
 */
static int __attribute__((noreturn)) ask_as(const struct evt_peer *p, pid_t pid)
{
	char path[64];
	int fd;

	if (setgroups(p->ngroups > 0 ? (size_t)p->ngroups : 0, p->groups) ||
	    setresgid(p->gid, p->gid, p->gid) || setresuid(p->uid, p->uid, p->uid))
		_exit(CANNOT_ASK);
	if (syscall(SYS_kcmp, pid, pid, KCMP_VM, 0, 0) >= 0)
		_exit(MAY_READ);
	if (errno == ESRCH)
		_exit(GONE);
	if (errno != ENOSYS)
		_exit(errno == EPERM || errno == EACCES ? MAY_NOT : CANNOT_ASK);
	snprintf(path, sizeof(path), "/proc/%d/environ", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0)
		_exit(MAY_READ);
	_exit(errno == ENOENT || errno == ESRCH ? GONE :
	      errno == EPERM || errno == EACCES ? MAY_NOT : CANNOT_ASK);
}

/* The three ids ("Uid:" or "Gid:") of /proc/PID/status: real, effective,
 * saved.  0, or -1. */
static int status_ids(pid_t pid, const char *key, unsigned ids[3])
{
	char path[64], line[256];
	size_t len = strlen(key);
	FILE *f;
	int found = -1;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	if (!(f = fopen(path, "re")))
		return -1;
	while (found && fgets(line, sizeof(line), f))
		if (!strncmp(line, key, len) &&
		    sscanf(line + len, "%u %u %u", &ids[0], &ids[1], &ids[2]) == 3)
			found = 0;
	fclose(f);
	return found;
}

/* Why the kernel said no, as far as /proc tells. */
static void why_not(const struct evt_peer *p, pid_t pid, char *why, size_t size)
{
	unsigned u[3], g[3];

	if (status_ids(pid, "Uid:", u) || status_ids(pid, "Gid:", g))
		snprintf(why, size, "the kernel would not let you ptrace it");
	else if (u[0] != p->uid || u[1] != p->uid || u[2] != p->uid)
		snprintf(why, size, "its user ids (real %u, effective %u, saved %u) "
			 "are not all yours", u[0], u[1], u[2]);
	else if (g[0] != p->gid || g[1] != p->gid || g[2] != p->gid)
		snprintf(why, size, "its group ids (real %u, effective %u, saved "
			 "%u) are not all your group's (%u): a setgid program",
			 g[0], g[1], g[2], (unsigned)p->gid);
	else
		snprintf(why, size, "it is not dumpable (it gained privilege at "
			 "an exec, or said PR_SET_DUMPABLE 0)");
}

int evt_peer_may_read(const struct evt_peer *p, pid_t pid, char *why,
		      size_t why_size)
{
	int status;
	pid_t child = fork();

	if (child == 0)
		ask_as(p, pid);
	if (child < 0)
		return -1;
	while (waitpid(child, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	status = WIFEXITED(status) ? WEXITSTATUS(status) : CANNOT_ASK;
	if (status == MAY_NOT)
		why_not(p, pid, why, why_size);
	else if (status == GONE)
		snprintf(why, why_size, "no such process");
	if (status == CANNOT_ASK)
		errno = EPERM;
	return status == MAY_READ ? 1 : status == CANNOT_ASK ? -1 : 0;
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
