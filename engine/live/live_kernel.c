/*
 * live_kernel.c - the kernel events of a live stream (see live_kernel.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "event_ids.h"
#include "kernel_events.h"
#include "kernel_print.h"
#include "kernel_sampler.h"
#include "layout.h"
#include "live_kernel.h"
#include "pattern.h"
#include "record.h"
#include "report.h"
#include "syscall_capture.h"
#include "rules.h"
#include "usdt_probes.h"

/* One sampler: the events one add started. */
struct sampler {
	struct evt_kernel_sampler *k;
	struct evt_kernel_print *print;
	unsigned n;
	bool *wanted;
	struct evt_event_layout *layouts;	/* typed views of the formats */
	char **formats;				/* in evtrace's syntax */
	bool closing;				/* nothing wanted: freed next drain */
};

struct evt_live_kernel {
	int pid;
	const struct evt_clock_calibration *clock;
	struct sampler *s;
	unsigned ns;
	bool capture_said;	/* why the eBPF program cannot load: once */
	bool usdt_said;		/* that usdt/ rules need one process: once */
	/* While a drain hands samples over: */
	evt_live_cb cb;
	void *ctx;
	struct sampler *at;
	size_t handed;
	uint8_t *payload;
	size_t payload_cap;
	char text[EVT_RENDER_MAX_BYTES];
};

struct evt_live_kernel *evt_live_kernel_new(int pid,
					    const struct evt_clock_calibration *clock)
{
	struct evt_live_kernel *k = calloc(1, sizeof(*k));

	if (k) {
		k->pid = pid;
		k->clock = clock;
	}
	return k;
}

static void sampler_free(struct sampler *s)
{
	unsigned i;

	evt_kernel_sampler_destroy(s->k);
	evt_kernel_print_free(s->print);
	for (i = 0; s->formats && i < s->n; i++)
		free(s->formats[i]);
	free(s->formats);
	free(s->layouts);
	free(s->wanted);
	memset(s, 0, sizeof(*s));
}

/* Which sampler samples path, and as which of its events; NULL if none. */
static struct sampler *sampling(struct evt_live_kernel *k, const char *path,
				unsigned *event)
{
	unsigned i, e;

	for (i = 0; i < k->ns; i++)
		for (e = 0; !k->s[i].closing && e < k->s[i].n; e++)
			if (!strcmp(evt_kernel_sampler_event(k->s[i].k, e)->path, path)) {
				*event = e;
				return &k->s[i];
			}
	return NULL;
}

/* A sampler of the paths (or of the usdt/ patterns' probes in files),
 * started where the stream looks. */
static int start(struct evt_live_kernel *k, const char *const *paths,
		 unsigned n, const char *const *files, unsigned nfiles, char *err,
		 size_t err_size)
{
	struct sampler s = { 0 }, *grown;
	char why[512];
	unsigned i;

	if (evt_kernel_sampler_create_probes(paths, n, files, nfiles, k->clock,
					     EVT_KERNEL_RING_KIB_DEFAULT, &s.k, err,
					     err_size))
		return -1;
	/* The syscalls/ events with the memory their arguments point to,
	 * as a recording has them, where the eBPF program loads. */
	if (evt_kernel_sampler_capture(s.k, EVT_CAP_STRSIZE_DEFAULT, why,
				       sizeof(why)) < 0 && !k->capture_said) {
		evt_report("kernel/syscalls/: the memory their arguments point to "
			   "is not shown, only its addresses (%s)", why);
		k->capture_said = true;
	}
	s.n = evt_kernel_sampler_nevents(s.k);
	s.wanted = calloc(s.n, sizeof(*s.wanted));
	s.layouts = calloc(s.n, sizeof(*s.layouts));
	s.formats = calloc(s.n, sizeof(*s.formats));
	grown = realloc(k->s, (k->ns + 1) * sizeof(*grown));
	if (grown)
		k->s = grown;
	if (!s.wanted || !s.layouts || !s.formats || !grown) {
		sampler_free(&s);
		return snprintf(err, err_size, "out of memory"), -1;
	}
	for (i = 0; i < s.n; i++) {
		const struct evt_kernel_event *e = evt_kernel_sampler_event(s.k, i);

		s.wanted[i] = true;
		s.layouts[i].kind = EVT_KIND_KERNEL;
		s.layouts[i].typed = e->format;		/* a view: not freed */
		s.formats[i] = evt_event_format_text(&e->format);
	}
	s.print = evt_kernel_sampler_printer(s.k);
	if (k->pid > 0 ? evt_kernel_sampler_process(s.k, k->pid, err, err_size) :
			 evt_kernel_sampler_all_cpus(s.k, err, err_size)) {
		sampler_free(&s);
		return -1;
	}
	k->s[k->ns++] = s;
	return 0;
}

/* The events at paths wanted: those no sampler samples yet in one more. */
static int add_paths(struct evt_live_kernel *k, const char *const *paths,
		     unsigned n, char *err, size_t err_size)
{
	const char **fresh = calloc(n ? n : 1, sizeof(*fresh));
	unsigned nfresh = 0, i, e;
	struct sampler *s;

	if (!fresh)
		return snprintf(err, err_size, "out of memory"), -1;
	for (i = 0; i < n; i++)
		if (!sampling(k, paths[i], &e))
			fresh[nfresh++] = paths[i];
	if (nfresh && start(k, fresh, nfresh, NULL, 0, err, err_size)) {
		free(fresh);
		return -1;
	}
	free(fresh);
	for (i = 0; i < n; i++)
		if ((s = sampling(k, paths[i], &e)))
			s->wanted[e] = true;
	return 0;
}

/* A sampler with no event wanted is closed at the next drain. */
static void close_unwanted(struct evt_live_kernel *k)
{
	unsigned i, e, left;

	for (i = 0; i < k->ns; i++) {
		for (e = left = 0; e < k->s[i].n; e++)
			left += k->s[i].wanted[e];
		k->s[i].closing |= !left;
	}
}

/* The USDT probes pattern names in the files the process maps, in a
 * sampler of their own: how many, or -1. */
static int add_usdt(struct evt_live_kernel *k, const char *pattern, char *err,
		    size_t err_size)
{
	char **files = NULL;
	unsigned nfiles = 0;
	int ret;

	if (k->pid <= 0)
		return snprintf(err, err_size, "%s: USDT probes are streamed from one "
				"process (-p PID); not yet from every process", pattern), -1;
	if (evt_usdt_files_of_process(k->pid, &files, &nfiles, err, err_size))
		return -1;
	ret = start(k, &pattern, 1, (const char *const *)files, nfiles, err, err_size);
	evt_usdt_files_free(files, nfiles);
	return ret ? -1 : (int)k->s[k->ns - 1].n;
}

static int add(struct evt_live_kernel *k, const char *pattern, char *err,
	       size_t err_size)
{
	char **paths = NULL;
	const char **named = NULL;
	long *ids = NULL;
	unsigned npaths = 0, *chosen = NULL, nchosen = 0, i;
	int ret = -1;

	if (evt_is_usdt_path(pattern))
		return add_usdt(k, pattern, err, err_size);
	if (evt_kernel_event_paths_any(&paths, &ids, &npaths, err, err_size) ||
	    evt_kernel_match(&pattern, 1, paths, npaths, &chosen, &nchosen, err,
			     err_size))
		goto out;
	if (!(named = calloc(nchosen ? nchosen : 1, sizeof(*named)))) {
		snprintf(err, err_size, "out of memory");
		goto out;
	}
	for (i = 0; i < nchosen; i++)
		named[i] = paths[chosen[i]];
	if (add_paths(k, named, nchosen, err, err_size) == 0)
		ret = (int)nchosen;
out:
	free(named);
	free(chosen);
	free(ids);
	evt_kernel_event_paths_free(paths, npaths);
	return ret;
}

/* Wants exactly the events at paths. */
static int want_paths(struct evt_live_kernel *k, const char *const *paths,
		      unsigned n, char *err, size_t err_size)
{
	unsigned i, e, p;

	for (i = 0; i < k->ns; i++)
		for (e = 0; e < k->s[i].n; e++) {
			const char *path = evt_kernel_sampler_event(k->s[i].k, e)->path;

			for (p = 0; p < n && strcmp(paths[p], path); p++)
				;
			k->s[i].wanted[e] = p < n;
		}
	close_unwanted(k);
	return add_paths(k, paths, n, err, err_size);
}

int evt_live_kernel_select(struct evt_live_kernel *k, bool on,
			   const char *pattern, char *err, size_t err_size)
{
	unsigned i, e, named = 0;

	if (on && k->pid < 0)
		return snprintf(err, err_size, "%s: kernel events of a command's "
				"stream: evtrace trace takes them", pattern), -1;
	if (on)
		return add(k, pattern, err, err_size);
	for (i = 0; i < k->ns; i++)
		for (e = 0; !k->s[i].closing && e < k->s[i].n; e++)
			if (k->s[i].wanted[e] &&
			    evt_pattern_match(pattern,
					      evt_kernel_sampler_event(k->s[i].k, e)->path)) {
				k->s[i].wanted[e] = false;
				named++;
			}
	close_unwanted(k);
	if (!named)
		return snprintf(err, err_size, "'%s': not added", pattern), -1;
	return 0;
}

/*
 * The usdt/ paths of the probes in the files the process maps, once each,
 * into *out (free with evt_usdt_files_free), with those files (*files);
 * none when no rule of r is a usdt/ one.  0, or -1 with err set.
 */
static int usdt_paths(struct evt_live_kernel *k, const struct evt_rules *r,
		      char ***out, unsigned *n, char ***files, unsigned *nfiles,
		      char *err, size_t err_size)
{
	unsigned i;

	*out = *files = NULL;
	*n = *nfiles = 0;
	for (i = 0; i < r->npatterns && !evt_is_usdt_path(r->patterns[i]); i++)
		;
	if (i == r->npatterns)
		return 0;
	if (k->pid <= 0) {	/* (the kernel's events of the rules still are) */
		if (!k->usdt_said)
			evt_report("stream: %s: USDT probes are streamed from one "
				   "process (stream -p PID); not yet from every "
				   "process", r->patterns[i]);
		k->usdt_said = true;
		return 0;
	}
	if (evt_usdt_files_of_process(k->pid, files, nfiles, err, err_size))
		return -1;
	if (evt_usdt_paths((const char *const *)*files, *nfiles, out, n))
		return snprintf(err, err_size, "out of memory"), -1;
	return 0;
}

int evt_live_kernel_want_rules(struct evt_live_kernel *k,
			       const struct evt_rules *r, char *err,
			       size_t err_size)
{
	const char **want = NULL, **fresh = NULL;
	char **paths = NULL, **probes = NULL, **files = NULL;
	long *ids = NULL;
	unsigned npaths = 0, nwant = 0, nprobes = 0, nfiles = 0, nfresh = 0, i, e;
	int ret = -1;

	if (r->npatterns &&
	    evt_kernel_event_paths_any(&paths, &ids, &npaths, err, err_size))
		return -1;
	free(ids);
	if (usdt_paths(k, r, &probes, &nprobes, &files, &nfiles, err, err_size))
		goto out;
	want = calloc(npaths + nprobes + 1, sizeof(*want));
	fresh = calloc(nprobes + 1, sizeof(*fresh));
	if (!want || !fresh) {
		snprintf(err, err_size, "out of memory");
		goto out;
	}
	for (i = 0; i < npaths; i++)
		if (evt_rules_decide(r, paths[i], NULL, NULL, (uint32_t)k->pid) == 1)
			want[nwant++] = paths[i];
	/* The tri-state rules decide each probe, as each kernel event. */
	for (i = 0; i < nprobes; i++)
		if (evt_rules_decide(r, probes[i], NULL, NULL, (uint32_t)k->pid) == 1 &&
		    !sampling(k, probes[i], &e))
			fresh[nfresh++] = probes[i];
	if (nfresh && start(k, fresh, nfresh, (const char *const *)files, nfiles,
			    err, err_size))
		goto out;
	for (i = 0; i < nprobes; i++)
		if (evt_rules_decide(r, probes[i], NULL, NULL, (uint32_t)k->pid) == 1)
			want[nwant++] = probes[i];
	ret = want_paths(k, want, nwant, err, err_size);
out:
	free(want);
	free(fresh);
	evt_usdt_files_free(probes, nprobes);
	evt_usdt_files_free(files, nfiles);
	evt_kernel_event_paths_free(paths, npaths);
	return ret;
}

bool evt_live_kernel_any(const struct evt_live_kernel *k)
{
	unsigned i;

	for (i = 0; k && i < k->ns; i++)
		if (!k->s[i].closing)
			return true;
	return false;
}

static int sample(void *ctx, const struct evt_kernel_sample *ks)
{
	struct evt_live_kernel *k = ctx;
	struct sampler *s = k->at;
	const struct evt_kernel_event *e = evt_kernel_sampler_event(s->k, ks->event);
	struct evt_live_event ev = {
		.monotonic_ns = ks->monotonic_ns, .timestamp = ks->time,
		.pid = ks->pid, .tid = ks->tid, .cpu = (uint16_t)ks->cpu,
		.path = e->path, .id = EVT_NO_ID, .format = s->formats[ks->event],
		.layout = &s->layouts[ks->event], .text = k->text,
	};
	long n;

	if (!s->wanted[ks->event])
		return 0;
	snprintf(ev.comm, sizeof(ev.comm), "%s", ks->comm);
	n = evt_kernel_sample_payload(s->k, ks, &k->payload, &k->payload_cap);
	if (n >= 0) {
		ev.payload = k->payload;
		ev.payload_size = (size_t)n;
	}
	ev.text_len = evt_kernel_sample_text(s->k, s->print, ks, k->payload, n,
					     k->text, sizeof(k->text));
	k->cb(&ev, k->ctx);
	k->handed++;
	return 0;
}

static int lost(void *ctx, unsigned ring, uint64_t n, uint64_t time,
		int64_t monotonic_ns)
{
	struct evt_live_kernel *k = ctx;
	int cpu = evt_kernel_sampler_ring_cpu(k->at->k, ring);
	struct evt_live_event ev = {
		.monotonic_ns = monotonic_ns, .timestamp = time,
		/* (the eBPF program's ring is all CPUs': said as 0) */
		.cpu = (uint16_t)(cpu < 0 ? 0 : cpu), .comm = "kernel", .lost = n,
	};

	k->cb(&ev, k->ctx);
	k->handed++;
	return 0;
}

size_t evt_live_kernel_drain(struct evt_live_kernel *k, evt_live_cb cb,
			     void *ctx)
{
	const struct evt_kernel_sink sink = { sample, lost, k };
	size_t sources = 0;
	char err[512];
	unsigned i;

	if (!k)
		return 0;
	k->cb = cb;
	k->ctx = ctx;
	k->handed = 0;
	for (i = 0; i < k->ns; i++) {
		size_t before = k->handed;

		if (k->s[i].closing)
			continue;
		k->at = &k->s[i];
		evt_kernel_sampler_drain(k->s[i].k, false, &sink, err, sizeof(err));
		sources += k->handed > before;
	}
	return sources;
}

void evt_live_kernel_release(struct evt_live_kernel *k)
{
	unsigned i;

	for (i = 0; k && i < k->ns; i++)
		if (k->s[i].closing) {
			sampler_free(&k->s[i]);
			k->s[i--] = k->s[--k->ns];
		}
}

int evt_live_kernel_events(struct evt_live_kernel *k,
			   void (*cb)(uint32_t id, const char *path,
				      const char *format, void *ctx),
			   void *ctx)
{
	unsigned i, e;
	int n = 0;

	for (i = 0; k && i < k->ns; i++)
		for (e = 0; !k->s[i].closing && e < k->s[i].n; e++)
			if (k->s[i].wanted[e]) {
				cb(EVT_NO_ID, evt_kernel_sampler_event(k->s[i].k, e)->path,
				   k->s[i].formats[e] ? k->s[i].formats[e] : "", ctx);
				n++;
			}
	return n;
}

void evt_live_kernel_free(struct evt_live_kernel *k)
{
	unsigned i;

	if (!k)
		return;
	for (i = 0; i < k->ns; i++)
		sampler_free(&k->s[i]);
	free(k->s);
	free(k->payload);
	free(k);
}
