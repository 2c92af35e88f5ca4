/*
 * quote.h - C-style quoting of strings in text files and command output:
 * "migrate task %s:%d\n".  Only \\ \" \n \t \r and \xHH are produced (for
 * control characters, C1 ones included, and bytes that are not UTF-8).
 */
#ifndef EVT_FORMAT_QUOTE_H
#define EVT_FORMAT_QUOTE_H

#include <stddef.h>
#include <stdio.h>

void evt_quote(FILE *f, const char *s);
/*
 * Reads a quoted string starting at *p (which must point at '"') into out.
 * Advances *p past the closing quote.  Returns 0, or -1 when malformed.
 */
int evt_unquote(const char **p, char *out, size_t out_size);

/*
 * A name anyone may choose (a thread's comm, a module's file name) made
 * safe to print on a terminal: its control characters (C0, DEL, C1) and
 * bytes that are not UTF-8 become '?'.  At most out_size - 1 bytes;
 * returns out.
 */
char *evt_printable(char *out, size_t out_size, const char *name);

#endif
