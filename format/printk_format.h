/*
 * printk_format.h - one parser for trace_printk() format strings.
 *
 * The library uses it when a site registers, to learn how to store each
 * argument in binary; readers use it to turn stored arguments back into
 * text.  A format is accepted only when a reader can reproduce exactly what
 * printf would have printed.
 */
#ifndef EVT_FORMAT_PRINTK_FORMAT_H
#define EVT_FORMAT_PRINTK_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#include "layout.h"

/* One conversion: the text fmt[start, start+len) and what it consumes. */
struct evt_printk_spec {
	uint16_t start;
	uint16_t len;
	uint8_t star_width;	/* a stored int32 width precedes the value */
	uint8_t star_precision;	/* a stored int32 precision precedes it */
	int32_t precision;	/* written in the format; -1 when none is */
	uint8_t type;		/* enum evt_arg_type of the value */
	char conversion;	/* d, u, x, s, p, f, ... */
};

struct evt_printk_format {
	unsigned nspecs;
	struct evt_printk_spec specs[EVT_PRINTK_MAX_ARGS];
	unsigned nargs;		/* stored values, star ints included */
	uint8_t arg_types[EVT_PRINTK_MAX_ARGS];
};

/*
 * Parse format.  Returns 0, or -EINVAL with a message naming the offending
 * conversion and its offset in err.
 */
int evt_printk_parse(const char *format, struct evt_printk_format *out,
		     char *err, size_t err_size);

/*
 * Every conversion of format that evt_printk_parse() refuses, its
 * messages joined by "; " in out (cut to out_size); their number, 0 for
 * a format it takes.
 */
int evt_printk_problems(const char *format, char *out, size_t out_size);

/*
 * What a C call site passed, one code an argument after the format,
 * captured at compile time (evtrace.h's EVT__ARG_TYPES, whose codes these
 * are: the library checks they agree): int or narrower, unsigned int,
 * a 64-bit integer, an unsigned one, a double (or float), a char pointer,
 * another pointer, anything else.
 */
#define EVT_ARGC_INT	'i'
#define EVT_ARGC_UINT	'u'
#define EVT_ARGC_LONG	'l'
#define EVT_ARGC_ULONG	'L'
#define EVT_ARGC_DOUBLE	'd'
#define EVT_ARGC_STRING	's'
#define EVT_ARGC_PTR	'p'
#define EVT_ARGC_OTHER	'?'

/*
 * Whether the arguments a site passed (given: EVT_ARGC_* codes, NUL
 * ended) are what f, parsed from format, reads: each value of the type
 * its conversion takes (signedness aside), as many as it takes.  0, or -1
 * with why naming the first that disagrees, its conversion and offset.
 */
int evt_printk_args_agree(const char *format, const struct evt_printk_format *f,
			  const char *given, char *why, size_t why_size);

/* Bytes a stored value of this type takes, 0 for strings (variable). */
size_t evt_arg_type_size(uint8_t type);

/*
 * Render stored arguments (args, args_size bytes, packed in arg order) as
 * printf would have, into out, NUL-terminated; *out_len (when given) is
 * the text's length, which counts any NUL a %c of 0 put in it.  Returns the
 * bytes consumed from args, or -1 when the arguments are shorter than the
 * format needs.
 */
long evt_printk_render(const char *format, const struct evt_printk_format *f,
		       const uint8_t *args, size_t args_size,
		       char *out, size_t out_size, size_t *out_len);

/* The shortest text of v that reads back as v; snprintf's result. */
int evt_real_text(char *out, size_t size, double v);

#endif
