/*
 * cmd_events.c - evtrace ls, enable, disable and format: the event trees
 * of running processes, read and switched through their control files.
 * They act on the default collection (slot 0), the one `stream` reads.
 */
#include <errno.h>
#include <inttypes.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "caps.h"
#include "cli.h"
#include "printk_format.h"
#include "event_ids.h"
#include "id_registry.h"
#include "kernel_events.h"
#include "live.h"
#include "orphans.h"
#include "protocol.h"
#include "default_switch.h"
#include "rules_files.h"
#include "span_kind.h"
#include "container.h"
#include "ctl_version.h"
#include "requests.h"
#include "slots.h"
#include "trace_index.h"
#include "tree.h"

struct target {
	int pid;			/* 0: every process */
	int collection;			/* enable/disable: a slot; 0: default */
	bool formats, ids;
	bool patterns;			/* ls --patterns */
	bool tracefs;			/* format: the kernel's own text */
	bool probes;			/* ls --probes */
	const char *trace;		/* format: from this trace directory */
	int64_t rate;			/* enable --rate; -1: not given */
	const char *path;
	const char *node_path;		/* path, its quotes taken off */
	char literal[1100];
};

/* "N" or "N/s", 0 to EVT_RATE_MAX; -1 (said) when not. */
static int64_t parse_rate(const char *cmd, const char *arg)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = arg[0] >= '0' && arg[0] <= '9' ? strtoull(arg, &end, 10) : 0;
	if (arg[0] < '0' || arg[0] > '9' || errno || (*end && strcmp(end, "/s")) ||
	    v > EVT_RATE_MAX) {
		cli_error(cmd, "--rate '%s': not a number of events a second "
			  "(N or N/s, 0 to %u)", arg, EVT_RATE_MAX);
		return -1;
	}
	return (int64_t)v;
}

static int parse_args(const char *cmd, int argc, char **argv,
		      struct target *t, bool allow_f, bool need_path)
{
	static const struct option longopts[] = {
		{ "pid", required_argument, NULL, 'p' },
		{ "collection", required_argument, NULL, 'c' },
		{ "formats", no_argument, NULL, 'f' },
		{ "ids", no_argument, NULL, 'i' },
		{ "patterns", no_argument, NULL, 'P' },
		{ "probes", no_argument, NULL, 'U' },
		{ "tracefs", no_argument, NULL, 'T' },
		{ "trace", required_argument, NULL, 'r' },
		{ "rate", required_argument, NULL, 'R' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	memset(t, 0, sizeof(*t));
	t->rate = -1;
	while ((opt = getopt_long(argc, argv, allow_f ? "p:fih" : "p:c:h", longopts,
				  NULL)) != -1) {

		switch (opt) {
		case 'R':
			if (strcmp(cmd, "enable"))
				return cli_usage(cmd);
			t->rate = parse_rate(cmd, optarg);
			if (t->rate < 0)
				return 1;
			break;
		case 'c':
			if (allow_f || !need_path)
				return cli_usage(cmd);
			t->collection = cli_parse_slot(cmd, "--collection", optarg);
			if (t->collection < 0)
				return 1;
			break;
		case 'p':
			t->pid = cli_parse_pid(cmd, optarg);
			if (t->pid < 0)
				return 1;
			break;
		case 'f':
		case 'i':
			if (!allow_f)
				return cli_usage(cmd);
			*(opt == 'f' ? &t->formats : &t->ids) = true;
			break;
		case 'P':
		case 'U':
			if (strcmp(cmd, "ls"))
				return cli_usage(cmd);
			*(opt == 'P' ? &t->patterns : &t->probes) = true;
			break;
		case 'T':
		case 'r':
			if (strcmp(cmd, "format"))
				return cli_usage(cmd);
			if (opt == 'T')
				t->tracefs = true;
			else
				t->trace = optarg;
			break;
		case 'h':
			cli_help(cmd);
			return -1;
		default:
			return cli_usage(cmd);
		}
	}
	if (optind < argc)
		t->path = argv[optind++];
	if (optind < argc) {
		cli_error(cmd, "unexpected argument '%s'", argv[optind]);
		return cli_usage(cmd);
	}
	if (need_path && !t->path) {
		cli_error(cmd, "no event path given");
		return cli_usage(cmd);
	}
	if (t->path && !*t->path)	/* not "/": everything */
		return cli_error(cmd, "an empty event path; give / for every event");
	if (t->path && !cli_pattern_ok(cmd, t->path))
		return 1;
	/* The event or directory it names, its quoted names as they are. */
	t->node_path = t->path;
	if (t->path && evt_pattern_literal(t->path, t->literal, sizeof(t->literal)))
		t->node_path = t->literal;
	if (t->collection && t->pid) {
		cli_error(cmd, "--collection and -p exclude each other: a "
			  "collection covers the processes it covers");
		return cli_usage(cmd);
	}
	if (t->collection && t->rate >= 0) {
		cli_error(cmd, "--collection and --rate exclude each other: a "
			  "rate caps the events for every collection");
		return cli_usage(cmd);
	}
	return 0;
}

/*
 * 1 when the target is another user's process and the command went to
 * evtraced (*ret its exit status), 0 when it runs here, -1 on an error
 * (reported).
 */
static int via_daemon(const char *cmd, enum evt_verb verb, struct target *t,
		      int *ret)
{
	struct evt_request r = {
		.verb = verb, .npids = 1, .pids = { t->pid }, .path = t->path,
		.formats = t->formats, .ids = t->ids,
		.has_rate = verb == EVT_VERB_ENABLE && t->rate >= 0,
		.rate = t->rate >= 0 ? (uint32_t)t->rate : 0,
	};
	int route;

	if (!t->pid)
		return 0;
	route = cli_route(cmd, &t->pid, 1);
	if (route != CLI_VIA_DAEMON)
		return route;
	if (t->patterns)
		return cli_error(cmd, "--patterns of another user's process is "
				 "not yet supported"), -1;
	*ret = cli_via_daemon(cmd, &r, NULL);
	return 1;
}

/* enable/disable --collection N: asked of the engine that holds it. */
static int set_in_collection(const char *cmd, const struct target *t, bool on)
{
	char dir[EVT_RUNDIR_PATH_MAX], err[PATH_MAX + 600], who[300];
	struct evt_rundir rd;
	int n;

	if (evt_rundir_path(dir, sizeof(dir), err, sizeof(err)) ||
	    evt_rundir_open(&rd, dir, EVT_RUNDIR_ROOT_ENTERS, err, sizeof(err)))
		return cli_error(cmd, "%s", err);
	if (!evt_slot_holder(&rd, (unsigned)t->collection, who, sizeof(who))) {
		evt_rundir_close(&rd);
		return cli_error(cmd, "collection %d: no engine holds it "
				 "(ls shows the collections of each process)",
				 t->collection);
	}
	n = evt_request_send(&rd, (unsigned)t->collection, on, t->path, err,
			     sizeof(err));
	evt_rundir_close(&rd);
	if (n < 0)
		return cli_error(cmd, "%s", err);
	if (on && n == 0)
		fprintf(stderr, "evtrace: %s: %s: no event of collection %d's "
			"processes now; it takes those registered later\n", cmd,
			t->path, t->collection);
	return 0;
}

/* A process of the run directory no engine finds: said, as ls would
 * list it (orphans.h). */
static void say_orphan(pid_t pid, const char *comm, const char *file, void *ctx)
{
	cli_error(ctx, "pid %d (%s): its control file %s was removed while it "
		  "ran, not by evtrace: no engine finds it, and it runs untraced "
		  "until it starts again", (int)pid, comm, file);
}

/* Opens the targets' control files; reports when there are none.  The run
 * directory stays open in rd (fd -1 when there is none) for the caller to
 * close. */
static int open_targets(const char *cmd, const struct target *t,
			struct evt_ctl ***ctls, struct evt_rundir *rd)
{
	char dir[EVT_RUNDIR_PATH_MAX], err[PATH_MAX + 300];
	int n = 0;

	rd->fd = -1;
	if (evt_rundir_path(dir, sizeof(dir), err, sizeof(err))) {
		cli_error(cmd, "%s", err);
		return -1;
	}
	if (evt_rundir_open(rd, dir, EVT_RUNDIR_ROOT_ENTERS, err, sizeof(err))) {
		rd->fd = -1;
		if (errno != ENOENT) {
			cli_error(cmd, "%s", err);
			return -1;
		}
		*ctls = NULL;
	} else {
		n = evt_rundir_open_live(rd, t->pid, NULL, NULL, ctls);
		if (!t->pid)
			evt_rundir_orphans(rd, 0, say_orphan, (void *)cmd);
	}
	if (n < 0) {
		cli_error(cmd, "%s: %s", dir, strerror(-n));
		evt_rundir_close(rd);
		return -1;
	}
	if (n == 0) {
		if (t->pid)
			cli_error(cmd, "%s", evt_rundir_why_untraced(dir, t->pid, err,
								    sizeof(err)));
		else
			cli_error(cmd, "no traced process in %s", dir);
		evt_rundir_close_all(*ctls, 0);
		evt_rundir_close(rd);
		return -1;
	}
	return n;
}

/* A control file truncated under us reads as zeroes: say so, skip it. */
static bool shrank(const char *cmd, const struct evt_ctl *c)
{
	if (!c->shrank)
		return false;
	cli_error(cmd, "%s: the file shrank while it was read; skipped", c->path);
	return true;
}

/* " [1,3]": the collections (by number) that have event i on. */
static void print_collections(const struct evt_ctl *c, int i)
{
	uint32_t word = __atomic_load_n(&c->enable[c->events[i].id], __ATOMIC_RELAXED);
	const char *sep = " [";
	unsigned s;

	for (s = 1; s < EVT_NSLOTS; s++)
		if (word & (1u << s)) {
			printf("%s%u", sep, evt_slot_number(c, s));
			sep = ",";
		}
	if (*sep == ',')
		putchar(']');
}

/* The collections active in the process, and who holds them. */
static void print_slots(const struct evt_rundir *rd, const struct evt_ctl *c)
{
	char who[300];
	unsigned s;

	for (s = 1; s < EVT_NSLOTS; s++) {
		if (__atomic_load_n(&c->slots[s].state, __ATOMIC_ACQUIRE) !=
		    EVT_SLOT_ACTIVE)
			continue;
		if (evt_slot_owned(rd, c, s) &&
		    evt_slot_holder(rd, evt_slot_number(c, s), who, sizeof(who)))
			printf("# %s (slot %u%s)\n", who, s,
			       evt_ctl_slot_applied(c, s) ? "" :
			       ", switching its events on");
		else
			printf("# collection %u (slot %u): its engine is gone (the "
			       "next one switches its events off)\n",
			       evt_slot_number(c, s), s);
	}
}

/* The library a process runs, where it is not this evtrace's release. */
static void print_release(const struct evt_ctl *c)
{
	char release[32];

	evt_ctl_release(&c->h, release, sizeof(release));
	if (strcmp(release, EVT_RELEASE))
		printf(", libevtrace %s", release);
}

/* A process of a container -p named (cli_route): the pid the host sees,
 * and the container's identity. */
static void print_container(uint32_t pid)
{
	const struct evt_container *c = cli_routed_container();
	pid_t host;

	if (!c)
		return;
	host = (pid_t)pid == c->pid ? c->host_pid :
	       evt_container_host_pid(c->pidns, (pid_t)pid);
	if (host)
		printf(", host pid %d", (int)host);
	printf(", in a container: pid namespace %llu, cgroup %s",
	       (unsigned long long)c->pidns, c->cgroup[0] ? c->cgroup : "?");
}

/* What ls shows besides the tree: formats, and the run directory's ids
 * (ids.registry set) or none. */
struct showing {
	bool formats;
	struct evt_event_ids *ids;
	bool patterns;		/* a pattern per event, no tree */
	char **said;		/* the patterns printed so far */
	unsigned nsaid;
	const struct evt_rules *rules;	/* default.rules: who set a rate */
	struct evt_caps_seen caps;	/* the running collections' caps */
};

/* ls --patterns: the event's pattern, printed once: a printk site's by
 * its function and format (evt_pattern_of_site), else its path. */
static void print_pattern(const struct evt_ctl_event *e, struct showing *show)
{
	char pattern[2048], **grown;
	const char *p = pattern;
	unsigned i;

	if (e->rider)
		return;
	if (!evt_pattern_of_site(e->path, e->func, e->format, pattern,
				 sizeof(pattern)) &&
	    !evt_pattern_of_path(e->path, pattern, sizeof(pattern)))
		p = e->path;
	for (i = 0; i < show->nsaid; i++)
		if (!strcmp(show->said[i], p))
			return;
	grown = realloc(show->said, (show->nsaid + 1) * sizeof(*grown));
	if (grown && (grown[show->nsaid] = strdup(p))) {
		show->said = grown;
		show->nsaid++;
	} else if (grown) {
		show->said = grown;
	}
	puts(p);
}

static void print_node(const struct evt_ctl *c, const struct evt_tree_node *n,
		       struct showing *show)
{
	bool formats = show->formats;
	unsigned i;

	if (show->patterns) {
		if (n->event >= 0 && !n->nchildren)
			print_pattern(&c->events[n->event], show);
		for (i = 0; i < n->nchildren; i++)
			print_node(c, n->children[i], show);
		return;
	}
	if (n->event >= 0 && !n->nchildren) {
		const struct evt_ctl_event *e = &c->events[n->event];
		char flags[64];

		printf("%c %s", e->refused ? '0' : n->state, n->path);
		if (evt_kind_is_span(e->layout.kind))
			printf(" (%s)", e->layout.kind == EVT_KIND_SPAN ? "span" :
			       e->layout.kind == EVT_KIND_ASYNC ? "async span" :
			       "counter");
		print_collections(c, n->event);
		if (evt_ctl_rate(c, e->id)) {
			uint32_t rate = evt_ctl_rate(c, e->id);
			const struct evt_cap *cap;
			unsigned number;

			/* (a running collection's when it published that
			 * rate; the rule's when a rule gives it) */
			if ((cap = evt_caps_find(&show->caps, c->h.pid, e->id, rate,
						 &number)))
				printf(" (rate %u/s, %s of collection %u, which it "
				       "takes away as it ends)", rate,
				       cap->kind == EVT_CAP_GUARD ? "--guard" :
				       "a consumer's rate", number);
			else
				printf(" (rate %u/s, %s)", rate, show->rules &&
				       evt_rules_rate(show->rules, e->path, e->func,
						      e->format, c->h.pid) == rate ?
				       "a rule: enable --rate or eventfs, until "
				       "--rate 0 or disable" :
				       "set by a collection that no longer runs, or "
				       "by an evtrace before 0.1.11: enable --rate 0 "
				       "lifts it");
		}
		if (show->ids)
			printf(" id=%" PRIu32, evt_event_ids_public(show->ids,
					evt_event_ids_get(show->ids, e)));
		if (e->refused) {
			char why[1024];

			evt_refusal(e->path, e->format, why, sizeof(why));
			printf(" (refused, stays off: %s)", why);
		}
		printf("%s\n", e->unloaded ? " (unloaded)" : "");
		if (formats && evt_event_kind_is_typed(e->layout.kind)) {
			if (e->layout.typed.flags)
				printf("\tflags: %s\n",
				       evt_event_flags_name(e->layout.typed.flags,
							    flags, sizeof(flags)));
			fputs("\tformat:\n", stdout);
			cli_fprint_format(stdout, e, "\t");
		} else if (formats) {
			cli_fprint_format(stdout, e, "\tformat: ");
			if (e->func)
				printf("\tfunction: %s\n", e->func);
		}
	} else {
		printf("%c %s/\n", n->state, n->path);
	}
	for (i = 0; i < n->nchildren; i++)
		print_node(c, n->children[i], show);
}

/* tracefs is root's: a user asks evtraced, which shows the kernel's
 * events to anyone.  The exit status. */
static int kernel_via_daemon(const char *cmd, enum evt_verb verb,
			     const struct target *t, const char *err)
{
	struct evt_request r = {
		.verb = verb, .path = t->path, .formats = t->formats, .ids = t->ids,
		.tracefs = t->tracefs,
	};

	if (errno != EACCES || cli_root())
		return cli_error(cmd, "%s", err);
	return cli_via_daemon(cmd, &r, NULL);
}

/* A kernel event's or directory's lines, as print_node for a process. */
static void print_kernel_node(const struct evt_tree_node *n, char **paths,
			      bool formats, bool ids)
{
	struct evt_event_format f;
	char err[512];
	unsigned i;

	if (n->event < 0 || n->nchildren) {
		printf("%c %s/\n", n->state, n->path);
	} else {
		long id = ids ? evt_kernel_event_id(paths[n->event], err, sizeof(err)) : -1;

		printf("%c %s", n->state, n->path);
		if (id >= 0)
			printf(" id=%ld", id);
		putchar('\n');
		if (formats && evt_kernel_event_format(paths[n->event], &f, err,
						       sizeof(err)) == 0) {
			struct evt_ctl_event e = { .format = evt_event_format_text(&f) };

			e.layout.kind = EVT_KIND_TYPED;
			fputs("\tformat:\n", stdout);
			if (e.format)
				cli_fprint_format(stdout, &e, "\t");
			free(e.format);
			evt_event_format_free(&f);
		} else if (formats) {
			printf("\tformat: %s\n", err);
		}
	}
	for (i = 0; i < n->nchildren; i++)
		print_kernel_node(n->children[i], paths, formats, ids);
}

/* Which kernel events enable switched on in the default collection
 * (on[i] for paths[i]); none when there is no run directory yet. */
static void kernel_states(char **paths, unsigned n, bool *on)
{
	char dir[EVT_RUNDIR_PATH_MAX], err[PATH_MAX + 300];
	struct evt_rundir rd;
	struct evt_rules *r = malloc(sizeof(*r));
	unsigned i;

	if (!r || evt_rundir_path(dir, sizeof(dir), err, sizeof(err)) ||
	    evt_rundir_open(&rd, dir, EVT_RUNDIR_ROOT_ENTERS, err, sizeof(err))) {
		free(r);
		return;
	}
	if (evt_default_rules_kernel(&rd, 0, r, err, sizeof(err)))
		cli_error("ls", "%s", err);
	else
		for (i = 0; i < n; i++)
			on[i] = evt_rules_decide(r, paths[i], NULL, NULL, 0) == 1;
	evt_rundir_close(&rd);
	free(r);
}

/* ls kernel/...: the kernel's events, on where enable switched them on in
 * the default collection. */
static int ls_kernel(const struct target *t)
{
	const struct evt_tree_node *node;
	struct evt_tree_node *root;
	char err[PATH_MAX + 300], **paths;
	unsigned n;
	bool *off;

	if (t->pid)
		return cli_error("ls", "-p: kernel events are the whole system's, "
				 "not a process's");
	if (evt_kernel_event_paths(&paths, &n, err, sizeof(err)))
		return kernel_via_daemon("ls", EVT_VERB_LS, t, err);
	off = calloc(n + 1, sizeof(*off));
	if (off)
		kernel_states(paths, n, off);
	root = off ? evt_tree_build_paths((const char *const *)paths, off, n) : NULL;
	if (!root) {
		free(off);
		evt_kernel_event_paths_free(paths, n);
		return cli_error("ls", "out of memory");
	}
	node = evt_tree_find(root, t->node_path);
	if (node)
		print_kernel_node(node, paths, t->formats, t->ids);
	evt_tree_free(root);
	free(off);
	evt_kernel_event_paths_free(paths, n);
	if (!node)
		return cli_error("ls", "%s: no such kernel event or directory", t->path);
	return 0;
}

int cmd_ls(int argc, char **argv)
{
	struct evt_event_ids ids = { 0 };
	struct showing show = { 0 };
	struct evt_rundir rd;
	struct evt_ctl **ctls;
	struct target t;
	int n, i, ret, shown = 0;

	ret = parse_args("ls", argc, argv, &t, true, false);
	if (ret)
		return ret < 0 ? 0 : ret;
	if (t.probes)	/* (a file's, no event's: PATH as given) */
		return cli_ls_probes(t.path, t.pid);
	n = via_daemon("ls", EVT_VERB_LS, &t, &ret);
	if (n)
		return n < 0 ? 1 : ret;
	if (t.path && evt_is_usdt_path(t.path))
		return cli_error("ls", "%s: a program's USDT probes are listed by "
				 "ls --probes FILE (or -p PID)", t.path);
	if (t.path && evt_is_kernel_path(t.path))
		return ls_kernel(&t);
	n = open_targets("ls", &t, &ctls, &rd);
	if (n < 0)
		return 1;
	show.formats = t.formats;
	show.patterns = t.patterns;
	show.rules = evt_default_rules_read(&rd);
	evt_caps_read_all(&rd, &show.caps);
	if (t.ids) {
		ids.registry = evt_id_registry_open(&rd);
		show.ids = &ids;
	}
	for (i = 0; i < n; i++) {
		struct evt_tree_node *root = evt_tree_build(ctls[i], 0);
		const struct evt_tree_node *node;

		if (!root) {
			evt_rundir_close_all(ctls, n);
			evt_rundir_close(&rd);
			evt_event_ids_free(&ids);
			free((struct evt_rules *)show.rules);
			evt_caps_seen_free(&show.caps);
			return cli_error("ls", "out of memory");
		}
		node = evt_tree_find(root, t.node_path ? t.node_path : "");
		if (node && !shrank("ls", ctls[i])) {
			printf("# pid %u (%s)", ctls[i]->h.pid, ctls[i]->h.comm);
			print_release(ctls[i]);
			print_container(ctls[i]->h.pid);
			putchar('\n');
			if (!show.patterns)
				print_slots(&rd, ctls[i]);
			print_node(ctls[i], node, &show);
			shown++;
		}
		evt_tree_free(root);
	}
	evt_rundir_close_all(ctls, n);
	evt_rundir_close(&rd);
	evt_event_ids_free(&ids);
	for (i = 0; i < (int)show.nsaid; i++)
		free(show.said[i]);
	free(show.said);
	free((struct evt_rules *)show.rules);
	evt_caps_seen_free(&show.caps);
	if (!shown)
		return cli_error("ls", "%s: no such event or directory", t.path);
	return 0;
}

/* enable --rate N PATH: the exit status. */
static int set_rate(const char *cmd, struct target *t)
{
	char err[PATH_MAX + 300];
	struct evt_switch_result res;
	struct evt_rundir rd;
	struct evt_ctl **ctls;
	int n, i, ret;

	n = via_daemon(cmd, EVT_VERB_ENABLE, t, &ret);
	if (n)
		return n < 0 ? 1 : ret;
	n = open_targets(cmd, t, &ctls, &rd);
	if (n < 0)
		return 1;
	ret = evt_default_set_rate(&rd, ctls, (unsigned)n, t->path,
				   (uint32_t)t->rate, (uint32_t)t->pid, NULL, NULL,
				   &res, err, sizeof(err));
	for (i = 0; i < n; i++)
		shrank(cmd, ctls[i]);
	evt_rundir_close_all(ctls, n);
	if (ret)
		ret = cli_error(cmd, "--rate: %s", err);
	else if (!res.events)
		ret = cli_error(cmd, "%s: no such event or directory%s", t->path,
				t->pid ? "" : " in any traced process");
	evt_rundir_close(&rd);
	return ret;
}

/*
 * Kernel events in the default collection: a line of default.rules,
 * which the reader of the default collection (stream without -e) samples
 * while it says so.  Every process's: there is no process to switch them
 * in, and they are the kernel's.
 */
static int set_kernel(const char *cmd, const struct target *t, bool on)
{
	char dir[EVT_RUNDIR_PATH_MAX], err[PATH_MAX + 300], **paths = NULL;
	unsigned npaths = 0, *chosen = NULL, nchosen = 0;
	struct evt_rundir rd;
	long *ids = NULL;
	int ret;

	if (t->pid)
		return cli_error(cmd, "-p %d %s: kernel events are switched for "
				 "every process (stream -p PID, without -e, shows "
				 "those of PID)", t->pid, t->path);
	if (t->rate >= 0)
		return cli_error(cmd, "--rate %s: kernel events take no rate cap",
				 t->path);
	if (evt_kernel_event_paths_any(&paths, &ids, &npaths, err, sizeof(err)) ||
	    evt_kernel_match(&t->path, 1, paths, npaths, &chosen, &nchosen, err,
			     sizeof(err))) {
		free(ids);
		evt_kernel_event_paths_free(paths, npaths);
		return cli_error(cmd, "%s", err);
	}
	free(chosen);
	free(ids);
	evt_kernel_event_paths_free(paths, npaths);
	if (evt_rundir_path(dir, sizeof(dir), err, sizeof(err)) ||
	    evt_rundir_open(&rd, dir, EVT_RUNDIR_CREATE | EVT_RUNDIR_ROOT_ENTERS,
			    err, sizeof(err)))
		return cli_error(cmd, "%s", err);
	ret = evt_default_rules_add(&rd, on, 0, t->path, err, sizeof(err));
	evt_rundir_close(&rd);
	return ret ? cli_error(cmd, "%s", err) : 0;
}

/*
 * enable/disable usdt/...: a line of the default collection's rules, of
 * process t->pid or of any: its readers (stream -p PID without -e, the
 * events filesystem of a process) make the uprobes of the probes it
 * decides on in the files the process maps.
 */
static int set_usdt(const char *cmd, const struct target *t, bool on)
{
	char dir[EVT_RUNDIR_PATH_MAX], err[PATH_MAX + 300];
	struct evt_rundir rd;
	int ret;

	if (t->rate >= 0)
		return cli_error(cmd, "--rate %s: USDT probes take no rate cap",
				 t->path);
	if (evt_rundir_path(dir, sizeof(dir), err, sizeof(err)) ||
	    evt_rundir_open(&rd, dir, EVT_RUNDIR_CREATE | EVT_RUNDIR_ROOT_ENTERS,
			    err, sizeof(err)))
		return cli_error(cmd, "%s", err);
	ret = evt_default_rules_add(&rd, on, (uint32_t)t->pid, t->path, err,
				    sizeof(err));
	evt_rundir_close(&rd);
	return ret ? cli_error(cmd, "%s", err) : 0;
}

/* Whether any event of c has a rate limit. */
static bool has_rate(const struct evt_ctl *c)
{
	uint32_t id;

	for (id = 0; id < c->nevents; id++)
		if (evt_ctl_rate(c, id))
			return true;
	return false;
}

/*
 * disable: the caps enable --rate put on the events it switches off go
 * with them, in the processes and in the rule for later ones (a cap left
 * behind held back a later, unrelated recording's events).  0, or the
 * exit status of an error said.
 */
static int lift_caps(const char *cmd, const struct evt_rundir *rd,
		     struct evt_ctl **ctls, int n, const struct target *t)
{
	char err[PATH_MAX + 300];
	struct evt_switch_result res;
	bool rated = evt_default_rules_rated(rd), any = rated;
	int i;

	for (i = 0; i < n && !any; i++)
		any = has_rate(ctls[i]);
	if (!any)
		return 0;
	if (evt_default_set_rate(rd, ctls, (unsigned)n, t->path, 0, (uint32_t)t->pid,
				 NULL, NULL, &res, err, sizeof(err)) ||
	    (!res.events && rated &&
	     evt_default_rules_rate(rd, (uint32_t)t->pid, t->path, 0, err, sizeof(err))))
		return cli_error(cmd, "%s: switched off, but its rate cap stays: %s",
				 t->path, err);
	return 0;
}

static int set_enable(const char *cmd, int argc, char **argv, bool on)
{
	char err[PATH_MAX + 300];
	struct evt_rundir rd;
	struct evt_ctl **ctls;
	struct target t;
	struct evt_switch_result res;
	int n, i, ret;

	ret = parse_args(cmd, argc, argv, &t, false, true);
	if (ret)
		return ret < 0 ? 0 : ret;
	if (evt_is_usdt_path(t.path) && t.collection)
		return cli_error(cmd, "--collection %d %s: a recording's USDT probes "
				 "are those its -e named; switching them while it "
				 "runs is not yet supported", t.collection, t.path);
	if (evt_is_usdt_path(t.path))
		return set_usdt(cmd, &t, on);
	if (t.collection)
		return set_in_collection(cmd, &t, on);
	if (evt_is_kernel_path(t.path))
		return set_kernel(cmd, &t, on);
	if (t.rate >= 0)
		return set_rate(cmd, &t);
	n = via_daemon(cmd, on ? EVT_VERB_ENABLE : EVT_VERB_DISABLE, &t, &ret);
	if (n)
		return n < 0 ? 1 : ret;
	n = open_targets(cmd, &t, &ctls, &rd);
	if (n < 0)
		return 1;
	/* A rule too: events registered later (a library loaded, a process
	 * started) follow it. */
	ret = evt_default_switch(&rd, ctls, (unsigned)n, t.path, on,
				 (uint32_t)t.pid, false, NULL, NULL, &res, err,
				 sizeof(err));
	for (i = 0; i < n; i++) {
		shrank(cmd, ctls[i]);
		if (on)
			cli_note_refused_in(cmd, t.path, ctls[i]);
	}
	if (!on && !ret && res.events)
		ret = lift_caps(cmd, &rd, ctls, n, &t);
	evt_rundir_close_all(ctls, n);
	if (!res.events)
		ret = cli_error(cmd, "%s: no such event or directory%s", t.path,
				t.pid ? "" : " in any traced process");
	else if (ret)
		ret = cli_error(cmd, "%s; the events there now were switched, "
				"those registered later will not be", err);
	evt_rundir_close(&rd);
	return ret;
}

int cmd_enable(int argc, char **argv)
{
	return set_enable("enable", argc, argv, true);
}

int cmd_disable(int argc, char **argv)
{
	return set_enable("disable", argc, argv, false);
}

/* format --trace DIR PATH: the formats the trace's index gives PATH
 * (once each: stream classes describe one event each). */
static int format_in_trace(const struct target *t)
{
	struct evt_trace_index ix;
	char err[PATH_MAX + 300];
	const char *printed[64];
	unsigned nprinted = 0, k;
	uint32_t i;

	if (evt_trace_index_read_dir(t->trace, &ix, err, sizeof(err)))
		return cli_error("format", "%s", err);
	for (i = 0; i < ix.nevents; i++) {
		const struct evt_event_desc *e = &ix.events[i];

		if (strcmp(e->path, t->node_path))
			continue;
		for (k = 0; k < nprinted; k++)
			if (!strcmp(printed[k], e->format))
				break;
		if (k < nprinted || nprinted == 64)
			continue;
		if (nprinted)	/* two formats under one name (a rider's) */
			fputc('\n', stdout);
		printed[nprinted++] = e->format;
		cli_fprint_format_of(stdout, e->layout.kind, e->format, "");
	}
	evt_trace_index_free(&ix);
	if (!nprinted)
		return cli_error("format", "%s: no such event in %s", t->path, t->trace);
	return 0;
}

int cmd_format(int argc, char **argv)
{
	struct evt_rundir rd;
	struct evt_ctl **ctls;
	struct target t;
	const struct evt_ctl_event *printed[64];
	unsigned nprinted = 0, k;
	int n, i, ret, is_dir = 0;

	ret = parse_args("format", argc, argv, &t, false, true);
	if (ret)
		return ret < 0 ? 0 : ret;
	if (t.collection)
		return cli_usage("format");
	if (t.tracefs && !evt_is_kernel_path(t.path))
		return cli_error("format", "--tracefs: %s is not a kernel event",
				 t.path);
	if (t.trace && (t.pid || t.tracefs))
		return cli_error("format", "--trace reads a trace's formats: not "
				 "with -p or --tracefs");
	if (t.trace)
		return format_in_trace(&t);
	n = via_daemon("format", EVT_VERB_FORMAT, &t, &ret);
	if (n)
		return n < 0 ? 1 : ret;
	if (evt_is_kernel_path(t.path)) {
		struct evt_event_format f;
		char err[PATH_MAX + 300];

		if (t.pid)
			return cli_error("format", "-p: kernel events are the whole "
					 "system's, not a process's");
		if (t.tracefs) {
			size_t len;
			char *text = evt_kernel_event_tracefs_format(t.path, &len, err,
								     sizeof(err));

			if (!text)
				return kernel_via_daemon("format", EVT_VERB_FORMAT, &t, err);
			fwrite(text, 1, len, stdout);
			free(text);
			return 0;
		}
		if (evt_kernel_event_format(t.path, &f, err, sizeof(err)))
			return kernel_via_daemon("format", EVT_VERB_FORMAT, &t, err);
		evt_event_format_write(stdout, &f);
		evt_event_format_free(&f);
		return 0;
	}
	n = open_targets("format", &t, &ctls, &rd);
	if (n < 0)
		return 1;
	evt_rundir_close(&rd);
	for (i = 0; i < n; i++) {
		struct evt_tree_node *root = evt_tree_build(ctls[i], 0);
		const struct evt_tree_node *node = root ?
			evt_tree_find(root, t.node_path) : NULL;
		const struct evt_ctl_event *e;

		if (node && node->event < 0)
			is_dir = 1;
		if (!node || node->event < 0 || shrank("format", ctls[i])) {
			evt_tree_free(root);
			continue;
		}
		e = &ctls[i]->events[node->event];
		for (k = 0; k < nprinted; k++)
			if (!strcmp(printed[k]->format, e->format))
				break;
		if (k == nprinted && nprinted < 64) {
			if (nprinted)	/* two processes, two formats */
				fputc('\n', stdout);
			printed[nprinted++] = e;
			cli_fprint_format(stdout, e, "");
		}
		evt_tree_free(root);
	}
	ret = 0;
	if (!nprinted)
		ret = cli_error("format", "%s: %s", t.path,
				is_dir ? "is a directory, not an event" :
					 "no such event");
	evt_rundir_close_all(ctls, n);
	return ret;
}
