/*
 * cli.h - what the evtrace subcommands share: error reporting in the form
 * "evtrace: <command>: <what>: <why>", and argument checks.
 */
#ifndef EVT_CLI_CLI_H
#define EVT_CLI_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include <time.h>

struct evt_trace_item;
struct evt_loss_part;

int cmd_record(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_query(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_recover(int argc, char **argv);
int cmd_snapshot(int argc, char **argv);
int cmd_ls(int argc, char **argv);
/* ls --probes: of the file path, or of process pid's files (ls_probes.c). */
int cli_ls_probes(const char *path, int pid);
int cmd_enable(int argc, char **argv);
int cmd_disable(int argc, char **argv);
int cmd_format(int argc, char **argv);
int cmd_stream(int argc, char **argv);
int cmd_count(int argc, char **argv);
int cmd_trace(int argc, char **argv);
int cmd_mount(int argc, char **argv);
int cmd_abi_check(int argc, char **argv);
int cmd_daemon(int argc, char **argv);
/* Runs the command argv[0] (evtraced's workers). */
int cli_run(int argc, char **argv);

/* Prints "evtrace: <cmd>: <message>" on stderr; returns 1 (the exit code). */
int cli_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Parses a pid argument; reports and returns -1 when it is not one. */
int cli_parse_pid(const char *cmd, const char *arg);
/* A collection number argument of option opt: 1 .. EVT_MAX_NUMBERS - 1;
 * -1 reported. */
int cli_parse_slot(const char *cmd, const char *opt, const char *arg);
/* --kernel-buffer KIB: a power of two from 8 to 1048576; 0, or -1
 * reported. */
int cli_parse_kernel_buffer(const char *cmd, const char *arg, uint32_t *kib);
/* A size of copied memory, strace's -s: 0 to EVT_CAP_BYTES_MAX bytes.  0,
 * or -1 said ("<option> <arg>: not a size ..."). */
int cli_parse_strsize(const char *cmd, const char *option, const char *arg,
		      uint32_t *bytes);
/* Checks a pattern's syntax; reports with the position when it is bad. */
bool cli_pattern_ok(const char *cmd, const char *pattern);
/* --events-from FILE: its patterns, a line each ('#' lines and empty ones
 * skipped), each checked, appended to patterns (*n of at most cap).
 * 0, or 1 (said: the file, its line and why). */
int cli_read_patterns(const char *cmd, const char *file, const char **patterns,
		      unsigned *n, unsigned cap);
/* "PID[,PID]..." appended to *pids; reports and returns -1 when it is
 * not that. */
int cli_parse_pids(const char *cmd, const char *arg, int **pids,
		   unsigned *npids);
/* Whether n patterns of the user's, with `added` more the command adds
 * itself, fit in one selection (EVT_RULES_MAX_PATTERNS); says "more than
 * N -e patterns" when they do not. */
bool cli_patterns_fit(const char *cmd, unsigned n, unsigned added);
/* Runs argv in a child whose environment names the collection's rules
 * and run directory; its pid, or -1 (errno) or with *exec_errno set when
 * the command could not be run.  With ready, the child waits before exec
 * until ready(child, ctx) returned; when that fails (it reports), the
 * child is killed and *exec_errno is -1. */
pid_t cli_spawn(char **argv, const char *rules, const char *rundir,
		int (*ready)(pid_t child, void *ctx), void *ctx, int *exec_errno);
/*
 * Where a command on these pids runs (via_daemon.c): CLI_LOCAL, also for
 * root on another user's processes (then $EVTRACE_RUNDIR is set to their
 * run directory); CLI_VIA_DAEMON for a user who is not root on another
 * user's; -1 when a run directory cannot be found (reported).
 */
enum { CLI_LOCAL = 0, CLI_VIA_DAEMON = 1 };
int cli_route(const char *cmd, int *pids, unsigned npids);
/* The container the pids routed were in (their run directory is its, and
 * they were changed to the pids it sees), or NULL. */
struct evt_container;
const struct evt_container *cli_routed_container(void);
/*
 * evt_collection_create() of o in rundir, for cmd (said when it fails).
 * When every collection number there is taken, a command's recording or
 * count (command, no pids, not all) takes a run directory of its own,
 * RUNDIR/record-PID, whose numbers are its own: rundir becomes it, *own is
 * set, and it is said; cli_own_rundir_remove() removes it at the end,
 * with what is left in it, unless a process there still runs.  0, or -1.
 */
struct evt_collection;
struct evt_collection_opts;
int cli_collection_create(const char *cmd, struct evt_collection_opts *o,
			  bool command, char *rundir, size_t size,
			  struct evt_collection **c, bool *own);
void cli_own_rundir_remove(const char *path);
/* Whether this is the machine's root: uid 0 in the initial user
 * namespace.  Root in a namespace of a user's own is that user outside,
 * and reaches other users' processes through evtraced as they would. */
bool cli_root(void);
struct evt_request;
/* Asks evtraced to run the request, relaying what it prints; with output,
 * record's trace directory, made here.  The command's exit status. */
int cli_via_daemon(const char *cmd, const struct evt_request *r,
		   const char *output);
/* Calls cb for every event a collection or consumer has met, with a
 * printk site's function (NULL: none, or a consumer's, which does not
 * say). */
typedef void (*cli_event_cb)(uint32_t id, const char *path,
			     const char *format, const char *func, void *ctx);
typedef int (*cli_events_fn)(void *source, cli_event_cb cb, void *ctx);
int cli_collection_events(void *collection, cli_event_cb cb, void *ctx);
int cli_consumer_events(void *consumer, cli_event_cb cb, void *ctx);
/* Whether pattern names the event (fn: and fmt: a printk site by its
 * function and format; an unknown function counts as named). */
bool cli_pattern_names(const char *pattern, const char *path,
		       const char *format, const char *func);
/* Says which patterns name no event there now (they may later), or,
 * ended, named none in the whole run. */
void cli_note_unmatched(const char *cmd, const char *const *patterns,
			unsigned n, cli_events_fn events, void *source,
			bool ended);
/* Says, once per site, which printk sites the patterns name were refused
 * for their format, with every bad conversion. */
void cli_note_refused(const char *cmd, const char *const *patterns, unsigned n,
		      cli_events_fn events, void *source);
/* The same for the events of one control file. */
struct evt_ctl;
void cli_note_refused_in(const char *cmd, const char *pattern,
			 const struct evt_ctl *ctl);
/* Sums up the events the source met that none of the patterns named, by
 * provider (printk: by module), with the -e that would name them: "not
 * <done>" ("recorded", "streamed", "counted"). */
void cli_note_unrecorded(const char *cmd, const char *done,
			 const char *const *patterns, unsigned n,
			 cli_events_fn events, void *source);
/* Says that CMD prog ran without a process of it registering with the
 * engine, and the two reasons why that happens. */
void cli_note_untraced(const char *cmd, const char *prog);
/* Prints the usage of cmd on stderr and returns 2. */
int cli_usage(const char *cmd);
/* --help text of cmd on stdout; returns 0. */
int cli_help(const char *cmd);

/* The ftrace-style lines of report and stream (print.c), on stdout or
 * on f. */
void cli_fprint_event(FILE *f, const char *comm, uint32_t tid, uint16_t cpu,
		      int64_t monotonic_ns, const char *path, const char *text,
		      size_t text_len);
void cli_fprint_lost(FILE *f, const char *comm, uint32_t tid,
		     int64_t monotonic_ns, uint64_t lost);
void cli_print_event(const char *comm, uint32_t tid, uint16_t cpu,
		     int64_t monotonic_ns, const char *path, const char *text,
		     size_t text_len);
/* The same prefix, then text as it stands, to f. */
void cli_fprint_line(FILE *f, const char *comm, uint32_t tid, uint16_t cpu,
		     int64_t monotonic_ns, const char *text, size_t text_len);
void cli_print_lost(const char *comm, uint32_t tid, int64_t monotonic_ns,
		    uint64_t lost);
/* The same lines with the time already written as text. */
void cli_fprint_event_at(FILE *f, const char *comm, uint32_t tid,
			 uint16_t cpu, const char *time, const char *path,
			 const char *text, size_t text_len);
/* A loss of a trace, with the sites its writer named. */
void cli_fprint_lost_at(FILE *f, const char *time,
			const struct evt_trace_item *it);
/* The parts of loss it (at most EVT_LOSS_SITES_MAX) as evt_loss_text()
 * takes them; their count. */
unsigned cli_loss_parts(const struct evt_trace_item *it,
			struct evt_loss_part *parts);
/* Where a printk site is, from its path printk/<module>/<file>/<line>. */
struct cli_site_location {
	const char *module, *file;	/* not NUL-terminated: the lengths */
	size_t module_len, file_len;
	unsigned long line;
};
/* Whether path is a printk site's (loc set). */
bool cli_site_location(const char *path, struct cli_site_location *loc);
/* "s" unless n is 1. */
/* CLOCK_MONOTONIC in nanoseconds. */
static inline int64_t cli_monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static inline const char *cli_plural(uint64_t n)
{
	return n == 1 ? "" : "s";
}

/* An event's format as `format` prints it: a printk format quoted, a
 * typed event's format text as it stands, every line after indent. */
struct evt_ctl_event;
void cli_fprint_format(FILE *f, const struct evt_ctl_event *e,
		       const char *indent);
/* The same from an event's kind and format (a trace's index). */
void cli_fprint_format_of(FILE *f, unsigned kind, const char *format,
			  const char *indent);

#endif
