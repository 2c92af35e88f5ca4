# A program running with libevtrace 0.1.10 (built from that release's
# sources: tests/as_0_1_10) is traced by this evtrace as by 0.1.10's:
# ls names its library; a recording started with it, and one attached
# to it, a count, a stream, a flight recorder's snapshot and end, and a
# recovery after its recorder was killed get every event it wrote, once
# and in order, or count what they miss; enable, disable and rates
# switch it.  (evtraced refusing another user's recording of it, and
# taking its owner's: evtraced_permissions.)
. "$(dirname "$0")/lib.sh"
OLD=$LIB_0_1_10_DIR
[ -e "$OLD/libevtrace.so.0" ] || fail "no libevtrace 0.1.10 in $OLD"
# (env, not a function: the pid of a function run with & is a subshell's)
OLD_PATH="$OLD:${LD_LIBRARY_PATH:-}"
env LD_LIBRARY_PATH="$OLD_PATH" ldd "$TRACEE" | grep -q " $OLD/libevtrace.so.0 " ||
	fail "the tracee would not load 0.1.10's library: $(env LD_LIBRARY_PATH="$OLD_PATH" ldd "$TRACEE" | grep libevtrace)"
burst=printk/tracee/tests/progs/tracee.c/$(grep -n 'trace_printk("burst %ld' "$TRACEE_SRC" | sed -n 2p | cut -d: -f1)
# on_in PID PATH N: PATH is on in N collections of pid PID (the bits the
# engines set in the process, which is what its sites read).
on_in() {
	"$EVTRACE" ls -p "$1" "$2" 2>/dev/null | tail -1 |
		grep -q "^[01X] $2 \[[0-9]*\(,[0-9]*\)\{$(($3 - 1))\}\]"
}

# 1. A recording that starts the program.
"$EVTRACE" record -o "$T/launch" -- env LD_LIBRARY_PATH="$OLD_PATH" \
	"$TRACEE" threads 2 3 >/dev/null 2>"$T/launch.err" || fail "record: $(cat "$T/launch.err")"
"$EVTRACE" report "$T/launch" >"$T/launch.txt"
bt "$T/launch" >"$T/launch.bt"
python3 "$CHECK" seq "$T/launch.txt" "$T/launch.bt" 2 3 || fail "the launched program's events"

# 2. One program, four collections at once: a recording, a count, a
# stream and a flight recorder, attached while it waits; then it writes
# N events, waits again (the flight recorder's snapshot), and ends.
N=20000
env LD_LIBRARY_PATH="$OLD_PATH" "$TRACEE" paced $N 100 -2 >"$T/paced.out" 2>&1 &
p=$!
BG_PIDS="$BG_PIDS $p"
wait_for "the program's control file" "'$EVTRACE' ls -p $p >'$T/ls' 2>/dev/null"
expect_grep "^# pid $p (tracee), libevtrace 0.1.10$" "$T/ls" "ls names the program's library"
"$EVTRACE" record -p "$p" -e "$burst" -o "$T/att" 2>"$T/att.err" &
rec=$!
"$EVTRACE" count -p "$p" -e "$burst" 2>"$T/count" &
cnt=$!
"$EVTRACE" stream -p "$p" -e "$burst" >"$T/stream" 2>"$T/stream.err" &
str=$!
"$EVTRACE" record --overwrite --packet-size 16384 --packets 2 -p "$p" -e "$burst" \
	-o "$T/fr" 2>"$T/fr.err" &
fr=$!
BG_PIDS="$BG_PIDS $rec $cnt $str $fr"
wait_for "the four collections' bits in the program" "on_in $p $burst 4"
kill -USR1 "$p"
wait_for "the burst" "grep -q '^burst done' '$T/paced.out'"
frn=$("$EVTRACE" ls -p "$p" | sed -n "s/^# collection \([0-9]*\): pid $fr, .*/\1/p")
[ -n "$frn" ] || fail "the flight recorder's collection is not listed: $(cat "$T/ls")"
"$EVTRACE" snapshot --collection "$frn" -o "$T/snap" 2>"$T/snap.err" || fail "snapshot: $(cat "$T/snap.err")"
"$EVTRACE" report "$T/snap" >"$T/snap.txt"
python3 "$CHECK" suffix "$T/snap.txt" $N >/dev/null || fail "the snapshot's events are not the newest, counted"
kill -USR1 "$p"
wait "$p" || fail "the program failed: $(cat "$T/paced.out")"
for job in $rec $cnt $str $fr; do
	wait "$job" || fail "a collection ended badly: $(cat "$T/att.err" "$T/count" "$T/stream.err" "$T/fr.err")"
done
"$EVTRACE" report "$T/att" >"$T/att.txt"
bt "$T/att" >"$T/att.bt"
expect_eq "$(python3 "$CHECK" count "$T/att.txt" "$T/att.bt" $N "burst ")" "read $N lost 0" "the attached recording"
expect_grep "^ *$N      $burst\$" "$T/count" "the count"
grep ": burst [0-9]*$" "$T/stream" | awk '{ print $NF }' >"$T/nums"
seq 0 $((N - 1)) | cmp -s - "$T/nums" || fail "the stream's events are not 0 to $((N - 1)), once each, in order"
"$EVTRACE" report "$T/fr" >"$T/fr.txt"
python3 "$CHECK" suffix "$T/fr.txt" $N >/dev/null || fail "the flight recorder's events are not the newest, counted"

# 3. Its recorder killed: recover reads what its buffers hold.
env LD_LIBRARY_PATH="$OLD_PATH" "$TRACEE" paced $N 100 -2 >"$T/paced2.out" 2>&1 &
p=$!
BG_PIDS="$BG_PIDS $p"
wait_for "the program's control file" "'$EVTRACE' ls -p $p >/dev/null 2>&1"
"$EVTRACE" record --overwrite --packet-size 16384 --packets 2 -p "$p" -e "$burst" -o "$T/dead" 2>/dev/null &
fr=$!
wait_for "the flight recorder's bit" "on_in $p $burst 1"
kill -9 "$fr"
wait "$fr" 2>/dev/null || true
kill -USR1 "$p"
wait_for "the burst" "grep -q '^burst done' '$T/paced2.out'"
kill -USR1 "$p"
wait "$p" || fail "the program failed"
"$EVTRACE" recover -o "$T/rec" "$p" 2>"$T/rec.err" || fail "recover: $(cat "$T/rec.err")"
"$EVTRACE" report "$T/rec" >"$T/rec.txt"
python3 "$CHECK" suffix "$T/rec.txt" $N >/dev/null || fail "the recovered events are not the newest, counted"

# 4. The default collection: enable, a rate, disable.
env LD_LIBRARY_PATH="$OLD_PATH" "$TRACEE" wait >"$T/w.out" 2>&1 &
w=$!
BG_PIDS="$BG_PIDS $w"
wait_for "the waiting program" "grep -q ready '$T/w.out'"
alive=$(tracee_event "alive")
"$EVTRACE" enable -p "$w" "$alive" || fail "enable -p"
expect_eq "$("$EVTRACE" ls -p "$w" "$alive" | tail -1)" "1 $alive" "enabled"
"$EVTRACE" enable -p "$w" --rate 50 "$alive" || fail "enable --rate"
expect_eq "$("$EVTRACE" ls -p "$w" "$alive" | tail -1)" "1 $alive (rate 50/s, a rule: enable --rate or eventfs, until --rate 0 or disable)" "capped"
"$EVTRACE" enable -p "$w" --rate 0 "$alive" || fail "enable --rate 0"
"$EVTRACE" disable -p "$w" "$alive" || fail "disable -p"
expect_eq "$("$EVTRACE" ls -p "$w" "$alive" | tail -1)" "0 $alive" "disabled"
kill "$w"
echo "ok: a program on libevtrace 0.1.10 recorded (started and attached), counted, streamed, snapshotted, recovered and switched"
