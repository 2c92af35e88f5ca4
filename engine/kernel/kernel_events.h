/*
 * kernel_events.h - the kernel's tracepoints as evtrace events,
 * kernel/<system>/<event>, read from tracefs with libtracefs and
 * libtraceevent.
 *
 * Their formats are the kernel's, turned into evtrace's format syntax
 * (event_format.h) field by field: a fixed array stays an array, a
 * __data_loc string becomes a string and another dynamic array a
 * sequence (of bytes when it is not an array: a bitmask), a pointer an
 * unsigned integer of its size, a field of another size its bytes; the
 * common fields
 * (common_type, common_pid, ...) are left out, being what every record's
 * header says.  The syscall events carry the kernel's CAP_ANY flag.
 */
#ifndef EVT_ENGINE_KERNEL_EVENTS_H
#define EVT_ENGINE_KERNEL_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "event_format.h"

#include "pattern.h"

#define EVT_KERNEL_PREFIX "kernel/"

/* (evt_is_kernel_path(): pattern.h) */

/*
 * The paths of every kernel event, sorted; *n how many.  0, or -1 with err
 * saying why (tracefs not mounted; not readable by this user: then errno
 * is EACCES, as after evt_kernel_event_format()).
 */
int evt_kernel_event_paths(char ***paths, unsigned *n, char *err,
			   size_t err_size);
void evt_kernel_event_paths_free(char **paths, unsigned n);

/*
 * Which of the paths (sorted, as evt_kernel_event_paths gives them) the
 * kernel patterns among patterns name, each once, in path order: *chosen
 * (free it) holds *nchosen indexes into paths.  0; or -1 with err set,
 * for a kernel pattern that names no event.
 */
int evt_kernel_match(const char *const *patterns, unsigned npatterns,
		     char *const *paths, unsigned npaths, unsigned **chosen,
		     unsigned *nchosen, char *err, size_t err_size);

/* "kernel/<system>/<event>" into its two names, neither empty nor
 * starting with '.'.  0, or -1 with err set. */
int evt_kernel_split_path(const char *path, char system[256], char name[256],
			  char *err, size_t err_size);
/* The kernel's tracepoint id of the event at path (tracefs's "id" file),
 * or -1 with err set. */
long evt_kernel_event_id(const char *path, char *err, size_t err_size);

/*
 * The format of the kernel event at path, converted (evt_event_format_free
 * it).  0; or -1 with err set (no such event, a format libtraceevent
 * cannot parse or evtrace cannot express).
 */
int evt_kernel_event_format(const char *path, struct evt_event_format *out,
			    char *err, size_t err_size);

/*
 * Where the bytes of a converted field are in the kernel's raw record
 * (common fields first, as perf's PERF_SAMPLE_RAW gives it): copied as
 * they stand, or, for a __data_loc (__rel_loc: relative) field, the
 * string or the elements it points to.
 */
enum evt_kernel_src_how {
	EVT_KSRC_COPY = 1,
	EVT_KSRC_STRING,
	EVT_KSRC_SEQUENCE,
};

struct evt_kernel_field_src {
	uint8_t how;			/* enum evt_kernel_src_how */
	uint8_t relative;
	uint16_t offset;
	uint16_t size;			/* bytes in the raw record */
	uint16_t elem;			/* bytes of an element */
};

/* A kernel event ready to be recorded: what it is called, the kernel's id
 * for it, its format in evtrace's terms and where each field comes from. */
struct evt_kernel_event {
	char *path;
	long id;
	struct evt_event_format format;
	struct evt_kernel_field_src *src;	/* [format.nfields] */
	char *tracefs_format;			/* the text it was parsed from */
};

/*
 * The text of the event's own format file in tracefs (free it), *len its
 * bytes; or NULL with err set (and errno EACCES when tracefs is not this
 * user's to read).
 */
char *evt_kernel_event_tracefs_format(const char *path, size_t *len, char *err,
				      size_t err_size);
/*
 * The kernel events' paths, as evt_kernel_event_paths(), for anyone: a
 * user tracefs keeps out has them from evtraced, with their tracepoint
 * ids in *ids (free it; NULL when they came from tracefs).
 */
int evt_kernel_event_paths_any(char ***paths, long **ids, unsigned *n,
			       char *err, size_t err_size);
/* Loads the event at path from tracefs, or for a user tracefs keeps out
 * from evtraced.  0, or -1 with err set. */
int evt_kernel_event_load(const char *path, struct evt_kernel_event *out,
			  char *err, size_t err_size);
/* The same from the text of its tracefs format file. */
int evt_kernel_event_parse(const char *path, const char *text, size_t len,
			   struct evt_kernel_event *out, char *err,
			   size_t err_size);
void evt_kernel_event_free(struct evt_kernel_event *e);

/*
 * Lays out the raw record (raw_size bytes) as the payload of evtrace's
 * format for the event (event_format.h) in out, which holds
 * evt_kernel_payload_max(raw_size, e) bytes.  Returns the bytes written,
 * or -1 when a field lies outside the record.
 */
long evt_kernel_payload(const struct evt_kernel_event *e, const uint8_t *raw,
			size_t raw_size, uint8_t *out);
size_t evt_kernel_payload_max(const struct evt_kernel_event *e, size_t raw_size);

#endif
