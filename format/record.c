/*
 * record.c - decode records (see record.h).
 */
#include <string.h>

#include "layout.h"
#include "printk_format.h"
#include "record.h"

int evt_record_header(const uint8_t *p, size_t avail, struct evt_record *r)
{
	if (avail < EVT_RECORD_HEADER_BYTES)
		return -1;
	memcpy(&r->id, p, 2);
	memcpy(&r->timestamp, p + 2, 8);
	memcpy(&r->cpu, p + 10, 2);
	r->payload = p + EVT_RECORD_HEADER_BYTES;
	r->payload_size = 0;
	return 0;
}

int evt_record_payload(struct evt_record *r, const uint8_t *types,
		       unsigned nargs, size_t avail)
{
	const uint8_t *p = r->payload;
	size_t n = 0;
	unsigned i;

	if (avail < EVT_RECORD_HEADER_BYTES)
		return -1;
	avail -= EVT_RECORD_HEADER_BYTES;
	for (i = 0; i < nargs; i++) {
		if (types[i] == EVT_ARG_STRING) {
			const uint8_t *nul = n < avail ?
				memchr(p + n, '\0', avail - n) : NULL;
			if (!nul)
				return -1;
			n = nul - p + 1;
		} else {
			n += evt_arg_type_size(types[i]);
			if (n > avail)
				return -1;
		}
	}
	r->payload_size = n;
	return 0;
}
