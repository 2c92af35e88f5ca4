/*
 * refused.c - printk sites whose format was refused, and typed events
 * whose definition was, said when a command names them: once per event
 * and command, with why (every bad conversion of a format).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ctl.h"
#include "pattern.h"
#include "printk_format.h"
#include "quote.h"

struct refused {
	const char *cmd;
	const char *const *patterns;
	unsigned n;
};

/* Paths said already by this command. */
static char **said;
static unsigned nsaid;

static bool already_said(const char *path)
{
	char **grown;
	unsigned i;

	for (i = 0; i < nsaid; i++)
		if (!strcmp(said[i], path))
			return true;
	grown = realloc(said, (nsaid + 1) * sizeof(*said));
	if (grown) {
		said = grown;
		said[nsaid] = strdup(path);
		nsaid += said[nsaid] != NULL;
	}
	return false;
}

static void consider(uint32_t id, const char *path, const char *format,
		     const char *func, void *ctx)
{
	struct refused *r = ctx;
	char why[1024];
	unsigned i;

	(void)id;
	if (!evt_refusal(path, format, why, sizeof(why)))
		return;
	for (i = 0; i < r->n; i++)
		if (cli_pattern_names(r->patterns[i], path, format, func))
			break;
	if (i == r->n || already_said(path))
		return;
	fprintf(stderr, "evtrace: %s: %s: refused, it stays off: ", r->cmd, path);
	if (!strncmp(path, "printk/", 7) &&
	    strncmp(format, EVT_REFUSED_ARGS, strlen(EVT_REFUSED_ARGS))) {
		fputs("format ", stderr);
		evt_quote(stderr, format);
		fputs(": ", stderr);
	}
	fprintf(stderr, "%s\n", why);
}

void cli_note_refused(const char *cmd, const char *const *patterns, unsigned n,
		      cli_events_fn events, void *source)
{
	struct refused r = { cmd, patterns, n };

	events(source, consider, &r);
}

void cli_note_refused_in(const char *cmd, const char *pattern,
			 const struct evt_ctl *ctl)
{
	struct refused r = { cmd, &pattern, 1 };
	uint32_t i;

	for (i = 0; i < ctl->nevents; i++)
		if (ctl->events[i].refused)
			consider(i, ctl->events[i].path, ctl->events[i].format,
				 ctl->events[i].func, &r);
}
