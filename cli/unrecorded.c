/*
 * unrecorded.c - what a recording (or a stream, or a count) says at its
 * end of what it did not take: with -e, the events the processes
 * registered that no pattern named, summed up by provider (by module for
 * printk events) with the -e that would name them; a command none of
 * whose processes registered at all.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "pattern.h"

#define GROUPS_SHOWN 8

struct unrecorded {
	const char *const *patterns;
	unsigned npatterns;
	struct { char key[128]; unsigned count; } groups[GROUPS_SHOWN];
	unsigned ngroups, total, others;
};

static void consider(uint32_t id, const char *path, const char *format,
		     const char *func, void *ctx)
{
	struct unrecorded *u = ctx;
	char key[128];
	size_t n;
	unsigned i;

	(void)id;
	for (i = 0; i < u->npatterns; i++)
		if (cli_pattern_names(u->patterns[i], path, format, func))
			return;
	n = strcspn(path, "/");
	if (!strncmp(path, "printk/", 7))	/* printk/<module> */
		n = 7 + strcspn(path + 7, "/");
	snprintf(key, sizeof(key), "%.*s", (int)n, path);
	u->total++;
	for (i = 0; i < u->ngroups; i++)
		if (!strcmp(u->groups[i].key, key)) {
			u->groups[i].count++;
			return;
		}
	if (u->ngroups == GROUPS_SHOWN) {
		u->others++;
		return;
	}
	snprintf(u->groups[u->ngroups].key, sizeof(u->groups[0].key), "%s", key);
	u->groups[u->ngroups++].count = 1;
}

void cli_note_unrecorded(const char *cmd, const char *done,
			 const char *const *patterns, unsigned n,
			 cli_events_fn events, void *source)
{
	struct unrecorded u = { .patterns = patterns, .npatterns = n };
	unsigned i;

	events(source, consider, &u);
	if (!u.total)
		return;
	fprintf(stderr, "evtrace: %s: not %s, as no -e named them: %u "
		"event%s of the processes:", cmd, done, u.total, cli_plural(u.total));
	for (i = 0; i < u.ngroups; i++)
		fprintf(stderr, "%s %u in %s/ (-e %s)", i ? "," : "",
			u.groups[i].count, u.groups[i].key, u.groups[i].key);
	if (u.others)
		fprintf(stderr, ", %u elsewhere (evtrace ls shows them)", u.others);
	fputc('\n', stderr);
}

void cli_note_untraced(const char *cmd, const char *prog)
{
	fprintf(stderr, "evtrace: %s: no traced process appeared: '%s' is not "
		"linked with libevtrace, or its environment was cleared (it must "
		"keep EVTRACE_COLLECTION and EVTRACE_RUNDIR)\n", cmd, prog);
}
