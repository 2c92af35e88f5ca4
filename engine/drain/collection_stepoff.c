/*
 * collection_stepoff.c - the recorder steps off a CPU it finds itself sharing
 * with a writer it cannot keep up with, and back.
 */
#include "collection_local.h"

/*
 * The scheduler now and then puts the recorder on the CPU of a writer
 * at full speed (a wake-up there, a balance); the recorder then drains
 * only between the writer's time slices, milliseconds apart, in which a
 * buffer of 1 MiB overflows (one writer at full speed lost 5-7% of its
 * events that way on 2 CPUs, none with the two pinned apart).  So a
 * recorder that finds a buffer a quarter full looks where its writer runs
 * (every STEP_CHECK_MS at most) and, when that is its own CPU, leaves it:
 * its affinity, less that CPU, for STEP_OFF_MS.  Only the CLI's recorder
 * (evt_collection_run), never a consumer's thread.
 */
#define STEP_CHECK_MS 10
#define STEP_OFF_MS 1000

/* The CPU a task last ran on (field 39 of its stat), or -1. */
static int task_cpu(int pid, int tid)
{
	char path[64], buf[1024], *p;
	ssize_t n;
	int fd, field;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", pid, tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	p = strrchr(buf, ')');	/* the name may hold spaces, not a ')' last */
	for (field = 3; p && field <= 39; field++)
		p = strchr(p + 1, ' ');
	return p ? atoi(p + 1) : -1;
}
void evt__coll_step_off_writer(struct evt_collection *c, int pid, int tid)
{
	int64_t now = now_ms();
	int theirs;
	cpu_set_t set;

	/* A run directory seen through /proc/PID/root is a container's: its
	 * pids are of another namespace, /proc here would name others. */
	if (!c->may_move || now - c->step_checked_ms < STEP_CHECK_MS ||
	    !strncmp(c->rd.path, "/proc/", 6))
		return;
	c->step_checked_ms = now;
	theirs = task_cpu(pid, tid);
	if (theirs < 0 || theirs >= CPU_SETSIZE || theirs != sched_getcpu())
		return;
	set = c->affinity;
	CPU_CLR(theirs, &set);
	if (CPU_COUNT(&set) && sched_setaffinity(0, sizeof(set), &set) == 0) {
		c->stepped_until_ms = now + STEP_OFF_MS;
		c->stats.step_offs++;
	}
}
/* The affinity the run began with, once the step is over (or now). */
void evt__coll_step_back(struct evt_collection *c, bool now)
{
	if (c->stepped_until_ms && (now || now_ms() >= c->stepped_until_ms)) {
		sched_setaffinity(0, sizeof(c->affinity), &c->affinity);
		c->stepped_until_ms = 0;
	}
}
