/*
 * safe_text.c - text made safe for terminals and UTF-8 (safe_text.h).
 */
#include <stdint.h>

#include "safe_text.h"

size_t evt_utf8_length(const unsigned char *s, size_t n)
{
	size_t len, i;
	uint32_t cp;

	if (!n)
		return 0;
	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xe0) == 0xc0)
		len = 2, cp = s[0] & 0x1f;
	else if ((s[0] & 0xf0) == 0xe0)
		len = 3, cp = s[0] & 0x0f;
	else if ((s[0] & 0xf8) == 0xf0)
		len = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (len > n)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) ||
	    (len == 4 && cp < 0x10000) || (cp >= 0xd800 && cp <= 0xdfff) ||
	    cp > 0x10ffff)
		return 0;
	return len;
}

bool evt_utf8_is_c1(const unsigned char *s, size_t len)
{
	return len == 2 && s[0] == 0xc2 && s[1] >= 0x80 && s[1] <= 0x9f;
}

/* What s (n bytes there) is: its length, and through *escape the
 * escape it needs ("" when none) in buf. */
static size_t next(const unsigned char *s, size_t n, bool lines, char buf[8],
		   const char **escape)
{
	static const char hex[] = "0123456789abcdef";
	size_t len = evt_utf8_length(s, n);

	*escape = "";
	if (len == 1 && (s[0] >= 0x20 || s[0] == '\t' ||
			 (lines && (s[0] == '\n' || s[0] == '\r'))) && s[0] != 0x7f)
		return 1;
	if (len == 1 && s[0] == '\n')
		return *escape = "\\n", 1;
	if (len == 1 && s[0] == '\r')
		return *escape = "\\r", 1;
	if (len > 1 && !evt_utf8_is_c1(s, len))
		return len;
	if (len == 2) {	/* C1 */
		buf[0] = '\\', buf[1] = 'u', buf[2] = '0', buf[3] = '0';
		buf[4] = hex[s[1] >> 4], buf[5] = hex[s[1] & 15], buf[6] = '\0';
		*escape = buf;
		return 2;
	}
	buf[0] = '\\', buf[1] = 'x', buf[2] = hex[s[0] >> 4];
	buf[3] = hex[s[0] & 15], buf[4] = '\0';
	*escape = buf;
	return 1;
}

bool evt_safe_as_is(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i;

	for (i = 0; i < n; i++)
		if ((u[i] < 0x20 && u[i] != '\t') || u[i] >= 0x7f)
			break;
	if (i == n)
		return true;
	while (i < n) {
		char buf[8];
		const char *escape;

		i += next(u + i, n - i, false, buf, &escape);
		if (*escape)
			return false;
	}
	return true;
}

static void put(FILE *f, const char *s, size_t n, bool lines)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, plain = 0;

	while (i < n) {
		char buf[8];
		const char *escape;
		size_t len = next(u + i, n - i, lines, buf, &escape);

		if (*escape) {
			fwrite(s + plain, 1, i - plain, f);
			fputs(escape, f);
			plain = i + len;
		}
		i += len;
	}
	fwrite(s + plain, 1, n - plain, f);
}

void evt_safe_fwrite(FILE *f, const char *s, size_t n)
{
	put(f, s, n, false);
}

void evt_safe_fwrite_lines(FILE *f, const char *s, size_t n)
{
	put(f, s, n, true);
}

size_t evt_safe_width(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, w = 0;

	while (i < n) {
		char buf[8];
		const char *escape;
		size_t k = 0;

		i += next(u + i, n - i, false, buf, &escape);
		while (escape[k])
			k++;
		w += k ? k : 1;
	}
	return w;
}
