/*
 * audit.c - evtraced's audit lines (see audit.h).
 */
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "audit.h"
#include "quote.h"

/* "client pid 4235 uid 1001 (alice)" */
static void who(const struct evt_peer *peer, char *out, size_t size)
{
	struct passwd pw, *found = NULL;
	char buf[1024], name[64];

	if (getpwuid_r(peer->uid, &pw, buf, sizeof(buf), &found) || !found)
		snprintf(name, sizeof(name), "no name");
	else
		evt_printable(name, sizeof(name), pw.pw_name);
	snprintf(out, size, "client pid %d uid %u (%s)", (int)peer->pid,
		 (unsigned)peer->uid, name);
}

void evt_audit(const struct evt_peer *peer, const char *fmt, ...)
{
	char text[1024], line[1200], id[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	who(peer, id, sizeof(id));
	/* One write, so that lines of clients served at once stay whole. */
	snprintf(line, sizeof(line), "evtraced: %s: %s\n", id,
		 evt_printable(text, sizeof(text), text));
	fputs(line, stderr);
	fflush(stderr);
}

void evt_audit_request(const struct evt_peer *peer, const struct evt_request *r)
{
	char text[900];
	size_t n = 0;
	unsigned i;

#define ADD(...) do {							\
		if (n < sizeof(text))					\
			n += (size_t)snprintf(text + n, sizeof(text) - n, __VA_ARGS__); \
	} while (0)
	ADD("asks %s", evt_verb_name(r->verb) ? evt_verb_name(r->verb) : "?");
	for (i = 0; i < r->npids; i++)
		ADD("%s%d", i ? "," : " -p ", r->pids[i]);
	for (i = 0; i < r->nevents; i++)
		ADD(" -e %s", r->events[i]);
	for (i = 0; i < r->nfilters; i++)
		ADD(" -F %s", r->filters[i]);
	if (r->has_id)
		ADD(" id %u", r->id);
	if (r->path)
		ADD(" %s", r->path);
	if (r->relay)
		ADD(" --relay %s", r->relay);
	if (r->block_us == EVT_BLOCK_INF)
		ADD(" --block=inf");
	else if (r->block_us)
		ADD(" --block=%uus", r->block_us);
	if (r->overwrite)
		ADD(" --overwrite");
	for (i = 0; i < r->ntriggers; i++)	/* (no control characters) */
		ADD(" --trigger '%s'", r->triggers[i]);
	if (r->has_after)
		ADD(" --after %lluns", (unsigned long long)r->after_ns);
	if (r->has_before)
		ADD(" --before %lluns", (unsigned long long)r->before_ns);
	if (r->max_windows)
		ADD(" --max-windows %u", r->max_windows);
	for (i = 0; i < r->nkeep; i++)
		ADD(" --keep %s", r->keep[i]);
	if (r->guard_percent)
		ADD(" --guard %u", r->guard_percent);
	if (r->fail_on_loss)
		ADD(" --fail-on-loss");
	if (r->has_rate)
		ADD(" --rate %u", r->rate);
	if (r->collection)
		ADD(" --collection %u", r->collection);
#undef ADD
	evt_audit(peer, "%s", text);
}
