/*
 * selection.c - patterns and ids a collection wants (see selection.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pattern.h"
#include "rules.h"
#include "selection.h"

int evt_selection_add_pattern(struct evt_selection *s, const char *pattern)
{
	char **grown, *copy;
	unsigned i;

	for (i = 0; i < s->npatterns; i++)
		if (!strcmp(s->patterns[i], pattern))
			return 0;
	/* Patterns are published as rules (rules.h): as many as fit. */
	if (s->npatterns >= EVT_RULES_MAX_PATTERNS ||
	    strlen(pattern) >= EVT_RULES_PATTERN_MAX)
		return -2;
	grown = realloc(s->patterns, (s->npatterns + 1) * sizeof(*grown));
	if (!grown)
		return -1;
	s->patterns = grown;
	copy = strdup(pattern);
	if (!copy)
		return -1;
	s->patterns[s->npatterns++] = copy;
	s->gen++;
	return 0;
}

int evt_selection_add_id(struct evt_selection *s, uint32_t id)
{
	uint32_t *grown;
	unsigned i;

	for (i = 0; i < s->nids; i++)
		if (s->ids[i] == id)
			return 0;
	grown = realloc(s->ids, (s->nids + 1) * sizeof(*grown));
	if (!grown)
		return -1;
	s->ids = grown;
	s->ids[s->nids++] = id;
	s->gen++;
	return 0;
}

bool evt_selection_remove_pattern(struct evt_selection *s, const char *pattern)
{
	unsigned i;

	for (i = 0; i < s->npatterns; i++)
		if (!strcmp(s->patterns[i], pattern)) {
			free(s->patterns[i]);
			s->patterns[i] = s->patterns[--s->npatterns];
			s->gen++;
			return true;
		}
	return false;
}

bool evt_selection_remove_id(struct evt_selection *s, uint32_t id)
{
	unsigned i;

	for (i = 0; i < s->nids; i++)
		if (s->ids[i] == id) {
			s->ids[i] = s->ids[--s->nids];
			s->gen++;
			return true;
		}
	return false;
}

int evt_selection_exclude(struct evt_selection *s, const char *pattern)
{
	char **grown, *copy;

	if (s->npatterns + s->nexcludes >= EVT_RULES_MAX_PATTERNS ||
	    strlen(pattern) >= EVT_RULES_PATTERN_MAX)
		return -2;
	grown = realloc(s->excludes, (s->nexcludes + 1) * sizeof(*grown));
	if (!grown)
		return -1;
	s->excludes = grown;
	if (!(copy = strdup(pattern)))
		return -1;
	s->excludes[s->nexcludes++] = copy;
	s->gen++;
	return 0;
}

bool evt_selection_wants(const struct evt_selection *s, uint32_t id,
			 const char *path, const char *func,
			 const char *format)
{
	unsigned i;

	for (i = 0; i < s->nexcludes; i++)
		if (evt_pattern_match_site(s->excludes[i], path, func, format))
			return false;
	for (i = 0; i < s->nids; i++)
		if (s->ids[i] == id)
			return true;
	for (i = 0; i < s->npatterns; i++)
		if (evt_pattern_match_site(s->patterns[i], path, func, format))
			return true;
	return false;
}

void evt_selection_free(struct evt_selection *s)
{
	unsigned i;

	for (i = 0; i < s->npatterns; i++)
		free(s->patterns[i]);
	free(s->patterns);
	for (i = 0; i < s->nexcludes; i++)
		free(s->excludes[i]);
	free(s->excludes);
	free(s->ids);
	memset(s, 0, sizeof(*s));
}

bool evt_selection_has_pattern(const struct evt_selection *s, const char *pattern)
{
	unsigned i;

	for (i = 0; i < s->npatterns; i++)
		if (!strcmp(s->patterns[i], pattern))
			return true;
	return false;
}

int evt_selection_not_there(const struct evt_selection *s, unsigned number,
			    const char *pattern, char *err, size_t err_size)
{
	size_t len = (size_t)snprintf(err, err_size, "collection %u has no "
				      "pattern '%s' (it has:", number, pattern);
	unsigned i;

	for (i = 0; i < s->npatterns && len < err_size; i++)
		len += (size_t)snprintf(err + len, err_size - len, " %s",
					s->patterns[i]);
	if (len < err_size)
		snprintf(err + len, err_size - len, "); disable takes back what "
			 "enable or -e turned on");
	return -1;
}

int evt_selection_change(struct evt_selection *s, bool add, const char *pattern,
			 uint32_t id, char *err, size_t err_size)
{
	int ret;

	if (add) {
		ret = pattern ? evt_selection_add_pattern(s, pattern) :
				evt_selection_add_id(s, id);
		if (ret == -2)
			snprintf(err, err_size, "'%.40s': more than %d patterns, or "
				 "one longer than %d bytes", pattern,
				 EVT_RULES_MAX_PATTERNS, EVT_RULES_PATTERN_MAX - 1);
		else if (ret)
			snprintf(err, err_size, "out of memory");
		return ret ? -1 : 0;
	}
	if (pattern ? evt_selection_remove_pattern(s, pattern) :
		      evt_selection_remove_id(s, id))
		return 0;
	if (pattern)
		snprintf(err, err_size, "'%s': not added", pattern);
	else
		snprintf(err, err_size, "event id %u: not added", id);
	return -1;
}
