/*
 * quote.c - quote and unquote strings (see quote.h).
 */
#include <string.h>

#include "quote.h"
#include "safe_text.h"

void evt_quote(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = *s;

		switch (c) {
		case '\\': fputs("\\\\", f); break;
		case '"': fputs("\\\"", f); break;
		case '\n': fputs("\\n", f); break;
		case '\t': fputs("\\t", f); break;
		case '\r': fputs("\\r", f); break;
		default: {
			size_t len = c < 0x80 ? 1 :
				     evt_utf8_length((const unsigned char *)s, strnlen(s, 4));

			if (c < 0x20 || c == 0x7f || !len ||
			    evt_utf8_is_c1((const unsigned char *)s, len)) {
				fprintf(f, "\\x%02x", c);	/* (a C1's bytes each) */
			} else {
				fwrite(s, 1, len, f);
				s += len - 1;
			}
		}
		}
	}
	fputc('"', f);
}

char *evt_printable(char *out, size_t out_size, const char *name)
{
	const unsigned char *u = (const unsigned char *)name;
	size_t n = strlen(name), at = 0, len, i;

	for (i = 0; i < n && at + 1 < out_size; i += len) {
		len = evt_utf8_length(u + i, n - i);
		if (!len || u[i] < 0x20 || u[i] == 0x7f || evt_utf8_is_c1(u + i, len) ||
		    at + len + 1 > out_size) {
			out[at++] = '?';
			len = len ? len : 1;
		} else {
			memcpy(out + at, name + i, len);
			at += len;
		}
	}
	if (out_size)
		out[at] = '\0';
	return out;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int evt_unquote(const char **p, char *out, size_t out_size)
{
	const char *s = *p;
	size_t n = 0;

	if (*s++ != '"' || out_size == 0)
		return -1;
	for (; *s && *s != '"'; s++) {
		char c = *s;

		if (c == '\\') {
			s++;
			switch (*s) {
			case '\\': c = '\\'; break;
			case '"': c = '"'; break;
			case 'n': c = '\n'; break;
			case 't': c = '\t'; break;
			case 'r': c = '\r'; break;
			case 'x': {
				int hi = hexval(s[1]), lo = hi < 0 ? -1 : hexval(s[2]);

				if (lo < 0 || (hi == 0 && lo == 0))
					return -1;
				c = (char)(hi * 16 + lo);
				s += 2;
				break;
			}
			default:
				return -1;
			}
		}
		if (n + 1 >= out_size)
			return -1;
		out[n++] = c;
	}
	if (*s != '"')
		return -1;
	out[n] = '\0';
	*p = s + 1;
	return 0;
}
