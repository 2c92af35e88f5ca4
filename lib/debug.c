/*
 * debug.c - library diagnostics: a fixed buffer and one write(2), errno
 * saved, so that they are safe in signal handlers.  evt__debug() speaks
 * only when $EVTRACE_DEBUG is set (never in a setuid or setgid program:
 * secure_getenv); evt__warn() always (a refused site).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "runtime.h"

static void say(const char *fmt, va_list ap)
{
	char buf[512];
	int saved = errno, n = snprintf(buf, sizeof(buf), "evtrace: ");

	n += vsnprintf(buf + n, sizeof(buf) - n - 1, fmt, ap);
	if (n > (int)sizeof(buf) - 2)
		n = sizeof(buf) - 2;
	buf[n++] = '\n';
	if (write(2, buf, n) < 0)
		(void)0;
	errno = saved;
}

void evt__debug(const char *fmt, ...)
{
	static int enabled = -1;
	va_list ap;

	if (enabled < 0)
		enabled = secure_getenv("EVTRACE_DEBUG") != NULL;
	if (!enabled)
		return;
	va_start(ap, fmt);
	say(fmt, ap);
	va_end(ap);
}

void evt__warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say(fmt, ap);
	va_end(ap);
}
