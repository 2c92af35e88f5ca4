/*
 * record.h - decode one record (layout.h): header, context, payload.
 * Used by every reader of records, from trace files or from live buffers.
 */
#ifndef EVT_FORMAT_RECORD_H
#define EVT_FORMAT_RECORD_H

#include <stddef.h>
#include <stdint.h>

struct evt_record {
	uint16_t id;
	uint16_t cpu;
	uint64_t timestamp;
	const uint8_t *payload;
	size_t payload_size;
};

/* Reads the header at p (avail bytes).  0, or -1 when truncated. */
int evt_record_header(const uint8_t *p, size_t avail, struct evt_record *r);
/* Sets the payload of r from its argument types; the whole record then
 * takes EVT_RECORD_HEADER_BYTES + payload_size.  0, or -1 when the
 * payload runs past avail. */
int evt_record_payload(struct evt_record *r, const uint8_t *types,
		       unsigned nargs, size_t avail);

#endif
