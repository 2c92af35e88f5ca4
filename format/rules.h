/*
 * rules.h - a collection's published rules, read by traced processes.
 *
 * A collection that must see processes from their start writes its rules
 * to a file in the run directory and names it in $EVTRACE_COLLECTION in
 * the environment of the processes it covers (children inherit it).  A
 * process applies the rules itself when it registers its events, so it
 * never waits on an engine.  Text, one directive per line:
 *
 *   evtrace-rules 1
 *   slot 1
 *   collection 1234567890
 *   mode discard | overwrite | count
 *   packet-size 65536
 *   packet-count 16
 *   enable <pattern>          (any number)
 */
#ifndef EVT_FORMAT_RULES_H
#define EVT_FORMAT_RULES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "layout.h"

#define EVT_RULES_MAX_PATTERNS 64
#define EVT_RULES_PATTERN_MAX 256

struct evt_rules {
	uint32_t slot;
	uint64_t collection_id;
	uint32_t mode;
	uint32_t packet_size;
	uint32_t packet_count;
	unsigned npatterns;
	char patterns[EVT_RULES_MAX_PATTERNS][EVT_RULES_PATTERN_MAX];
};

/* Returns 0, or -1 with "line N: why" in err. */
int evt_rules_parse(const char *text, size_t len, struct evt_rules *rules,
		    char *err, size_t err_size);
int evt_rules_write(FILE *f, const struct evt_rules *rules);
/* 0 when sizes and counts are within the limits of layout.h. */
int evt_buffer_config_check(uint32_t packet_size, uint32_t packet_count,
			    char *err, size_t err_size);

#endif
