/*
 * pattern.h - which events a path or pattern names, and the tri-state.
 *
 * A pattern is an event path ("printk/demo/src/sched.c/2180"), a directory
 * of the event tree ("printk/demo", trailing '/' optional) or a glob whose
 * '*' crosses '/'.  The root ("", "/" or "*") names every event except
 * those under printk/: as in the kernel, printk events are switched only by
 * a pattern that starts with "printk".
 *
 * A pattern may end in selectors of printk sites, which survive an edit
 * that moves lines: "fn:GLOB", the site's function (its name, or in C++
 * its qualified name or whole signature), then "fmt:GLOB", its format
 * text (the rest of the pattern, spaces included).  Each is a last path
 * component: "printk/demo/fn:handle_*", "printk/demo/fn:f/fmt:*timeout*";
 * alone, "fn:handle_request" or "fmt:*timeout*", they select among all
 * printk sites.  A '*' there matches anything, '/' included.
 *
 * A name in double quotes is taken as it is, spaces and glob characters
 * included: span/"L0 slowdown", counter/"queue*" (quotes cannot hold a
 * '"' or a control character).
 */
#ifndef EVT_FORMAT_PATTERN_H
#define EVT_FORMAT_PATTERN_H

#include <stdbool.h>
#include <stddef.h>

/* The state of a directory or event, shared by CLI, C API and eventfs. */
enum evt_tristate {
	EVT_STATE_EMPTY = '?',	/* nothing below */
	EVT_STATE_OFF = '0',
	EVT_STATE_ON = '1',
	EVT_STATE_MIXED = 'X',
	EVT_STATE_ERROR = 'E',
};

static inline enum evt_tristate evt_tristate_add(enum evt_tristate acc,
						 bool on)
{
	enum evt_tristate one = on ? EVT_STATE_ON : EVT_STATE_OFF;

	if (acc == EVT_STATE_EMPTY)
		return one;
	return acc == one ? acc : EVT_STATE_MIXED;
}

/*
 * Check a pattern's syntax.  Returns 0, or -1 with a message naming the
 * byte position in err.
 */
int evt_pattern_check(const char *pattern, char *err, size_t err_size);

/* Does pattern name the event at path (directories included)?  A pattern
 * with selectors names nothing here: it needs a site's function and
 * format (evt_pattern_match_site). */
bool evt_pattern_match(const char *pattern, const char *path);
/* Does pattern name the event at path, a printk site of function func
 * and format format (each NULL when the event has none)? */
bool evt_pattern_match_site(const char *pattern, const char *path,
			    const char *func, const char *format);
/* Whether pattern has selectors (fn:, fmt:). */
bool evt_pattern_has_selectors(const char *pattern);
/*
 * The pattern that names the printk site at path of function func and
 * format format by those, not by its line, so that it still names it
 * after an edit that moves lines: "printk/<module>/fn:<name>/fmt:<format>"
 * (a C++ function by its qualified name, without the template arguments
 * that differ between instantiations; glob characters escaped, control
 * characters as '?'), into out.  False when it has no function or the
 * pattern would not fit out_size.
 */
bool evt_pattern_of_site(const char *path, const char *func,
			 const char *format, char *out, size_t out_size);

/* The path a pattern without globs names (its quotes taken off), into
 * out; false when it has a glob outside quotes or does not fit. */
bool evt_pattern_literal(const char *pattern, char *out, size_t out_size);
/* The pattern that names path alone, its names with spaces or glob
 * characters quoted ("span/\"L0 slowdown\""), into out; false when none
 * can (a control character or '"' in it) or it does not fit. */
bool evt_pattern_of_path(const char *path, char *out, size_t out_size);
/* Whether a pattern or path is about events the kernel samples: its own
 * ("kernel", "kernel/...") or USDT probes through uprobes ("usdt/..."). */
bool evt_is_kernel_path(const char *path);
/* Whether it is about USDT probes ("usdt", "usdt/..."). */
bool evt_is_usdt_path(const char *path);

#endif
