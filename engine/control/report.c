/*
 * report.c - the engine's diagnostics, through a callback (see report.h).
 */
#include <stdarg.h>
#include <stdio.h>

#include "report.h"

static evt_report_cb report_cb;
static void *report_ctx;
static __thread struct evt_report_to thread_to;

struct evt_report_to evt_report_thread(struct evt_report_to to)
{
	struct evt_report_to was = thread_to;

	thread_to = to;
	return was;
}

void evt_report_set(evt_report_cb cb, void *ctx)
{
	report_cb = cb;
	report_ctx = ctx;
}

void evt_report(const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (thread_to.cb)
		thread_to.cb(msg, thread_to.ctx);
	else if (report_cb)
		report_cb(msg, report_ctx);
	else
		fprintf(stderr, "evtrace: %s\n", msg);
}
