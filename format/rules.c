/*
 * rules.c - read and write collection rules files (see rules.h).
 * The reader is a traced process: the bytes are untrusted and bounded.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "layout.h"
#include "rules.h"

int evt_buffer_config_check(uint32_t packet_size, uint32_t packet_count,
			    char *err, size_t err_size)
{
	if (packet_size < EVT_PACKET_MIN_BYTES ||
	    packet_size > EVT_PACKET_MAX_BYTES ||
	    (packet_size & (packet_size - 1))) {
		snprintf(err, err_size,
			 "packet size %u is not a power of two from %u to %u",
			 packet_size, EVT_PACKET_MIN_BYTES, EVT_PACKET_MAX_BYTES);
		return -1;
	}
	if (packet_count < EVT_PACKETS_MIN || packet_count > EVT_PACKETS_MAX) {
		snprintf(err, err_size, "packet count %u is not within %u..%u",
			 packet_count, EVT_PACKETS_MIN, EVT_PACKETS_MAX);
		return -1;
	}
	if ((uint64_t)packet_size * packet_count > EVT_ARENA_BYTES) {
		snprintf(err, err_size,
			 "a thread buffer of %u x %u bytes exceeds the %llu MiB bound",
			 packet_count, packet_size, EVT_ARENA_BYTES >> 20);
		return -1;
	}
	return 0;
}

static int parse_u64(const char *s, uint64_t *v)
{
	char *end;

	errno = 0;
	if (*s < '0' || *s > '9')
		return -1;
	*v = strtoull(s, &end, 10);
	return errno || *end ? -1 : 0;
}

int evt_rules_parse(const char *text, size_t len, struct evt_rules *rules,
		    char *err, size_t err_size)
{
	size_t pos = 0;
	unsigned lineno = 0;
	char line[EVT_RULES_PATTERN_MAX + 32];

	memset(rules, 0, sizeof(*rules));
	rules->packet_size = EVT_PACKET_DEFAULT_BYTES;
	rules->packet_count = EVT_PACKETS_DEFAULT;
	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - text - pos) : len - pos;
		char *arg;
		uint64_t v = 0;

		lineno++;
		if (n >= sizeof(line)) {
			snprintf(err, err_size, "line %u: longer than %zu bytes",
				 lineno, sizeof(line) - 1);
			return -1;
		}
		memcpy(line, text + pos, n);
		line[n] = '\0';
		pos += n + 1;
		if (memchr(line, '\0', n)) {
			snprintf(err, err_size, "line %u: NUL byte", lineno);
			return -1;
		}
		arg = strchr(line, ' ');
		if (arg)
			*arg++ = '\0';
		if (lineno == 1) {
			if (strcmp(line, "evtrace-rules") || !arg ||
			    strcmp(arg, "1")) {
				snprintf(err, err_size,
					 "line 1: not an evtrace-rules 1 file");
				return -1;
			}
			continue;
		}
		if (!line[0])
			continue;
		if (!arg) {
			snprintf(err, err_size, "line %u: '%s' needs a value",
				 lineno, line);
			return -1;
		}
		if (!strcmp(line, "enable")) {
			if (rules->npatterns >= EVT_RULES_MAX_PATTERNS) {
				snprintf(err, err_size,
					 "line %u: more than %d patterns", lineno,
					 EVT_RULES_MAX_PATTERNS);
				return -1;
			}
			snprintf(rules->patterns[rules->npatterns++],
				 EVT_RULES_PATTERN_MAX, "%s", arg);
			continue;
		}
		if (!strcmp(line, "mode")) {
			if (!strcmp(arg, "discard"))
				rules->mode = EVT_MODE_DISCARD;
			else if (!strcmp(arg, "overwrite"))
				rules->mode = EVT_MODE_OVERWRITE;
			else if (!strcmp(arg, "count"))
				rules->mode = EVT_MODE_COUNT;
			else
				goto bad_value;
			continue;
		}
		if (parse_u64(arg, &v))
			goto bad_value;
		if (!strcmp(line, "slot") && v < EVT_NSLOTS)
			rules->slot = v;
		else if (!strcmp(line, "collection") && v)
			rules->collection_id = v;
		else if (!strcmp(line, "packet-size") && v <= UINT32_MAX)
			rules->packet_size = v;
		else if (!strcmp(line, "packet-count") && v <= UINT32_MAX)
			rules->packet_count = v;
		else
			goto bad_value;
		continue;
bad_value:
		snprintf(err, err_size, "line %u: bad '%s' value '%s'", lineno,
			 line, arg);
		return -1;
	}
	if (!rules->slot || !rules->collection_id) {
		snprintf(err, err_size, "no slot or collection given");
		return -1;
	}
	if (evt_buffer_config_check(rules->packet_size, rules->packet_count,
				    err, err_size))
		return -1;
	return 0;
}

int evt_rules_write(FILE *f, const struct evt_rules *rules)
{
	unsigned i;

	fprintf(f, "evtrace-rules 1\nslot %u\ncollection %" PRIu64
		"\nmode %s\npacket-size %u\npacket-count %u\n", rules->slot,
		rules->collection_id,
		rules->mode == EVT_MODE_OVERWRITE ? "overwrite" :
		rules->mode == EVT_MODE_COUNT ? "count" : "discard",
		rules->packet_size, rules->packet_count);
	for (i = 0; i < rules->npatterns; i++)
		fprintf(f, "enable %s\n", rules->patterns[i]);
	return ferror(f) ? -1 : 0;
}
