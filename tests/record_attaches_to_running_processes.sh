# record -p attaches to a running multi-threaded process and detaches,
# twice: each recording holds one contiguous run of every thread's
# numbered events, none lost or twice, the second after the first; the
# process runs on with its events off.  A recording of processes that
# exit ends by itself.
. "$(dirname "$0")/lib.sh"
"$TRACEE" loop 4 >"$T/loop.out" 2>"$T/loop.err" &
P=$!
BG_PIDS="$BG_PIDS $P"
wait_for 'the program to say ready in loop.out' 'grep -q ready "$T/loop.out"'
grep -q ready "$T/loop.out" || fail "tracee loop did not start"
site=$(tracee_event "loop t=")
for n in 1 2; do
	"$EVTRACE" record -p "$P" -o "$T/tr$n" 2>"$T/rec$n.err" &
	rec=$!
	wait_for "the recording's collection" "collection_in $P $rec"
	# While it records, the event is on in its collection, not the
	# default one, and ls says whose collection that is.
	if [ $n = 1 ]; then
		"$EVTRACE" ls -p "$P" "$site" >"$T/ls.during"
		grep -q "^0 $site \[[0-9]*\]\$" "$T/ls.during" || { cat "$T/ls.during" >&2; fail "ls during the recording"; }
		expect_grep "^# collection [0-9]*: pid $rec, evtrace record -o $T/tr1 (slot [1-7])\$" "$T/ls.during" "ls names the recording"
	fi
	# (100 events of each thread in it, as report of the running
	# recording reads them, before it is stopped)
	wait_for "100 events of each thread in tr$n" \
		"\"\$EVTRACE\" report '$T/tr$n' >'$T/live$n' 2>/dev/null && python3 '$CHECK' loop '$T/live$n' 4 100 >/dev/null 2>&1"
	kill -INT "$rec"
	wait "$rec" || { cat "$T/rec$n.err" >&2; fail "record -p exited $?"; }
	expect_grep "from 1 process written to $T/tr$n; 0 events lost" "$T/rec$n.err" "summary $n"
	"$EVTRACE" report "$T/tr$n" >"$T/report$n"
	python3 "$CHECK" loop "$T/report$n" 4 100 >"$T/runs$n"
	bt_agrees "$T/tr$n"
done
# The second recording starts after the first ended, thread by thread.
while read -r t first1 last1; do
	first2=$(awk -v t="$t" '$1 == t { print $2 }' "$T/runs2")
	[ "$first2" -gt "$last1" ] || fail "thread $t: second recording starts at $first2, first ended at $last1"
done <"$T/runs1"
# Detached: nothing of its is left on in the process.
"$EVTRACE" ls -p "$P" "$site" >"$T/ls.after"
expect_eq "$(tail -1 "$T/ls.after")" "0 $site" "event after detaching"
grep -q "^# collection" "$T/ls.after" && fail "a collection is left in the process after detaching"
running "$P" || fail "the process did not survive being attached to"
# The processes exit: the recording ends by itself, with their events.
"$EVTRACE" record -p "$P" -o "$T/tr3" 2>"$T/rec3.err" &
rec=$!
wait_for "the recording's collection" "collection_in $P $rec"
wait_for "50 events of each thread in tr3" \
	"\"\$EVTRACE\" report '$T/tr3' >'$T/live3' 2>/dev/null && python3 '$CHECK' loop '$T/live3' 4 50 >/dev/null 2>&1"
kill -TERM "$P"
wait_for 'rec to end' '! running "$rec"'
running "$rec" && fail "record -p did not end when its process exited"
wait "$rec" || fail "record -p exited $? after its process exited"
"$EVTRACE" report "$T/tr3" >"$T/report3"
python3 "$CHECK" loop "$T/report3" 4 50 >/dev/null
# Bad input.
expect_status 1 "$EVTRACE" record -p 999999 -o "$T/x"
expect_grep "record: pid 999999: no traced process with this pid in $EVTRACE_RUNDIR" "$T/err" "unknown pid"
expect_status 1 "$EVTRACE" record -p 12x -o "$T/x"
expect_grep "record: '12x': not a process id" "$T/err" "bad pid"
expect_status 2 "$EVTRACE" record -p 1 -o "$T/x" -- true
expect_grep "record: -p and a command to run exclude each other" "$T/err" "-p and a command"
# enable/disable --collection: a running recording takes more events,
# and gives back what it was given.
"$TRACEE" loop 2 >"$T/loop2.out" 2>/dev/null &
P=$!
BG_PIDS="$BG_PIDS $P"
wait_for 'the program to say ready in loop2.out' 'grep -q ready "$T/loop2.out"'
"$EVTRACE" record -p "$P" -e ftrace/print -e printk/nosuch -o "$T/tr4" 2>"$T/rec4.err" &
rec=$!
wait_for "the recording's collection" "collection_in $P $rec"
wait_for "the recording's note on its patterns" "grep -q 'no such event' '$T/rec4.err'"
expect_grep "^evtrace: record: printk/nosuch: no such event or directory now; it covers those registered later$" "$T/rec4.err" "a pattern that names nothing"
expect_eq "$(grep -c 'no such event' "$T/rec4.err")" 1 "notes about patterns that name something"
slot=$("$EVTRACE" ls -p "$P" | sed -n 's/^# collection \([0-9]*\): pid '"$rec"',.*/\1/p')
[ -n "$slot" ] || fail "the recording's number is not shown"
expect_eq "$("$EVTRACE" ls -p "$P" "$site" | tail -1)" "0 $site" "before enable --collection"
"$EVTRACE" enable --collection "$slot" "$site"
expect_eq "$("$EVTRACE" ls -p "$P" "$site" | tail -1)" "0 $site [$slot]" "after enable --collection"
expect_status 1 "$EVTRACE" disable --collection "$slot" printk/
expect_grep "disable: collection $slot has no pattern 'printk/' (it has: ftrace/print printk/nosuch $site); disable takes back what enable or -e turned on" "$T/err" "disable of what it does not have"
"$EVTRACE" disable --collection "$slot" "$site"
expect_eq "$("$EVTRACE" ls -p "$P" "$site" | tail -1)" "0 $site" "after disable --collection"
# A request that is not one is answered with an error, and harms nothing.
printf 'nonsense\n' >"$EVTRACE_RUNDIR/slot-$slot.req.1-1.tmp"
mv "$EVTRACE_RUNDIR/slot-$slot.req.1-1.tmp" "$EVTRACE_RUNDIR/slot-$slot.req.1-1"
wait_for 'EVTRACE_RUNDIR/slot-slot.ans.1-1 to appear' '[ -e "$EVTRACE_RUNDIR/slot-$slot.ans.1-1" ]'
expect_eq "$(cat "$EVTRACE_RUNDIR/slot-$slot.ans.1-1" 2>/dev/null)" \
	"error a request that is not 'enable PATTERN' or 'disable PATTERN'" "answer to a bad request"
rm -f "$EVTRACE_RUNDIR/slot-$slot.ans.1-1"
kill -INT "$rec"
wait "$rec" || fail "record -p exited $?"
"$EVTRACE" report "$T/tr4" >"$T/report4"
python3 "$CHECK" loop "$T/report4" 2 20 >/dev/null
expect_status 1 "$EVTRACE" enable --collection "$slot" "$site"
expect_grep "enable: collection $slot: no engine holds it" "$T/err" "a slot nobody holds"
# A slot held by something that does not answer: said after 2 s, and the
# request does not stay behind.
flock "$EVTRACE_RUNDIR/slot-6.lock" sleep 4 &
BG_PIDS="$BG_PIDS $!"
wait_for "the planted lock of slot 6" "slot_held 6"
expect_status 1 "$EVTRACE" enable --collection 6 "$site"
expect_grep "enable: collection 6: its engine did not answer in 2 s" "$T/err" "an engine that does not answer"
ls "$EVTRACE_RUNDIR" | grep -q '^slot-6\.req\.' && fail "the unanswered request stayed"
expect_status 1 "$EVTRACE" enable --collection 256 "$site"
expect_grep "enable: --collection '256': not a collection number (1 to 255, as ls shows them)" "$T/err" "bad number"
expect_status 2 "$EVTRACE" enable --collection 1 -p "$P" "$site"
expect_grep "enable: --collection and -p exclude each other" "$T/err" "--collection with -p"
kill -TERM "$P"
# A recording killed with SIGKILL leaves its events on; the process finds
# its buffer full and nobody holding the slot, and switches them off
# itself, with no engine started since (ls only reads).
"$TRACEE" loop 2 >"$T/loop3.out" 2>/dev/null &
P=$!
BG_PIDS="$BG_PIDS $P"
wait_for 'the program to say ready in loop3.out' 'grep -q ready "$T/loop3.out"'
"$EVTRACE" record -p "$P" --packet-size 16384 --packets 2 -o "$T/tr5" 2>/dev/null &
rec=$!
wait_for "the recording's collection" "collection_in $P $rec"
kill -9 "$rec"
wait "$rec" 2>/dev/null || true
"$EVTRACE" ls -p "$P" "$site" >"$T/ls.killed"
grep -q "^0 $site \[[0-9]*\]\$" "$T/ls.killed" || { cat "$T/ls.killed" >&2; fail "the killed recording's event is not on"; }
wait_for "the process to switch the killed recording's event off" \
	"'$EVTRACE' ls -p $P '$site' >'$T/ls.killed' && [ \"\$(tail -1 '$T/ls.killed')\" = '0 $site' ]"
expect_eq "$(tail -1 "$T/ls.killed")" "0 $site" "the event after the process found its engine gone"
grep -q '^# collection' "$T/ls.killed" && fail "the dead recording's slot is still active"
kill -TERM "$P"
