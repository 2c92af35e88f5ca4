/*
 * report_json.c - report --json: each event or lost-events notice as one
 * JSON object on a line of its own, with the event's decoded fields.
 */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "event_format.h"
#include "record_fields.h"
#include "lost_record.h"
#include "report_output.h"
#include "safe_text.h"

/* b's text on f, and b emptied for the next. */
static void flush_to(FILE *f, struct json_buf *b)
{
	fwrite(b->text, 1, b->len, f);
	b->len = 0;
}

static struct json_buf scratch;	/* the CLI is one thread */

void report_json_string(FILE *f, const char *text, size_t n)
{
	json_buf_string(&scratch, text, n);
	flush_to(f, &scratch);
}

void report_json_fields(FILE *f, const struct evt_trace_item *it)
{
	json_buf_fields(&scratch, it);
	flush_to(f, &scratch);
}

static void json_buf_loss_sites(struct json_buf *b, const struct evt_trace_item *it)
{
	unsigned i;

	json_buf_puts(b, "[");
	for (i = 0; i < it->nsites; i++) {
		const struct evt_event_desc *e = it->sites[i].event;
		const char *cause = evt_loss_cause_word(it->sites[i].cause);

		json_buf_puts(b, i ? ",{\"event\":" : "{\"event\":");
		if (e)
			json_buf_string(b, e->path, strlen(e->path));
		else
			json_buf_puts(b, "null");
		json_buf_puts(b, ",\"cause\":");
		json_buf_string(b, cause ? cause : "?", strlen(cause ? cause : "?"));
		json_buf_printf(b, ",\"count\":%" PRIu64 "}", it->sites[i].count);
	}
	json_buf_puts(b, "]");
}

void report_json_loss_sites(FILE *f, const struct evt_trace_item *it)
{
	json_buf_loss_sites(&scratch, it);
	flush_to(f, &scratch);
}

void report_json_item(FILE *f, const struct evt_trace_item *it)
{
	struct json_buf *b = &scratch;

	json_buf_printf(b, "{\"time_ns\":%" PRId64 ",\"realtime_ns\":%" PRId64,
		it->monotonic_ns, it->realtime_ns);
	json_buf_printf(b, ",\"pid\":%" PRIu32 ",\"tid\":%" PRIu32 ",\"comm\":",
		it->pid, it->tid);
	json_buf_string(b, it->comm, strlen(it->comm));
	if (it->kind == EVT_ITEM_LOST) {
		json_buf_printf(b, ",\"lost\":%" PRIu64 ",\"sites\":", it->lost);
		json_buf_loss_sites(b, it);
		json_buf_puts(b, "}\n");
		flush_to(f, b);
		return;
	}
	json_buf_printf(b, ",\"cpu\":%u,\"event\":", it->cpu);
	json_buf_string(b, it->event->path, strlen(it->event->path));
	json_buf_puts(b, ",\"message\":");
	json_buf_string(b, it->text, it->text_len && it->text[it->text_len - 1] == '\n' ?
			it->text_len - 1 : it->text_len);
	json_buf_puts(b, ",\"fields\":");
	json_buf_fields(b, it);
	json_buf_puts(b, "}\n");
	flush_to(f, b);
}
