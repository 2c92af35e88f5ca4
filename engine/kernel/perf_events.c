/*
 * perf_events.c - perf_event_open(2) and its ring buffers (see
 * perf_events.h).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "perf_events.h"

int evt_perf_paranoid(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "re");
	int v = 2;

	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = 2;
		fclose(f);
	}
	return v;
}

int evt_perf_open(struct perf_event_attr *attr, pid_t pid, int cpu,
		  int group_fd)
{
	return (int)syscall(SYS_perf_event_open, attr, pid, cpu, group_fd,
			    PERF_FLAG_FD_CLOEXEC);
}

void evt_perf_refused(const char *path, pid_t pid, const char *doing,
		      int errnum, char *err, size_t err_size)
{
	char where[64];
	bool counting = !strcmp(doing, "count");

	if (pid < 0)
		snprintf(where, sizeof(where), "on every CPU");
	else
		snprintf(where, sizeof(where), "in pid %d", (int)pid);
	if (errnum != EACCES && errnum != EPERM)
		snprintf(err, err_size, "%s: perf_event_open %s: %s", path, where,
			 strerror(errnum));
	else if (counting)
		snprintf(err, err_size, "%s: the kernel refuses to count it %s "
			 "(perf_event_open: %s): kernel.perf_event_paranoid is "
			 "%d; counting kernel events of your own processes needs "
			 "it at 1 or less, those of others CAP_PERFMON or root",
			 path, where, strerror(errnum), evt_perf_paranoid());
	else
		snprintf(err, err_size, "%s: the kernel refuses to %s it %s "
			 "(perf_event_open: %s): kernel.perf_event_paranoid is "
			 "%d; recording the syscalls/ and raw_syscalls/ events of "
			 "your own processes needs it at 1 or less, other kernel "
			 "events and every CPU CAP_PERFMON or root", path, doing, where,
			 strerror(errnum), evt_perf_paranoid());
}

int evt_perf_ring_map(struct evt_perf_ring *r, int fd, size_t data_bytes)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	void *p;

	memset(r, 0, sizeof(*r));
	for (;;) {
		r->map_size = page + data_bytes;
		p = mmap(NULL, r->map_size, PROT_READ | PROT_WRITE, MAP_SHARED,
			 fd, 0);
		if (p != MAP_FAILED)
			break;
		if (errno != EPERM || data_bytes <= 2 * page)
			return -1;
		data_bytes /= 2;
	}
	r->copy = malloc(UINT16_MAX + 1);
	if (!r->copy) {
		munmap(p, r->map_size);
		errno = ENOMEM;
		return -1;
	}
	r->page = p;
	r->data = (uint8_t *)p + page;
	r->data_size = data_bytes;
	return 0;
}

unsigned evt_perf_ring_read(struct evt_perf_ring *r,
			    void (*cb)(const struct perf_event_header *h,
				       void *ctx),
			    void *ctx)
{
	uint64_t head = __atomic_load_n(&r->page->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = r->page->data_tail;
	unsigned n = 0;

	while (tail + sizeof(struct perf_event_header) <= head) {
		uint64_t off = tail & (r->data_size - 1);
		struct perf_event_header h;
		const uint8_t *rec = r->data + off;

		if (off + sizeof(h) <= r->data_size) {
			memcpy(&h, rec, sizeof(h));
		} else {
			size_t first = r->data_size - off;

			memcpy(&h, rec, first);
			memcpy((uint8_t *)&h + first, r->data, sizeof(h) - first);
		}
		if (h.size < sizeof(h) || tail + h.size > head)
			break;		/* the kernel never writes such */
		if (off + h.size > r->data_size) {
			size_t first = r->data_size - off;

			memcpy(r->copy, rec, first);
			memcpy(r->copy + first, r->data, h.size - first);
			rec = r->copy;
		}
		cb((const struct perf_event_header *)rec, ctx);
		tail += h.size;
		n++;
	}
	__atomic_store_n(&r->page->data_tail, tail, __ATOMIC_RELEASE);
	return n;
}

void evt_perf_ring_unmap(struct evt_perf_ring *r)
{
	if (r->page)
		munmap(r->page, r->map_size);
	free(r->copy);
	memset(r, 0, sizeof(*r));
}
