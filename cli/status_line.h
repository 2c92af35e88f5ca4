/*
 * status_line.h - record's live status line on a terminal: what was
 * drained, how fast, what was lost; redrawn twice a second on stderr
 * from the second second on, when stderr is a terminal, and cleared
 * before anything else is said.
 */
#ifndef EVT_CLI_STATUS_LINE_H
#define EVT_CLI_STATUS_LINE_H

#include <stdbool.h>

#include "collection.h"

/* Shows the line from now on when on and stderr is a terminal; engine
 * messages clear it first. */
void status_line_start(bool on);
/* Redraws it from the recording's progress, at most every 500 ms. */
void status_line_update(const struct evt_collection *c);
/* Takes it away (before the summary, or any message). */
void status_line_clear(void);

#endif
