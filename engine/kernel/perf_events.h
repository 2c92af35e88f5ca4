/*
 * perf_events.h - what evtrace needs of perf_event_open(2): opening a
 * tracepoint event, saying why the kernel refused one, and reading a
 * sampling event's ring buffer.
 */
#ifndef EVT_ENGINE_PERF_EVENTS_H
#define EVT_ENGINE_PERF_EVENTS_H

#include <linux/perf_event.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* kernel.perf_event_paranoid (2, the default, when it cannot be read). */
int evt_perf_paranoid(void);

/* perf_event_open(2), with FD_CLOEXEC; the fd or -1 with errno set. */
int evt_perf_open(struct perf_event_attr *attr, pid_t pid, int cpu,
		  int group_fd);

/*
 * Says in err why the kernel refused path in pid (-1: on every CPU) with
 * errnum, and what it takes; doing is "count" or "record".
 */
void evt_perf_refused(const char *path, pid_t pid, const char *doing,
		      int errnum, char *err, size_t err_size);

/* A sampling event's ring buffer, mapped. */
struct evt_perf_ring {
	struct perf_event_mmap_page *page;
	uint8_t *data;
	uint64_t data_size;	/* a power of two */
	size_t map_size;
	uint8_t *copy;		/* a record that wraps, put together */
};

/*
 * Maps the ring of fd with data_bytes (a power of two pages) of data,
 * halving it down to 2 pages while the kernel says EPERM (the locked
 * memory it lets a user have).  0, or -1 with errno set.
 */
int evt_perf_ring_map(struct evt_perf_ring *r, int fd, size_t data_bytes);
/*
 * Calls cb with each record in the ring, oldest first, then gives their
 * room back to the kernel.  A record is valid only during its call.
 * Returns how many records there were.
 */
unsigned evt_perf_ring_read(struct evt_perf_ring *r,
			    void (*cb)(const struct perf_event_header *h,
				       void *ctx),
			    void *ctx);
void evt_perf_ring_unmap(struct evt_perf_ring *r);

#endif
