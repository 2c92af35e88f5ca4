/*
 * evtraced.c - accepts clients and gives each a process of its own, so
 * that one that sends garbage, stalls or crashes its worker costs the
 * others nothing.  Traced programs never talk to the daemon: when it dies,
 * what it serves gets SIGTERM (PR_SET_PDEATHSIG) and ends as at the
 * daemon's own SIGTERM (traces finished, events switched off), and the
 * clients read end of file.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <poll.h>
#include <time.h>
#include <unistd.h>

#include "evtraced.h"
#include "permission.h"
#include "protocol.h"
#include "serve.h"
#include "trace_seats.h"

/* Users share MAX_CLIENTS places, 16 each at most; root may take any
 * free place, and ROOT_CLIENTS more that no user can, so that users
 * holding every place of theirs never keep root out. */
#define MAX_CLIENTS		128
#define MAX_CLIENTS_PER_USER	16
#define ROOT_CLIENTS		16
#define SD_LISTEN_FDS_START	3

struct child {
	pid_t pid;
	uid_t uid;
};

static volatile sig_atomic_t stopping;
static struct child children[MAX_CLIENTS + ROOT_CLIENTS];
static unsigned nchildren;
static struct evt_trace_seats *seats;

static void on_stop(int sig)
{
	(void)sig;
	stopping = 1;
}

/* The socket systemd passed, if it passed exactly one to us. */
static int activated_socket(void)
{
	const char *pid = getenv("LISTEN_PID"), *fds = getenv("LISTEN_FDS");

	if (!pid || !fds || atol(pid) != (long)getpid() || atoi(fds) != 1)
		return -1;
	unsetenv("LISTEN_PID");
	unsetenv("LISTEN_FDS");
	return SD_LISTEN_FDS_START;
}

static int listen_on(const char *path, char *err, size_t err_size)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	struct stat st;
	int fd;

	if (strlen(path) >= sizeof(addr.sun_path))
		return snprintf(err, err_size, "%s: too long for a socket path",
				path), -1;
	strcpy(addr.sun_path, path);
	if (!strcmp(path, EVT_DAEMON_SOCKET) && mkdir("/run/evtrace", 0755) &&
	    errno != EEXIST)
		return snprintf(err, err_size, "/run/evtrace: %s", strerror(errno)), -1;
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return snprintf(err, err_size, "socket: %s", strerror(errno)), -1;
	if (lstat(path, &st) == 0) {
		if (!S_ISSOCK(st.st_mode)) {
			close(fd);
			return snprintf(err, err_size, "%s: exists and is not a socket; "
					"not replaced", path), -1;
		}
		if (connect(fd, (struct sockaddr *)&addr, sizeof(addr)) == 0) {
			close(fd);
			return snprintf(err, err_size, "%s: another evtraced listens "
					"there", path), -1;
		}
		close(fd);
		unlink(path);	/* left by a daemon that died */
		fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (fd < 0)
			return snprintf(err, err_size, "socket: %s", strerror(errno)), -1;
	}
	if (bind(fd, (struct sockaddr *)&addr, sizeof(addr)) ||
	    chmod(path, 0666) || listen(fd, 64)) {
		snprintf(err, err_size, "%s: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

static void reap(void)
{
	unsigned i = 0;

	while (i < nchildren) {
		if (waitpid(children[i].pid, NULL, WNOHANG) == children[i].pid) {
			evt_trace_seat_free(seats, children[i].pid);
			children[i] = children[--nchildren];
		} else {
			i++;
		}
	}
}

static unsigned clients_of(uid_t uid)
{
	unsigned i, n = 0;

	for (i = 0; i < nchildren; i++)
		n += children[i].uid == uid;
	return n;
}

static void busy(int fd, const char *why)
{
	char text[300];
	int n = snprintf(text, sizeof(text), "evtrace: evtraced: %s; try again "
			 "later\n", why);

	evt_proto_send_kind(fd, 'e', text, (size_t)n);
	evt_proto_send_kind(fd, 'x', "1", 1);
}

/* The client's process: serves it and ends. */
static void __attribute__((noreturn))
client_process(int listen_fd, int fd, pid_t daemon, evt_command_fn run)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL };

	/* The daemon gone, what it serves ends as at its SIGTERM. */
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (getppid() != daemon)
		_exit(1);
	close(listen_fd);
	sigaction(SIGTERM, &dfl, NULL);
	sigaction(SIGINT, &dfl, NULL);
	sigaction(SIGCHLD, &dfl, NULL);
	evt_serve(fd, run);
	_exit(0);
}

static void accept_one(int listen_fd, evt_command_fn run)
{
	struct evt_peer peer;
	pid_t pid;
	int fd = accept4(listen_fd, NULL, NULL, SOCK_CLOEXEC);

	if (fd < 0)
		return;
	if (evt_peer_get(fd, &peer)) {
		close(fd);
		return;
	}
	if (nchildren == MAX_CLIENTS + ROOT_CLIENTS ||
	    (peer.uid && nchildren - clients_of(0) >= MAX_CLIENTS)) {
		busy(fd, "serving as many clients as it can");
	} else if (peer.uid && clients_of(peer.uid) >= MAX_CLIENTS_PER_USER) {
		busy(fd, "serving as many clients of your user as it may");
	} else {
		pid = fork();
		if (pid == 0)
			client_process(listen_fd, fd, getppid(), run);
		if (pid > 0) {
			children[nchildren].pid = pid;
			children[nchildren++].uid = peer.uid;
			fprintf(stderr, "evtraced: client pid %d uid %u: served by "
				"pid %d\n", (int)peer.pid, (unsigned)peer.uid, (int)pid);
		} else {
			busy(fd, "cannot fork");
		}
	}
	close(fd);
}

int evt_daemon_run(const char *path, evt_command_fn run, char *err,
		   size_t err_size)
{
	struct sigaction stop = { .sa_handler = on_stop };
	struct sigaction ign = { .sa_handler = SIG_IGN };
	int fd = activated_socket(), made = fd < 0;
	unsigned i;

	if (fd < 0)
		fd = listen_on(path, err, err_size);
	if (fd < 0)
		return -1;
	seats = evt_trace_seats_create();
	evt_serve_set_trace_seats(seats);
	sigaction(SIGTERM, &stop, NULL);
	sigaction(SIGINT, &stop, NULL);
	sigaction(SIGPIPE, &ign, NULL);
	fprintf(stderr, "evtraced: listening on %s\n", made ? path : "the socket "
		"systemd passed");
	while (!stopping) {
		struct pollfd p = { .fd = fd, .events = POLLIN };

		reap();
		if (poll(&p, 1, 500) > 0)
			accept_one(fd, run);
	}
	/* As ^C would end each command: traces finished, events off. */
	for (i = 0; i < nchildren; i++)
		kill(children[i].pid, SIGTERM);
	for (i = 0; i < 40 && nchildren; i++) {
		usleep(50 * 1000);
		reap();
	}
	if (made)
		unlink(path);
	close(fd);
	fprintf(stderr, "evtraced: stopped\n");
	return 0;
}
