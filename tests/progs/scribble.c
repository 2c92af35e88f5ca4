/*
 * scribble.c - a hostile engine: maps a live process's control file and
 * writes random values into everything an engine may write (slots, buffer
 * descriptors, enable words, site flags), the header, the registry and
 * the table of which flag is whose, for a while.
 *   scribble FILE MILLISECONDS SEED
 *   scribble FILE MILLISECONDS waiting
 *   scribble FILE MILLISECONDS truncate
 *   scribble FILE 0 cut
 *   scribble FILE 0 badpacket
 *   scribble FILE 0 flagof
 *   scribble FILE 0 unapply
 * The second form only keeps zeroing every slot's futex word "waiting", as
 * a process that wants its recorder awake all the time would.  The third
 * flips the file's size between a page and its full size, every 100 us,
 * under everyone who maps it; the fourth cuts it to a page and leaves it.
 * The fifth breaks the magic of the first packet of every buffer in use,
 * once, and says how many it broke.  The sixth says, for every event,
 * that its site's flag byte is past the flag pages (three ways), or at
 * their last byte.  The seventh takes back every active slot's
 * acknowledgment that its engine applied its selection, and says how
 * many it took.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "layout.h"

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static uint64_t wild(uint64_t *s)
{
	static const uint64_t special[] = { 0, 1, 2, 0xffffffff, UINT64_MAX,
					    1u << 31, 16384, 4096, 65536 };
	uint64_t r = rnd(s);

	return r & 1 ? special[(r >> 1) % 9] : rnd(s);
}

int main(int argc, char **argv)
{
	struct timespec start, now;
	struct evt_ctl_header header, *h;
	uint64_t seed;
	struct stat st;
	uint8_t *base;
	long ms;
	int fd, zero_waiting, truncating;

	if (argc != 4)
		return 2;
	zero_waiting = !strcmp(argv[3], "waiting");
	truncating = !strcmp(argv[3], "truncate");
	if (!strcmp(argv[3], "cut")) {
		fd = open(argv[1], O_RDWR);
		return fd < 0 || ftruncate(fd, 4096) ? perror(argv[1]), 1 : 0;
	}
	ms = atol(argv[2]);
	seed = strtoull(argv[3], NULL, 10) | 1;
	fd = open(argv[1], O_RDWR);
	if (fd < 0 || fstat(fd, &st))
		return perror(argv[1]), 1;
	base = mmap(NULL, st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (base == MAP_FAILED)
		return perror("mmap"), 1;
	memcpy(&header, base, sizeof(header));	/* it scribbles the original */
	h = &header;
	if (!strcmp(argv[3], "flagof")) {
		uint32_t *of = (uint32_t *)(base + h->flag_of_off);
		uint32_t end = h->max_flag_pages * 4096u;
		const uint32_t lies[] = { UINT32_MAX, end + 1, 1u << 31, end };

		for (unsigned i = 0; i < h->max_events && i < 256; i++)
			of[i] = lies[i % 4];
		return 0;
	}
	if (!strcmp(argv[3], "unapply")) {
		struct evt_ctl_slot *sl = (struct evt_ctl_slot *)(base + h->slots_off);
		unsigned s, n = 0;

		for (s = 1; s < EVT_NSLOTS; s++)
			if (sl[s].state == EVT_SLOT_ACTIVE) {
				sl[s].applied = 0;
				n++;
			}
		printf("unapplied %u\n", n);
		return 0;
	}
	if (!strcmp(argv[3], "badpacket")) {
		struct evt_ctl_tbuf *d = (struct evt_ctl_tbuf *)(base + h->tbufs_off);
		unsigned i, broken = 0;

		for (i = 0; i < h->tbufs_used && i < h->max_tbufs; i++)
			if (d[i].state != EVT_TBUF_FREE &&
			    d[i].offset + sizeof(uint32_t) <= (uint64_t)st.st_size) {
				memset(base + d[i].offset, 0xee, sizeof(uint32_t));
				broken++;
			}
		printf("broke %u\n", broken);
		return 0;
	}
	clock_gettime(CLOCK_MONOTONIC, &start);
	do {
		uint64_t r = rnd(&seed), v = wild(&seed);
		struct evt_ctl_slot *slots = (struct evt_ctl_slot *)(base + h->slots_off);

		if (truncating) {
			struct timespec pause = { 0, 100 * 1000 };

			if (ftruncate(fd, 4096) || nanosleep(&pause, NULL) ||
			    ftruncate(fd, st.st_size) || nanosleep(&pause, NULL))
				return perror("ftruncate"), 1;
			clock_gettime(CLOCK_MONOTONIC, &now);
			continue;
		}
		if (zero_waiting) {
			/* Only once the process has laid out its file. */
			memcpy(&header, base, sizeof(header));
			slots = (struct evt_ctl_slot *)(base + h->slots_off);
			if (h->magic == EVT_CTL_MAGIC && h->slots_off >= sizeof(header) &&
			    h->slots_off + EVT_NSLOTS * sizeof(*slots) <= (uint64_t)st.st_size)
				for (unsigned s = 0; s < EVT_NSLOTS; s++)
					__atomic_store_n(&slots[s].waiting, 0,
							 __ATOMIC_RELAXED);
			clock_gettime(CLOCK_MONOTONIC, &now);
			continue;
		}
		uint8_t *target;
		size_t span;

		switch (r % 7) {
		case 6:		/* which flag byte is whose: engines write them */
			target = base + h->flag_of_off;
			span = 64 * sizeof(uint32_t);
			break;
		case 5:		/* the site flags the process reads */
			target = base + h->flags_off;
			span = 4096;
			break;
		case 4:
			target = base;	/* the header: offsets, sizes, counters */
			span = sizeof(struct evt_ctl_header);
			break;
		case 0:
			target = base + h->slots_off;
			span = EVT_NSLOTS * sizeof(struct evt_ctl_slot);
			break;
		case 1:
			target = base + h->tbufs_off;
			span = 8 * sizeof(struct evt_ctl_tbuf);
			break;
		case 2:
			target = base + h->enable_off;
			span = 64 * sizeof(uint32_t);
			break;
		default:
			target = base + h->registry_off;
			span = 4096;
			break;
		}
		memcpy(target + ((r >> 8) % (span / 4)) * 4, &v, 4);
		clock_gettime(CLOCK_MONOTONIC, &now);
	} while ((now.tv_sec - start.tv_sec) * 1000 +
		 (now.tv_nsec - start.tv_nsec) / 1000000 < ms);
	return 0;
}
