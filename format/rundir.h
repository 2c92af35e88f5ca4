/*
 * rundir.h - the run directory: where traced processes publish their
 * control files and collections their rules and locks.  Shared by the
 * library and the engines so that both agree on where it is and on what
 * may be trusted in it.
 *
 * It is $EVTRACE_RUNDIR (read with secure_getenv: ignored by setuid and
 * setgid programs; absolute paths only), else /dev/shm/evtrace-<euid>, a
 * directory of the user's own in the system's sticky /dev/shm.  No
 * directory is shared between users: whoever came first owns nothing of
 * anyone else's.  Since any user may make a name in /dev/shm, one may
 * make another's first: then root's run directory is /run/evtrace-0
 * (only root makes names in /run), and a user's $XDG_RUNTIME_DIR/evtrace
 * when that directory is theirs (systemd's /run/user/<uid>); a user
 * without one (a service, cron, su) gets /dev/shm/evtrace-<uid>-<16 hex
 * digits>, a name nobody could make first (random), named in
 * $HOME/.evtrace-rundir, a file only they can write; a user with no home
 * of their own stays refused.
 *
 * Everything evtrace opens there is checked and opened relative to the
 * checked directory's fd, never followed through a symlink, never blocked
 * on by a FIFO: the directory must be owned by the caller (an engine run
 * by root may enter anyone's) and writable by nobody else; a file must be
 * a regular file owned by the directory's owner and writable by nobody
 * else.  What fails is refused with "PATH: why" naming the rule.
 */
#ifndef EVT_FORMAT_RUNDIR_H
#define EVT_FORMAT_RUNDIR_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* The longest run directory path: room is left for the names in it. */
#define EVT_RUNDIR_PATH_MAX (PATH_MAX - 64)

struct evt_rundir {
	int fd;			/* the checked directory, O_DIRECTORY */
	uid_t owner;
	gid_t group;
	char path[EVT_RUNDIR_PATH_MAX];
};

/* The run directory's path.  0, or -1 with err set when $EVTRACE_RUNDIR
 * is relative or too long. */
int evt_rundir_path(char *out, size_t out_size, char *err, size_t err_size);
/* The run directory of a process of user uid whose $EVTRACE_RUNDIR is
 * env, $XDG_RUNTIME_DIR xdg and $HOME home (each NULL when unset). */
int evt_rundir_path_for(const char *env, const char *xdg, const char *home,
			uid_t uid, char *out, size_t out_size, char *err,
			size_t err_size);
/*
 * User uid's default run directory, into out: 0, the usual one; 1, the
 * fallback, because another user holds the usual one's name (why says
 * so); -1, no fallback for this user (out is the usual one, why says why).
 */
int evt_rundir_default(uid_t uid, const char *xdg, const char *home, char *out,
		       size_t out_size, char *why, size_t why_size);
/* The same, and the fallback made (mode 0700) when it is the one and is
 * missing, or, for a user with none, the one $HOME/.evtrace-rundir will
 * name: then 2, so that whoever made it says so, once. */
int evt_rundir_default_made(uid_t uid, const char *xdg, const char *home,
			    char *out, size_t out_size, char *why,
			    size_t why_size);

enum {
	EVT_RUNDIR_CREATE = 1,		/* make it (mode 0700) when missing */
	EVT_RUNDIR_ROOT_ENTERS = 2,	/* root may use another user's */
};

/*
 * Opens the directory at path and checks it.  0; or -1 with errno and err
 * set (errno ENOENT: it does not exist and EVT_RUNDIR_CREATE was not
 * given).
 */
int evt_rundir_open(struct evt_rundir *rd, const char *path, int flags,
		    char *err, size_t err_size);
void evt_rundir_close(struct evt_rundir *rd);
/* From now on, in this process, a directory root enters
 * (EVT_RUNDIR_ROOT_ENTERS) must be uid's, or it is refused: the run
 * directory of a process root was sent to by that process's environment
 * (checked by name first, then on the directory opened, which a swap of
 * a symlink between the two cannot change). */
void evt_rundir_expect_owner(uid_t uid);

/*
 * Opens name, a file in the run directory, with flags (O_NOFOLLOW,
 * O_NONBLOCK and O_CLOEXEC added) and checks it.  A file root creates in
 * another user's directory is given to that user, so that it stays
 * theirs.  Returns the fd, or -1 with errno and err set.
 */
int evt_rundir_openat(const struct evt_rundir *rd, const char *name, int flags,
		      mode_t mode, char *err, size_t err_size);

/*
 * strerror(e); for a file system out of room (ENOSPC, EDQUOT) it goes on
 * with what that file system under dir is and what to do:
 * "No space left on device (the file system of DIR, mounted on MNT, is
 * full: 64 MiB, 0 MiB free; ...)".  Returns buf or strerror's text.
 */
const char *evt_rundir_strerror(const char *dir, int e, char *buf,
				size_t size);
/* Only the part in parentheses above, into buf; buf. */
const char *evt_rundir_full(const char *dir, char *buf, size_t size);

/*
 * A collection number's lock file (slot-<n>.lock) says who holds it:
 * "<pid> <what>\nid <collection id>\n".  The id in text, or 0.
 */
uint64_t evt_rundir_lock_id(const char *text);

#endif
