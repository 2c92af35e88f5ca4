# enable and disable are rules too: events registered after them (a
# library loaded later, a process started later) follow them, for every
# process or only the one given with -p.  A stream -e of every process
# covers processes started after it from their first event.
. "$(dirname "$0")/lib.sh"
state() { "$EVTRACE" ls -p "$1" "$2" | sed -n 2p | cut -d' ' -f1; }
start_waiter
a=$WAIT_PID
"$EVTRACE" enable printk/tracee
expect_eq "$(state "$a" printk/tracee)" 1 "a running process"
# A process started later: on from its start (the default stream reads
# its first event).
start_waiter
b=$WAIT_PID
expect_eq "$(state "$b" printk/tracee)" 1 "a process started after enable"
"$EVTRACE" stream -p "$b" >"$T/sb" 2>&1 &
s=$!
BG_PIDS="$BG_PIDS $s"
wait_for "the later process's first event in the stream" "grep -q ': alive 0\$' '$T/sb'"
kill -INT "$s"; wait "$s" || true
# Disabled: a process started after it is off.
"$EVTRACE" disable printk/
expect_eq "$(state "$a" printk/tracee)" 0 "after disable"
start_waiter
c=$WAIT_PID
expect_eq "$(state "$c" printk/tracee)" 0 "a process started after disable"
# A rule for one process covers a library it loads later, and no other.
"$TRACEE" wait-dlopen "$PLUGIN" >"$T/d.out" 2>"$T/d.err" &
d=$!
BG_PIDS="$BG_PIDS $d"
wait_for 'the program to say ready in d.out' 'grep -q ready "$T/d.out"'
"$EVTRACE" enable -p "$d" printk/
kill -USR1 "$d"
wait_for 'grep -q loaded d.out' 'grep -q loaded "$T/d.out"'
grep -q loaded "$T/d.out" || fail "the library did not load"
expect_eq "$(state "$d" printk/libtest_plugin.so)" 1 "a library loaded after enable -p"
start_waiter
e=$WAIT_PID
expect_eq "$(state "$e" printk/tracee)" 0 "another process after enable -p"
grep -q "^enable:$d printk/\$" "$EVTRACE_RUNDIR/default.rules" || fail "no pid rule in default.rules"
# What rules make moot goes: enabling a directory again drops the lines
# below it; a disable with nothing on before it is not kept.
"$EVTRACE" enable printk/tracee/tests
"$EVTRACE" enable printk/tracee
expect_eq "$(grep -c '^enable printk/tracee' "$EVTRACE_RUNDIR/default.rules")" 1 "one line for printk/tracee"
"$EVTRACE" disable printk/tracee
"$EVTRACE" disable -p "$d" printk/
expect_eq "$(grep -c '^enable\|^disable' "$EVTRACE_RUNDIR/default.rules")" 0 "no rules left"
kill "$d"
# A stream -e of every process: a process started after it is read from
# its first event.
alive=$(tracee_event "alive")
"$EVTRACE" stream -e "$alive" >"$T/sall" 2>&1 &
s=$!
BG_PIDS="$BG_PIDS $s"
# (its rules published, it is on for processes that start now)
wait_for "the stream's rules" "ls '$EVTRACE_RUNDIR' | grep -q '^collection-.*\.rules\$'"
start_waiter
f=$WAIT_PID
wait_for "the first event of a process started after the stream" \
	"grep -q '^ *tracee-$f .*: alive 0\$' '$T/sall'"
kill -INT "$s"; wait "$s" || true
ls "$EVTRACE_RUNDIR" | grep -q '^collection-.*\.rules$' && fail "the stream left its rules file"
expect_eq "$(state "$f" "$alive")" 0 "the stream's event after it ended"
# A default.rules that is not one: a process says so and ignores it;
# enable says so and starts it again.
printf 'junk\n' >"$EVTRACE_RUNDIR/default.rules"
start_waiter
g=$WAIT_PID
expect_grep "default.rules: line 1: not an evtrace-rules 1 file; ignored" "$T/waiter.err" "a process reading a bad default.rules"
"$EVTRACE" enable -p "$g" printk/tracee 2>"$T/en.err"
expect_grep "default.rules: line 1: not an evtrace-rules 1 file; starting it again" "$T/en.err" "enable over a bad default.rules"
grep -q "^enable:$g printk/tracee\$" "$EVTRACE_RUNDIR/default.rules" || fail "default.rules not written again"
expect_eq "$(state "$g" printk/tracee)" 1 "enable over a bad default.rules"
