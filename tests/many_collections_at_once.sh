# Eight collections read one process at once: the default one (enable +
# stream) and seven streams with -e, each in a slot of its own in it.
# Each gets exactly its events: a contiguous run of the numbered ones,
# nothing another asked for, none lost; one ending leaves the others
# reading.  A ninth collection of that process is refused, naming who
# holds each of its slots.  Meanwhile the user runs 64 more recordings of
# commands and 9 of other running processes, each exact: collections are
# not limited per user, only per process.  Past the run directory's
# numbers (planted locks hold them all) a recording of a command takes a
# run directory of its own.
. "$(dirname "$0")/lib.sh"
start_waiter
p=$WAIT_PID
alive=$(tracee_event "alive")
"$EVTRACE" enable -p "$p" "$alive"
"$EVTRACE" stream -p "$p" >"$T/s0" 2>"$T/s0.err" &
pids=$!
BG_PIDS="$BG_PIDS $!"
for k in 1 2 3 4 5 6 7; do
	case $k in
	1|2|3|4) set -- -e "$alive" ;;
	5|6) set -- -e ftrace/print ;;
	7) set -- -e "$alive" -e ftrace/print ;;
	esac
	"$EVTRACE" stream -p "$p" "$@" >"$T/s$k" 2>"$T/s$k.err" &
	pids="$pids $!"
	BG_PIDS="$BG_PIDS $!"
done
wait_for "seven collections in the process" "collections_applied $p 7"
"$EVTRACE" ls -p "$p" >"$T/ls"
expect_eq "$(grep -c '^# collection [0-9]*: pid [0-9]*, evtrace stream -e .* (slot [1-7])$' "$T/ls")" 7 "seven collections named"
expect_status 1 "$EVTRACE" stream -p "$p" -e "$alive"
expect_grep "stream: pid $p: not streamed: every collection slot of the process is taken (slot 1: collection [0-9]*: pid [0-9]*, evtrace stream -e " "$T/err" "ninth collection refused"
for k in 2 3 4 5 6 7; do
	expect_grep "; slot $k: collection [0-9]*: pid [0-9]*, evtrace stream -e " "$T/err" "holder of slot $k named"
done
expect_grep "): end one of those collections, or run fewer at once\$" "$T/err" "what to do"
expect_eq "$(grep -o 'evtrace stream -e [^;)]*' "$T/err" | sort | uniq -c | sed 's/^ *//')" "$(printf '%s\n' "2 evtrace stream -e ftrace/print" "4 evtrace stream -e $alive" "1 evtrace stream -e $alive ...")" "what each holder is"
expect_status 1 "$EVTRACE" record -p "$p" -o "$T/tr"
expect_grep "record: pid $p: not recorded: every collection slot of the process is taken (slot 1: " "$T/err" "a recording of the process is refused too"
# record -a records the others and leaves it out, said.
record_all_until "$T/all" "$T/all.err" 'not recorded'
expect_grep "^evtrace: pid $p: not recorded: every collection slot of the process is taken (slot 1: collection [0-9]*: pid [0-9]*, evtrace stream -e " \
	"$T/all.err" "record -a leaves the full process out, said"
expect_grep "and an unknown number from 1 process it could not follow (named above)\$" "$T/all.err" "record -a's summary counts it"
# 64 recordings of commands and 9 of other processes, all at once beside
# the seven streams: each exact, none in a run directory of its own.
waiters=
for k in 1 2 3 4 5 6 7 8 9; do
	: >"$T/w$k.out"
	"$TRACEE" paced 10 5 -1 >"$T/w$k.out" 2>/dev/null &
	waiters="$waiters $!"
	BG_PIDS="$BG_PIDS $!"
done
for k in 1 2 3 4 5 6 7 8 9; do
	wait_for "paced program $k" "grep -q '^ready' '$T/w$k.out'"
done
k=0
recs=
for w in $waiters; do
	k=$((k + 1))
	"$EVTRACE" record -p "$w" -o "$T/p$k" 2>"$T/p$k.err" &
	recs="$recs $!"
	BG_PIDS="$BG_PIDS $!"
done
k=0
for w in $waiters; do
	k=$((k + 1))
	wait_for "record -p $w to take it up" "collection_in $w \$(echo $recs | cut -d' ' -f$k)"
done
cmds=
for k in $(seq 64); do
	: >"$T/c$k.out"
	"$EVTRACE" record -o "$T/c$k" -- "$TRACEE" paced 10 5 -1 >"$T/c$k.out" 2>"$T/c$k.err" &
	cmds="$cmds $!"
	BG_PIDS="$BG_PIDS $!"
done
for k in $(seq 64); do
	wait_for "the program of recording $k" "grep -q '^ready' '$T/c$k.out'"
	BG_PIDS="$BG_PIDS $(sed -n 's/^ready //p' "$T/c$k.out")"
done
held=0
for l in "$EVTRACE_RUNDIR"/slot-*.lock; do
	n=$(basename "$l" .lock | cut -d- -f2)
	[ "$n" != 0 ] && held_in "$EVTRACE_RUNDIR" "$n" && held=$((held + 1))
done
expect_eq "$held" 80 "collections at once (slot-0 is the default one's reader): seven streams, nine of processes, 64 of commands"
for k in $(seq 64); do kill -USR1 "$(sed -n 's/^ready //p' "$T/c$k.out")"; done
k=0
for r in $cmds; do
	k=$((k + 1))
	wait "$r" || fail "recording $k of a command: $(cat "$T/c$k.err")"
	grep -q 'note: every collection number' "$T/c$k.err" && fail "recording $k went to a run directory of its own"
	expect_grep "^# 10 events, 0 lost, 1 stream\$" "$("$EVTRACE" report "$T/c$k" >"$T/c$k.report"; echo "$T/c$k.report")" "recording $k of a command"
done
for w in $waiters; do kill -USR1 "$w"; done
k=0
for r in $recs; do
	k=$((k + 1))
	wait "$r" || fail "record -p $k: $(cat "$T/p$k.err")"
	expect_grep "^# 10 events, 0 lost" "$("$EVTRACE" report "$T/p$k" >"$T/p$k.report"; echo "$T/p$k.report")" "record -p $k, exact"
done
# Every number of the run directory held (locks planted as engines hold
# them): a recording of a command goes on, in a run directory of its own,
# exact; the directory is gone after it.
python3 - "$EVTRACE_RUNDIR" >"$T/planted" <<'PY' &
import fcntl, os, sys, time
held = []
for n in range(1, 224):
    fd = os.open(os.path.join(sys.argv[1], 'slot-%d.lock' % n), os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        os.write(fd, b'%d planted by the test\n' % os.getpid())
        held.append(fd)
    except BlockingIOError:
        os.close(fd)
print('held', len(held), flush=True)
time.sleep(600)
PY
planter=$!
BG_PIDS="$BG_PIDS $planter"
wait_for "the planted locks" "grep -q '^held' '$T/planted'"
# (the seven streams' numbers are held by the streams themselves)
expect_eq "$(cat "$T/planted")" "held 216" "numbers planted"
expect_status 1 "$EVTRACE" record -p "$WAIT_PID" -o "$T/tr"
expect_grep "record: $EVTRACE_RUNDIR: all 223 collection numbers are in use (evtrace ls -p PID names the collections of a process): end one first\$" "$T/err" "no number left"
"$EVTRACE" record -o "$T/own" -- "$TRACEE" threads 2 50 >/dev/null 2>"$T/own.err" ||
	fail "record of a command with every number taken: $(cat "$T/own.err")"
expect_grep "^evtrace: record: note: every collection number of $EVTRACE_RUNDIR is in use, so this recording and its command use a run directory of their own, $EVTRACE_RUNDIR/record-[0-9]* " \
	"$T/own.err" "the recording says where it went"
"$EVTRACE" report "$T/own" >"$T/own.report"
bt "$T/own" >"$T/own.bt"
python3 "$CHECK" count "$T/own.report" "$T/own.bt" 100 "seq " >"$T/own.counts" ||
	fail "the recording in its own run directory: $(cat "$T/own.counts")"
expect_grep "^# 100 events, 0 lost, 2 streams$" "$T/own.report" "every event"
[ -z "$(ls -d "$EVTRACE_RUNDIR"/record-* 2>/dev/null)" ] || fail "its run directory is left: $(ls "$EVTRACE_RUNDIR")"
"$EVTRACE" count -- "$TRACEE" threads 2 50 >/dev/null 2>"$T/own.count" ||
	fail "count of a command with every number taken: $(cat "$T/own.count")"
expect_grep "^evtrace: count: note: every collection number of $EVTRACE_RUNDIR is in use, so this count and its command use a run directory of their own" \
	"$T/own.count" "the count says where it went"
grep -q "^ *100 *printk/tracee/tests/progs/tracee.c/[0-9]*$" "$T/own.count" ||
	fail "the count, exact: $(grep -v 'refused, it stays off' "$T/own.count")"
# ls -p finds a process of such a recording by its pid.
"$EVTRACE" record -o "$T/own2" -- "$TRACEE" paced 10 10 -1 >"$T/own2.out" 2>"$T/own2.err" &
rec=$!
BG_PIDS="$BG_PIDS $rec"
wait_for "the program of the second such recording" "grep -q '^ready' '$T/own2.out'"
op=$(sed -n 's/^ready //p' "$T/own2.out")
BG_PIDS="$BG_PIDS $op"
wait_for "ls -p $op to find it in its run directory" "'$EVTRACE' ls -p $op 2>/dev/null | grep -q '^# collection 1: pid $rec, evtrace record'"
kill -USR1 "$op"
wait "$rec" || fail "the second recording: $(cat "$T/own2.err")"
expect_grep "^# 10 events, 0 lost" "$("$EVTRACE" report "$T/own2" >"$T/own2.report"; echo "$T/own2.report")" "the second recording, exact"
# One whose command runs on after a second ^C: its run directory stays,
# and says so.
"$EVTRACE" record -o "$T/own3" -- "$TRACEE" graceful 30 100 >"$T/own3.out" 2>"$T/own3.err" &
rec=$!
wait_for "the command of the third such recording" "grep -q ready '$T/own3.out'"
child=$(sed -n "s/^ready \([0-9]*\).*/\1/p" "$T/own3.out" | head -1)
BG_PIDS="$BG_PIDS $child"
kill -INT "$rec"
wait_for "record to say it waits" "grep -q 'waiting for' '$T/own3.err'"
kill -INT "$rec"
set +e; wait "$rec"; got=$?; set -e
expect_eq "$got" 130 "the third recording stopped by a second ^C"
own3=$(sed -n 's/^evtrace: note: \(.*\) stays: a process traced there runs on (ls -p PID reaches it)$/\1/p' "$T/own3.err")
[ -n "$own3" ] || fail "the run directory kept is not said: $(cat "$T/own3.err")"
[ -d "$own3" ] && ls "$own3" | grep -q "^$child-.*\.ctl\$" || fail "$own3 is not kept with the process's control file"
"$EVTRACE" ls -p "$child" >/dev/null 2>&1 || fail "ls -p does not reach the process that runs on"
kill -KILL "$child"
kill "$planter"
# One after another they end; those left read on.
for s in $pids; do
	kill -INT "$s"
	wait "$s" || fail "stream $s exited $?"
	sleep 0.1
done
check() {	# file, then what it must hold: alive, legacy or both
	python3 - "$@" <<'PY'
import re, sys
f, want = sys.argv[1], sys.argv[2]
lines = open(f).read().splitlines()
assert re.fullmatch(r'# \d+ events, 0 lost', lines[-1]), '%s: %s' % (f, lines[-1])
runs = {'alive': [], 'legacy': []}
for l in lines[:-1]:
    m = re.search(r': (alive|legacy) (\d+)$', l)
    assert m, '%s: an event it did not ask for: %s' % (f, l)
    runs[m.group(1)].append(int(m.group(2)))
for kind, nums in runs.items():
    if kind in want:
        assert len(nums) > 10, '%s: %d %s events' % (f, len(nums), kind)
        assert nums == list(range(nums[0], nums[0] + len(nums))), \
            '%s: %s events missing or twice' % (f, kind)
    else:
        assert not nums, '%s: %s events it did not ask for' % (f, kind)
PY
}
check "$T/s0" alive
for k in 1 2 3 4; do check "$T/s$k" alive; done
for k in 5 6; do check "$T/s$k" legacy; done
check "$T/s7" alive,legacy
# Each stream read on after the ones before it ended.
last1=$(grep -o 'alive [0-9]*$' "$T/s1" | tail -1 | cut -d' ' -f2)
last4=$(grep -o 'alive [0-9]*$' "$T/s4" | tail -1 | cut -d' ' -f2)
[ "$last4" -gt "$last1" ] || fail "stream 4 stopped reading when stream 1 ended"
# All ended: only the default collection's event is on.
"$EVTRACE" ls -p "$p" >"$T/ls"
grep -q '^# collection' "$T/ls" && fail "collections left after every stream ended"
expect_grep "^1 $alive\$" "$T/ls" "the default collection's event"
