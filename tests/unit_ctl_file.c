/* A dead control file is removed only when it is dead and its name still
 * names it (format/ctl_file.c): a live writer's shared lock keeps it, and
 * a name that came back for another file (the next image of the same
 * pid) is left to that file. */
#include <fcntl.h>
#include <stdlib.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ctl_file.h"
#include "unit.h"

static int make(int dir, const char *name)
{
	return openat(dir, name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
}

static bool exists(int dir, const char *name)
{
	struct stat st;

	return fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) == 0;
}

int main(void)
{
	char tmpl[] = "/tmp/evtrace-unit-ctl.XXXXXX";
	const char *at = mkdtemp(tmpl);
	int dir, writer, remover, again, later;

	CHECK(at != NULL);
	if (!at)
		UNIT_DONE();
	dir = open(at, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	/* A live writer holds its shared lock: kept. */
	writer = make(dir, "10-0.ctl");
	CHECK(writer >= 0 && flock(writer, LOCK_SH | LOCK_NB) == 0);
	remover = openat(dir, "10-0.ctl", O_RDONLY | O_CLOEXEC);
	CHECK(!evt_ctl_file_remove_dead(dir, "10-0.ctl", remover));
	CHECK(exists(dir, "10-0.ctl"));

	/* Its writer gone: removed. */
	close(writer);
	CHECK(evt_ctl_file_remove_dead(dir, "10-0.ctl", remover));
	CHECK(!exists(dir, "10-0.ctl"));
	close(remover);

	/* A second remover opened the dead file before the first removed
	 * it; the pid's next image made the name again, not yet locked or
	 * locked: that file stays. */
	writer = make(dir, "11-0.ctl");
	close(writer);
	remover = openat(dir, "11-0.ctl", O_RDONLY | O_CLOEXEC);
	again = openat(dir, "11-0.ctl", O_RDONLY | O_CLOEXEC);
	CHECK(evt_ctl_file_remove_dead(dir, "11-0.ctl", remover));
	later = make(dir, "11-0.ctl");
	CHECK(later >= 0);
	CHECK(!evt_ctl_file_remove_dead(dir, "11-0.ctl", again));
	CHECK(exists(dir, "11-0.ctl"));
	CHECK(flock(later, LOCK_SH | LOCK_NB) == 0);
	CHECK(!evt_ctl_file_remove_dead(dir, "11-0.ctl", again));
	CHECK(exists(dir, "11-0.ctl"));
	close(again);
	close(remover);

	/* A symlink in the name's place is not the file either. */
	close(later);
	unlinkat(dir, "11-0.ctl", 0);
	writer = make(dir, "12-0.ctl");
	CHECK(symlinkat("12-0.ctl", dir, "13-0.ctl") == 0);
	CHECK(!evt_ctl_file_remove_dead(dir, "13-0.ctl", writer));
	CHECK(exists(dir, "13-0.ctl") && exists(dir, "12-0.ctl"));
	close(writer);

	unlinkat(dir, "12-0.ctl", 0);
	unlinkat(dir, "13-0.ctl", 0);
	close(dir);
	CHECK(rmdir(at) == 0);
	UNIT_DONE();
}
