# Eight collections read one process at once: the default one (enable +
# stream) and seven streams with -e, each its own slot.  Each gets exactly
# its events: a contiguous run of the numbered ones, nothing another
# asked for, none lost; one ending leaves the others reading.  A ninth
# collection is refused, naming who holds every slot.
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
for _ in $(seq 100); do
	"$EVTRACE" ls -p "$p" >"$T/ls"
	[ "$(grep -c '^# collection' "$T/ls")" = 7 ] && break
	sleep 0.05
done
expect_eq "$(grep -c '^# collection slot [1-7]: pid [0-9]*, evtrace stream -e ' "$T/ls")" 7 "seven collections named"
expect_status 1 "$EVTRACE" stream -p "$p" -e "$alive"
expect_grep "stream: $EVTRACE_RUNDIR: all 7 collection slots are in use (slot 1: pid [0-9]*, evtrace stream -e " "$T/err" "ninth collection refused"
for k in 2 3 4 5 6 7; do
	expect_grep "; slot $k: pid [0-9]*, evtrace stream -e " "$T/err" "holder of slot $k named"
done
expect_grep "): end one of them first\$" "$T/err" "what to do"
expect_eq "$(grep -o 'evtrace stream -e [^;)]*' "$T/err" | sort | uniq -c | sed 's/^ *//')" "$(printf '%s\n' "2 evtrace stream -e ftrace/print" "4 evtrace stream -e $alive" "1 evtrace stream -e $alive ...")" "what each holder is"
expect_status 1 "$EVTRACE" record -p "$p" -o "$T/tr"
expect_grep "record: .*all 7 collection slots are in use" "$T/err" "a recording of running processes is refused too"
# A recording of a command it starts goes on, in a run directory of its
# own, exact; the directory is gone after it.
"$EVTRACE" record -o "$T/own" -- "$TRACEE" threads 2 50 >/dev/null 2>"$T/own.err" ||
	fail "record of a command with every slot taken: $(cat "$T/own.err")"
expect_grep "^evtrace: record: note: every collection slot of $EVTRACE_RUNDIR is in use, so this recording and its command use a run directory of their own, $EVTRACE_RUNDIR/record-[0-9]* " \
	"$T/own.err" "the recording says where it went"
"$EVTRACE" report "$T/own" >"$T/own.report"
bt "$T/own" >"$T/own.bt"
python3 "$CHECK" count "$T/own.report" "$T/own.bt" 100 "seq " >"$T/own.counts" ||
	fail "the recording in its own run directory: $(cat "$T/own.counts")"
expect_grep "^# 100 events, 0 lost, 2 streams$" "$T/own.report" "every event"
[ -z "$(ls -d "$EVTRACE_RUNDIR"/record-* 2>/dev/null)" ] || fail "its run directory is left: $(ls "$EVTRACE_RUNDIR")"
"$EVTRACE" count -- "$TRACEE" threads 2 50 >/dev/null 2>"$T/own.count" ||
	fail "count of a command with every slot taken: $(cat "$T/own.count")"
expect_grep "^evtrace: count: note: every collection slot of $EVTRACE_RUNDIR is in use, so this count and its command use a run directory of their own" \
	"$T/own.count" "the count says where it went"
expect_grep "^ *100 *printk/tracee/tests/progs/tracee.c/[0-9]*$" "$T/own.count" "the count, exact"
# ls -p finds a process of such a recording by its pid.
"$EVTRACE" record -o "$T/own2" -- "$TRACEE" paced 10 10 -1 >"$T/own2.out" 2>"$T/own2.err" &
rec=$!
BG_PIDS="$BG_PIDS $rec"
wait_for "the program of the second such recording" "grep -q '^ready' '$T/own2.out'"
op=$(sed -n 's/^ready //p' "$T/own2.out")
BG_PIDS="$BG_PIDS $op"
wait_for "ls -p $op to find it in its run directory" "'$EVTRACE' ls -p $op 2>/dev/null | grep -q '^# collection slot 1: pid $rec, evtrace record'"
kill -USR1 "$op"
wait "$rec" || fail "the second recording: $(cat "$T/own2.err")"
expect_grep "^# 10 events, 0 lost" "$("$EVTRACE" report "$T/own2" >"$T/own2.report"; echo "$T/own2.report")" "the second recording, exact"
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
