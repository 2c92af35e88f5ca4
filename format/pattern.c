/*
 * pattern.c - match event paths against patterns (see pattern.h).
 */
#include <fnmatch.h>
#include <stdio.h>
#include <string.h>

#include "pattern.h"

/* Where pattern's selectors start ("fn:" or "fmt:" at its start or
 * after a '/'), or NULL. */
static const char *selectors(const char *pattern)
{
	const char *p;

	for (p = pattern; p; p = strchr(p, '/')) {
		if (*p == '/')
			p++;
		if (!strncmp(p, "fn:", 3) || !strncmp(p, "fmt:", 4))
			return p;
	}
	return NULL;
}

bool evt_pattern_has_selectors(const char *pattern)
{
	return selectors(pattern) != NULL;
}

/* The selectors at sel: the fn: glob (to fn_end) and the fmt: glob, each
 * NULL when absent.  -1 when they are not "fn:GLOB", "fmt:GLOB" or
 * "fn:GLOB/fmt:GLOB". */
static int split_selectors(const char *sel, const char **fn,
			   const char **fn_end, const char **fmt)
{
	*fn = *fn_end = *fmt = NULL;
	if (!strncmp(sel, "fn:", 3)) {
		*fn = sel + 3;
		*fn_end = *fn + strcspn(*fn, "/");
		if (**fn_end == '\0')
			return *fn_end > *fn ? 0 : -1;
		sel = *fn_end + 1;
		if (*fn_end == *fn || strncmp(sel, "fmt:", 4))
			return -1;
	}
	*fmt = sel + 4;
	return **fmt ? 0 : -1;
}

int evt_pattern_check(const char *pattern, char *err, size_t err_size)
{
	const char *sel = selectors(pattern), *fn, *fn_end, *fmt;
	size_t i, n = sel ? (size_t)(sel - pattern) : strlen(pattern);

	if (sel && split_selectors(sel, &fn, &fn_end, &fmt)) {
		snprintf(err, err_size, "selectors at position %zu are not "
			 "fn:GLOB, fmt:GLOB or fn:GLOB/fmt:GLOB", n + 1);
		return -1;
	}
	if (sel && n && strncmp(pattern, "printk", 6) && strncmp(pattern, "/printk", 7)) {
		snprintf(err, err_size, "fn: and fmt: select printk sites: the "
			 "path before them must start with printk");
		return -1;
	}
	if (sel && strlen(sel) > 1024) {
		snprintf(err, err_size, "pattern longer than 1024 bytes");
		return -1;
	}
	if (sel) {	/* a format's glob may hold spaces, nothing lower */
		for (i = 0; sel[i]; i++)
			if ((unsigned char)sel[i] < ' ' || sel[i] == 0x7f) {
				snprintf(err, err_size, "invalid character 0x%02x at "
					 "position %zu", (unsigned char)sel[i],
					 n + i + 1);
				return -1;
			}
	}

	if (n > 1024) {
		snprintf(err, err_size, "pattern longer than 1024 bytes");
		return -1;
	}
	for (i = 0; i < n; i++) {
		unsigned char c = pattern[i];

		if (c == '"') {	/* a quoted name: spaces and glob characters
				 * in it are its own */
			size_t end = i + 1;

			while (end < n && pattern[end] != '"' &&
			       (unsigned char)pattern[end] >= ' ' && pattern[end] != 0x7f)
				end++;
			if (end >= n) {
				snprintf(err, err_size, "the quote at position %zu is "
					 "not closed", i + 1);
				return -1;
			}
			if (pattern[end] != '"') {
				snprintf(err, err_size, "invalid character 0x%02x at "
					 "position %zu", (unsigned char)pattern[end], end + 1);
				return -1;
			}
			if (end == i + 1) {
				snprintf(err, err_size, "an empty quoted name at position %zu",
					 i + 1);
				return -1;
			}
			i = end;
			continue;
		}
		if (c <= ' ' || c == 0x7f) {
			snprintf(err, err_size,
				 "invalid character 0x%02x at position %zu", c,
				 i + 1);
			return -1;
		}
		if (c == '/' && i > 0 && pattern[i - 1] == '/') {
			snprintf(err, err_size, "empty path component at position %zu",
				 i + 1);
			return -1;
		}
	}
	return 0;
}

static bool is_printk(const char *s)
{
	return strncmp(s, "printk", 6) == 0 && (s[6] == '/' || s[6] == '\0');
}

/* The part of a C++ signature that names the function: "ns::f" of
 * "int ns::f(int) const", into out. */
static const char *function_name(const char *func, char *out, size_t size)
{
	const char *open = strchr(func, '('), *start = func, *p;
	int depth = 0;

	if (!open)
		return func;
	for (p = func; p < open; p++) {	/* after the return type */
		if (*p == '<')
			depth++;
		else if (*p == '>' && depth)
			depth--;
		else if (*p == ' ' && !depth)
			start = p + 1;
	}
	snprintf(out, size, "%.*s", (int)(open - start), start);
	return out;
}

static bool glob_match(const char *glob, size_t len, const char *s)
{
	char g[1100];

	if (len >= sizeof(g))
		return false;
	memcpy(g, glob, len);
	g[len] = '\0';
	return fnmatch(g, s, 0) == 0;
}

bool evt_pattern_match_site(const char *pattern, const char *path,
			    const char *func, const char *format)
{
	const char *sel = selectors(pattern), *fn, *fn_end, *fmt;
	char name[512], prefix[1100];
	size_t n;

	if (!sel)
		return evt_pattern_match(pattern, path);
	if (split_selectors(sel, &fn, &fn_end, &fmt) || !is_printk(path) ||
	    (fn && !func) || (fmt && !format))
		return false;
	n = (size_t)(sel - pattern);
	if (n >= sizeof(prefix))
		return false;
	snprintf(prefix, sizeof(prefix), "%.*s", (int)n, pattern);
	if (!evt_pattern_match(n ? prefix : "printk", path))
		return false;
	if (fn && !glob_match(fn, (size_t)(fn_end - fn), func) &&
	    !glob_match(fn, (size_t)(fn_end - fn),
			function_name(func, name, sizeof(name))))
		return false;
	return !fmt || glob_match(fmt, strlen(fmt), format);
}

/* Appends s to out at *len as glob text that matches s alone: glob
 * characters escaped, control characters (and, slash_too, '/') as '?'. */
static bool put_literal(char *out, size_t size, size_t *len, const char *s,
			size_t n, bool slash_too)
{
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (*len + 3 >= size)
			return false;
		if (c < ' ' || c == 0x7f || (slash_too && c == '/')) {
			out[(*len)++] = '?';
			continue;
		}
		if (strchr("*?[]\\", c))
			out[(*len)++] = '\\';
		out[(*len)++] = (char)c;
	}
	out[*len] = '\0';
	return true;
}

bool evt_pattern_of_site(const char *path, const char *func,
			 const char *format, char *out, size_t out_size)
{
	const char *module = path + 7, *end;
	char name[512];
	size_t len;
	int n;

	if (strncmp(path, "printk/", 7) || !func || !*func || !format)
		return false;
	end = strchr(module, '/');
	if (!end)
		return false;
	n = snprintf(out, out_size, "printk/%.*s/fn:", (int)(end - module), module);
	if (n < 0 || (size_t)n >= out_size)
		return false;
	len = (size_t)n;
	func = function_name(func, name, sizeof(name));
	if (!put_literal(out, out_size, &len, func, strlen(func), true) ||
	    len + 6 >= out_size)
		return false;
	memcpy(out + len, "/fmt:", 6);
	len += 5;
	return put_literal(out, out_size, &len, format, strlen(format), false);
}

/* pattern with its quoted names as glob text that matches them alone,
 * into out; false when it does not fit. */
static bool unquote(const char *pattern, char *out, size_t size)
{
	size_t len = 0;
	const char *q;

	out[0] = '\0';
	while ((q = strchr(pattern, '"'))) {
		const char *end = strchr(q + 1, '"');

		if (!end || len + (size_t)(q - pattern) + 1 >= size)
			return false;
		memcpy(out + len, pattern, (size_t)(q - pattern));
		len += (size_t)(q - pattern);
		if (!put_literal(out, size, &len, q + 1, (size_t)(end - q - 1), false))
			return false;
		pattern = end + 1;
	}
	if (len + strlen(pattern) + 1 > size)
		return false;
	strcpy(out + len, pattern);
	return true;
}

bool evt_pattern_literal(const char *pattern, char *out, size_t out_size)
{
	size_t len = 0;
	bool quoted = false;

	for (; *pattern; pattern++) {
		if (*pattern == '"') {
			quoted = !quoted;
			continue;
		}
		if (!quoted && strchr("*?[", *pattern))
			return false;
		if (len + 1 >= out_size)
			return false;
		out[len++] = *pattern;
	}
	out[len] = '\0';
	return !quoted;
}

bool evt_pattern_of_path(const char *path, char *out, size_t out_size)
{
	size_t len = 0;

	while (*path) {
		size_t n = strcspn(path, "/"), i;
		bool quote = false;

		for (i = 0; i < n; i++) {
			unsigned char c = (unsigned char)path[i];

			if (c < ' ' || c == 0x7f || c == '"')
				return false;	/* no pattern names it alone */
			quote |= c == ' ' || strchr("*?[]\\", c) != NULL;
		}
		if (len + n + 4 >= out_size)
			return false;
		len += (size_t)snprintf(out + len, out_size - len, quote ? "\"%.*s\"%s" :
					"%.*s%s", (int)n, path, path[n] ? "/" : "");
		path += n + (path[n] == '/');
	}
	out[len] = '\0';
	return true;
}

bool evt_pattern_match(const char *pattern, const char *path)
{
	char plain[1100];
	size_t n;

	if (selectors(pattern))
		return false;
	if (strchr(pattern, '"')) {	/* quoted names: matched as a glob */
		char glob[1100];

		if (!unquote(pattern, plain, sizeof(plain)))
			return false;
		pattern = plain;
		while (*pattern == '/')
			pattern++;
		n = strlen(pattern);
		while (n > 0 && pattern[n - 1] == '/')
			n--;
		if (n == 0 || n + 3 > sizeof(glob) ||
		    (is_printk(path) && strncmp(pattern, "printk", 6) != 0))
			return false;
		memcpy(glob, pattern, n);
		glob[n] = '\0';
		if (fnmatch(glob, path, 0) == 0)
			return true;
		memcpy(glob + n, "/*", 3);
		return fnmatch(glob, path, 0) == 0;
	}

	while (*pattern == '/')
		pattern++;
	n = strlen(pattern);
	while (n > 0 && pattern[n - 1] == '/')
		n--;
	if (n == 0 || (n == 1 && pattern[0] == '*'))
		return !is_printk(path);
	if (is_printk(path) && strncmp(pattern, "printk", 6) != 0)
		return false;
	if (strncmp(pattern, path, n) == 0 &&
	    (path[n] == '\0' || path[n] == '/'))
		return true;
	if (strpbrk(pattern, "*?[")) {
		char glob[1100];

		if (n >= sizeof(glob))
			return false;
		memcpy(glob, pattern, n);
		glob[n] = '\0';
		if (fnmatch(glob, path, 0) == 0)
			return true;
		/* A glob naming a directory names what is below it. */
		if (n + 2 < sizeof(glob)) {
			memcpy(glob + n, "/*", 3);
			return fnmatch(glob, path, 0) == 0;
		}
	}
	return false;
}

bool evt_is_usdt_path(const char *path)
{
	while (*path == '/')
		path++;
	return !strncmp(path, "usdt", 4) && (path[4] == '\0' || path[4] == '/');
}

bool evt_is_kernel_path(const char *path)
{
	const char *p = path;

	while (*p == '/')
		p++;
	return (!strncmp(p, "kernel", 6) && (p[6] == '\0' || p[6] == '/')) ||
	       evt_is_usdt_path(path);
}
