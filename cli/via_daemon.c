/*
 * via_daemon.c - commands on another user's processes, asked of evtraced:
 * a user who is not root cannot open their run directory, the daemon can
 * and applies the permission rules.  Root goes to their run directory
 * itself.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "trace_dir.h"
#include "evtraced.h"
#include "container.h"
#include "process_info.h"
#include "protocol.h"
#include "trace_names.h"

static volatile sig_atomic_t interrupted;

static void on_interrupt(int sig)
{
	(void)sig;
	interrupted = 1;
}

bool cli_root(void)
{
	char map[128] = "";
	unsigned inside, outside, count;
	FILE *f;

	if (geteuid() != 0)
		return false;
	f = fopen("/proc/self/uid_map", "re");
	if (!f)
		return true;	/* no user namespaces: the only root */
	if (!fgets(map, sizeof(map), f))
		map[0] = '\0';
	fclose(f);
	/* The initial namespace maps every uid to itself. */
	return sscanf(map, "%u %u %u", &inside, &outside, &count) == 3 &&
	       inside == 0 && outside == 0 && count == 4294967295u;
}

/*
 * Root follows a process into the run directory its environment names,
 * which its user chose: only into one of that user's (a directory named
 * elsewhere, or a symlink in a container's /dev/shm, would take root into
 * someone else's), and one that exists (root would make it).  0, or -1
 * (said).
 */
static int theirs(const char *cmd, int pid, const char *dir, uid_t euid,
		  const char *user)
{
	struct stat st;

	if (stat(dir, &st))
		return cli_error(cmd, "pid %d: not traced (its run directory %s: "
				 "%s)", pid, dir, strerror(errno)), -1;
	if (st.st_uid != euid)
		return cli_error(cmd, "pid %d: its run directory %s belongs to uid "
				 "%u, not to its user %s: not followed", pid, dir,
				 (unsigned)st.st_uid, user), -1;
	return 0;
}

static struct evt_container routed;
static bool routed_any;

const struct evt_container *cli_routed_container(void)
{
	return routed_any ? &routed : NULL;
}

/*
 * A process in a container (another mount namespace): its run directory
 * as seen from here, its pid as it sees it.  1 when it is one (pids[i]
 * changed), 0 when not, -1 (said) when it cannot be reached.
 */
static int route_container(const char *cmd, int *pids, unsigned npids,
			   unsigned i, const struct evt_process_info *info)
{
	struct evt_container c;
	char err[PATH_MAX + 200];
	int n = evt_container_of(info, &c, err, sizeof(err));

	if (n <= 0)
		return n < 0 ? cli_error(cmd, "%s", err), -1 : 0;
	if (info->euid != geteuid() && !cli_root())
		return cli_error(cmd, "pid %d: in a container (another mount "
				 "namespace) of user %s: only root or that user "
				 "reaches it (evtraced does not yet)", pids[i],
				 info->user), -1;
	if (routed_any && (routed.pidns != c.pidns || strcmp(routed.rundir, c.rundir)))
		return cli_error(cmd, "pids %d and %d are in different containers "
				 "or run directories: one at a time", routed.host_pid,
				 pids[i]), -1;
	if (npids > 1 && !routed_any && i > 0)
		return cli_error(cmd, "pid %d is in a container, pid %d is not: "
				 "one at a time", pids[i], pids[0]), -1;
	if (theirs(cmd, pids[i], c.rundir, info->euid, info->user))
		return -1;
	if (info->euid != geteuid())
		evt_rundir_expect_owner(info->euid);
	routed = c;
	routed_any = true;
	pids[i] = c.pid;
	setenv("EVTRACE_RUNDIR", c.rundir, 1);
	return 1;
}

int cli_route(const char *cmd, int *pids, unsigned npids)
{
	struct evt_process_info info;
	char err[PATH_MAX + 200];
	unsigned i;
	int n;

	for (i = 0; i < npids; i++) {
		/* No such process: the local engine says it is not traced. */
		if (evt_process_info(pids[i], &info, err, sizeof(err)))
			continue;
		n = info.euid == geteuid() || cli_root() ?
		    route_container(cmd, pids, npids, i, &info) : 0;
		if (n < 0)
			return -1;
		if (n > 0)
			continue;
		if (info.euid == geteuid()) {
			/* Ours, in another run directory of ours (a recording
			 * that found every slot taken made it one). */
			char mine[EVT_RUNDIR_PATH_MAX];

			if (info.rundir[0] && !evt_rundir_path(mine, sizeof(mine), err,
							       sizeof(err)) &&
			    strcmp(mine, info.rundir))
				setenv("EVTRACE_RUNDIR", info.rundir, 1);
			continue;
		}
		if (!cli_root())
			return CLI_VIA_DAEMON;
		/* Root: to the run directory the process uses. */
		if (!info.rundir[0])
			return cli_error(cmd, "pid %d: its environment cannot be read",
					 pids[i]), -1;
		if (theirs(cmd, pids[i], info.rundir, info.euid, info.user))
			return -1;
		evt_rundir_expect_owner(info.euid);
		setenv("EVTRACE_RUNDIR", info.rundir, 1);
	}
	return CLI_LOCAL;
}

static int connect_daemon(const char *cmd, const struct evt_request *r)
{
	struct evt_process_info info;
	char err[PATH_MAX + 200];
	int fd = evt_daemon_connect(), saved = errno;

	if (fd >= 0)
		return fd;
	if (!r->npids)
		snprintf(err, sizeof(err), "only root may read the kernel's events in "
			 "tracefs; others ask evtraced");
	else if (evt_process_info(r->pids[0], &info, err, sizeof(err)))
		snprintf(err, sizeof(err), "pid %d is another user's: another user's "
			 "processes are reached through evtraced", r->pids[0]);
	else
		snprintf(err, sizeof(err), "pid %d is user %s's: another user's "
			 "processes are reached through evtraced", r->pids[0],
			 info.user);
	cli_error(cmd, "%s, and none is running (%s: %s); start it as root with "
		  "'evtrace daemon' or 'systemctl start evtraced.socket'", err,
		  evt_daemon_socket_path(), strerror(saved));
	return -1;
}

/* record's trace directory, made and opened by the user, for the daemon
 * to write into as theirs.  A trace there before is kept as DIR.old here:
 * the daemon has the directory, not its name. */
static int open_output(const char *cmd, const char *output, bool *made)
{
	char err[PATH_MAX + 300];
	struct stat st;
	int fd;

	if (evt_trace_dir_keep_old(output, err, sizeof(err)))
		return cli_error(cmd, "%s", err), -1;
	*made = mkdir(output, 0700) == 0;
	if (!*made && errno != EEXIST)
		return cli_error(cmd, "%s: %s", output, strerror(errno)), -1;
	fd = open(output, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return cli_error(cmd, "%s: %s", output, strerror(errno)), -1;
	if (fstat(fd, &st) || st.st_uid != geteuid()) {
		close(fd);
		return cli_error(cmd, "%s: not a directory of yours", output), -1;
	}
	return fd;
}

/* Writes text with the worker's name for the trace directory replaced
 * by the user's. */
static void put_err(const char *text, const char *output)
{
	static const char worker_name[] = "/proc/self/fd/9/.";
	const char *at;

	while (output && (at = strstr(text, worker_name))) {
		fwrite(text, 1, (size_t)(at - text), stderr);
		fputs(output, stderr);
		text = at + sizeof(worker_name) - 1;
	}
	fputs(text, stderr);
}

int cli_via_daemon(const char *cmd, const struct evt_request *r,
		   const char *output)
{
	static char buf[EVT_PROTO_MAX_BODY + 1];
	struct sigaction on = { .sa_handler = on_interrupt };
	struct sigaction ign = { .sa_handler = SIG_IGN };
	int sock, dir = -1, len, status = -1;
	bool stop_sent = false, made = false;
	char err[200];

	len = evt_proto_format(r, buf, sizeof(buf));
	if (len < 0)
		return cli_error(cmd, "the request is too long for evtraced");
	if (output && (dir = open_output(cmd, output, &made)) < 0)
		return 1;
	sock = connect_daemon(cmd, r);
	/* A daemon that refuses a client (too many) says why and closes
	 * before the request is read: its answer is read all the same. */
	if (sock >= 0 && evt_proto_send(sock, buf, (size_t)len, dir) &&
	    errno != EPIPE) {
		cli_error(cmd, "evtraced: %s", strerror(errno));
		close(sock);
		sock = -1;
	}
	if (sock < 0) {
		if (dir >= 0)
			close(dir);
		if (made)
			rmdir(output);
		return 1;
	}
	if (dir >= 0)
		close(dir);
	sigaction(SIGINT, &on, NULL);
	sigaction(SIGTERM, &on, NULL);
	sigaction(SIGHUP, &on, NULL);
	sigaction(SIGPIPE, &ign, NULL);
	while (status < 0) {
		struct pollfd p = { .fd = sock, .events = POLLIN };
		long n;

		if (interrupted && !stop_sent) {
			static const char stop[] = "verb stop\n";

			evt_proto_send(sock, stop, sizeof(stop) - 1, -1);
			stop_sent = true;
		}
		if (poll(&p, 1, 100) <= 0)
			continue;
		n = evt_proto_recv(sock, buf, NULL, 5000, err, sizeof(err));
		if (n < 1) {
			cli_error(cmd, "evtraced ended the connection before the %s "
				  "did (%s)%s%s", cmd, n == -2 ? "did it stop?" : err,
				  output ? "; what it drained until then is in " : "",
				  output ? output : "");
			break;
		}
		switch (buf[0]) {
		case 'o':
			if (fwrite(buf + 1, 1, (size_t)n - 1, stdout) != (size_t)n - 1 ||
			    fflush(stdout))
				interrupted = 1;	/* the reader is gone */
			break;
		case 'e':
			put_err(buf + 1, output);
			break;
		case 'x':
			status = atoi(buf + 1);
			break;
		}
	}
	close(sock);
	/* A refused recording leaves no empty directory behind (rmdir
	 * takes only an empty one; the worker may have made evtrace/). */
	if (made && status != 0) {
		char sub[PATH_MAX + 16];

		snprintf(sub, sizeof(sub), "%s/" EVT_TRACE_SUBDIR, output);
		rmdir(sub);
		rmdir(output);
	}
	return status < 0 ? 1 : status;
}
