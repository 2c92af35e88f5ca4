/*
 * kernel_events.c - kernel tracepoints by name and format (see
 * kernel_events.h), on libtracefs and libtraceevent.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <event-parse.h>
#include <tracefs.h>

#include "evtraced_client.h"
#include "kernel_events.h"
#include "pattern.h"

/* The tracefs directory, or NULL with err saying why none can be used. */
static const char *tracing_dir(char *err, size_t err_size)
{
	const char *dir = tracefs_tracing_dir();
	char events[4200];

	if (!dir) {
		snprintf(err, err_size, "kernel events: tracefs is not mounted "
			 "(as root: mount -t tracefs nodev /sys/kernel/tracing)");
		return NULL;
	}
	snprintf(events, sizeof(events), "%s/events", dir);
	if (access(events, R_OK | X_OK)) {
		int saved = errno;

		if (saved == EACCES)
			snprintf(err, err_size, "kernel events: %s: %s: tracefs lets "
				 "only root read the kernel's events (its mode is "
				 "0700); run as root, or start evtraced", events,
				 strerror(saved));
		else
			snprintf(err, err_size, "kernel events: %s: %s", events,
				 strerror(saved));
		errno = saved;
		return NULL;
	}
	return dir;
}

static int by_path(const void *a, const void *b)
{
	return strverscmp(*(char *const *)a, *(char *const *)b);
}

int evt_kernel_event_paths(char ***paths, unsigned *n, char *err,
			   size_t err_size)
{
	const char *dir = tracing_dir(err, err_size);
	char **systems, **events, **out = NULL;
	unsigned count = 0, cap = 0, i, j;

	*paths = NULL;
	*n = 0;
	if (!dir)
		return -1;
	systems = tracefs_event_systems(dir);
	if (!systems)
		return snprintf(err, err_size, "kernel events: cannot list the "
				"systems in %s/events", dir), -1;
	for (i = 0; systems[i]; i++) {
		events = tracefs_system_events(dir, systems[i]);
		for (j = 0; events && events[j]; j++) {
			if (count == cap) {
				char **grown;

				cap = cap ? cap * 2 : 1024;
				grown = realloc(out, cap * sizeof(*out));
				if (!grown)
					goto oom;
				out = grown;
			}
			if (asprintf(&out[count], EVT_KERNEL_PREFIX "%s/%s", systems[i],
				     events[j]) < 0)
				goto oom;
			count++;
		}
		tracefs_list_free(events);
	}
	tracefs_list_free(systems);
	if (count)
		qsort(out, count, sizeof(*out), by_path);
	*paths = out;
	*n = count;
	return 0;
oom:
	tracefs_list_free(events);
	tracefs_list_free(systems);
	evt_kernel_event_paths_free(out, count);
	return snprintf(err, err_size, "out of memory"), -1;
}

void evt_kernel_event_paths_free(char **paths, unsigned n)
{
	while (n)
		free(paths[--n]);
	free(paths);
}

int evt_kernel_match(const char *const *patterns, unsigned npatterns,
		     char *const *paths, unsigned npaths, unsigned **chosen,
		     unsigned *nchosen, char *err, size_t err_size)
{
	bool *want = calloc(npaths ? npaths : 1, sizeof(*want));
	unsigned p, i, n = 0;

	*chosen = NULL;
	*nchosen = 0;
	if (!want)
		return snprintf(err, err_size, "out of memory"), -1;
	for (p = 0; p < npatterns; p++) {
		bool matched = false;

		if (!evt_is_kernel_path(patterns[p]))
			continue;
		for (i = 0; i < npaths; i++)
			if (evt_pattern_match(patterns[p], paths[i]))
				matched = want[i] = true;
		if (!matched) {
			free(want);
			return snprintf(err, err_size, "%s: no such kernel event",
					patterns[p]), -1;
		}
	}
	for (i = 0; i < npaths; i++)
		n += want[i];
	*chosen = malloc((n ? n : 1) * sizeof(**chosen));
	if (!*chosen) {
		free(want);
		return snprintf(err, err_size, "out of memory"), -1;
	}
	for (i = 0; i < npaths; i++)
		if (want[i])
			(*chosen)[(*nchosen)++] = i;
	free(want);
	return 0;
}

/* "kernel/<system>/<event>" into its two names, neither empty nor
 * starting with '.'.  0, or -1 with err set. */
static int split_path(const char *path, char system[256], char name[256],
		      char *err, size_t err_size)
{
	const char *p = path, *slash;
	size_t slen;

	while (*p == '/')
		p++;
	if (strncmp(p, EVT_KERNEL_PREFIX, strlen(EVT_KERNEL_PREFIX)))
		goto bad;
	p += strlen(EVT_KERNEL_PREFIX);
	slash = strchr(p, '/');
	slen = slash ? (size_t)(slash - p) : 0;
	if (!slen || slen > 255 || strchr(slash + 1, '/') || !slash[1] ||
	    strlen(slash + 1) > 255 || *p == '.' || slash[1] == '.')
		goto bad;
	snprintf(system, 256, "%.*s", (int)slen, p);
	snprintf(name, 256, "%s", slash + 1);
	return 0;
bad:
	return snprintf(err, err_size, "%s: not a kernel event "
			"(kernel/<system>/<event>)", path), -1;
}

long evt_kernel_event_id(const char *path, char *err, size_t err_size)
{
	char system[256], name[256], *text;
	long id = -1;
	int size;

	if (split_path(path, system, name, err, err_size))
		return -1;
	text = tracefs_event_file_read(NULL, system, name, "id", &size);
	if (text)
		id = strtol(text, NULL, 10);
	free(text);
	if (id < 0)
		snprintf(err, err_size, "%s: its id cannot be read from tracefs", path);
	return id;
}

/* The type of an array's element: "char[16]" without "[16]", and a
 * __data_loc's without its keyword. */
static void element_type(const char *type, char *out, size_t size)
{
	const char *t = type;

	if (!strncmp(t, "__data_loc ", 11))
		t += 11;
	else if (!strncmp(t, "__rel_loc ", 10))
		t += 10;
	snprintf(out, size, "%.*s", (int)strcspn(t, "["), t);
	while (*out && out[strlen(out) - 1] == ' ')
		out[strlen(out) - 1] = '\0';
}

static bool int_size(unsigned bytes)
{
	return bytes == 1 || bytes == 2 || bytes == 4 || bytes == 8;
}

/* One kernel field as an evtrace field, and where its bytes are. */
static int convert_field(const struct tep_format_field *k,
			 struct evt_field_format *f,
			 struct evt_kernel_field_src *src, char *err,
			 size_t err_size)
{
	unsigned long fl = k->flags;
	unsigned elem = k->elementsize ? k->elementsize : 1;

	memset(f, 0, sizeof(*f));
	snprintf(f->name, sizeof(f->name), "%s", k->name);
	element_type(k->type, f->type, sizeof(f->type));
	f->is_signed = !!(fl & TEP_FIELD_IS_SIGNED);
	if (k->offset < 0 || k->size <= 0 || k->offset > 0xffff || k->size > 0xffff)
		return snprintf(err, err_size, "field %s: offset %d, size %d",
				k->name, k->offset, k->size), -1;
	*src = (struct evt_kernel_field_src){
		.how = EVT_KSRC_COPY, .offset = (uint16_t)k->offset,
		.size = (uint16_t)k->size,
	};
	if (fl & (TEP_FIELD_IS_DYNAMIC | TEP_FIELD_IS_RELATIVE)) {
		src->relative = !!(fl & TEP_FIELD_IS_RELATIVE);
		if ((fl & TEP_FIELD_IS_STRING) || !strcmp(f->type, "char")) {
			f->kind = EVT_FIELD_STRING;
			snprintf(f->type, sizeof(f->type), "char");
			elem = 1;
		} else {
			f->kind = EVT_FIELD_SEQUENCE;
		}
		if (f->kind == EVT_FIELD_SEQUENCE && !strchr(k->type, '[')) {
			/* not an array (a bitmask, a struct): its bytes */
			snprintf(f->type, sizeof(f->type), "uint8_t");
			f->is_signed = 0;
			elem = 1;
		}
		src->how = f->kind == EVT_FIELD_STRING ? EVT_KSRC_STRING :
			   EVT_KSRC_SEQUENCE;
		if (k->size != 4)
			return snprintf(err, err_size, "field %s: a dynamic field "
					"of %d bytes", k->name, k->size), -1;
	} else if (fl & TEP_FIELD_IS_ARRAY) {
		f->kind = EVT_FIELD_ARRAY;
		f->count = k->arraylen ? k->arraylen : (unsigned)k->size / elem;
		if ((uint64_t)f->count * elem != (unsigned)k->size)
			return snprintf(err, err_size, "field %s: %u elements of %u "
					"bytes in %d", k->name, f->count, elem,
					k->size), -1;
	} else if (int_size((unsigned)k->size)) {
		f->kind = EVT_FIELD_INTEGER;
		elem = (unsigned)k->size;
		if (fl & TEP_FIELD_IS_POINTER)
			f->is_signed = 0;
	} else {			/* a struct or odd size: its bytes */
		f->kind = EVT_FIELD_ARRAY;
		snprintf(f->type, sizeof(f->type), "uint8_t");
		f->is_signed = 0;
		elem = 1;
		f->count = (unsigned)k->size;
	}
	if (!int_size(elem))
		return snprintf(err, err_size, "field %s: elements of %u bytes",
				k->name, elem), -1;
	f->size_bits = elem * 8;
	f->align = elem;
	src->elem = (uint16_t)elem;
	return 0;
}

int evt_kernel_event_parse(const char *path, const char *text, size_t len,
			   struct evt_kernel_event *out, char *err,
			   size_t err_size)
{
	struct tep_format_field **fields = NULL;
	struct tep_handle *tep = NULL;
	struct tep_event *event = NULL;
	char system[256], name[256], why[300];
	unsigned i, n = 0;

	memset(out, 0, sizeof(*out));
	if (split_path(path, system, name, err, err_size))
		return -1;
	tep = tep_alloc();
	if (tep && tep_parse_event(tep, text, (unsigned long)len, system) == 0)
		event = tep_find_event_by_name(tep, system, name);
	if (!event) {
		tep_free(tep);
		return snprintf(err, err_size, "%s: no such kernel event (or "
				"libtraceevent cannot parse its format)", path), -1;
	}
	fields = tep_event_fields(event);
	while (fields && fields[n])
		n++;
	out->id = event->id;
	out->path = strdup(path);
	out->format.fields = calloc(n ? n : 1, sizeof(*out->format.fields));
	out->src = calloc(n ? n : 1, sizeof(*out->src));
	if (!out->path || !out->format.fields || !out->src) {
		snprintf(err, err_size, "out of memory");
		goto fail;
	}
	for (i = 0; i < n; i++, out->format.nfields++)
		if (convert_field(fields[i], &out->format.fields[i], &out->src[i],
				  why, sizeof(why))) {
			snprintf(err, err_size, "%s: %s: evtrace cannot express it",
				 path, why);
			goto fail;
		}
	if (!strcmp(system, "syscalls") || !strcmp(system, "raw_syscalls"))
		/* TRACE_EVENT_FL_CAP_ANY */
		out->format.flags = EVT_FORMAT_FL_CAP_ANY;
	if (evt_event_format_check(&out->format, why, sizeof(why))) {
		snprintf(err, err_size, "%s: %s", path, why);
		goto fail;
	}
	free(fields);
	tep_free(tep);
	return 0;
fail:
	free(fields);
	tep_free(tep);
	evt_kernel_event_free(out);
	return -1;
}

char *evt_kernel_event_tracefs_format(const char *path, size_t *len, char *err,
				      size_t err_size)
{
	char system[256], name[256], *text;
	int size = 0;

	if (!tracing_dir(err, err_size) ||
	    split_path(path, system, name, err, err_size))
		return NULL;
	/* Its own format file only: a system may have hundreds. */
	text = tracefs_event_file_read(NULL, system, name, "format", &size);
	if (!text) {
		snprintf(err, err_size, "%s: no such kernel event", path);
		errno = ENOENT;
		return NULL;
	}
	*len = (size_t)size;
	return text;
}

int evt_kernel_event_paths_any(char ***paths, long **ids, unsigned *n,
			       char *err, size_t err_size)
{
	*ids = NULL;
	if (evt_kernel_event_paths(paths, n, err, err_size) == 0)
		return 0;
	if (errno != EACCES || geteuid() == 0)
		return -1;
	return evt_remote_kernel_ids(paths, ids, n, err, err_size);
}

int evt_kernel_event_load(const char *path, struct evt_kernel_event *out,
			  char *err, size_t err_size)
{
	size_t len = 0;
	char *text = evt_kernel_event_tracefs_format(path, &len, err, err_size);
	int ret;

	memset(out, 0, sizeof(*out));
	if (!text && errno == EACCES && geteuid() != 0 &&
	    evt_remote_kernel_format(path, &text, &len, err, err_size))
		return -1;
	if (!text)
		return -1;
	ret = evt_kernel_event_parse(path, text, len, out, err, err_size);
	free(text);
	return ret;
}

void evt_kernel_event_free(struct evt_kernel_event *e)
{
	free(e->path);
	free(e->src);
	evt_event_format_free(&e->format);
	memset(e, 0, sizeof(*e));
}

int evt_kernel_event_format(const char *path, struct evt_event_format *out,
			    char *err, size_t err_size)
{
	struct evt_kernel_event e;

	memset(out, 0, sizeof(*out));
	if (evt_kernel_event_load(path, &e, err, err_size))
		return -1;
	*out = e.format;
	e.format = (struct evt_event_format){ 0 };
	evt_kernel_event_free(&e);
	return 0;
}
