/*
 * ctl_file.c - a dead control file removed, by the protocol of
 * ctl_file.h.
 */
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ctl_file.h"

bool evt_ctl_file_remove_dead(int dirfd, const char *name, int fd)
{
	struct stat open_st, name_st;
	bool removed = false;

	if (flock(fd, LOCK_EX | LOCK_NB))
		return false;	/* its writer runs, or another remover has it */
	if (fstat(fd, &open_st) == 0 &&
	    fstatat(dirfd, name, &name_st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    open_st.st_dev == name_st.st_dev && open_st.st_ino == name_st.st_ino)
		removed = unlinkat(dirfd, name, 0) == 0;
	flock(fd, LOCK_UN);
	return removed;
}
