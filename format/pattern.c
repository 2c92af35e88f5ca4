/*
 * pattern.c - match event paths against patterns (see pattern.h).
 */
#include <fnmatch.h>
#include <stdio.h>
#include <string.h>

#include "pattern.h"

int evt_pattern_check(const char *pattern, char *err, size_t err_size)
{
	size_t i, n = strlen(pattern);

	if (n > 1024) {
		snprintf(err, err_size, "pattern longer than 1024 bytes");
		return -1;
	}
	for (i = 0; i < n; i++) {
		unsigned char c = pattern[i];

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

bool evt_pattern_match(const char *pattern, const char *path)
{
	size_t n;

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

bool evt_is_kernel_path(const char *path)
{
	while (*path == '/')
		path++;
	return !strncmp(path, "kernel", 6) && (path[6] == '\0' || path[6] == '/');
}
