/* libFuzzer harness for evt_printk_parse(), evt_printk_render() and
 * evt_printk_problems(): the first byte splits the input into a format
 * and stored arguments. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "printk_format.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct evt_printk_format f;
	char err[256], out[512];
	size_t split;
	char *format;

	if (size < 1)
		return 0;
	split = data[0] < size ? data[0] : size - 1;
	format = malloc(split + 1);
	if (!format)
		return 0;
	memcpy(format, data + 1, split);
	format[split] = '\0';
	if (evt_printk_parse(format, &f, err, sizeof(err)) == 0) {
		evt_printk_render(format, &f, data + 1 + split, size - 1 - split,
				  out, sizeof(out), NULL);
		if (evt_printk_problems(format, out, sizeof(out)))
			abort();	/* a format it takes has no problem */
	} else if (!evt_printk_problems(format, out, 16)) {
		abort();	/* one it refuses has one at least (cut short) */
	}
	free(format);
	return 0;
}
