/*
 * protobuf.h - the protocol buffers wire format, written: varints, 64-bit
 * fixed values, length-delimited bytes and nested messages.  Enough for
 * convert --to perfetto, which needs nothing of a schema at run time.
 *
 * A nested message's length has 4 bytes reserved when the message opens;
 * when it closes, the length is written in as few of them as it takes
 * and the message moved down over the rest (a small message, the usual
 * one, moves a few bytes).  A message holds at most 2^28 - 1 bytes.
 */
#ifndef EVT_CLI_PROTOBUF_H
#define EVT_CLI_PROTOBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pb {
	uint8_t *p;
	size_t len, cap;
	bool failed;		/* out of memory, or a message too long */
};

void pb_varint(struct pb *b, uint32_t field, uint64_t v);
void pb_double(struct pb *b, uint32_t field, double v);
void pb_bytes(struct pb *b, uint32_t field, const void *p, size_t n);
/* n bytes of fields already encoded (another pb's), as they are. */
void pb_raw(struct pb *b, const void *p, size_t n);
/* A string field: protobuf's must be UTF-8, so a byte that is not comes
 * out as U+FFFD. */
void pb_text(struct pb *b, uint32_t field, const char *s, size_t n);
void pb_string(struct pb *b, uint32_t field, const char *s);
/* Opens a nested message in field; pb_close(b, mark) ends it. */
size_t pb_open(struct pb *b, uint32_t field);
void pb_close(struct pb *b, size_t mark);
void pb_free(struct pb *b);

#endif
