/*
 * triggers.c - triggers of a flight recorder (triggers.h).
 *
 * The events a trigger names are a live stream of their own (a
 * collection of its own, live_stream.h), which the recorder reads at
 * each turn of its loop: the evaluation is the recorder's, the traced
 * program only writes the triggering events into that stream's buffers
 * besides the flight recorder's.  A firing is due --after later (a span
 * that fired while still open: --after after it ends, so that its window
 * holds it whole); a window is then taken, in this process, as `evtrace
 * snapshot --collection SLOT` takes one (window_take.h), into a new
 * DIR/window-<n> (an existing directory is never written into), with
 * evtrace/trigger saying what fired and what the window holds.  Span
 * triggers pair their spans as every reader does (span_pairs.h).
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "live_stream.h"
#include "report.h"
#include "pattern.h"
#include "record_fields.h"
#include "span_kind.h"
#include "span_pairs.h"
#include "trace_dir.h"
#include "triggers.h"
#include "window_contents.h"
#include "window_take.h"

struct evt_triggers;

/* A trigger armed: its expression, and what evaluating it keeps. */
struct armed {
	const struct evt_trigger *e;
	struct evt_span_pairs *pairs;	/* span: its spans, paired as
					 * every reader pairs them; an open
					 * one that fired is marked */
	struct evt_triggers *rt;	/* span: for pairs' callback */
	unsigned k;
	uint64_t complete, unseen_end, open_at_end;	/* span: followed */
	int64_t next_due_ns;	/* span: no open span fires before it
				 * (INT64_MAX: none can), so that the open
				 * ones are not looked at on every poll */
	bool warned;		/* of a field an event lacks */
	unsigned fired;
};

struct firing {
	unsigned trigger;
	int64_t due_ns, at_ns;
	uint32_t pid, tid;
	uint64_t slice;		/* a span still open past its threshold: its
				 * window waits for its end (due_ns INT64_MAX) */
	int64_t from_ns;	/* --before: the window starts here; 0: all */
	uint64_t event_ts;	/* the event that fired it: trace clock (0:
				 * a kernel event's, found by event_ns) */
	int64_t event_ns;	/* CLOCK_MONOTONIC; 0: no event ('lost') */
	int64_t tried_ns;	/* its window's first try; 0: none yet */
	int64_t span_open_ns;	/* span: how long it had been open when
				 * it fired (0: it fired complete) */
	int64_t span_ns;	/* span: how long it lasted (0: end unseen) */
	enum evt_slice_state span_state;	/* span: as it closed */
	char path[256];
};

/* A window that cannot be taken yet (a process that has just started
 * has not published its control file) is tried again at the next turn
 * for this long after its first try. */
#define WINDOW_RETRY_NS 1000000000LL

/* Spans a trigger keeps open at once: a program that begins spans it
 * never ends (an error path that skips the end, in a storm) must not
 * take the recorder's memory with it.  The ones past it are counted. */
#define OPEN_SPANS_MAX 65536

struct evt_triggers {
	struct evt_triggers_opts o;
	uint64_t lost_seen;	/* of the flight recorder, at the last look */
	unsigned unwritten;	/* windows that failed (a full disk): lost */
	unsigned unheld;	/* windows without their firing event */
	struct evt_live_stream *s;
	struct firing *due;
	size_t ndue, capdue;
	unsigned windows, next_window, skipped;
	uint64_t evaluated;	/* events the triggers looked at */
	uint64_t missed;	/* events the triggers' stream lost */
	struct armed *armed;	/* one for each of o.triggers */
};

static const char *plural(uint64_t n)
{
	return n == 1 ? "" : "s";
}

/* A message of the triggers' user's (report.h: standard error unless the
 * front end says otherwise). */
static void __attribute__((format(printf, 2, 3)))
say(const struct evt_triggers *rt, const char *fmt, ...)
{
	char line[PATH_MAX + 1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	evt_report("%s: %s", rt->o.who, line);
}

static struct firing *fire(struct evt_triggers *rt, unsigned k, int64_t at_ns,
			   uint32_t pid, uint32_t tid, const char *path)
{
	struct firing *f;

	rt->armed[k].fired++;
	/* Windows are --max-windows at most: a firing past them is only
	 * counted (a storm of millions took gigabytes here). */
	if (rt->windows + rt->unwritten + rt->ndue >= rt->o.max_windows) {
		rt->skipped++;
		return NULL;
	}
	if (rt->ndue == rt->capdue) {
		size_t cap = rt->capdue ? 2 * rt->capdue : 8;
		struct firing *grown = realloc(rt->due, cap * sizeof(*grown));

		if (!grown)
			return NULL;	/* the firing is counted, not windowed */
		rt->due = grown;
		rt->capdue = cap;
	}
	f = &rt->due[rt->ndue++];
	f->trigger = k;
	f->at_ns = at_ns;
	f->due_ns = evt_monotonic_ns() + rt->o.after_ns;
	f->pid = pid;
	f->tid = tid;
	f->slice = 0;
	f->event_ts = 0;
	f->event_ns = 0;
	f->tried_ns = 0;
	f->span_open_ns = 0;
	f->span_ns = 0;
	f->span_state = EVT_SLICE_COMPLETE;
	f->from_ns = rt->o.before_ns ? at_ns - rt->o.before_ns : 0;
	snprintf(f->path, sizeof(f->path), "%s", path);
	return f;
}

/* The event that fired f, which its window should hold. */
static struct firing *firing_event(struct firing *f, uint64_t ts, int64_t ns)
{
	if (f) {
		f->event_ts = ts;
		f->event_ns = ns;
	}
	return f;
}

/* A span's window holds its begin, whatever --before says; its file
 * says what the triggers knew of the span when it fired. */
static void hold_span(struct firing *f, int64_t begin_ns, int64_t upto_ns, bool open)
{
	if (!f)
		return;
	if (f->from_ns && begin_ns < f->from_ns)
		f->from_ns = begin_ns;
	if (open)
		f->span_open_ns = upto_ns - begin_ns;
	else
		f->span_ns = upto_ns - begin_ns;
}

static void on_field(struct evt_triggers *rt, unsigned k,
		     const struct evt_live_event *e)
{
	struct armed *t = &rt->armed[k];
	struct evt_field fields[EVT_FIELDS_MAX];
	evt_arg_name names[EVT_PRINTK_MAX_ARGS];
	int n = evt_record_fields(e->layout, e->payload, e->payload_size, fields, names);
	const struct evt_field *f = field_test_find(&t->e->test, fields, n);

	if (f) {
		if (field_test_holds(&t->e->test, f))
			firing_event(fire(rt, k, e->monotonic_ns, e->pid, e->tid, e->path),
				     e->timestamp, e->monotonic_ns);
		return;
	}
	if (!t->warned)
		say(rt, "--trigger '%s': %s has no field %s; it cannot fire on it",
		    t->e->text, e->path, t->e->test.field);
	t->warned = true;
}

/*
 * A span that fired while still open has ended, or its end went unseen:
 * its window is due.  One that ended within its threshold after all (its
 * end was being written when the triggers looked, by a writer the
 * machine had stopped) fired on a state they had not read yet: that
 * firing is taken back.
 */
static void span_ended(struct armed *t, const struct evt_slice *s)
{
	struct evt_triggers *rt = t->rt;
	bool within = s->state == EVT_SLICE_COMPLETE &&
		      s->end.monotonic_ns - s->begin.monotonic_ns <= t->e->threshold_ns;
	size_t i;

	for (i = 0; i < rt->ndue; i++)
		if (rt->due[i].trigger == t->k && rt->due[i].slice == s->id) {
			if (within) {
				rt->due[i] = rt->due[--rt->ndue];
				t->fired--;
			} else {
				rt->due[i].due_ns = evt_monotonic_ns() + rt->o.after_ns;
				rt->due[i].span_state = s->state;
				if (s->state == EVT_SLICE_COMPLETE)
					rt->due[i].span_ns = s->end.monotonic_ns -
							     s->begin.monotonic_ns;
			}
			return;
		}
	if (within) {	/* a firing past --max-windows, only counted */
		t->fired--;
		if (rt->skipped)
			rt->skipped--;
	}
}

/* A span of a trigger closed.  Only one seen whole fires: a span whose
 * end is unknown (events lost on its thread, an enclosing span ended
 * first) never does. */
static int on_slice(const struct evt_slice *s, void *ctx)
{
	struct armed *t = ctx;

	t->complete += s->state == EVT_SLICE_COMPLETE;
	t->unseen_end += s->state == EVT_SLICE_NO_END;
	t->open_at_end += s->state == EVT_SLICE_OPEN;
	if (s->marked)
		span_ended(t, s);
	else if (s->state == EVT_SLICE_COMPLETE &&
		 s->end.monotonic_ns - s->begin.monotonic_ns > t->e->threshold_ns)
		hold_span(firing_event(fire(t->rt, t->k, s->end.monotonic_ns, s->end.pid,
					    s->end.tid, s->path),
				       s->end.timestamp, s->end.monotonic_ns),
			  s->begin.monotonic_ns, s->end.monotonic_ns, false);
	return 0;
}

static void on_span(struct armed *t, const struct evt_live_event *e)
{
	struct evt_span_input in = {
		.lost = !e->path, .path = e->path, .format = e->format,
		.layout = e->layout, .payload = e->payload,
		.payload_size = e->payload_size, .timestamp = e->timestamp,
		.monotonic_ns = e->monotonic_ns, .pid = e->pid, .tid = e->tid,
		.comm = e->comm,
	};
	struct evt_span_head h;

	evt_span_pairs_feed_input(t->pairs, &in);	/* (out of memory:
							 * not followed) */
	if (e->path && !evt_span_head_read(e->layout, e->payload, e->payload_size, &h) &&
	    h.phase == EVT_SPAN_BEGIN && e->monotonic_ns + t->e->threshold_ns < t->next_due_ns)
		t->next_due_ns = e->monotonic_ns + t->e->threshold_ns;
}

static void on_event(const struct evt_live_event *e, void *ctx)
{
	struct evt_triggers *rt = ctx;
	unsigned k;

	if (!e->path) {	/* lost events of the triggers' own stream */
		rt->missed += e->lost;
		for (k = 0; k < rt->o.ntriggers; k++)
			if (rt->armed[k].e->kind == EVT_TRIGGER_SPAN)
				on_span(&rt->armed[k], e);
		return;
	}
	rt->evaluated++;
	for (k = 0; k < rt->o.ntriggers; k++) {
		struct armed *t = &rt->armed[k];

		if (t->e->kind == EVT_TRIGGER_LOST ||
		    !evt_pattern_match_site(t->e->pattern, e->path, e->func, e->format))
			continue;
		if (t->e->kind == EVT_TRIGGER_EVENT)
			firing_event(fire(rt, k, e->monotonic_ns, e->pid, e->tid, e->path),
				     e->timestamp, e->monotonic_ns);
		else if (t->e->kind == EVT_TRIGGER_FIELD)
			on_field(rt, k, e);
		else
			on_span(t, e);
	}
}

/* Frees what start made (the expressions stay the caller's). */
static void triggers_free(struct evt_triggers *rt)
{
	unsigned k;

	if (!rt)
		return;
	evt_live_stream_destroy(rt->s);
	for (k = 0; rt->armed && k < rt->o.ntriggers; k++)
		evt_span_pairs_free(rt->armed[k].pairs);
	free(rt->armed);
	free(rt->due);
	free(rt);
}

struct evt_triggers *evt_triggers_start(const struct evt_triggers_opts *o,
					int pid, char *err, size_t err_size)
{
	struct evt_triggers *rt = calloc(1, sizeof(*rt));
	unsigned k;

	if (!rt || !(rt->armed = calloc(o->ntriggers ? o->ntriggers : 1,
					sizeof(*rt->armed)))) {
		free(rt);
		snprintf(err, err_size, "out of memory");
		return NULL;
	}
	rt->o = *o;
	rt->next_window = 1;
	for (k = 0; k < o->ntriggers; k++) {
		struct armed *t = &rt->armed[k];

		t->e = o->triggers[k];
		t->rt = rt;
		t->k = k;
		t->next_due_ns = INT64_MAX;
		if (t->e->kind != EVT_TRIGGER_SPAN)
			continue;
		if (!(t->pairs = evt_span_pairs_new(on_slice, t))) {
			snprintf(err, err_size, "out of memory");
			triggers_free(rt);
			return NULL;
		}
		evt_span_pairs_bound(t->pairs, OPEN_SPANS_MAX);
	}
	if (evt_live_stream_create(o->rundir, pid, o->what, 0, &rt->s, err, err_size)) {
		triggers_free(rt);
		return NULL;
	}
	evt_live_stream_want_text(rt->s, false);	/* fields are what it reads */
	for (k = 0; k < o->ntriggers; k++)
		if (o->triggers[k]->kind != EVT_TRIGGER_LOST && !o->triggers[k]->kernel &&
		    evt_live_stream_select(rt->s, true, o->triggers[k]->pattern, 0,
					   err, err_size) < 0) {
			triggers_free(rt);
			return NULL;
		}
	return rt;
}

void evt_triggers_kernel_event(struct evt_triggers *rt, const char *path,
				  const struct evt_event_layout *layout,
				  const uint8_t *payload, size_t size,
				  int64_t monotonic_ns, uint32_t pid, uint32_t tid)
{
	struct evt_live_event e = {
		.monotonic_ns = monotonic_ns, .pid = pid, .tid = tid,
		.path = path, .layout = layout, .payload = payload,
		.payload_size = size,
	};

	on_event(&e, rt);
}

const char *evt_triggers_rules_name(const struct evt_triggers *rt)
{
	return evt_live_stream_rules_name(rt->s);
}

/* A window taken, to be described once every window due is written. */
struct taken {
	struct firing f;
	char dir[PATH_MAX];
	char shown[PATH_MAX];	/* dir as messages name it (outdir_name) */
	int64_t taken_ns, written_ns;
};

/* The window of firing f could not be written into dir: err. */
static void unwritten(struct evt_triggers *rt, const struct firing *f, const char *dir,
		      const char *err)
{
	const struct armed *t = &rt->armed[f->trigger];
	struct evt_triggers_window info = {
		.trigger = t->e->text, .event = f->path, .pid = f->pid,
		.tid = f->tid, .fired_ns = f->at_ns, .held = -1, .why = err,
	};

	rt->unwritten++;
	if (rt->o.on_window)
		rt->o.on_window(&info, rt->o.on_window_ctx);
	else
		say(rt, "--trigger '%s' fired, but its window %s could not be "
		    "written: %s", t->e->text, dir, err);
}

/* Takes the window of firing *due: a snapshot of the flight recorder
 * into the next DIR/window-<n> that does not exist, with the recording's
 * kernel events.  0 when written (w filled), -1 when not (said), 1 when
 * to be tried again (retry: allowed). */
static int take_window(struct evt_triggers *rt, struct firing *due,
		       struct taken *w, bool retry)
{
	char err[PATH_MAX + 400];
	struct evt_collection_opts so = {
		.rundir = rt->o.rundir, .mode = EVT_MODE_OVERWRITE,
		.packet_size = EVT_PACKET_DEFAULT_BYTES,
		.packet_count = EVT_PACKETS_DEFAULT, .snapshot = true,
		.adopt_slot = rt->o.slot, .snapshot_since_ns = due->from_ns,
		.calibration = rt->o.calibration,
		.what = "a window of evtrace record --trigger",
	};
	struct evt_collection_stats stats;
	struct stat st;
	uint32_t slot;

	/* (copied: the kernel events written out for the window may fire
	 * triggers, which grow rt->due) */
	w->f = *due;
	/* (a window that could not be written counts: no retry storm) */
	if (rt->windows + rt->unwritten >= rt->o.max_windows) {
		rt->skipped++;
		return -1;
	}
	do
		snprintf(w->dir, sizeof(w->dir), "%s/window-%u", rt->o.outdir,
			 rt->next_window++);
	while (!lstat(w->dir, &st));
	snprintf(w->shown, sizeof(w->shown), "%s/window-%u",
		 rt->o.outdir_name ? rt->o.outdir_name : rt->o.outdir, rt->next_window - 1);
	if (rt->o.before_window)
		rt->o.before_window(rt->o.before_window_ctx);
	/* In this process, at once: no child to start on a loaded machine
	 * while the buffers go on being overwritten. */
	so.output = w->dir;
	w->taken_ns = evt_monotonic_ns();
	if (!due->tried_ns)
		due->tried_ns = w->taken_ns;
	if (evt_window_take(&so, &stats, &slot, err, sizeof(err))) {
		evt_trace_dir_undo(w->dir, true, false);	/* no half window */
		if (retry && w->taken_ns - due->tried_ns < WINDOW_RETRY_NS) {
			rt->next_window--;	/* (its name is free again) */
			return 1;
		}
		unwritten(rt, &w->f, w->shown, err);
		return -1;
	}
	rt->windows++;
	if (rt->o.kernel_window &&
	    rt->o.kernel_window(rt->o.recorder, w->dir, w->f.from_ns, err, sizeof(err)))
		say(rt, "window %s holds no kernel events: %s", w->shown, err);
	w->written_ns = evt_monotonic_ns();
	return 0;
}

/* Reads window w back and says what it holds: in its evtrace/trigger,
 * and on standard error when it misses the event that fired it. */
static void describe_window(struct evt_triggers *rt, const struct taken *w)
{
	const struct firing *f = &w->f;
	const struct armed *t = &rt->armed[f->trigger];
	const struct window_firing want = { f->path, f->tid, f->event_ts, f->event_ns };
	char file[PATH_MAX + 32], err[PATH_MAX + 400], why[PATH_MAX + 400] = "";
	struct evt_triggers_window info = {
		.dir = w->dir, .trigger = t->e->text, .event = f->path,
		.pid = f->pid, .tid = f->tid, .fired_ns = f->at_ns, .held = -1,
	};
	struct window_contents wc;
	bool read_back;
	FILE *out;

	read_back = !window_contents_read(w->dir, f->event_ns ? &want : NULL, &wc, err,
					  sizeof(err));
	if (!read_back)
		snprintf(why, sizeof(why), "could not be read back: %s", err);
	snprintf(file, sizeof(file), "%s/evtrace/trigger", w->dir);
	out = fopen(file, "wxe");
	if (out) {
		fprintf(out, "trigger: %s\nevent: %s\npid: %u\ntid: %u\n"
			"monotonic_ns: %lld\ntaken_ns: %lld\nwritten_ns: %lld\n",
			t->e->text, f->path, f->pid, f->tid, (long long)f->at_ns,
			(long long)w->taken_ns, (long long)w->written_ns);
		if (f->span_open_ns)
			fprintf(out, "span_open_at_firing_ns: %lld\n",
				(long long)f->span_open_ns);
		if (f->span_ns)
			fprintf(out, "span_ns: %lld\n", (long long)f->span_ns);
		else if (f->span_state == EVT_SLICE_OPEN)
			fprintf(out, "span_ns: unknown (still open when the recording ended)\n");
		else if (f->span_state != EVT_SLICE_COMPLETE)
			fprintf(out, "span_ns: unknown (its end was not seen)\n");
		if (read_back)
			window_contents_print(out, &wc, f->event_ns ? &want : NULL);
		fclose(out);
	}
	if (read_back && f->event_ns) {
		info.held = wc.held;
		if (!wc.held) {
			window_contents_why_not(err, sizeof(err), &wc, &want);
			snprintf(why, sizeof(why), "does not hold the event that fired "
				 "it: %s", err);
			rt->unheld++;
		}
	}
	window_contents_free(&wc);
	info.why = why[0] ? why : NULL;
	if (rt->o.on_window) {
		rt->o.on_window(&info, rt->o.on_window_ctx);
		return;
	}
	if (f->pid)
		say(rt, "--trigger '%s' fired on %s (pid %u, tid %u): window %s",
		    t->e->text, f->path, f->pid, f->tid, w->shown);
	else	/* lost: the recorder's own finding */
		say(rt, "--trigger '%s' fired (%s): window %s", t->e->text, f->path,
		    w->shown);
	if (why[0])
		say(rt, "window %s %s", w->shown, why);
}

/* The windows due now (all: every one), each taken first, then each
 * read back and described: a burst of firings is not kept waiting by the
 * reading of the windows before it. */
static void write_due(struct evt_triggers *rt, bool all)
{
	int64_t now = evt_monotonic_ns();
	struct taken *w = NULL, one;
	size_t i = 0, n = 0, cap = 0, k;
	int took;

	while (i < rt->ndue) {
		if (!all && rt->due[i].due_ns > now) {
			i++;
			continue;
		}
		if (n == cap) {
			size_t more = cap ? 2 * cap : 4;
			struct taken *grown = realloc(w, more * sizeof(*grown));

			if (grown) {
				w = grown;
				cap = more;
			}
		}
		if (n < cap)
			took = take_window(rt, &rt->due[i], &w[n], !all);
		else if ((took = take_window(rt, &rt->due[i], &one, !all)) == 0)
			describe_window(rt, &one);	/* (no memory to wait) */
		if (took == 1) {	/* again at the next turn */
			rt->due[i++].due_ns = now + 1;
			continue;
		}
		n += n < cap && took == 0;
		rt->due[i] = rt->due[--rt->ndue];
	}
	for (k = 0; k < n; k++)
		describe_window(rt, &w[k]);
	free(w);
}

struct open_look {
	struct armed *t;
	int64_t now;
	int64_t next_due_ns;	/* of the open ones not due yet */
};

static void open_span(struct evt_slice *s, void *ctx)
{
	struct open_look *look = ctx;
	struct armed *t = look->t;
	struct firing *f;

	if (s->marked || s->async)
		return;
	if (look->now - s->begin.monotonic_ns <= t->e->threshold_ns) {
		if (s->begin.monotonic_ns + t->e->threshold_ns < look->next_due_ns)
			look->next_due_ns = s->begin.monotonic_ns + t->e->threshold_ns;
		return;
	}
	/* (its begin is the event the window must hold) */
	f = firing_event(fire(t->rt, t->k, look->now, s->begin.pid, s->begin.tid, s->path),
			 s->begin.timestamp, s->begin.monotonic_ns);
	s->marked = true;
	if (f) {
		f->slice = s->id;
		f->due_ns = INT64_MAX;
	}
	hold_span(f, s->begin.monotonic_ns, look->now, true);
}

/*
 * A span still open past its threshold at now fires once; its window
 * waits for its end (or the recording's).  now is when a poll that read
 * everything began: a span is open at now only if the triggers read all
 * that was written before it, and no loss on its thread closed it.
 */
static void open_spans(struct evt_triggers *rt, int64_t now)
{
	struct open_look look = { .now = now };
	unsigned k;

	for (k = 0; k < rt->o.ntriggers; k++) {
		look.t = &rt->armed[k];
		if (look.t->e->kind != EVT_TRIGGER_SPAN || look.now <= look.t->next_due_ns)
			continue;
		look.next_due_ns = INT64_MAX;
		evt_span_pairs_each_open(look.t->pairs, open_span, &look);
		look.t->next_due_ns = look.next_due_ns;
	}
}

/* The flight recorder lost events since the last look: 'lost' fires. */
static void losses(struct evt_triggers *rt)
{
	uint64_t n;
	unsigned k;

	if (!rt->o.lost_now)
		return;
	n = rt->o.lost_now(rt->o.recorder);
	if (n <= rt->lost_seen)
		return;
	for (k = 0; k < rt->o.ntriggers; k++)
		if (rt->armed[k].e->kind == EVT_TRIGGER_LOST) {
			char what[64];

			snprintf(what, sizeof(what), "lost %llu event%s",
				 (unsigned long long)(n - rt->lost_seen),
				 n - rt->lost_seen == 1 ? "" : "s");
			fire(rt, k, evt_monotonic_ns(), 0, 0, what);
		}
	rt->lost_seen = n;
}

uint64_t evt_triggers_poll(struct evt_triggers *rt)
{
	uint64_t before = rt->evaluated + rt->missed;
	int64_t now = evt_monotonic_ns();

	evt_live_stream_poll(rt->s, on_event, rt);
	if (!evt_live_stream_more(rt->s))
		open_spans(rt, now);
	losses(rt);
	write_due(rt, false);
	return rt->evaluated + rt->missed - before;
}

void evt_triggers_finish(struct evt_triggers *rt)
{
	unsigned k, fired = 0;
	uint64_t unfollowed = 0, complete = 0, unseen = 0, open = 0;
	int64_t now;

	if (!rt)
		return;
	now = evt_monotonic_ns();
	do	/* (a poll's bound at a time) */
		evt_live_stream_poll(rt->s, on_event, rt);
	while (evt_live_stream_more(rt->s));
	open_spans(rt, now);
	losses(rt);
	for (k = 0; k < rt->o.ntriggers; k++) {
		struct armed *t = &rt->armed[k];

		fired += t->fired;
		if (!t->pairs)
			continue;
		evt_span_pairs_finish(t->pairs);	/* what is still open */
		unfollowed += evt_span_pairs_unfollowed(t->pairs);
		complete += t->complete;
		unseen += t->unseen_end;
		open += t->open_at_end;
	}
	write_due(rt, true);
	{
		char line[512];
		size_t n = 0;

#define ADD(...) (n += (size_t)snprintf(line + n, n < sizeof(line) ? sizeof(line) - n : 0, \
					__VA_ARGS__))
		ADD("triggers fired %u time%s, %u window%s written", fired,
		    plural(fired), rt->windows, plural(rt->windows));
		if (rt->skipped)
			ADD("; %u firing%s after --max-windows %u wrote none",
			    rt->skipped, plural(rt->skipped), rt->o.max_windows);
		if (rt->unwritten)
			ADD("; %u window%s could not be written (the recording went "
			    "on)", rt->unwritten, plural(rt->unwritten));
		if (rt->unheld)
			ADD("; %u window%s %s not hold the event that fired %s (said "
			    "above)", rt->unheld, plural(rt->unheld),
			    rt->unheld == 1 ? "does" : "do", rt->unheld == 1 ? "it" : "them");
#undef ADD
		say(rt, "%s", line);
	}
	if (rt->missed)
		say(rt, "the triggers' stream lost %llu event%s (its buffers were "
		    "full): a trigger may have missed them",
		    (unsigned long long)rt->missed, plural(rt->missed));
	if (unfollowed)
		say(rt, "the triggers did not follow %llu span begin%s: %u spans of a "
		    "trigger were open at once, which a trigger keeps at most",
		    (unsigned long long)unfollowed, plural(unfollowed), OPEN_SPANS_MAX);
	if (unseen)
		say(rt, "the triggers did not see the end of %llu span%s (events lost "
		    "on its thread, or an enclosing span of its name ended first): "
		    "those did not fire", (unsigned long long)unseen, plural(unseen));
	if (rt->o.stats)
		say(rt, "triggers evaluated %llu event%s",
		    (unsigned long long)rt->evaluated, plural(rt->evaluated));
	if (rt->o.stats && complete + unseen + open)
		say(rt, "triggers followed %llu span%s: %llu complete, %llu with no "
		    "end seen, %llu open at the end",
		    (unsigned long long)(complete + unseen + open),
		    plural(complete + unseen + open), (unsigned long long)complete,
		    (unsigned long long)unseen, (unsigned long long)open);
	triggers_free(rt);
}
