/*
 * lost_record.c - the names of the causes of loss (lost_record.h).
 */
#include <inttypes.h>
#include <stdio.h>

#include "lost_record.h"

static const char *const names[EVT_LOSS_CAUSES][2] = {
	[EVT_LOSS_FULL] = { "full", "buffer full" },
	[EVT_LOSS_BLOCK_TIMEOUT] = { "block_timeout", "block timeout" },
	[EVT_LOSS_NO_SPACE] = { "no_space", "no space in the run directory" },
	[EVT_LOSS_RATE_LIMIT] = { "rate_limit", "rate limit" },
	[EVT_LOSS_NO_BUFFER] = { "no_buffer", "no buffer for the thread" },
	[EVT_LOSS_RELAY_FULL] = { "relay_full", "relay queue full" },
	[EVT_LOSS_WRITE_ERROR] = { "write_error", "the trace could not be written" },
};

const char *evt_loss_cause_name(unsigned cause)
{
	return cause < EVT_LOSS_CAUSES ? names[cause][1] : NULL;
}

const char *evt_loss_cause_word(unsigned cause)
{
	return cause < EVT_LOSS_CAUSES ? names[cause][0] : NULL;
}

int evt_loss_text(char *out, size_t size, uint64_t lost,
		  const struct evt_loss_part *parts, unsigned nparts)
{
	uint64_t named = 0;
	size_t len;
	unsigned i;
	int n;

	n = snprintf(out, size, "lost %" PRIu64 " event%s", lost,
		     lost == 1 ? "" : "s");
	len = n < 0 ? 0 : (size_t)n;
	for (i = 0; i < nparts; i++) {
		const char *cause = evt_loss_cause_name(parts[i].cause);

		n = snprintf(len < size ? out + len : NULL, len < size ? size - len : 0,
			     "%s%" PRIu64 " of %s (%s)", i ? ", " : ": ",
			     parts[i].count, parts[i].path ? parts[i].path :
			     "other sites", cause ? cause : "?");
		len += n < 0 ? 0 : (size_t)n;
		named += parts[i].count;
	}
	if (nparts && named < lost) {
		n = snprintf(len < size ? out + len : NULL, len < size ? size - len : 0,
			     ", %" PRIu64 " not named", lost - named);
		len += n < 0 ? 0 : (size_t)n;
	}
	return (int)len;
}
