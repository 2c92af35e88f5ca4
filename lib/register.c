/*
 * register.c - turn a module's trace_printk() sites into events.
 *
 * A module (the executable or a shared object) registers all its sites at
 * once from its constructor.  Each site becomes
 *   printk/<module>/<source path>/<line>
 * where <module> is the file name of the module and <source path> is
 * __FILE__ without leading "/", "./" and "../" components, so that it is
 * the same on every build of the same tree.  Further sites on one line get
 * "-1", "-2", ... in source order (__COUNTER__); the instantiations of a
 * C++ template's site are one event (process.c, one_template).  A site
 * whose format cannot be stored is registered refused and stays off.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "quote.h"
#include "record_header.h"
#include "runtime.h"

struct module_rt {
	uint32_t nsites;
	uint32_t *ids;		/* event id per site, UINT32_MAX if refused */
	struct evt_event **events_start, **events_stop;
};

/* The file name of the module that holds addr, printable (event paths
 * are listed to other users).  Under evt__proc.lock: one buffer. */
const char *evt__module_name(const void *addr)
{
	static char safe[256];
	Dl_info info;
	const char *name = NULL, *slash;

	if (dladdr(addr, &info) && info.dli_fname && *info.dli_fname)
		name = info.dli_fname;
	else
		name = program_invocation_name;
	slash = strrchr(name, '/');
	return evt_printable(safe, sizeof(safe), slash ? slash + 1 : name);
}

static const char *source_path(const char *file)
{
	for (;;) {
		if (file[0] == '/')
			file++;
		else if (!strncmp(file, "./", 2))
			file += 2;
		else if (!strncmp(file, "../", 3))
			file += 3;
		else
			return file;
	}
}

/* The site's function, when its headers were new enough to say. */
const char *evt__site_func(const struct evt_site *site)
{
	return site->size >= EVT_SITE_SIZE_0_1_4 ? site->func : NULL;
}

/* What the site records: EVT_SITE_PRINTK for headers before spans. */
static uint32_t site_kind(const struct evt_site *site)
{
	return site->size >= EVT_SITE_SIZE_0_1_5 ? site->kind : EVT_SITE_PRINTK;
}

/* The format as a C literal would show it, for messages. */
const char *evt__escape(const char *s, char *out, size_t size)
{
	size_t n = 0;

	for (; *s && n + 5 < size; s++) {
		if (*s == '\n' || *s == '\t' || *s == '"' || *s == '\\') {
			out[n++] = '\\';
			out[n++] = *s == '\n' ? 'n' : *s == '\t' ? 't' : *s;
		} else if ((unsigned char)*s < 0x20) {
			n += snprintf(out + n, size - n, "\\x%02x", (unsigned char)*s);
		} else {
			out[n++] = *s;
		}
	}
	out[n] = '\0';
	return out;
}

/*
 * How each argument is stored: as the format says, except that a string
 * with a precision reads no more than that (from the format, or for '.*'
 * from the int stored just before it).  A precision past what is stored
 * anyway is no limit.
 */
void evt__site_write_types(const struct evt_printk_format *f,
			   struct evt__site_rt *rt)
{
	unsigned i, arg = 0;

	memcpy(rt->types, f->arg_types, f->nargs);
	for (i = 0; i < f->nspecs; i++) {
		const struct evt_printk_spec *s = &f->specs[i];

		arg += s->star_width + s->star_precision;
		if (s->type == EVT_ARG_STRING && s->star_precision) {
			rt->types[arg - 1] = EVT__ARG_PRECISION;
			rt->types[arg] = EVT__ARG_STRING_LIMITED;
			rt->str_limit[arg] = EVT__STR_STAR_LIMIT;
		} else if (s->type == EVT_ARG_STRING && s->precision >= 0 &&
			   s->precision < EVT_STRING_MAX_BYTES) {
			rt->types[arg] = EVT__ARG_STRING_LIMITED;
			rt->str_limit[arg] = (uint16_t)s->precision;
		}
		arg++;
	}
}

/* Where refused or unregistrable sites point: they stay off for good. */
static const uint32_t site_off;

void evt__site_point(struct evt_site *site, const volatile uint32_t *word)
{
	/* Pairs with nothing: a plain pointer store the fast path may see
	 * late, which only delays the site's first event. */
	__atomic_store_n(&site->enable, word, __ATOMIC_RELEASE);
	if (site->size >= EVT_SITE_SIZE_0_1_7 && site->enable_slot)
		__atomic_store_n(site->enable_slot, word, __ATOMIC_RELEASE);
}

void evt__site_stays_off(struct evt_site *site)
{
	evt__site_point(site, &site_off);
}

/* The codes evtrace.h's sites capture are the ones the format checks. */
_Static_assert(EVT__ARGC_CODE((short)0) == EVT_ARGC_INT &&
	       EVT__ARGC_CODE(0u) == EVT_ARGC_UINT &&
	       EVT__ARGC_CODE(0ll) == EVT_ARGC_LONG &&
	       EVT__ARGC_CODE(0ull) == EVT_ARGC_ULONG &&
	       EVT__ARGC_CODE(0.0f) == EVT_ARGC_DOUBLE &&
	       EVT__ARGC_CODE("") == EVT_ARGC_STRING &&
	       EVT__ARGC_CODE((void *)0) == EVT_ARGC_PTR &&
	       EVT__ARGC_CODE(0.0L) == EVT_ARGC_OTHER, "argument codes");

/* Whether libevtrace stores an argument of code given, of a format's
 * type, as the site's own code would (bits/window.h): its
 * promoted value as it is in memory, or a whole string. */
static bool stored_as_given(char given, uint8_t type)
{
	switch (given) {
	case EVT_ARGC_INT: case EVT_ARGC_UINT:
		return type == EVT_ARG_I32 || type == EVT_ARG_U32;
	case EVT_ARGC_LONG: case EVT_ARGC_ULONG:
		return type == EVT_ARG_I64 || type == EVT_ARG_U64;
	case EVT_ARGC_DOUBLE:
		return type == EVT_ARG_DOUBLE;
	case EVT_ARGC_STRING:
		return type == EVT_ARG_STRING;
	case EVT_ARGC_PTR:
		return type == EVT_ARG_PTR;
	}
	return false;
}

/* Lets a C site write its own records when each argument is stored as
 * its code says and its id fits a compact header: before the site is
 * pointed at its enable word. */
static void site_allow_inline(struct evt_site *site, const struct evt__site_rt *rt)
{
	uint32_t i;

	if (site->size < EVT_SITE_SIZE_0_1_14 || !site->arg_types ||
	    rt->id >= EVT_HDR_EXTENDED || strlen(site->arg_types) != rt->nargs)
		return;
	for (i = 0; i < rt->nargs; i++)
		if (!stored_as_given(site->arg_types[i], rt->types[i]))
			return;
	site->inline_id = rt->id + 1;
}

static void register_printk_site(struct evt_site *site, const char *module,
				 uint32_t *id_out, const void *owner)
{
	struct evt_printk_format f;
	struct evt__site_rt *rt;
	char path[1040], err[512], disagree[1024];
	uint32_t id = UINT32_MAX;
	const char *format = site->format;
	int reused, k, n;
	bool refused;

	*id_out = UINT32_MAX;
	/* The path, and room after it for a -k when it is taken. */
	n = snprintf(path, 1024, "printk/%s/%s/%u", module,
		     source_path(site->file), site->line);
	if (n < 0)
		n = 0;
	else if (n > 1023)
		n = 1023;
	refused = evt_printk_parse(site->format, &f, err, sizeof(err)) != 0;
	if (!refused && site->size >= EVT_SITE_SIZE_0_1_12 && site->arg_types &&
	    evt_printk_args_agree(site->format, &f, site->arg_types, err, sizeof(err))) {
		char shown[256];

		/* A format its arguments disagree with would read what was
		 * never passed (a long as a string: a crash): refused, and the
		 * entry's format says why (layout.h: EVT_REFUSED_ARGS). */
		snprintf(disagree, sizeof(disagree), "%sformat \"%s\": %s", EVT_REFUSED_ARGS,
			 evt__escape(site->format, shown, sizeof(shown)), err);
		refused = true;
		format = disagree;
	}
	if (refused) {
		char shown[256];

		/* Said by the tools that would enable it (ls, record...), not
		 * here at every start: registered refused. */
		evt__debug("%s: format \"%s\": %s; this site stays off", path,
			   evt__escape(site->format, shown, sizeof(shown)), err);
	}
	for (k = 0; k < 1000 && id == UINT32_MAX; k++) {
		if (k)
			snprintf(path + n, sizeof(path) - (size_t)n, "-%d", k);
		id = refused ? evt__event_add_refused_locked(path, format,
							     EVT_KIND_PRINTK,
							     evt__site_func(site),
							     &reused) :
			       evt__event_add_site_locked(path, site->format,
							  f.arg_types, f.nargs,
							  evt__site_func(site),
							  &reused);
	}
	if (refused) {
		if (id < UINT32_MAX - 1)
			*id_out = id;	/* unloaded with its module */
		evt__site_stays_off(site);
		return;
	}
	if (id >= UINT32_MAX - 1) {
		path[n] = '\0';
		evt__warn("%s: cannot register (registry full); this site stays off",
			  path);
		evt__site_stays_off(site);
		return;
	}
	if (reused && evt__proc.events[id].rt) {
		/* Another instantiation of its template: one event. */
		site->runtime = evt__proc.events[id].rt;
		*id_out = id;
		site_allow_inline(site, site->runtime);
		evt__site_point(site, &evt__proc.enable[id]);
		evt__site_flag_attach_locked(site, id, owner);
		return;
	}
	rt = evt__proc.events[id].rt = &evt__proc.events[id].rt_store;
	rt->id = id;
	rt->nargs = f.nargs;
	evt__site_write_types(&f, rt);
	rt->max_record_bytes = evt__record_max_bytes(f.arg_types, f.nargs);
	site->runtime = rt;
	*id_out = id;
	site_allow_inline(site, rt);
	evt__site_point(site, &evt__proc.enable[id]);
	evt__site_flag_attach_locked(site, id, owner);
}

/* owner: the site's module, whose unloading frees its flag page; NULL
 * for a site registered alone. */
static void register_site(struct evt_site *site, const char *module,
			  uint32_t *id_out, const void *owner)
{
	if (site_kind(site) == EVT_SITE_PRINTK)
		register_printk_site(site, module, id_out, owner);
	else
		evt__span_site_register_locked(site, id_out);
}

struct site_place {
	uint32_t line, order, index;
};

static int by_place(const void *a, const void *b)
{
	const struct site_place *x = a, *y = b;

	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	if (x->order != y->order)
		return x->order < y->order ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

/*
 * The order to register a module's sites in: by line, then by place on
 * the line (__COUNTER__), so that the k-th site of a line is /N-k in
 * source order whatever order the compiler laid the section out in (gcc
 * -O0 lays it out in reverse).  NULL (then section order) when out of
 * memory.
 */
static struct site_place *in_source_order(struct evt_site **start, uint32_t n)
{
	struct site_place *p = malloc((n ? n : 1) * sizeof(*p));
	uint32_t i;

	if (!p)
		return NULL;
	for (i = 0; i < n; i++) {
		const struct evt_site *s = start[i];
		bool ok = s && s->size >= EVT_SITE_SIZE_0_1_0;

		p[i].line = ok ? s->line : 0;
		p[i].order = ok && s->size >= EVT_SITE_SIZE_0_1_4 ? s->order : 0;
		p[i].index = i;
	}
	qsort(p, n, sizeof(*p), by_place);
	return p;
}

EVT_API void evt__module_register(struct evt_module *module,
				  struct evt_site **start, struct evt_site **stop,
				  struct evt_event **events_start,
				  struct evt_event **events_stop)
{
	int saved = errno;	/* a dlopen() caller's */
	struct site_place *places;
	struct module_rt *mrt;
	const char *name;
	uint32_t i, j, n;

	pthread_mutex_lock(&evt__proc.lock);
	if (!module->registered)
		evt__tables_expect((uint32_t)(stop - start) +
				   (uint32_t)(events_stop - events_start));
	if (module->registered || evt__process_init_locked())
		goto out_unlock;
	module->registered = 1;
	/* What `enable` said since the process started covers this
	 * module too (the first module read it at start). */
	if (evt__proc.nevents > 1)
		evt__rules_reload_default_locked();
	name = evt__module_name(module);
	n = stop - start;
	mrt = calloc(1, sizeof(*mrt));
	if (!mrt || !(mrt->ids = calloc(n ? n : 1, sizeof(uint32_t)))) {
		free(mrt);
		goto out_unlock;
	}
	mrt->nsites = n;
	mrt->events_start = events_start;
	mrt->events_stop = events_stop;
	module->runtime = mrt;
	evt__events_register_locked(events_start, events_stop, name);
	places = in_source_order(start, n);
	for (j = 0; j < n; j++) {
		i = places ? places[j].index : j;
		if (!start[i] || start[i]->size < EVT_SITE_SIZE_0_1_0) {
			evt__warn("module %s: site %u has an unknown layout", name, i);
			mrt->ids[i] = UINT32_MAX;
			continue;
		}
		register_site(start[i], name, &mrt->ids[i], module);
	}
	free(places);
	evt__debug("module %s: %u sites, %zu event definitions", name, n,
		   (size_t)(events_stop - events_start));
out_unlock:
	pthread_mutex_unlock(&evt__proc.lock);
	errno = saved;
}

/*
 * A site executed before anyone registered it: C++ places a function
 * template's statics outside the section, and a module's sites may run in
 * another module's constructor first.  Never waits: if registration is busy
 * (another thread, or the thread this signal handler interrupted), the
 * event is skipped and the next execution tries again.
 */
static void register_one_locked(struct evt_site *site)
{
	uint32_t id;

	if (site->runtime)	/* another thread was first */
		return;
	if (site->size < EVT_SITE_SIZE_0_1_0 || evt__process_init_locked()) {
		evt__site_stays_off(site);
		return;
	}
	register_site(site, evt__module_name(site), &id, NULL);
}

void evt__site_register_lazy(struct evt_site *site)
{
	int saved = errno;	/* the caller's, whatever registering does */

	if (pthread_mutex_trylock(&evt__proc.lock))
		return;
	register_one_locked(site);
	pthread_mutex_unlock(&evt__proc.lock);
	errno = saved;
}

EVT_API void evt__site_register(struct evt_site *site)
{
	int saved = errno;

	pthread_mutex_lock(&evt__proc.lock);
	register_one_locked(site);
	pthread_mutex_unlock(&evt__proc.lock);
	errno = saved;
}

EVT_API void evt__site_unregister(struct evt_site *site)
{
	const struct evt__site_rt *rt = site->runtime;
	int saved = errno;

	pthread_mutex_lock(&evt__proc.lock);
	if (rt && rt->id < evt__proc.nevents)
		evt__event_unload_locked(rt->id);
	pthread_mutex_unlock(&evt__proc.lock);
	errno = saved;
}

EVT_API void evt__module_unregister(struct evt_module *module)
{
	struct module_rt *mrt = module->runtime;
	int saved = errno;	/* a dlclose() caller's */
	uint32_t i;

	pthread_mutex_lock(&evt__proc.lock);
	if (!module->registered || !mrt)
		goto out_unlock;
	for (i = 0; i < mrt->nsites; i++)
		if (mrt->ids[i] != UINT32_MAX)
			evt__event_unload_locked(mrt->ids[i]);
	evt__events_unregister_locked(mrt->events_start, mrt->events_stop);
	evt__flag_pages_release_locked(module);
	free(mrt->ids);
	free(mrt);
	module->runtime = NULL;
	module->registered = 0;
out_unlock:
	pthread_mutex_unlock(&evt__proc.lock);
	errno = saved;
}
