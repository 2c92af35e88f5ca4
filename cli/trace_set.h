/*
 * trace_set.h - the traces a query names: trace directories, or trees
 * holding them (a relay's output directory of many hosts), and what tells
 * whether they changed since a cache was made of them.
 */
#ifndef EVT_CLI_TRACE_SET_H
#define EVT_CLI_TRACE_SET_H

#include <stddef.h>

struct trace_set {
	char **dirs;		/* in the order named; a tree's sorted */
	size_t n;
	int64_t *offsets_ns;	/* --align's, by trace; NULL: none */
};

/* Adds arg: a trace directory (one holding a metadata file), or every
 * trace directory below it.  0, or -1 with err set (no trace there). */
int trace_set_add(struct trace_set *s, const char *arg, char *err, size_t err_size);
/* The hostname of the trace's metadata, or NULL; to be freed. */
char *trace_set_host(const char *dir);
void trace_set_free(struct trace_set *s);

#endif
