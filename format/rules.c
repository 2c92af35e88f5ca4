/*
 * rules.c - read and write collection rules files (see rules.h).
 * The reader is a traced process: the bytes are untrusted and bounded.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "layout.h"
#include "pattern.h"
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
		if (!strncmp(line, "enable", 6) || !strncmp(line, "disable", 7) ||
		    !strncmp(line, "rate", 4)) {
			const char *rest = line + (line[0] == 'e' ? 6 :
						   line[0] == 'd' ? 7 : 4);
			unsigned i = rules->npatterns;

			if (i >= EVT_RULES_MAX_PATTERNS) {
				snprintf(err, err_size,
					 "line %u: more than %d patterns", lineno,
					 EVT_RULES_MAX_PATTERNS);
				return -1;
			}
			rules->pid[i] = 0;
			if (*rest == ':') {
				if (parse_u64(rest + 1, &v) || !v || v > INT32_MAX)
					goto bad_value;
				rules->pid[i] = (uint32_t)v;
			} else if (*rest) {
				goto bad_directive;
			}
			rules->is_rate[i] = line[0] == 'r';
			rules->rate[i] = 0;
			if (rules->is_rate[i]) {	/* "<n> <pattern>" */
				char *pat = strchr(arg, ' ');

				if (!pat)
					goto bad_value;
				*pat++ = '\0';
				if (parse_u64(arg, &v) || v > EVT_RATE_MAX)
					goto bad_value;
				rules->rate[i] = (uint32_t)v;
				arg = pat;
			}
			if (strlen(arg) >= EVT_RULES_PATTERN_MAX)
				goto bad_value;
			rules->disable[i] = line[0] == 'd';
			snprintf(rules->patterns[i], EVT_RULES_PATTERN_MAX, "%s", arg);
			rules->npatterns++;
			continue;
		}
		if (!strcmp(line, "scope")) {
			if (!strcmp(arg, "tree"))
				rules->scope = EVT_SCOPE_TREE;
			else if (!strcmp(arg, "all"))
				rules->scope = EVT_SCOPE_ALL;
			else
				goto bad_value;
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
		/* "slot": what files written before 0.1.7 say */
		if ((!strcmp(line, "number") || !strcmp(line, "slot")) &&
		    v < EVT_MAX_NUMBERS)
			rules->number = v;
		else if (!strcmp(line, "collection") && v)
			rules->collection_id = v;
		else if (!strcmp(line, "packet-size") && v <= UINT32_MAX)
			rules->packet_size = v;
		else if (!strcmp(line, "packet-count") && v <= UINT32_MAX)
			rules->packet_count = v;
		else if (!strcmp(line, "block-us") &&
			 (v <= EVT_BLOCK_MAX_US || v == EVT_BLOCK_INF))
			rules->block_us = v;
		else if (!strcmp(line, "number") || !strcmp(line, "slot") ||
			 !strcmp(line, "collection") ||
			 !strcmp(line, "packet-size") || !strcmp(line, "packet-count") ||
			 !strcmp(line, "block-us"))
			goto bad_value;
		else
			goto bad_directive;
		continue;
bad_directive:
		snprintf(err, err_size, "line %u: unknown directive '%s'", lineno,
			 line);
		return -1;
bad_value:
		snprintf(err, err_size, "line %u: bad '%s' value '%s'", lineno,
			 line, arg);
		return -1;
	}
	if (rules->number && !rules->collection_id) {
		snprintf(err, err_size, "no collection given for number %u",
			 rules->number);
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

	fprintf(f, "evtrace-rules 1\nnumber %u\n", rules->number);
	if (rules->number)
		fprintf(f, "collection %" PRIu64 "\n", rules->collection_id);
	fprintf(f, "scope %s\nmode %s\npacket-size %u\npacket-count %u\n",
		rules->scope == EVT_SCOPE_ALL ? "all" : "tree",
		rules->mode == EVT_MODE_OVERWRITE ? "overwrite" :
		rules->mode == EVT_MODE_COUNT ? "count" : "discard",
		rules->packet_size, rules->packet_count);
	if (rules->block_us)
		fprintf(f, "block-us %u\n", rules->block_us);
	for (i = 0; i < rules->npatterns; i++) {
		fputs(rules->is_rate[i] ? "rate" : rules->disable[i] ? "disable" :
		      "enable", f);
		if (rules->pid[i])
			fprintf(f, ":%u", rules->pid[i]);
		if (rules->is_rate[i])
			fprintf(f, " %u", rules->rate[i]);
		fprintf(f, " %s\n", rules->patterns[i]);
	}
	return ferror(f) ? -1 : 0;
}

int evt_rules_decide(const struct evt_rules *rules, const char *path,
		     const char *func, const char *format, uint32_t pid)
{
	unsigned i = rules->npatterns;

	while (i--)
		if (!rules->is_rate[i] && (!rules->pid[i] || rules->pid[i] == pid) &&
		    evt_pattern_match_site(rules->patterns[i], path, func, format))
			return !rules->disable[i];
	return -1;
}

int64_t evt_rules_rate(const struct evt_rules *rules, const char *path,
		       const char *func, const char *format, uint32_t pid)
{
	unsigned i = rules->npatterns;

	while (i--)
		if (rules->is_rate[i] && (!rules->pid[i] || rules->pid[i] == pid) &&
		    evt_pattern_match_site(rules->patterns[i], path, func, format))
			return rules->rate[i];
	return -1;
}

/* Whether every event pattern q names, p names too (a sure subset). */
static bool covers(const char *p, const char *q)
{
	size_t n = strlen(p);

	while (n && p[n - 1] == '/')
		n--;
	if (n == 0 || (n == 1 && p[0] == '*'))	/* the root: all but printk/ */
		return strncmp(q, "printk", 6) != 0;
	if (memchr(p, '*', n))
		return !strcmp(p, q);
	return !strncmp(p, q, n) && (q[n] == '\0' || q[n] == '/');
}

void evt_rules_move(struct evt_rules *rules, unsigned to, unsigned from)
{
	if (to == from)
		return;
	memcpy(rules->patterns[to], rules->patterns[from], EVT_RULES_PATTERN_MAX);
	rules->disable[to] = rules->disable[from];
	rules->is_rate[to] = rules->is_rate[from];
	rules->rate[to] = rules->rate[from];
	rules->pid[to] = rules->pid[from];
}

int evt_rules_add(struct evt_rules *rules, bool enable, uint32_t pid,
		  const char *pattern, char *err, size_t err_size)
{
	bool on_before = false;
	unsigned i, k, n;

	if (strlen(pattern) >= EVT_RULES_PATTERN_MAX) {
		snprintf(err, err_size, "pattern longer than %d bytes",
			 EVT_RULES_PATTERN_MAX - 1);
		return -1;
	}
	for (i = n = 0; i < rules->npatterns; i++) {
		if (!rules->is_rate[i] && (!pid || rules->pid[i] == pid) &&
		    covers(pattern, rules->patterns[i]))
			continue;	/* moot */
		evt_rules_move(rules, n++, i);
	}
	rules->npatterns = n;
	if (n >= EVT_RULES_MAX_PATTERNS) {
		snprintf(err, err_size, "more than %d rules; disable / and "
			 "printk/ to start again", EVT_RULES_MAX_PATTERNS);
		return -1;
	}
	snprintf(rules->patterns[n], EVT_RULES_PATTERN_MAX, "%s", pattern);
	rules->disable[n] = !enable;
	rules->is_rate[n] = 0;
	rules->rate[n] = 0;
	rules->pid[n] = pid;
	rules->npatterns++;
	/* A disable line with no enable line before it switches off what
	 * nothing switched on. */
	for (i = k = 0; i < rules->npatterns; i++) {
		if (!rules->is_rate[i] && rules->disable[i] && !on_before)
			continue;
		on_before |= !rules->is_rate[i] && !rules->disable[i];
		evt_rules_move(rules, k++, i);
	}
	rules->npatterns = k;
	return 0;
}

int evt_rules_add_rate(struct evt_rules *rules, uint32_t pid,
		       const char *pattern, uint32_t rate, char *err,
		       size_t err_size)
{
	unsigned i, n;

	if (strlen(pattern) >= EVT_RULES_PATTERN_MAX) {
		snprintf(err, err_size, "pattern longer than %d bytes",
			 EVT_RULES_PATTERN_MAX - 1);
		return -1;
	}
	for (i = n = 0; i < rules->npatterns; i++) {
		if (rules->is_rate[i] && (!pid || rules->pid[i] == pid) &&
		    covers(pattern, rules->patterns[i]))
			continue;	/* moot */
		evt_rules_move(rules, n++, i);
	}
	rules->npatterns = n;
	if (n >= EVT_RULES_MAX_PATTERNS) {
		snprintf(err, err_size, "more than %d rules; set the rate of / "
			 "and printk/ to 0 to start again", EVT_RULES_MAX_PATTERNS);
		return -1;
	}
	snprintf(rules->patterns[n], EVT_RULES_PATTERN_MAX, "%s", pattern);
	rules->disable[n] = 0;
	rules->is_rate[n] = 1;
	rules->rate[n] = rate;
	rules->pid[n] = pid;
	rules->npatterns++;
	return 0;
}
