/*
 * safe_text.h - text anyone may have chosen (a printk message, a string
 * field, a thread's name, the bytes of a trace) made safe for where it
 * goes: a terminal, a file read a line at a time, a JSON or protobuf
 * string, which must be UTF-8.
 *
 * A terminal acts on C0 and C1 control characters: ESC and CSI (U+009B)
 * start the sequences that move the cursor, set the window's title (OSC
 * 0) or its clipboard (OSC 52); a raw newline or carriage return forges
 * a line.  Printable UTF-8 and tabs go as they are; a newline becomes
 * \n, a carriage return \r, other C0 controls and DEL \xHH, C1 controls
 * \u00HH, and bytes that are not UTF-8 \xHH.
 */
#ifndef EVT_FORMAT_SAFE_TEXT_H
#define EVT_FORMAT_SAFE_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The length of the well-formed UTF-8 sequence at s (n bytes there), or
 * 0 (overlong forms, surrogates and values beyond Unicode are not). */
size_t evt_utf8_length(const unsigned char *s, size_t n);
/* Whether the sequence of len bytes at s is a C1 control (U+0080 to
 * U+009F). */
bool evt_utf8_is_c1(const unsigned char *s, size_t len);
/* Whether s[0..n) goes to a terminal as it is. */
bool evt_safe_as_is(const char *s, size_t n);
/* s[0..n) written to f, escaped as above. */
void evt_safe_fwrite(FILE *f, const char *s, size_t n);
/* The same, but newlines and carriage returns as they are (a quoted CSV
 * field keeps its lines). */
void evt_safe_fwrite_lines(FILE *f, const char *s, size_t n);
/* The columns s[0..n) takes, escaped as above (a UTF-8 sequence one). */
size_t evt_safe_width(const char *s, size_t n);

#endif
