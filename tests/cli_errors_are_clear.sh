# Wrong input gets "evtrace: <command>: <what>: <why>" and a non-zero exit.
. "$(dirname "$0")/lib.sh"
expect_status 2 "$EVTRACE"
expect_status 2 "$EVTRACE" frobnicate
expect_grep "'frobnicate' is not a command" "$T/err" "unknown command"
expect_status 1 "$EVTRACE" ls -p 12abc
expect_grep "evtrace: ls: '12abc': not a process id" "$T/err" "bad pid"
expect_status 1 "$EVTRACE" ls -p 999999
expect_grep "evtrace: ls: pid 999999: no traced process with this pid" "$T/err" "absent pid"
expect_status 1 "$EVTRACE" record -e 'printk//x' -- true
expect_grep "evtrace: record: pattern 'printk//x': empty path component at position 8" "$T/err" "pattern position"
expect_status 1 "$EVTRACE" record -e 'a b' -- true
expect_grep "invalid character 0x20 at position 2" "$T/err" "pattern character"
expect_status 2 "$EVTRACE" record -o "$T/x"
expect_grep "evtrace: record: no command to run" "$T/err" "no command"
expect_status 127 "$EVTRACE" record -o "$T/x" -- /nonexistent/prog
expect_grep "evtrace: record: cannot run '/nonexistent/prog': No such file or directory" "$T/err" "bad command"
[ ! -e "$T/x" ] || fail "a command that could not run left a trace directory"
# Nor does it displace the trace already there (kept as .old while
# recording): it is back in its place, no .old left.
"$EVTRACE" record -o "$T/keep" -- "$TRACEE" threads 1 7 >/dev/null 2>&1
expect_status 127 "$EVTRACE" record -o "$T/keep" -- /nonexistent/prog
[ ! -e "$T/keep.old" ] || fail "a command that could not run left keep.old"
"$EVTRACE" report "$T/keep" | grep -q "^# 7 events" || fail "the trace before a command that could not run is not back"
# A command that is not traced: said, not an empty trace in silence.
# One bound on patterns, said the same way: 64 per selection, less what
# the command adds itself (record and trace add ftrace/print).
many() { seq "$1" | sed 's|^|-e printk/p|' | tr '\n' ' '; }
# shellcheck disable=SC2046
expect_status 1 "$EVTRACE" record -o "$T/many" $(many 64) -- true
expect_grep "evtrace: record: more than 63 -e patterns" "$T/err" "record's pattern bound"
# shellcheck disable=SC2046
expect_status 1 "$EVTRACE" trace $(many 64) -- true
expect_grep "evtrace: trace: more than 63 -e patterns" "$T/err" "trace's pattern bound"
# shellcheck disable=SC2046
expect_status 1 "$EVTRACE" count $(many 65) -- true
expect_grep "evtrace: count: more than 64 -e patterns" "$T/err" "count's pattern bound"
[ -e "$T/many" ] && fail "record refused for its patterns left $T/many"
expect_status 0 "$EVTRACE" record -o "$T/untraced" -- true
expect_grep "evtrace: record: no traced process appeared: 'true' is not linked with libevtrace, or its environment was cleared" "$T/err" "nothing traced"
expect_grep "0 packets, 0 bytes from 0 processes" "$T/err" "the summary too"
# Patterns that named nothing in a command's whole run are named.
expect_status 0 "$EVTRACE" record -o "$T/unmatched" -e printk/nosuch -e '*tracee.c*' \
	-e printk/tracee -- "$TRACEE" sequential 1
expect_grep "evtrace: record: printk/nosuch: named no event of the processes$" "$T/err" "a typo"
expect_grep "evtrace: record: \*tracee.c\*: named no event of the processes (printk events are named only by patterns that start with printk)" "$T/err" "a pattern missing printk"
grep -q "printk/tracee: named" "$T/err" && fail "a pattern that matched was named"
# ... and said while the command still runs, a second after it started:
# the tracee waits for SIGUSR1, sent only once record has said it.
"$EVTRACE" record -q -o "$T/early" -e printk/nosuch -e printk/tracee -- \
	"$TRACEE" paced 10 1 -1 >"$T/early.out" 2>"$T/early.err" &
rec=$!
BG_PIDS="$BG_PIDS $rec"
wait_for "the tracee ready" "grep -q '^ready' '$T/early.out'"
BG_PIDS="$BG_PIDS $(sed -n 's/^ready //p' "$T/early.out")"
wait_for "record saying the typo early" "grep -q '^evtrace: record: printk/nosuch: no such event or directory now; it covers those registered later\$' '$T/early.err'"
grep -q "printk/tracee: no such" "$T/early.err" && fail "a pattern that matched was said early"
kill -USR1 "$(sed -n 's/^ready //p' "$T/early.out")"
wait "$rec" || fail "record of the early typo: $(cat "$T/early.err")"
expect_grep "^tried 10$" "$T/early.out" "the tracee ran to its end"
# A relay that is down, and no -o: nothing recorded is anywhere; said,
# exit status 1.  With -o, the trace has it all.
down=$(free_ports3)
expect_status 1 "$EVTRACE" record -q --relay 127.0.0.1:"$down" -e 'printk/**' -- "$TRACEE" sequential 1
expect_grep "^evtrace: relay: 127.0.0.1:$down: Connection refused" "$T/err" "why the relay took nothing"
expect_grep "^evtrace: record: exits 1: [0-9]* packets* never reached relay 127.0.0.1 (why is said above), and no -o kept them$" \
	"$T/err" "a relay that is down"
expect_status 0 "$EVTRACE" record -q --relay 127.0.0.1:"$down" -o "$T/relaydown" -e 'printk/**' -- "$TRACEE" sequential 1
grep -q "never reached" "$T/err" && fail "a relay down is an error although -o kept the events"
# What no -e named is summed up, with the -e that would name it; without
# -e every event of the program is recorded, and the summary says so.
expect_status 0 "$EVTRACE" record -o "$T/typed1" -e typed/all -- "$TYPED" rows
expect_grep "^evtrace: record: not recorded, as no -e named them: 2 events of the processes: 1 in stable/ (-e stable), 1 in printk/typed/ (-e printk/typed)$" "$T/err" "the unrecorded events"
expect_status 0 "$EVTRACE" record -o "$T/typed2" -- "$TYPED" rows
expect_grep "^evtrace: record: every event (no -e): [0-9]* packets*, [0-9]* bytes from 1 process written to $T/typed2; 0 events lost$" "$T/err" "no -e, said"
grep -q "not recorded" "$T/err" && fail "without -e something was not recorded"
"$EVTRACE" report "$T/typed2" >"$T/typed2.report"
expect_eq "$(grep -c ': typed/all: ' "$T/typed2.report") $(grep -c ': stable/typed_small: ' "$T/typed2.report")" "4 4" "typed and stable events without -e"
expect_status 2 "$EVTRACE" record --fail-on-loss --overwrite -- true
expect_grep "evtrace: record: --fail-on-loss and --overwrite exclude each other" "$T/err" "--fail-on-loss with a flight recorder"
# A command not linked with evtrace: count says so, as record does.
expect_status 0 "$EVTRACE" count -- true
expect_grep "^evtrace: count: no traced process appeared: 'true' is not linked with libevtrace" "$T/err" \
	"count of a program that is not traced"
# count and stream say the same at their end.
expect_status 0 "$EVTRACE" count -e typed/all -e printk/nosuch -- "$TYPED" rows
expect_grep "^evtrace: count: printk/nosuch: named no event of the processes$" "$T/err" "count: a typo"
expect_grep "^evtrace: count: not counted, as no -e named them: 3 events of the processes: 1 in ftrace/ (-e ftrace), 1 in stable/ (-e stable), 1 in printk/typed/ (-e printk/typed)$" "$T/err" "count: the uncounted events"
"$TRACEE" paced 400 1 -1 >"$T/paced.out" &
paced=$!
BG_PIDS="$BG_PIDS $paced"
wait_for "the paced program" "grep -q ready '$T/paced.out'"
"$EVTRACE" stream -p "$paced" -e printk/tracee -e nosuch/x >"$T/stream.out" 2>"$T/stream.err" &
sp=$!
wait_for "the stream's collection" "collection_in $paced $sp"
kill -USR1 "$paced"
wait "$sp" || fail "stream -p: $(cat "$T/stream.err")"
expect_grep "^# 400 events, 0 lost$" "$T/stream.out" "stream: the events"
expect_grep "^evtrace: stream: nosuch/x: named no event of the processes" "$T/stream.err" "stream: a typo"
expect_grep "^evtrace: stream: not streamed, as no -e named them: 1 event of the processes: 1 in ftrace/ (-e ftrace)$" "$T/stream.err" "stream: the unstreamed event"
expect_status 1 "$EVTRACE" record --packet-size 1000 -o "$T/x" -- true
expect_grep "packet size 1000 is not a power of two" "$T/err" "packet size"
expect_status 1 "$EVTRACE" record --packets 1 -o "$T/x" -- true
expect_grep "packet count 1 is not within 2..4096" "$T/err" "packet count"
mkdir "$T/notatrace"; touch "$T/notatrace/precious"
expect_status 1 "$EVTRACE" record -o "$T/notatrace" -- true
expect_grep "exists and is not an evtrace trace" "$T/err" "output protection"
[ -f "$T/notatrace/precious" ] || fail "record removed a file it did not own"
expect_status 1 "$EVTRACE" report "$T/nonexistent"
expect_grep "evtrace: report: $T/nonexistent: no such trace directory" "$T/err" "report of nothing"
expect_status 2 "$EVTRACE" enable
# An empty path is no path: not "/", which would switch everything.
expect_status 1 "$EVTRACE" enable ''
expect_eq "$(cat "$T/err")" "evtrace: enable: an empty event path; give / for every event" "enable ''"
[ ! -e "$EVTRACE_RUNDIR/default.rules" ] || fail "enable '' wrote a rule: $(cat "$EVTRACE_RUNDIR/default.rules")"
"$EVTRACE" record --help | grep -q -- "--overwrite" || fail "record --help"
# An unusable run directory: the program runs untraced, record says why.
EVTRACE_RUNDIR=/proc/evtrace-nowhere "$TRACEE" threads 2 10 >"$T/out2" || fail "the program failed without a run directory"
expect_grep "tried 20" "$T/out2" "untraced program ran"
EVTRACE_RUNDIR=/proc/evtrace-nowhere expect_status 1 "$EVTRACE" record -o "$T/y" -- true
expect_grep "evtrace: record: /proc/evtrace-nowhere: " "$T/err" "unusable run directory"
# An output directory that cannot be made: its path and the reason.
expect_status 1 "$EVTRACE" record -o /proc/evtrace-nowhere/trace -- true
expect_grep "evtrace: record: /proc/evtrace-nowhere/trace: No such file or directory" "$T/err" "output directory"
# (A real user's "Permission denied": trace_output_is_safe, which makes
# users.)
