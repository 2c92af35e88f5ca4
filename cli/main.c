/*
 * main.c - the evtrace command: dispatch to subcommands, shared helpers.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "kernel_print.h"
#include "trace_sql.h"
#include "kernel_events.h"
#include "layout.h"
#include "pattern.h"
#include "rundir.h"
#include "syscall_capture.h"

struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *usage;
	const char *help;
};

static const struct command commands[] = {
	{ "record", cmd_record,
	  "record [-e PATTERN]... [--events-from FILE] [-o DIR] [--relay HOST[:PORT] [--session NAME] [--hostname NAME] [--relay-buffer MIB]] [--overwrite [--keep PATTERN]... [--trigger EXPR]... [--before DURATION] [--after DURATION] [--max-windows N] | --block[=MS|inf]] [--packet-size BYTES] [--packets N] [--kernel-buffer KIB] [--strsize SIZE] [--guard PERCENT] [--probes-in FILE]... [--fail-on-loss] [--stats] [-q] (-p PID[,PID]... | -a | [-a] -- CMD [ARG]...)",
	  "Run CMD, with everything it forks, execs and dlopens, and record its\n"
	  "events into the CTF trace directory DIR (default: trace).  With -p,\n"
	  "record running processes instead, and the children they fork, until\n"
	  "interrupted or they have all exited; they run on untraced after.\n\n"
	  "  -p, --pid PID[,PID]... attach to these traced processes\n"
	  "  -a, --all              every traced process of the run directory, and\n"
	  "                         kernel events on every CPU, whoever runs there;\n"
	  "                         until interrupted, or while CMD runs\n"
	  "  -e, --event PATTERN    enable the events PATTERN names (repeatable);\n"
	  "                         without -e every event of the program is\n"
	  "                         (printk, typed and stable; not kernel/).\n"
	  "                         ftrace/print is always enabled.  kernel/...\n"
	  "                         patterns record kernel tracepoints in the same\n"
	  "                         processes (perf_event_open), on one timeline;\n"
	  "                         fn:GLOB and fmt:GLOB (alone or after a printk/\n"
	  "                         path) name printk sites by function and format\n"
	  "      --events-from FILE the patterns of FILE, one a line (# comments):\n"
	  "                         ls --patterns writes such a list\n"
	  "  -o, --output DIR       trace directory (made with mode 0700); a trace\n"
	  "                         of yours there is kept as DIR.old\n"
	  "      --relay HOST[:PORT[:DATA_PORT]]  stream the recording live to\n"
	  "                         lttng-relayd (ports 5342 and 5343 by default;\n"
	  "                         live readers at its port 5344), instead of a\n"
	  "                         trace directory, or besides one with -o\n"
	  "      --session NAME     the relay session's name (default: evtrace)\n"
	  "      --hostname NAME    the host the relay files it under (default:\n"
	  "                         this machine's name)\n"
	  "      --relay-buffer MIB what may wait for the relay (1..4096, default\n"
	  "                         64); a packet past it is dropped, counted\n"
	  "      --overwrite        flight recorder: keep the newest events only\n"
	  "      --probes-in FILE   look for the USDT probes -e usdt/... names in\n"
	  "                         FILE too (a library the program dlopens;\n"
	  "                         with -a, where to look)\n"
	  "      --keep PATTERN     with --overwrite: the events PATTERN names go\n"
	  "                         to small rings of their own (DIR/keep, read\n"
	  "                         with DIR) that the others cannot overwrite\n"
	  "                         (repeatable)\n"
	  "      --trigger EXPR     with --overwrite: each time EXPR fires, write\n"
	  "                         what the buffers hold, and the kernel events\n"
	  "                         of that time, into DIR/window-N\n"
	  "                         (repeatable): PATTERN (an event it names,\n"
	  "                         kernel/... too, which are then recorded),\n"
	  "                         PATTERN if FIELD OP VALUE (== != < <= > >=;\n"
	  "                         strings with == and != only), or\n"
	  "                         span NAME > DURATION (ns us ms s; also one\n"
	  "                         still open past it), or lost (events were)\n"
	  "      --before DURATION  each window from that long before its firing\n"
	  "                         (default: all the buffers hold; a span\n"
	  "                         trigger's span whole)\n"
	  "      --after DURATION   take each window that long after its firing\n"
	  "                         (default 0)\n"
	  "      --max-windows N    write at most N windows (default 5); later\n"
	  "                         firings are counted\n"
	  "      --block[=MS]       a thread whose buffer is full waits for the\n"
	  "                         recorder, MS at most (1..1000, default 5), or\n"
	  "                         with inf as long as the recorder lives,\n"
	  "                         instead of dropping the event\n"
	  "      --packet-size N    bytes per packet (power of two, 16 KiB..16 MiB)\n"
	  "      --packets N        packets per thread buffer (2..4096)\n"
	  "      --kernel-buffer KIB  each CPU's ring for kernel events (power of\n"
	  "                         two, 8..1048576; default 1024)\n"
	  "      --strsize SIZE     kernel/syscalls/ events keep the memory their\n"
	  "                         arguments point to, copied at the call by an\n"
	  "                         eBPF program (root): paths whole, buffers'\n"
	  "                         first SIZE bytes (0..4096, default 32), as\n"
	  "                         trace's -s; 0: addresses only\n"
	  "      --guard PERCENT    cap, in its process, a site that takes more\n"
	  "                         than PERCENT of a thread's buffer in a second\n"
	  "                         (1..100; not with --overwrite); said at the end\n"
	  "      --fail-on-loss     exit 1 when any event was lost (after CMD's own\n"
	  "                         failure, which comes first): for CI; not with\n"
	  "                         --overwrite, which drops the oldest by design\n"
	  "      --stats            also print the CPU time the recording took, the\n"
	  "                         bytes it drained per CPU second, its wake-ups and\n"
	  "                         the times it left a writer's CPU\n"
	  "  -q, --quiet            no status line (on a terminal, from 2 s on:\n"
	  "                         events and MB drained, lost events, MB/s)\n\n"
	  "Ctrl-C reaches CMD (SIGINT, SIGTERM or SIGHUP sent to record alone is\n"
	  "passed on): record says it waits for CMD, and recording goes on until\n"
	  "CMD has exited, its shutdown included; a second one stops at once,\n"
	  "CMD running on.\n\n"
	  "Exits with CMD's exit status (128 + signal if it was killed, or if a\n"
	  "second signal stopped record first; 1 with --fail-on-loss when events\n"
	  "were lost and CMD succeeded); with -p,\n"
	  "0 when stopped or when the processes are gone.  If the\n"
	  "trace cannot be written (a full disk, DIR removed), recording stops\n"
	  "where the trace is whole, CMD runs on untraced, and record exits 1\n"
	  "when CMD ends.\n" },
	{ "report", cmd_report,
	  "report [-e PATTERN]... [-F FILTER]... [-p PID[,PID]...] [-t TID[,TID]...] [--since TIME] [--until TIME] [--clock CLOCK] [--stats | --json] [--align FLOW]... [DIR]...",
	  "Print the events of the trace in DIR (default: trace), one line each,\n"
	  "time-ordered across threads and processes, with lost-event lines, then\n"
	  "a summary.  Several DIRs (of several machines) are merged on real time.\n\n"
	  "  -e, --event PATTERN    only events PATTERN names (repeatable)\n"
	  "  -F, --filter 'PATTERN if FIELD OP VALUE'\n"
	  "                         also the events PATTERN names whose FIELD\n"
	  "                         compares (== != < <= > >=; numbers, strings\n"
	  "                         with == and !=) (repeatable)\n"
	  "  -p, --pid PID[,PID]... only these processes (repeatable)\n"
	  "  -t, --tid TID[,TID]... only these threads (repeatable)\n"
	  "      --since TIME       nothing before TIME: a time as report prints\n"
	  "                         it on --clock (8312.004211965; with --clock\n"
	  "                         relative, 1.5), a time after the trace's first\n"
	  "                         event with a sign or a unit (+1.5, 1.5s,\n"
	  "                         250ms), a time of day on its date\n"
	  "                         (14:03:07.25) or a local date and time\n"
	  "                         (2026-12-04T14:03:07)\n"
	  "      --until TIME       nothing after TIME\n"
	  "      --clock CLOCK      times as monotonic (CLOCK_MONOTONIC seconds, the\n"
	  "                         default), realtime (local date and time, to line\n"
	  "                         up with logs) or relative (seconds after the\n"
	  "                         trace's first event)\n"
	  "      --stats            per event: count, rate, first and last time; per\n"
	  "                         thread: events and lost; instead of the events\n"
	  "      --json             one JSON object per line and event, with its\n"
	  "                         decoded fields (the summary goes to stderr)\n"
	  "      --align FLOW       with several DIRs: move each machine's clock\n"
	  "                         so that no message of FLOW (async/NAME: its\n"
	  "                         begin sent, its end received; or\n"
	  "                         SEND:RECV:FIELD: two events whose FIELD is\n"
	  "                         the message's id) is received before it was\n"
	  "                         sent; says the moves (repeatable)\n\n"
	  "Lost-event lines are kept by -e (a loss may hide any event) and\n"
	  "filtered by process, thread and time.  Exits 1 when part of the trace\n"
	  "could not be read (said on stderr), 0 otherwise.\n" },
	{ "convert", cmd_convert, "convert --to FORMAT [-o FILE] [-e PATTERN]... [-F FILTER]... [-p PID] [-t TID] [--since TIME] [--until TIME] [--align FLOW]... [DIR]...",
	  "Write the trace in DIR (default: trace) in another tool's format, to\n"
	  "FILE or standard output, with only what the filters keep; several\n"
	  "DIRs merged on real time, as report merges them.\n\n"
	  "  -t, --to FORMAT        chrome-json: the Trace Event format that\n"
	  "                         Perfetto UI, chrome://tracing and Speedscope\n"
	  "                         open: a track per thread (comm-tid), grouped by\n"
	  "                         process; events as instants with their message\n"
	  "                         and fields; spans as slices with their state,\n"
	  "                         async spans, counters; losses as \"lost events\"\n"
	  "                         markers\n"
	  "                         perfetto: Perfetto's own protobuf trace, which\n"
	  "                         its UI, trace processor and Python API read:\n"
	  "                         the same, a sequence per thread, with typed\n"
	  "                         fields, interned names and source locations,\n"
	  "                         losses as slices on a lost-events track per\n"
	  "                         thread and as data loss; kernel events as\n"
	  "                         ftrace events in a bundle per CPU\n"
	  "                         sqlite: the tables of evtrace query, into the\n"
	  "                         database FILE (-o is needed)\n"
	  "  -o, --output FILE      where to write it (removed again on failure)\n"
	  "  -e, --event PATTERN    only events PATTERN names (repeatable)\n"
	  "  -F, --filter 'PATTERN if FIELD OP VALUE'  as report takes it\n"
	  "  -p, --pid PID[,PID]... only these processes (repeatable)\n"
	  "      --tid TID[,TID]... only these threads (repeatable)\n"
	  "      --since TIME       nothing before TIME (as report takes it)\n"
	  "      --until TIME       nothing after TIME\n"
	  "      --clock CLOCK      sqlite: times as monotonic (the default),\n"
	  "                         realtime or relative, as query has them\n"
	  "      --align FLOW       as report's (repeatable)\n\n"
	  "Losses are kept by -e, as in report.  A span cut by --since or\n"
	  "--until shows as what is left of it (no_begin, open).  Exits 1 when\n"
	  "part of the trace could not be read (said on stderr).\n" },
	{ "query", cmd_query, "query [--csv | --json] [--fail-if-rows] [--clock CLOCK] [--no-cache] [--align FLOW]... [TRACE]... SQL",
	  "Run the SQL statements SQL (SQLite's dialect) over the traces TRACE\n"
	  "(default: trace): trace directories, or trees holding them, such as a\n"
	  "relay's output directory of many hosts; print each statement's rows.\n"
	  "The tables (times in nanoseconds; evtrace(1) says what each holds):\n"
	  TRACE_SQL_TABLES "\n"
	  "      --csv              rows as CSV (RFC 4180), a header line first\n"
	  "      --json             one JSON object per row and line\n"
	  "      --fail-if-rows     exit 1 when any statement returned a row: an\n"
	  "                         assertion on a trace, for test suites\n"
	  "      --clock CLOCK      times as monotonic (CLOCK_MONOTONIC, the\n"
	  "                         default), realtime (since the epoch: lines up\n"
	  "                         traces of several hosts) or relative (since\n"
	  "                         each trace's first event)\n"
	  "      --no-cache         accepted and ignored: nothing is cached\n"
	  "      --align FLOW       each trace's times moved as report --align\n"
	  "                         moves them (repeatable)\n\n"
	  "The traces are read afresh at each query, the events in place (their\n"
	  "messages and fields made when asked for); nothing is written beside\n"
	  "them.  Exits 2 when SQLite refuses the\n"
	  "SQL (its message and the tables are said), 1 with --fail-if-rows and\n"
	  "rows, or when part of a trace could not be read (said on stderr).\n" },
	{ "diff", cmd_diff, "diff [--json] [--fail-if GATE]... [--alpha P] [--min-change PCT] A B",
	  "Compare two runs A and B: each event's count and rate, and each span\n"
	  "name's count, rate and durations (p50, p90, p99, mean of its complete\n"
	  "spans), side by side with the change from A to B and the p-value of\n"
	  "\"they are the same\".  A and B are traces, or directories of several\n"
	  "traces each (runs).  One run a side, only p50 and p90 are tested (the\n"
	  "share of B's spans above A's quantile); a tail, a mean, a count or a\n"
	  "rate moves from run to run with the machine's other work, which one run\n"
	  "does not measure.  Several runs a side, every figure is tested on the\n"
	  "runs' values (Welch's t).  A change is marked significant (*) when\n"
	  "p < --alpha and it is --min-change or more.\n\n"
	  "      --json             one JSON document: both sides, every row, the\n"
	  "                         gates\n"
	  "      --fail-if GATE     exit 1 when GATE trips: 'KEY METRIC > CHANGE%'\n"
	  "                         or '<', such as 'span/Get p99 > +10%' (KEY a\n"
	  "                         pattern, as the shell's; METRIC count, rate,\n"
	  "                         p50, p90, p99 or mean); a tested metric trips\n"
	  "                         only when its change is significant at\n"
	  "                         --alpha too, and a duration untested is an\n"
	  "                         error (repeatable)\n"
	  "      --alpha P          the p-value under which a change is taken as\n"
	  "                         real (default 0.001)\n"
	  "      --min-change PCT   the least change marked significant (default\n"
	  "                         5%: two runs of one program differ by a little,\n"
	  "                         which many samples make \"significant\")\n\n"
	  "Exits 1 when a gate tripped or part of a trace could not be read\n"
	  "(said on stderr), 2 on bad arguments or a gate that names nothing or\n"
	  "what is not tested.\n" },
	{ "snapshot", cmd_snapshot, "snapshot [-o DIR] [-p PID | --collection N] [--before DURATION] [--no-kernel]",
	  "Write what a running --overwrite recording (a flight recorder) holds\n"
	  "in its buffers now into the trace directory DIR (default: snapshot),\n"
	  "the newest events of every thread, with the recording's kernel events\n"
	  "of that time, which its recorder adds; the recording goes on untouched\n"
	  "and writes its own trace when it ends.\n\n"
	  "  -o, --output DIR       trace directory; a trace there is kept as\n"
	  "                         DIR.old\n"
	  "  -p, --pid PID          the recording that covers this process\n"
	  "  -c, --collection N     the recording of collection number N (evtrace\n"
	  "                         ls names them); without -p or -c, the only\n"
	  "                         running --overwrite recording\n"
	  "      --before DURATION  only the last DURATION of it (5s, 200ms: each\n"
	  "                         buffer's packets that end within it)\n"
	  "      --no-kernel        leave the recording's kernel events out\n" },
	{ "recover", cmd_recover, "recover [-o DIR] [--slot N] (PID | CONTROL-FILE)",
	  "Read into the trace directory DIR (default: trace) what a recording\n"
	  "left in the buffers of process PID when its recorder was killed or\n"
	  "crashed: the process may have crashed after, or run on.  With an\n"
	  "--overwrite recording (a flight recorder) that is its newest events.\n"
	  "Run it before another engine (record, stream, count) starts, which\n"
	  "clears what gone recorders left.\n\n"
	  "  -o, --output DIR       trace directory; a trace there is kept as\n"
	  "                         DIR.old\n"
	  "      --slot N           the collection number to read when several\n"
	  "                         recorders that are gone left buffers (evtrace\n"
	  "                         ls -p PID)\n" },
	{ "ls", cmd_ls, "ls [-p PID] [-f] [--ids] [--patterns] [PATH] | --probes (FILE | -p PID)",
	  "Show the event tree of running traced processes (or of PID) with the\n"
	  "state of every directory and event: 0, 1, X (mixed) or ? (nothing\n"
	  "below).  PATH limits the tree.  States are the default collection's;\n"
	  "an event other collections have on is followed by their slots, e.g.\n"
	  "[1,3], each named under its process; a process's heading names the\n"
	  "libevtrace it runs when that is not this evtrace's release.\n\n"
	  "  -f, --formats          add each event's format, and each printk\n"
	  "                         site's function\n"
	  "  -i, --ids              add each event's global id (id=N): the id\n"
	  "                         consumers and every engine of the run\n"
	  "                         directory give it; for kernel/..., the\n"
	  "                         kernel's tracepoint id\n"
	  "      --patterns         instead, a pattern per event that names it by\n"
	  "                         function and format, not line (printk sites),\n"
	  "                         which record --events-from takes back\n"
	  "      --probes           instead, the USDT probes the binary or\n"
	  "                         library FILE carries (or the files process\n"
	  "                         PID maps): usdt/PROVIDER/NAME, the types of\n"
	  "                         its arguments, where it is\n" },
	{ "enable", cmd_enable, "enable [-p PID | --collection N | --rate N[/s]] PATH",
	  "Enable the event or directory PATH in running processes (or in PID).\n"
	  "The root enables everything except printk/; name printk/ or below\n"
	  "to enable printk events.  It is also a rule for events registered\n"
	  "later: libraries loaded and, without -p, processes started after it.\n"
	  "PATH under kernel/ switches kernel tracepoints, for every process:\n"
	  "a stream without -e shows them.\n\n"
	  "  -c, --collection N     in the running collection of slot N (a\n"
	  "                         recording, stream, count or consumer; ls\n"
	  "                         shows them)\n"
	  "                         instead of the default collection\n"
	  "  --rate N[/s]           instead, cap each event under PATH at N events\n"
	  "                         a second in each thread, for every collection\n"
	  "                         (0: no cap; at most 100000000); what is on\n"
	  "                         stays on, what is off stays off; the events\n"
	  "                         over it are counted as lost (rate limit)\n" },
	{ "disable", cmd_disable, "disable [-p PID | --collection N] PATH",
	  "Disable the event or directory PATH, with the rules of enable.  With\n"
	  "--collection N, take back a PATH that enable or -e gave it.\n" },
	{ "format", cmd_format, "format [-p PID | --tracefs | --trace DIR] PATH",
	  "Print the format of the event PATH: for a printk event, its quoted\n"
	  "format string; for a typed, stable or kernel event, a line per field\n"
	  "with its name, type, size in bits, alignment and signedness.  From\n"
	  "the running traced processes (or PID), or from a trace.\n\n"
	  "      --tracefs          for a kernel event, the kernel's own format\n"
	  "                         file, as tracefs has it\n"
	  "      --trace DIR        the format the trace directory DIR recorded\n"
	  "                         the event with (no process need run)\n" },
	{ "abi-check", cmd_abi_check, "abi-check [--update] BASELINE (TRACE | -- CMD [ARG]...)",
	  "Compare the formats of the stable events of CMD (run under record) or\n"
	  "of the trace directory TRACE with the baseline directory BASELINE,\n"
	  "one file <name>.format per stable event.  Prints what changed, as a\n"
	  "line diff, and exits 1 when a format changed, or a stable event was\n"
	  "added or removed.\n\n"
	  "  -u, --update           write the program's formats to BASELINE instead\n" },
	{ "count", cmd_count, "count [-e PATTERN]... [-I MS] (-p PID[,PID]... | -- CMD [ARG]...)",
	  "Count how many times the events PATTERN names (without -e, every\n"
	  "event of the program, as record: printk, typed and stable; not\n"
	  "kernel/) happen in CMD, with everything it forks, execs and\n"
	  "dlopens, or in running processes, like perf stat: no records are\n"
	  "written, each thread adds to a counter per event, and no count is\n"
	  "lost.  Prints a line per event (0 included) on stderr when CMD exits\n"
	  "(with -p: when interrupted or the processes are gone).  Kernel events\n"
	  "(-e kernel/...) are counted by the kernel (perf_event_open), in CMD\n"
	  "from its exec on and the children it forks, or in one -p process,\n"
	  "which need not be traced; the kernel's rules decide who may.\n\n"
	  "  -e, --event PATTERN    count the events PATTERN names (repeatable)\n"
	  "  -p, --pid PID[,PID]... count in these running traced processes\n"
	  "  -I, --interval MS      also print the counts of every MS milliseconds\n"
	  "                         (10..3600000), each line led by the time\n\n"
	  "Ctrl-C reaches CMD as with record: counting goes on until CMD has\n"
	  "exited; a second one stops at once, CMD running on.  Exits with CMD's\n"
	  "exit status (128 + signal if it was killed, or if a second signal\n"
	  "stopped count first), or 0 with -p.\n" },
	{ "stream", cmd_stream, "stream [-p PID] [-e PATTERN]... [-F FILTER]...",
	  "Print the events of running processes (or of PID) live, until\n"
	  "interrupted or the reader of the output is gone.  Without -e, read\n"
	  "the default collection (what enable switched on), one such stream at\n"
	  "a time.  With -e, the stream is a collection of its own: PATTERN is\n"
	  "on for it alone while it runs (also for events registered later),\n"
	  "and off again however it ends; many such streams run at once.\n"
	  "Kernel events (kernel/...) are of PID and its children, or without\n"
	  "-p of every CPU, in time order with the processes' own.\n\n"
	  "  -e, --event PATTERN    the events PATTERN names (repeatable)\n"
	  "  -F, --filter 'PATTERN if FIELD OP VALUE'\n"
	  "                         also those PATTERN names whose FIELD compares,\n"
	  "                         as report takes it (repeatable)\n" },
	{ "trace", cmd_trace, "trace [-e PATTERN]... [-e trace=SET] [-s SIZE] [-o FILE] [-w DIR] [-c | -C] [-f] [--kernel-buffer KIB] (-p PID | -- CMD [ARG]...)",
	  "Run CMD, or attach to PID, and print, live, its system calls as\n"
	  "strace shows them (flags and enums by name, descriptors signed,\n"
	  "paths, strings, buffers and common structs as they were at the\n"
	  "call, results with their errno names, durations), among its own\n"
	  "events, one line each in time order, following the threads and\n"
	  "children it starts.  The memory comes from an eBPF program (root);\n"
	  "where it cannot be loaded, trace says so once and shows addresses.\n"
	  "Lines go to standard error, as strace's do, about 100 ms after the\n"
	  "fact; the command's output is its own.\n\n"
	  "  -e, --event PATTERN    its events to show (repeatable; default every\n"
	  "                         printk event); kernel/... adds kernel events\n"
	  "  -e trace=SET           only these system calls: names and classes\n"
	  "                         (file, desc, process, network, memory, signal,\n"
	  "                         ipc; %class too), comma-separated, !SET for\n"
	  "                         all but those (repeatable: the union)\n"
	  "  -s, --string-limit SIZE  the bytes of a buffer or string shown\n"
	  "                         (0..4096, default 32; paths are shown whole)\n"
	  "  -o, --output FILE      the lines to FILE instead of standard error\n"
	  "  -w, --write DIR        also keep what is shown as a trace in DIR\n"
	  "  -c, --summary-only     a table of the calls (time, calls, errors)\n"
	  "                         at the end, instead of the lines\n"
	  "  -C, --summary          the lines and the table\n"
	  "  -f, --follow-forks     taken for strace's sake: children are always\n"
	  "                         followed\n"
	  "  -p, --pid PID          the process PID (your own; root: anyone's)\n"
	  "                         and its threads from now on, until it exits\n"
	  "                         or Ctrl-C\n"
	  "      --kernel-buffer KIB  each CPU's ring for kernel events (power of\n"
	  "                         two, 8..1048576; default 8192)\n\n"
	  "Needs kernel.perf_event_paranoid at 1 or less, or CAP_PERFMON, and\n"
	  "tracefs (root's) for the system calls' formats.  Ctrl-C reaches CMD\n"
	  "as with record: tracing goes on until CMD has exited; a second one\n"
	  "stops at once, CMD running on.  Exits with CMD's exit status (128 +\n"
	  "signal if it was killed, or if a second signal stopped trace first);\n"
	  "0 with -p.\n" },
	{ "mount", cmd_mount, "mount [-p PID] [-d] [--allow-other] DIR",
	  "Mount the events filesystem on DIR (FUSE): events/ holds the event\n"
	  "tree of your traced processes (or of PID) as directories, each with\n"
	  "an enable file reading 0, 1, X (mixed) or ? (nothing below) that\n"
	  "takes 0 or 1, and each event with its format and id; proc/PID/events/\n"
	  "is one process's tree; trace_pipe streams the enabled events as text\n"
	  "to whoever reads it; DIR/README says more.  It acts on the default\n"
	  "collection, as enable, disable and stream without -e do.  Runs in\n"
	  "the foreground until unmounted (fusermount3 -u DIR) or interrupted.\n\n"
	  "  -p, --pid PID          only this process (root: anyone's)\n"
	  "  -d, --daemon           return once mounted, serving in the background\n"
	  "      --allow-other      let other users in (root, or user_allow_other\n"
	  "                         in /etc/fuse.conf); who may switch what stays\n"
	  "                         as for enable: the process's user, root, or\n"
	  "                         the group it opted into\n" },
	{ "daemon", cmd_daemon, "daemon [--socket PATH] [--stall-timeout SECONDS]",
	  "Run evtraced, the system engine, in the foreground (as root): it\n"
	  "listens on a unix socket (default /run/evtrace/evtraced.sock, or\n"
	  "$EVTRACE_DAEMON_SOCKET, or the socket systemd passes) and runs ls,\n"
	  "format, enable, disable, count, stream and record -p on other users'\n"
	  "processes for those who ask, within the permission rules: root, the\n"
	  "process's user and the group it opted into may do anything; anyone\n"
	  "else may list its events, and record those flagged CAP_ANY.\n"
	  "evtrace asks it by itself when -p names another user's process.\n"
	  "SIGTERM or ^C stops it, ending what it runs as ^C would.\n\n"
	  "  -s, --socket PATH      listen there instead\n"
	  "  -t, --stall-timeout SECONDS\n"
	  "                         drop a client that reads nothing for this\n"
	  "                         long (default 10)\n" },
};

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static const struct command *find(const char *name)
{
	size_t i;

	for (i = 0; i < NCOMMANDS; i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

int cli_usage(const char *cmd)
{
	const struct command *c = find(cmd);

	fprintf(stderr, "usage: evtrace %s\n", c ? c->usage : cmd);
	return 2;
}

int cli_help(const char *cmd)
{
	const struct command *c = find(cmd);

	printf("usage: evtrace %s\n\n%s", c->usage, c->help);
	return 0;
}

/* getopt's own messages name argv[0]: "evtrace: <command>" then. */
static int run(const struct command *c, int argc, char **argv)
{
	char name[64];

	snprintf(name, sizeof(name), "evtrace: %s", c->name);
	argv[0] = name;
	return c->run(argc, argv);
}

int cli_run(int argc, char **argv)
{
	const struct command *c = find(argv[0]);

	return c ? run(c, argc, argv) : cli_error(argv[0], "not a command");
}

static void usage(FILE *f)
{
	size_t i;

	fprintf(f, "usage: evtrace COMMAND [ARG]...\n\ncommands:\n");
	for (i = 0; i < NCOMMANDS; i++)
		fprintf(f, "  evtrace %s\n", commands[i].usage);
	fprintf(f, "\n'evtrace COMMAND --help' tells more; see evtrace(1).\n");
}

/*
 * When another user holds the name of this user's default run directory,
 * the fallback is made here if it is not there yet (rundir.h), and said
 * once, as a traced program that makes it says it.
 */
static void make_fallback_rundir(const char *cmd)
{
	char path[EVT_RUNDIR_PATH_MAX], why[EVT_RUNDIR_PATH_MAX + 64];
	const char *env = secure_getenv("EVTRACE_RUNDIR");

	if ((!env || !*env) &&
	    evt_rundir_default_made(geteuid(), secure_getenv("XDG_RUNTIME_DIR"),
				    secure_getenv("HOME"), path, sizeof(path), why,
				    sizeof(why)) == 2)
		fprintf(stderr, "evtrace: %s: %s; this user's run directory is %s "
			"instead\n", cmd, why, path);
}

int main(int argc, char **argv)
{
	const struct command *c;

	/* Kernel events in traces print as the kernel prints them. */
	evt_trace_reader_kernel_printer(&evt_kernel_print_ops);
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("evtrace %s\n", EVT_RELEASE);
		return 0;
	}
	c = find(argv[1]);
	if (!c) {
		fprintf(stderr, "evtrace: '%s' is not a command\n", argv[1]);
		usage(stderr);
		return 2;
	}
	make_fallback_rundir(c->name);
	return run(c, argc - 1, argv + 1);
}
