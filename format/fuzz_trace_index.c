/* libFuzzer harness for evt_trace_index_read() and, on the same bytes
 * taken as a metadata file, evt_trace_index_read_metadata(): trace files
 * come from anywhere (a relay's copy has the index in its metadata). */

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "trace_index.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct evt_trace_index ix;
	char path[64], err[512];
	int fd = memfd_create("index", MFD_CLOEXEC);

	if (fd < 0)
		return 0;
	if (write(fd, data, size) == (ssize_t)size) {
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		if (evt_trace_index_read(path, &ix, err, sizeof(err)) == 0)
			evt_trace_index_free(&ix);
		if (evt_trace_index_read_metadata(path, &ix, err, sizeof(err)) == 0)
			evt_trace_index_free(&ix);
	}
	close(fd);
	return 0;
}
