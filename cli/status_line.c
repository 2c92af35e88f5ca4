/*
 * status_line.c - record's live status line (see status_line.h).
 */
#include <inttypes.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "report.h"
#include "status_line.h"

static struct {
	bool on, shown;
	int64_t start_ms, drawn_ms, rate_ms;
	uint64_t rate_bytes;
	double rate;		/* MB/s over the last second or so */
} line;

void status_line_clear(void)
{
	if (line.shown)
		fputs("\r\033[K", stderr);
	line.shown = false;
}

/* Engine messages go on a line of their own. */
static void say(const char *message, void *ctx)
{
	(void)ctx;
	status_line_clear();
	fprintf(stderr, "evtrace: %s\n", message);
}

void status_line_start(bool on)
{
	line.on = on && isatty(STDERR_FILENO);
	if (!line.on)
		return;
	line.start_ms = line.rate_ms = (cli_monotonic_ns() / 1000000);
	evt_report_set(say, NULL);
}

void status_line_update(const struct evt_collection *c)
{
	struct evt_collection_stats st;
	int64_t now;

	if (!line.on || (now = (cli_monotonic_ns() / 1000000)) - line.drawn_ms < 500 ||
	    now - line.start_ms < 2000)	/* short recordings stay quiet */
		return;
	line.drawn_ms = now;
	evt_collection_progress(c, &st);
	if (now - line.rate_ms >= 1000) {
		line.rate = (double)(st.bytes - line.rate_bytes) / 1e6 /
			    ((double)(now - line.rate_ms) / 1000);
		line.rate_bytes = st.bytes;
		line.rate_ms = now;
	}
	fprintf(stderr, "\r\033[Krecording %" PRId64 " s: %" PRIu64 "+ events, "
		"%.1f MB in %" PRIu64 " packets from %u process%s, %" PRIu64
		" lost, %.1f MB/s", (now - line.start_ms) / 1000,
		st.events_at_least, (double)st.bytes / 1e6, st.packets,
		st.processes, st.processes == 1 ? "" : "es",
		st.lost + st.lost_unbuffered, line.rate);
	line.shown = true;
}
