/*
 * pattern.h - which events a path or pattern names, and the tri-state.
 *
 * A pattern is an event path ("printk/demo/src/sched.c/2180"), a directory
 * of the event tree ("printk/demo", trailing '/' optional) or a glob whose
 * '*' crosses '/'.  The root ("", "/" or "*") names every event except
 * those under printk/: as in the kernel, printk events are switched only by
 * a pattern that starts with "printk".
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

/* Does pattern name the event at path (directories included)? */
bool evt_pattern_match(const char *pattern, const char *path);

/* Whether a pattern or path is about kernel events ("kernel", "kernel/..."). */
bool evt_is_kernel_path(const char *path);

#endif
