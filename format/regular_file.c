/*
 * regular_file.c - opening a file that must be a regular one (see
 * regular_file.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "regular_file.h"

const char *evt_file_kind(mode_t m)
{
	return S_ISLNK(m) ? "a symbolic link" : S_ISFIFO(m) ? "a FIFO" :
	       S_ISSOCK(m) ? "a socket" : S_ISCHR(m) || S_ISBLK(m) ? "a device" :
	       S_ISDIR(m) ? "a directory" : S_ISREG(m) ? "a file" :
	       "not a regular file";
}

int evt_open_regular(const char *path, size_t *size, char *err, size_t err_size)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	struct stat st;

	if (fd < 0 || fstat(fd, &st)) {
		snprintf(err, err_size, "%s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, err_size, "%s: %s, not a regular file", path,
			 evt_file_kind(st.st_mode));
		close(fd);
		return -1;
	}
	*size = st.st_size;
	return fd;
}
