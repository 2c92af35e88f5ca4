# evtrace count: exact counts, like perf stat, without writing records:
# known numbers from threads and from signal handlers nested in writes;
# a count and a recording of one process at once agree with what it
# wrote; -I prints every interval; bad input is refused.
. "$(dirname "$0")/lib.sh"
seq_site=$(tracee_event "seq t=")
# 1. Four threads, 10000 events each.
"$EVTRACE" count -- "$TRACEE" threads 4 10000 >"$T/out" 2>"$T/count"
expect_grep "^ Event counts for '$TRACEE' (1 process):" "$T/count" "header"
expect_grep "^ *40000      $seq_site\$" "$T/count" "the threads' events"
# Every other printk event is listed, at 0.
n=$(grep -c '^ *[0-9][0-9]*      printk/' "$T/count")
[ "$n" -gt 10 ] || fail "only $n events listed"
expect_eq "$(grep '^ *[0-9][0-9]*      printk/' "$T/count" | grep -v -c '^ *0      ')" 1 "events not at 0"
# Without -e, every event of the program, as record takes them: typed
# events too, not only printk ones.
"$EVTRACE" count -- "$TYPED" rows >/dev/null 2>"$T/count.typed"
expect_grep "^ *4      typed/all$" "$T/count.typed" "count without -e: a typed event"
"$EVTRACE" record -o "$T/typed.tr" -- "$TYPED" rows >/dev/null 2>&1
expect_eq "$("$EVTRACE" report "$T/typed.tr" | grep -c ' typed/all: ')" 4 "record without -e: the same"
# No trace and no records: the run directory holds nothing of the count
# but the ids it gave the events, which stay for every later engine.
left=$(ls "$EVTRACE_RUNDIR" | grep -v '^slot-\|^event-ids$' || true)
[ -z "$left" ] || fail "left in the run directory: $left"
# 2. Events written by signal handlers in the middle of other writes are
# counted too (a recording drops those): the sum is what the program tried.
"$EVTRACE" count -- "$TRACEE" nested 300 >"$T/out" 2>"$T/count"
tried=$(sed -n 's/^tried //p' "$T/out")
sum=$(awk '$2 ~ /^printk\// { s += $1 } END { print s }' "$T/count")
expect_eq "$sum" "$tried" "counted events (with nested ones)"
handler=$(tracee_event "tick ")
grep -q "^ *[1-9][0-9]*      $handler\$" "$T/count" || fail "no handler events counted"
# 3. A count and a recording attached to one process at once: the program
# waits while they attach, then writes 20000 events.
"$TRACEE" paced 20000 100 -1 >"$T/paced.out" 2>/dev/null &
p=$!
BG_PIDS="$BG_PIDS $p"
wait_for "the paced program" "grep -q ready '$T/paced.out'"
# The paced mode's site: the second "burst" of the source.
burst=printk/tracee/tests/progs/tracee.c/$(grep -n 'trace_printk("burst %ld' "$TRACEE_SRC" | sed -n 2p | cut -d: -f1)
"$EVTRACE" count -p "$p" -e "$burst" 2>"$T/count3" &
cnt=$!
"$EVTRACE" record -p "$p" -e "$burst" -o "$T/tr" 2>"$T/rec3" &
rec=$!
wait_for "the count's and the recording's collections" \
	"collection_in $p $cnt && collection_in $p $rec"
kill -USR1 "$p"
wait "$p" || fail "the paced program failed"
wait "$cnt" || fail "count -p exited $?"
wait "$rec" || fail "record -p exited $?"
expect_grep "^ Event counts for pid $p (1 process):" "$T/count3" "count -p header"
expect_grep "^ *20000      $burst\$" "$T/count3" "counted while recorded"
"$EVTRACE" report "$T/tr" >"$T/report"
python3 "$CHECK" count "$T/report" "$T/tr.bt" 20000 "burst " >/dev/null 2>&1 || {
	bt "$T/tr" >"$T/tr.bt"
	python3 "$CHECK" count "$T/report" "$T/tr.bt" 20000 "burst "
}
# 4. Intervals: a line per interval per event, led by the time.
"$TRACEE" loop 2 >"$T/loop.out" 2>/dev/null &
lp=$!
BG_PIDS="$BG_PIDS $lp"
wait_for 'the program to say ready in loop.out' 'grep -q ready "$T/loop.out"'
loop=$(tracee_event "loop t=")
"$EVTRACE" count -I 100 -p "$lp" -e "$loop" 2>"$T/count4" &
cnt=$!
wait_for "four intervals" "[ \$(grep -c '^ *[0-9]*\\.[0-9]\\{6\\} *[0-9]*      $loop\$' '$T/count4') -ge 4 ]"
kill -INT "$cnt"
wait "$cnt" || fail "count -I exited $?"
lines=$(grep -c "^ *[0-9]*\\.[0-9]\\{6\\} *[0-9]*      $loop\$" "$T/count4")
[ "$lines" -ge 4 ] || { cat "$T/count4" >&2; fail "only $lines interval lines"; }
awk -v loop="$loop" '$3 == loop { if ($2 == 0) bad = 1; s += $2 } $2 == loop { total = $1 }
	END { if (bad || s > total || total == 0) exit 1 }' "$T/count4" ||
	{ cat "$T/count4" >&2; fail "intervals do not add up to at most the total"; }
kill -TERM "$lp"
# 5. The command's exit status; bad input.
set +e; "$EVTRACE" count -- sh -c 'exit 3' 2>/dev/null; st=$?; set -e
expect_eq "$st" 3 "count's exit status is the command's"
expect_status 2 "$EVTRACE" count
expect_grep "count: no command to run, and no -p" "$T/err" "nothing to count"
expect_status 1 "$EVTRACE" count -I 5 -- true
expect_grep "count: -I '5': not a number of milliseconds from 10 to 3600000" "$T/err" "bad interval"
expect_status 1 "$EVTRACE" count -p 999999
expect_grep "count: pid 999999: no traced process with this pid" "$T/err" "unknown pid"
expect_status 127 "$EVTRACE" count -- /nonexistent/cmd
expect_grep "count: cannot run '/nonexistent/cmd': No such file or directory" "$T/err" "bad command"
