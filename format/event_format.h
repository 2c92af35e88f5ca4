/*
 * event_format.h - the fields of a typed event, and their format text.
 *
 * One description serves everyone: the traced process builds it from an
 * event's static definition and publishes it as text in its registry;
 * engines and readers parse that text back, and from the parsed form
 * generate the CTF metadata, size each record and render its values.
 *
 * Format text, one line per field, in the stable-tracepoint syntax (sizes
 * in bits, alignment in bytes, name separate from type):
 *
 *	flags:CAP_ANY;
 *	field:prev_pid	type:pid_t	size:32	align:4	signed:1;
 *	field:state	type:uint8_t	size:8	align:1	signed:0	enum:R=0,S=1;
 *	array:comm	type:char	size:8	count:16	align:1	signed:1;
 *	string:name	type:char	size:8	align:1	signed:1;
 *	sequence:cpus	type:uint16_t	size:16	length:32	align:2	signed:0;
 *
 * `flags:` appears only when the event has flags.  A `field:` of type
 * `bool` or `double` is that type; `enum:` names values of an integer.
 * `align` is the type's natural alignment; records themselves are packed
 * (layout.h): fields follow each other in order, little endian, a string
 * with its NUL, a sequence as a 32-bit element count then the elements.
 */
#ifndef EVT_FORMAT_EVENT_FORMAT_H
#define EVT_FORMAT_EVENT_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define EVT_FIELDS_MAX		64
#define EVT_FIELD_NAME_MAX	64	/* bytes, NUL included */
#define EVT_ENUM_VALUES_MAX	256
#define EVT_SEQUENCE_MAX_BYTES	4096	/* elements kept of a longer one */

enum evt_field_kind {
	EVT_FIELD_INTEGER = 1,
	EVT_FIELD_ENUM,
	EVT_FIELD_BOOL,
	EVT_FIELD_DOUBLE,
	EVT_FIELD_ARRAY,
	EVT_FIELD_STRING,
	EVT_FIELD_SEQUENCE,
};

/* Event flags, as in the public header (EVT_FL_*). */
#define EVT_FORMAT_FL_CAP_ANY	0x1u

struct evt_enum_entry {
	char *name;
	int64_t value;
};

struct evt_field_format {
	enum evt_field_kind kind;
	char name[EVT_FIELD_NAME_MAX];
	char type[EVT_FIELD_NAME_MAX];	/* the C type, as the source wrote it */
	uint32_t size_bits;		/* of one element: 8, 16, 32 or 64 */
	uint32_t align;			/* bytes */
	uint32_t count;			/* arrays */
	uint8_t is_signed;
	struct evt_enum_entry *values;	/* enums */
	uint32_t nvalues;
};

struct evt_event_format {
	uint32_t flags;
	uint32_t nfields;
	struct evt_field_format *fields;
};

/*
 * Checks a description built by hand (the traced process builds one from
 * a static definition): names are C identifiers and unique, sizes and
 * counts are possible, enum value names are words.  0, or -1 with a
 * message naming the field in err.
 */
int evt_event_format_check(const struct evt_event_format *f, char *err,
			   size_t err_size);
/* The most bytes one record's payload can take. */
uint64_t evt_event_format_max_bytes(const struct evt_event_format *f);

int evt_event_format_write(FILE *out, const struct evt_event_format *f);
/* The same, into a malloc'd string; NULL when out of memory. */
char *evt_event_format_text(const struct evt_event_format *f);
/*
 * Parses format text into out (freed with evt_event_format_free).  0, or
 * -1 with "line N: why" in err.  What parses also passes the check above.
 */
int evt_event_format_parse(const char *text, struct evt_event_format *out,
			   char *err, size_t err_size);
void evt_event_format_free(struct evt_event_format *f);
/* A C identifier: field, provider and event names. */
bool evt_is_identifier(const char *s);
/* "CAP_ANY" and so on, '|'-separated; "" for none. */
const char *evt_event_flags_name(uint32_t flags, char *buf, size_t size);

/* Bytes field fd takes at p, or -1 when it runs past avail. */
long evt_event_field_bytes(const struct evt_field_format *fd, const uint8_t *p,
			   size_t avail);
/* Bytes the payload at p takes, or -1 when it runs past avail. */
long evt_event_format_payload_size(const struct evt_event_format *f,
				   const uint8_t *p, size_t avail);
/*
 * Renders a payload as `name=value ...`: strings and char arrays quoted,
 * arrays and sequences in brackets, enumerations by name.  Returns the
 * bytes consumed, or -1 when the payload is shorter than the fields.
 */
long evt_event_format_render(const struct evt_event_format *f,
			     const uint8_t *p, size_t avail,
			     char *out, size_t out_size);
/* The TSDL field declarations of the event's payload. */
void evt_event_format_write_ctf(FILE *out, const struct evt_event_format *f);

#endif
