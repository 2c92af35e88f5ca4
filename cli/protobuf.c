/*
 * protobuf.c - wire types 0 (varint), 1 (64-bit) and 2 (length-delimited).
 */
#include <stdlib.h>
#include <string.h>

#include "protobuf.h"
#include "safe_text.h"

#define LEN_BYTES 4
#define LEN_MAX ((1u << 28) - 1)

static uint8_t *room(struct pb *b, size_t n)
{
	if (b->failed)
		return NULL;
	if (b->len + n > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		uint8_t *t;

		while (b->len + n > cap)
			cap *= 2;
		t = realloc(b->p, cap);
		if (!t) {
			b->failed = true;
			return NULL;
		}
		b->p = t;
		b->cap = cap;
	}
	return b->p + b->len;
}

static void raw_varint(struct pb *b, uint64_t v)
{
	uint8_t *at = room(b, 10);
	size_t n = 0;

	if (!at)
		return;
	while (v >= 0x80) {
		at[n++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	at[n++] = (uint8_t)v;
	b->len += n;
}

static void tag(struct pb *b, uint32_t field, unsigned wire)
{
	raw_varint(b, (uint64_t)field << 3 | wire);
}

void pb_varint(struct pb *b, uint32_t field, uint64_t v)
{
	tag(b, field, 0);
	raw_varint(b, v);
}

void pb_double(struct pb *b, uint32_t field, double v)
{
	uint64_t bits;
	uint8_t *at;
	int i;

	memcpy(&bits, &v, sizeof(bits));
	tag(b, field, 1);
	if (!(at = room(b, 8)))
		return;
	for (i = 0; i < 8; i++)		/* little endian */
		at[i] = (uint8_t)(bits >> (8 * i));
	b->len += 8;
}

void pb_bytes(struct pb *b, uint32_t field, const void *p, size_t n)
{
	uint8_t *at;

	tag(b, field, 2);
	raw_varint(b, n);
	if (!(at = room(b, n)))
		return;
	memcpy(at, p, n);
	b->len += n;
}

void pb_raw(struct pb *b, const void *p, size_t n)
{
	uint8_t *at = room(b, n);

	if (!at)
		return;
	memcpy(at, p, n);
	b->len += n;
}

void pb_text(struct pb *b, uint32_t field, const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i, len, out = 0;
	uint8_t *at;

	for (i = 0; i < n; i += len ? len : 1)
		out += (len = evt_utf8_length(u + i, n - i)) ? len : 3;
	if (out == n) {
		pb_bytes(b, field, s, n);
		return;
	}
	tag(b, field, 2);
	raw_varint(b, out);
	if (!(at = room(b, out)))
		return;
	for (i = 0; i < n; i += len ? len : 1) {
		if ((len = evt_utf8_length(u + i, n - i))) {
			memcpy(at, u + i, len);
			at += len;
		} else {
			memcpy(at, "\xef\xbf\xbd", 3);	/* U+FFFD */
			at += 3;
		}
	}
	b->len += out;
}

void pb_string(struct pb *b, uint32_t field, const char *s)
{
	pb_text(b, field, s, strlen(s));
}

size_t pb_open(struct pb *b, uint32_t field)
{
	size_t mark;

	tag(b, field, 2);
	mark = b->len;
	if (room(b, LEN_BYTES))
		b->len += LEN_BYTES;
	return mark;
}

void pb_close(struct pb *b, size_t mark)
{
	size_t n = b->len - mark - LEN_BYTES, k = 1;
	size_t i;

	if (b->failed)
		return;
	if (n > LEN_MAX) {
		b->failed = true;
		return;
	}
	while (k < LEN_BYTES && n >> (7 * k))
		k++;
	/* The length in as few bytes as it takes: the message moves down
	 * into what was reserved and not needed (one open inside it has
	 * closed already, one around it has its mark before this one). */
	if (k < LEN_BYTES) {
		memmove(b->p + mark + k, b->p + mark + LEN_BYTES, n);
		b->len -= LEN_BYTES - k;
	}
	for (i = 0; i < k; i++)
		b->p[mark + i] = (uint8_t)((n >> (7 * i) & 0x7f) | (i + 1 < k ? 0x80 : 0));
}

void pb_free(struct pb *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}
