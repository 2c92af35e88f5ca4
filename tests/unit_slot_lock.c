/* A collection's number is claimed by an exclusive flock on its lock file
 * (format/slot_owner.h).  Anyone may look whether an engine holds one
 * (evt_slot_lock_holds, a shared flock for a moment: traced processes do
 * it applying rules, and so do users' scripts): a claim that meets such
 * a look waits it out instead of failing ("another stream without -e is
 * reading the default collection") or taking the next number, while an
 * engine's lock still fails it at once. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

#include "slot_owner.h"
#include "unit.h"

static const char *path;
static int looked[2], done_looking[2];

/* A look that holds its shared lock until told to let go. */
static void *look(void *arg)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	char c = 0;

	(void)arg;
	CHECK(fd >= 0 && flock(fd, LOCK_SH | LOCK_NB) == 0);
	CHECK(write(looked[1], &c, 1) == 1);
	CHECK(read(done_looking[0], &c, 1) == 1);
	close(fd);
	return NULL;
}

/* Tells the look to end once the claim has met it (20 ms: the claim
 * waits out 200 ms of looks). */
static void *end_look(void *arg)
{
	struct timespec t = { 0, 20 * 1000 * 1000 };
	char c = 0;

	(void)arg;
	nanosleep(&t, NULL);
	CHECK(write(done_looking[1], &c, 1) == 1);
	return NULL;
}

int main(void)
{
	char tmpl[] = "/tmp/evtrace-unit-slot-lock.XXXXXX";
	int dir_ok = mkdtemp(tmpl) != NULL, engine, claim, other;
	char name[64], c;
	pthread_t looker, ender;

	CHECK(dir_ok);
	if (!dir_ok)
		UNIT_DONE();
	snprintf(name, sizeof(name), "%s/slot-1.lock", tmpl);
	path = name;
	engine = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	claim = open(path, O_RDWR | O_CLOEXEC);
	other = open(path, O_RDONLY | O_CLOEXEC);
	CHECK(engine >= 0 && claim >= 0 && other >= 0);

	/* An engine holds it: the claim fails, saying so. */
	CHECK(flock(engine, LOCK_EX | LOCK_NB) == 0);
	errno = 0;
	CHECK(evt_slot_lock_take(claim) == -1 && errno == EWOULDBLOCK);
	CHECK(evt_slot_lock_holds(other, 0));
	close(other);
	close(engine);

	/* A look holds it for a moment: the claim gets it once the look
	 * ends, and holds it alone. */
	CHECK(pipe(looked) == 0 && pipe(done_looking) == 0);
	CHECK(pthread_create(&looker, NULL, look, NULL) == 0);
	CHECK(read(looked[0], &c, 1) == 1);
	CHECK(pthread_create(&ender, NULL, end_look, NULL) == 0);
	CHECK(evt_slot_lock_take(claim) == 0);
	pthread_join(looker, NULL);
	pthread_join(ender, NULL);
	other = open(path, O_RDONLY | O_CLOEXEC);
	CHECK(evt_slot_lock_holds(other, 0));
	close(other);
	close(claim);
	unlink(path);
	rmdir(tmpl);
	UNIT_DONE();
}
