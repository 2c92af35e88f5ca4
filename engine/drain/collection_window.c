/*
 * collection_window.c - the kernel events of a flight recorder's windows
 * and triggers (record --overwrite --trigger).  The triggers see each
 * kernel event as the recording writes it.  The recording writes them
 * into its own trace directory as they come (kernel_record.h), so a
 * window's are copied from there, whole packets reaching into the window,
 * into the window's directory, whose index and metadata then describe
 * them too.
 */
#include <dirent.h>
#include <time.h>

#include "collection_local.h"
#include "pattern.h"
#include "trace_names.h"

int evt_collection_kernel_flush(struct evt_collection *c, char *err,
				size_t err_size)
{
	if (!c->kernel || c->failed)
		return 0;
	if (evt_kernel_record_drain(c->kernel, &c->out, false, err, err_size) < 0 ||
	    evt_kernel_record_write_open(c->kernel))
		return -1;
	return 0;
}

/* The directory at dir_fd, path (at dir_fd: AT_FDCWD for a path), to
 * read its entries: NULL with errno set. */
static DIR *entries(int dir_fd, const char *path)
{
	int fd = openat(dir_fd, path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
				      O_CLOEXEC);
	DIR *d = fd < 0 ? NULL : fdopendir(fd);

	if (!d && fd >= 0)
		close(fd);
	return d;
}

/* The earliest packet start among the stream files of the directory
 * window: where a window of all the rings held begins.  UINT64_MAX when
 * it has none. */
static uint64_t earliest_begin(const char *window)
{
	DIR *d = entries(AT_FDCWD, window);
	struct evt_packet_header h;
	uint64_t first = UINT64_MAX;
	struct dirent *e;

	if (!d)
		return first;
	while ((e = readdir(d))) {
		int f;

		if (strncmp(e->d_name, EVT_TRACE_STREAM_PREFIX,
			    sizeof(EVT_TRACE_STREAM_PREFIX) - 1))
			continue;
		f = openat(dirfd(d), e->d_name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
		if (f < 0)
			continue;
		if (pread(f, &h, sizeof(h), 0) == (ssize_t)sizeof(h) &&
		    h.magic == EVT_PACKET_MAGIC && h.timestamp_begin < first)
			first = h.timestamp_begin;
		close(f);
	}
	closedir(d);
	return first;
}

/* Whether a kernel packet ending at ts_end reaches into the window. */
static bool in_window(const struct evt_collection *c, uint64_t ts_end,
		      int64_t from_mono_ns, uint64_t from_value)
{
	if (from_mono_ns)
		return evt_clock_to_monotonic_ns(&c->ix.clock, ts_end) >= from_mono_ns;
	return ts_end >= from_value;
}

/* Copies the packets of the kernel stream file name that reach into the
 * window into w.  0, or -1 with err set. */
static int copy_stream(const struct evt_collection *c, const char *name,
		       const struct evt_trace_dir *w, int64_t from_mono_ns,
		       uint64_t from_value, char *err, size_t err_size)
{
	int in = openat(c->out.fd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	int out = -1, ret = -1;
	struct evt_packet_header h;
	uint8_t *buf = NULL;
	struct stat st;
	off_t at = 0;

	if (in < 0 || fstat(in, &st)) {
		evt_trace_dir_error(&c->out, 0, name, errno, err, err_size);
		goto done;
	}
	while (at + (off_t)sizeof(h) <= st.st_size &&
	       pread(in, &h, sizeof(h), at) == (ssize_t)sizeof(h)) {
		uint64_t bytes = h.packet_size / 8;
		uint8_t *grown;

		/* Our own file: anything else ends the copy, said by readers. */
		if (h.magic != EVT_PACKET_MAGIC || bytes < sizeof(h) ||
		    bytes > (uint64_t)(st.st_size - at))
			break;
		if (in_window(c, h.timestamp_end, from_mono_ns, from_value)) {
			if (out < 0 &&
			    (out = evt_trace_dir_create(w, 0, name, err, err_size)) < 0)
				goto done;
			grown = realloc(buf, bytes);
			if (!grown) {
				snprintf(err, err_size, "out of memory");
				goto done;
			}
			buf = grown;
			errno = 0;
			if (pread(in, buf, bytes, at) != (ssize_t)bytes ||
			    write(out, buf, bytes) != (ssize_t)bytes) {
				evt_trace_dir_error(w, 0, name, errno ? errno : EIO,
						    err, err_size);
				goto done;
			}
		}
		at += (off_t)bytes;
	}
	ret = 0;
done:
	free(buf);
	if (out >= 0)
		close(out);
	if (in >= 0)
		close(in);
	return ret;
}

/* The window's index, with the recording's kernel stream class and its
 * events added, written again as its index and metadata. */
static int describe(const struct evt_collection *c, const struct evt_trace_dir *w,
		    char *err, size_t err_size)
{
	struct evt_trace_index wix = { 0 }, k;
	uint32_t i, j;
	int ret = -1;

	if (evt_trace_index_read_dir(w->path, &wix, err, err_size))
		return -1;
	k = wix;
	k.streams = calloc(wix.nstreams + c->ix.nstreams + 1, sizeof(*k.streams));
	k.events = calloc(wix.nevents + c->ix.nevents + 1, sizeof(*k.events));
	if (!k.streams || !k.events) {
		snprintf(err, err_size, "out of memory");
		goto out;
	}
	memcpy(k.streams, wix.streams, wix.nstreams * sizeof(*k.streams));
	memcpy(k.events, wix.events, wix.nevents * sizeof(*k.events));
	/* (evtrace's own streams end below the kernel's sid: still sorted) */
	for (i = 0; i < c->ix.nstreams; i++)
		if (c->ix.streams[i].kernel &&
		    !evt_trace_index_stream(&wix, c->ix.streams[i].sid))
			k.streams[k.nstreams++] = c->ix.streams[i];
	for (i = 0; i < c->ix.nevents; i++)
		for (j = wix.nstreams; j < k.nstreams; j++)
			if (c->ix.events[i].sid == k.streams[j].sid)
				k.events[k.nevents++] = c->ix.events[i];
	ret = evt_trace_dir_describe(w, &k, err, err_size);
out:
	free(k.streams);
	free(k.events);
	evt_trace_index_free(&wix);
	return ret;
}

int evt_collection_kernel_window(struct evt_collection *c, const char *window,
				 int64_t from_mono_ns, char *err, size_t err_size)
{
	struct evt_trace_dir w;
	uint64_t from_value = 0;
	struct dirent *e;
	DIR *d;
	int ret = -1;

	if (!c->kernel || !c->kernel_class || c->out.fd < 0)
		return 0;
	if (evt_collection_kernel_flush(c, err, err_size))
		return -1;
	if (!from_mono_ns)
		from_value = earliest_begin(window);
	/* A window of no process packet yet (a kernel event fired before
	 * the process wrote anything): the last second of kernel events,
	 * which holds the one that fired. */
	if (!from_mono_ns && from_value == UINT64_MAX) {
		struct timespec now;

		clock_gettime(CLOCK_MONOTONIC, &now);
		from_mono_ns = (int64_t)now.tv_sec * 1000000000 + now.tv_nsec -
			       1000000000;
	}
	if (evt_trace_dir_add_to(&w, window, err, err_size))
		return -1;
	d = entries(c->out.fd, ".");
	if (!d) {
		snprintf(err, err_size, "%s: %s", c->out.path, strerror(errno));
		goto done;
	}
	while ((e = readdir(d)))
		if (!strncmp(e->d_name, EVT_TRACE_KERNEL_PREFIX,
			     sizeof(EVT_TRACE_KERNEL_PREFIX) - 1) &&
		    copy_stream(c, e->d_name, &w, from_mono_ns, from_value, err,
				err_size)) {
			closedir(d);
			goto done;
		}
	closedir(d);
	ret = describe(c, &w, err, err_size);
done:
	evt_trace_dir_close(&w);
	return ret;
}

/* The kernel record's sample, with its event's path and layout. */
static void kernel_seen(void *ctx, unsigned event, int64_t monotonic_ns,
			uint32_t pid, uint32_t tid, const uint8_t *payload,
			size_t size)
{
	struct evt_collection *c = ctx;
	/* (described together when the collection was made) */
	uint32_t i = c->kernel_events_at + event;
	const struct evt_event_desc *e = i < c->ix.nevents ? &c->ix.events[i] : NULL;
	struct evt_kernel_seen s = {
		.payload = payload, .payload_size = size,
		.monotonic_ns = monotonic_ns, .pid = pid, .tid = tid,
	};

	if (!e || e->sid != EVT_KERNEL_STREAM_ID || e->id != event)
		return;
	s.path = e->path;
	s.layout = &e->layout;
	c->kernel_seen(&s, c->kernel_seen_ctx);
}

int evt_collection_watch_kernel(struct evt_collection *c,
				void (*cb)(const struct evt_kernel_seen *s,
					   void *ctx), void *ctx)
{
	if (!c->kernel)
		return -1;
	c->kernel_seen = cb;
	c->kernel_seen_ctx = ctx;
	evt_kernel_record_watch(c->kernel, cb ? kernel_seen : NULL, c);
	return 0;
}

int evt_collection_kernel_field(const struct evt_collection *c,
				const char *pattern, const char *field)
{
	const struct evt_event_desc *e;
	uint32_t i, f;
	int found = -1;

	for (i = c->kernel_events_at; i < c->ix.nevents; i++) {
		e = &c->ix.events[i];
		if (e->sid != EVT_KERNEL_STREAM_ID || !evt_pattern_match(pattern, e->path))
			continue;
		found = 0;
		for (f = 0; f < e->layout.typed.nfields; f++)
			if (!strcmp(e->layout.typed.fields[f].name, field))
				return 1;
	}
	return found;
}
