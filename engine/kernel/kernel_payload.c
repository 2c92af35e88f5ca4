/*
 * kernel_payload.c - a kernel tracepoint's raw record laid out as the
 * payload of its evtrace format (see kernel_events.h): fixed fields
 * copied, __data_loc strings and arrays followed to their bytes.
 */
#include <string.h>

#include "kernel_events.h"

size_t evt_kernel_payload_max(const struct evt_kernel_event *e, size_t raw_size)
{
	size_t n = 0;
	uint32_t i;

	for (i = 0; i < e->format.nfields; i++)
		switch (e->src[i].how) {
		case EVT_KSRC_STRING:
			n += raw_size + 1;
			break;
		case EVT_KSRC_SEQUENCE:
			n += 4 + (raw_size < EVT_SEQUENCE_MAX_BYTES ?
				  raw_size : EVT_SEQUENCE_MAX_BYTES);
			break;
		default:
			n += e->src[i].size;
		}
	return n;
}

/* The bytes a __data_loc field points to: 0 and *at, *len; or -1. */
static int dynamic_bytes(const struct evt_kernel_field_src *s,
			 const uint8_t *raw, size_t raw_size, size_t *at,
			 size_t *len)
{
	uint32_t loc;

	memcpy(&loc, raw + s->offset, 4);
	*at = loc & 0xffff;
	*len = loc >> 16;
	if (s->relative)
		*at += (size_t)s->offset + s->size;
	return *at > raw_size || *len > raw_size - *at ? -1 : 0;
}

long evt_kernel_payload(const struct evt_kernel_event *e, const uint8_t *raw,
			size_t raw_size, uint8_t *out)
{
	uint8_t *p = out;
	size_t at, len;
	uint32_t i, count;

	for (i = 0; i < e->format.nfields; i++) {
		const struct evt_kernel_field_src *s = &e->src[i];

		if ((size_t)s->offset + s->size > raw_size)
			return -1;
		if (s->how == EVT_KSRC_COPY) {
			memcpy(p, raw + s->offset, s->size);
			p += s->size;
			continue;
		}
		if (dynamic_bytes(s, raw, raw_size, &at, &len))
			return -1;
		if (s->how == EVT_KSRC_STRING) {
			const uint8_t *nul = memchr(raw + at, '\0', len);

			if (nul)
				len = (size_t)(nul - (raw + at));
			memcpy(p, raw + at, len);
			p[len] = '\0';
			p += len + 1;
		} else {
			if (len > EVT_SEQUENCE_MAX_BYTES)
				len = EVT_SEQUENCE_MAX_BYTES;
			count = (uint32_t)(len / s->elem);
			memcpy(p, &count, 4);
			memcpy(p + 4, raw + at, (size_t)count * s->elem);
			p += 4 + (size_t)count * s->elem;
		}
	}
	return (long)(p - out);
}
