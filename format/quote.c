/*
 * quote.c - quote and unquote strings (see quote.h).
 */
#include <string.h>

#include "quote.h"

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
		default:
			if (c < 0x20 || c == 0x7f)
				fprintf(f, "\\x%02x", c);
			else
				fputc(c, f);
		}
	}
	fputc('"', f);
}

char *evt_printable(char *out, size_t out_size, const char *name)
{
	size_t i;

	for (i = 0; name[i] && i + 1 < out_size; i++)
		out[i] = (unsigned char)name[i] < 0x20 || name[i] == 0x7f ?
			 '?' : name[i];
	if (out_size)
		out[i] = '\0';
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
