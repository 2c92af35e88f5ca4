/*
 * collection_clock.c - what a trace says of its clocks and machine, for
 * readers that merge the traces of several machines on real time: the
 * host name and boot id, and snapshots of the trace clock beside
 * CLOCK_MONOTONIC and CLOCK_REALTIME at the start, every 10 s and at the
 * end (trace_index.h).  $EVTRACE_CLOCK_OFFSET (nanoseconds, signed) moves
 * every CLOCK_REALTIME reading, as a machine whose clock is off would:
 * for tests of that merge.
 */
#include "collection_local.h"

#define SNAPSHOT_MS 10000
#define REFINE_NS (100 * 1000 * 1000)

static void snapshot(struct evt_collection *c)
{
	struct evt_clock_snapshot s;

	evt_clock_sample(c->clock_kind, &s.value, &s.monotonic_ns, &s.realtime_ns);
	s.realtime_ns += c->clock_offset_ns;
	if (evt_trace_index_add_snapshot(&c->ix, &s) == 0)
		c->index_dirty = true;
	c->snapshot_ms = now_ms();
}

static void read_boot_id(char *out, size_t size)
{
	int fd = open("/proc/sys/kernel/random/boot_id", O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read(fd, out, size - 1);

	if (fd >= 0)
		close(fd);
	out[n > 0 ? n : 0] = '\0';
	out[strcspn(out, "\n")] = '\0';
}

int evt__coll_clock_start(struct evt_collection *c, char *err, size_t err_size)
{
	const char *off = secure_getenv("EVTRACE_CLOCK_OFFSET");
	char *end;

	if (off && *off) {
		errno = 0;
		c->clock_offset_ns = strtoll(off, &end, 10);
		if (errno || *end || end == off)
			return snprintf(err, err_size, "EVTRACE_CLOCK_OFFSET '%s': not "
					"a number of nanoseconds", off), -1;
		/* (real time plus it within what readers take: clock.h) */
		if (c->clock_offset_ns > EVT_CLOCK_NS_MAX / 2 ||
		    c->clock_offset_ns < -EVT_CLOCK_NS_MAX / 2)
			return snprintf(err, err_size, "EVTRACE_CLOCK_OFFSET '%s': "
					"more than 73 years", off), -1;
	}
	c->ix.clock.ref_realtime_ns += c->clock_offset_ns;
	if (gethostname(c->ix.host, sizeof(c->ix.host) - 1) || !c->ix.host[0])
		snprintf(c->ix.host, sizeof(c->ix.host), "unknown");
	read_boot_id(c->ix.boot_id, sizeof(c->ix.boot_id));
	c->ix.container_pidns = c->o.container_pidns;
	snprintf(c->ix.container_cgroup, sizeof(c->ix.container_cgroup), "%s",
		 c->o.container_cgroup ? c->o.container_cgroup : "");
	snapshot(c);
	if (c->o.snapshot_since_ns > 0 && c->ix.nsnapshots) {
		const struct evt_clock_snapshot *s = &c->ix.snapshots[c->ix.nsnapshots - 1];
		int64_t back = s->monotonic_ns - c->o.snapshot_since_ns;

		back = (int64_t)((__int128)(back > 0 ? back : 0) *
				 (int64_t)c->ix.clock.freq_hz / 1000000000);
		c->since_value = (int64_t)s->value > back ? s->value - (uint64_t)back : 1;
	}
	return 0;
}

void evt__coll_clock_tick(struct evt_collection *c)
{
	/* Kernel events are mapped to the trace clock as they come. */
	if (evt_clock_refine_every(&c->ix.clock, &c->clock_refined_ns, REFINE_NS))
		c->ix.clock.ref_realtime_ns += c->clock_offset_ns;
	if (now_ms() - c->snapshot_ms >= SNAPSHOT_MS)
		snapshot(c);
}

void evt__coll_clock_end(struct evt_collection *c)
{
	/* The frequency measured over the whole recording, not 20 ms. */
	evt_clock_refine(&c->ix.clock);
	c->ix.clock.ref_realtime_ns += c->clock_offset_ns;
	snapshot(c);
}
