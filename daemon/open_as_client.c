/*
 * open_as_client.c - files a client names, opened with the client's
 * credentials (serve.h).
 *
 * A child takes the client's uids, gids and groups and opens each file;
 * the fds come back over a socket pair.  So the daemon reads only what
 * the client could, and what it then uses is the file the client could
 * open, whatever the path names by the time it is used (the worker
 * names the fd, /proc/self/fd/N).
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "permission.h"
#include "serve.h"

/* One answer: the errno of the open (0: the fd comes with it). */
static int send_one(int sock, int e, int fd)
{
	char space[CMSG_SPACE(sizeof(int))] = { 0 };
	struct iovec v = { &e, sizeof(e) };
	struct msghdr m = { .msg_iov = &v, .msg_iovlen = 1 };
	struct cmsghdr *c;

	if (fd >= 0) {
		m.msg_control = space;
		m.msg_controllen = sizeof(space);
		c = CMSG_FIRSTHDR(&m);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(c), &fd, sizeof(int));
	}
	return sendmsg(sock, &m, MSG_NOSIGNAL) == (ssize_t)sizeof(e) ? 0 : -1;
}

static int recv_one(int sock, int *e, int *fd)
{
	char space[CMSG_SPACE(sizeof(int))];
	struct iovec v = { e, sizeof(*e) };
	struct msghdr m = { .msg_iov = &v, .msg_iovlen = 1,
			    .msg_control = space, .msg_controllen = sizeof(space) };
	struct cmsghdr *c;

	*fd = -1;
	if (recvmsg(sock, &m, MSG_CMSG_CLOEXEC) != (ssize_t)sizeof(*e))
		return -1;
	c = CMSG_FIRSTHDR(&m);
	if (c && c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS)
		memcpy(fd, CMSG_DATA(c), sizeof(int));
	return *e == 0 && *fd < 0 ? -1 : 0;
}

static void __attribute__((noreturn))
opener(const struct evt_peer *p, const char *const *paths, unsigned n, int sock)
{
	unsigned i;

	if (setgroups((size_t)p->ngroups, p->groups) ||
	    setresgid(p->gid, p->gid, p->gid) || setresuid(p->uid, p->uid, p->uid))
		_exit(1);
	for (i = 0; i < n; i++) {
		int fd = open(paths[i], O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);

		if (send_one(sock, fd < 0 ? errno : 0, fd))
			_exit(1);
		if (fd >= 0)
			close(fd);
	}
	_exit(0);
}

int evt_open_as_client(const struct evt_peer *p, const char *const *paths,
		       unsigned n, int *fds, char *err, size_t err_size)
{
	int sv[2], status, e = 0, got = 0;
	unsigned i;
	pid_t pid;

	for (i = 0; i < n; i++)
		fds[i] = -1;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv))
		return snprintf(err, err_size, "socketpair: %s", strerror(errno)), -1;
	pid = fork();
	if (pid == 0) {
		close(sv[0]);
		opener(p, paths, n, sv[1]);
	}
	close(sv[1]);
	for (i = 0; pid > 0 && i < n; i++) {
		struct stat st;

		if (recv_one(sv[0], &e, &fds[i]) || e)
			break;
		/* (a FIFO or a device planted there is not read) */
		if (fstat(fds[i], &st) || !S_ISREG(st.st_mode)) {
			e = EINVAL;
			break;
		}
		got++;
	}
	close(sv[0]);
	if (pid > 0)
		waitpid(pid, &status, 0);
	if (got == (int)n)
		return 0;
	if (pid < 0)
		snprintf(err, err_size, "fork: %s", strerror(errno));
	else if (e == EINVAL)
		snprintf(err, err_size, "%s: not a regular file", paths[got]);
	else if (e)
		snprintf(err, err_size, "%s: %s (evtraced opens it as you)", paths[got],
			 strerror(e));
	else
		snprintf(err, err_size, "could not take your credentials to open %s",
			 paths[got]);
	for (i = 0; i < n; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	return -1;
}
