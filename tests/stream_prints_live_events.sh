# stream -e enables an event in a collection of its own while it runs,
# prints its events as they come, in order, none twice, disables it again
# on SIGINT (or when killed, by the next engine), and ends by itself when
# the process given with -p exits.
. "$(dirname "$0")/lib.sh"
start_waiter
p=$WAIT_PID
ev=$(tracee_event "alive")
"$EVTRACE" stream -p "$p" -e "$ev" >"$T/stream" 2>"$T/stream.err" &
s=$!
BG_PIDS="$BG_PIDS $s"
for _ in $(seq 100); do
	[ "$(grep -c ": alive" "$T/stream" || true)" -ge 20 ] && break
	sleep 0.05
done
[ "$(grep -c ": alive" "$T/stream" || true)" -ge 20 ] || { cat "$T/stream.err" >&2; fail "stream printed too little"; }
# On in the stream's own collection, not in the default one.
"$EVTRACE" ls -p "$p" "$ev" >"$T/ls"
expect_eq "$(tail -1 "$T/ls")" "0 $ev [1]" "enabled while streaming"
expect_grep "^# collection 1: pid $s, evtrace stream -e $ev (slot 1)\$" "$T/ls" "the stream's collection"
# Its acknowledgment that its selection is applied, which every test's
# collection_in waits for: taken back while the stream is stopped, ls
# says the collection is switching its events on and collection_in does
# not take it; continued, the stream gives it again.
kill -STOP "$s"
expect_eq "$("$SCRIBBLE" "$(ls "$EVTRACE_RUNDIR"/"$p"-*.ctl)" 0 unapply)" "unapplied 1" "the acknowledgment taken back"
"$EVTRACE" ls -p "$p" "$ev" >"$T/ls.unapplied"
expect_grep "^# collection 1: pid $s, evtrace stream -e $ev (slot 1, switching its events on)\$" \
	"$T/ls.unapplied" "a collection whose engine has not applied its selection"
collection_in "$p" "$s" && fail "collection_in took a collection whose selection is not applied"
kill -CONT "$s"
wait_for "the stream to apply its selection again" "collection_in $p $s"
kill -INT "$s"
wait "$s" || fail "stream did not exit cleanly on SIGINT"
expect_eq "$("$EVTRACE" ls -p "$p" "$ev" | tail -1)" "0 $ev" "disabled after streaming"
python3 - "$T/stream" <<'PY'
import re, sys
lines = open(sys.argv[1]).read().splitlines()
nums = [int(m.group(1)) for m in (re.search(r': alive (\d+)$', l) for l in lines) if m]
assert nums == list(range(len(nums))), "missing or repeated: %r" % nums[:20]
assert re.fullmatch(r'# %d events, 0 lost' % len(nums), lines[-1]), lines[-1]
assert all(l.split()[0].startswith('tracee-') for l in lines[:-1])
PY
# stream -F: of a program's 200 events, only those whose field passes;
# and a filter that nothing passed is said.  The program starts writing
# once both streams are in it, and they end with it.
"$TRACEE" paced 200 100 -1 >"$T/paced.out" &
pp=$!
BG_PIDS="$BG_PIDS $pp"
wait_for "the paced program" "grep -q '^ready' '$T/paced.out'"
burst=printk/tracee/tests/progs/tracee.c/$(grep -n 'trace_printk("burst %ld' "$TRACEE_SRC" | sed -n 2p | cut -d: -f1)
"$EVTRACE" stream -p "$pp" -F "$burst if arg0 >= 190" -F "$burst if arg0 == 7" >"$T/sf" 2>"$T/sf.err" &
sf=$!
"$EVTRACE" stream -p "$pp" -F "$burst if arg0 > 1000" >"$T/sn" 2>"$T/sn.err" &
sn=$!
BG_PIDS="$BG_PIDS $sf $sn"
wait_for "both filtered streams in the program" "collection_in $pp $sf && collection_in $pp $sn"
kill -USR1 "$pp"
wait "$sf" || fail "stream -F: $(cat "$T/sf.err")"
wait "$sn" || fail "stream -F: $(cat "$T/sn.err")"
expect_eq "$(sed -n 's/^.*: burst //p' "$T/sf" | tr '\n' ' ')" "7 190 191 192 193 194 195 196 197 198 199 " \
	"stream -F: the events whose arg0 passes"
expect_eq "$(grep -c ': burst' "$T/sn" || true)" 0 "stream -F: nothing passed"
expect_grep "^evtrace: stream: --filter '$burst if arg0 > 1000': no event passed it$" "$T/sn.err" "stream: a filter nothing passed, said"
expect_status 1 "$EVTRACE" stream -p "$p" -e 'fn:main' -F "$burst if arg0 > 1"
expect_grep "^evtrace: stream: fn: beside --filter is not yet supported" "$T/err" "stream: fn: beside -F refused"
# A second reader of the default collection is refused.
"$EVTRACE" enable -p "$p" "$ev"
"$EVTRACE" stream -p "$p" >"$T/s2" 2>&1 &
s2=$!
BG_PIDS="$BG_PIDS $s2"
wait_for "the first stream to read the default collection" "slot_held 0"
expect_status 1 "$EVTRACE" stream -p "$p"
expect_grep "another stream without -e is reading the default collection; give -e PATTERN for a stream of its own" "$T/err" "second reader"
# The first ends by itself when its process exits (once it has printed
# an event: killed before, it would have nothing to show).
wait_for "the second stream's first event" "grep -q ': alive' '$T/s2'"
kill -9 "$p"
wait_for "stream -p to end after its process" '! running "$s2"'
grep -q ': alive' "$T/s2" || fail "no events in the second stream"
expect_status 1 "$EVTRACE" stream -p 999999
expect_grep "evtrace: stream: pid 999999: no traced process with this pid" "$T/err" "absent pid"
# A stream killed in the middle leaves its events on and nobody reading:
# the program goes on, dropping and counting, until the next engine
# switches them off.
start_waiter
p=$WAIT_PID
"$EVTRACE" stream -p "$p" -e "$ev" >/dev/null 2>&1 &
s3=$!
wait_for "stream $s3's collection" 'collection_in "$p" "$s3"'
kill -9 "$s3"
wait "$s3" 2>/dev/null || true
sleep 0.5	# (not a wait: half a second of writing into a buffer nobody reads)
running "$p" || fail "the program died with its stream"
"$EVTRACE" ls -p "$p" "$ev" >"$T/ls"
expect_eq "$(tail -1 "$T/ls")" "0 $ev [1]" "on after the stream died"
expect_grep "^# collection 1 (slot 1): its engine is gone" "$T/ls" "ls says the engine is gone"
other=ftrace/print
"$EVTRACE" stream -p "$p" -e "$other" >"$T/s4" 2>&1 &
s4=$!
BG_PIDS="$BG_PIDS $s4"
wait_for "stream $s4's collection" 'collection_in "$p" "$s4"'
"$EVTRACE" ls -p "$p" >"$T/ls"
kill -INT "$s4"; wait "$s4" || true
# The new stream has the dead one's number: the dead one's slot is told
# apart by its id, not its number, and freed.
grep -q "^# collection 1: pid $s4, " "$T/ls" || { cat "$T/ls" >&2; fail "the new stream did not take number 1 again: a reused number is not tested"; }
grep -q "^0 $ev\$" "$T/ls" || { cat "$T/ls" >&2; fail "the dead stream's event is still on"; }
grep -q "^0 $other \[1\]\$" "$T/ls" || { cat "$T/ls" >&2; fail "the new stream did not take the freed slot"; }
grep -q ': legacy [0-9]*$' "$T/s4" || fail "the new stream read nothing"
grep -q ': alive' "$T/s4" && fail "the new stream printed the dead stream's events"
# Streaming a program whose threads come and go: their buffers are handed
# back once read, so more threads than there are buffers all get through.
"$TRACEE" churn >"$T/churn.out" &
cp=$!
BG_PIDS="$BG_PIDS $cp"
wait_for "the churning program to start" "grep -q ready '$T/churn.out'"
"$EVTRACE" stream -p "$cp" -e "$(tracee_event "seq t=")" >"$T/s5" 2>&1 &
s5=$!
BG_PIDS="$BG_PIDS $s5"
for _ in $(seq 200); do
	n=$(grep -c ': seq t=' "$T/s5" 2>/dev/null || true)
	[ "${n:-0}" -gt 700 ] && break
	sleep 0.05
done
kill -INT "$s5"; wait "$s5" || true
n=$(grep -c ': seq t=' "$T/s5" || true)
[ "$n" -gt 700 ] || fail "only $n threads' events streamed: buffers not handed back"
grep -q '^# [0-9]* events, 0 lost$' "$T/s5" || fail "events lost while streaming churn: $(tail -1 "$T/s5")"
# A reader that goes away (`stream | head`) ends the stream like ^C, with
# what -e enabled disabled again; so does a hang-up.
start_waiter
ev=$(tracee_event "alive")
timeout 10 sh -c "\"$EVTRACE\" stream -p $WAIT_PID -e \"$ev\" 2>\"$T/h.err\"; echo \$? >\"$T/h.status\"" |
	head -3 >"$T/head"
expect_eq "$(grep -c ': alive' "$T/head")" 3 "events read by head"
wait_for "the stream's status after its reader left" "[ -s '$T/h.status' ]"
expect_eq "$(cat "$T/h.status" 2>/dev/null)" 0 "stream's status when its reader left"
expect_eq "$("$EVTRACE" ls -p "$WAIT_PID" "$ev" | tail -1)" "0 $ev" "disabled after the reader left"
"$EVTRACE" stream -p "$WAIT_PID" -e "$ev" >"$T/hup" 2>&1 &
s3=$!
BG_PIDS="$BG_PIDS $s3"
wait_for "stream $s3's collection" 'collection_in "$WAIT_PID" "$s3"'
kill -HUP "$s3"
wait "$s3" || fail "stream did not exit cleanly on SIGHUP"
expect_eq "$("$EVTRACE" ls -p "$WAIT_PID" "$ev" | tail -1)" "0 $ev" "disabled after a hang-up"
# Streams one after another: the second starts where the first stopped,
# printing nothing twice and losing nothing in between.
start_waiter
ev=$(tracee_event "alive")
"$EVTRACE" enable -p "$WAIT_PID" "$ev"
for k in 1 2 3; do
	"$EVTRACE" stream -p "$WAIT_PID" >"$T/seq$k" 2>&1 &
	sk=$!
	BG_PIDS="$BG_PIDS $sk"
	wait_for "stream $k to print events" "grep -q ': alive' '$T/seq$k'"
	kill -INT "$sk"
	wait "$sk" || fail "stream $k failed: $(cat "$T/seq$k")"
	sleep 0.1	# events written while nobody streams stay in the buffer
done
cat "$T/seq1" "$T/seq2" "$T/seq3" >"$T/seqall"
python3 - "$T/seqall" <<'PY'
import re, sys
nums = [int(m.group(1)) for m in (re.search(r': alive (\d+)$', l) for l in open(sys.argv[1])) if m]
assert len(nums) > 30, "too few events: %d" % len(nums)
assert nums == list(range(nums[0], nums[0] + len(nums))), \
    "printed twice or lost between streams: %r" % [n for i, n in enumerate(nums[1:]) if n != nums[i] + 1][:5]
PY

# A stop signal while stream or record sets itself up (tens of ms; a
# shell starts them with SIGINT ignored) is caught, not lost: the handler
# comes before the first lock of the setup.
first_handler_before_lock() {	# first_handler_before_lock STRACE_FILE WHAT
	h=$(grep -n 'rt_sigaction(SIGINT, {sa_handler=0x' "$1" | head -1 | cut -d: -f1)
	l=$(grep -n '^flock(' "$1" | head -1 | cut -d: -f1)
	[ -n "$h" ] && [ -n "$l" ] && [ "$h" -lt "$l" ] ||
		fail "$2: SIGINT caught only from line ${h:-never} of its calls, its first lock at ${l:-none}"
}
# (LeakSanitizer cannot run under ptrace: off there, in sanitized builds)
ASAN_OPTIONS=handle_segv=0:detect_leaks=0 \
	strace -o "$T/early.st" -e trace=rt_sigaction,flock "$EVTRACE" stream -e printk >/dev/null 2>"$T/early.err" &
se=$!
# (whichever number it takes: no other engine runs now)
held_any() {
	for f in "$EVTRACE_RUNDIR"/slot-*.lock; do
		[ -e "$f" ] && ! flock -n -s "$f" true 2>/dev/null && return 0
	done
	return 1
}
wait_for "the stream to take a number" held_any \
	"cat '$T/early.err'; ls -l '$EVTRACE_RUNDIR'; tail -5 '$T/early.st'"
kill -INT "$(pgrep -P "$se" -x evtrace)"	# (strace passes no SIGINT on)
wait "$se" || fail "stream: $(cat "$T/early.err")"
first_handler_before_lock "$T/early.st" stream
# record stopped so before its command starts does not start it (the
# command would not get the signal): its locks made slow to be sure.
ASAN_OPTIONS=handle_segv=0:detect_leaks=0 \
	strace -o /dev/null -e trace=flock -e inject=flock:delay_enter=300000 \
	"$EVTRACE" record -o "$T/early" -- "$TRACEE" threads 1 1 >"$T/early.out" 2>"$T/early.err" &
sr=$!
wait_for "record to start under strace" "pgrep -P $sr -x evtrace >/dev/null"
rp=$(pgrep -P $sr -x evtrace)
wait_for "record to catch SIGINT" "[ \$(( 0x\$(sed -n 's/^SigCgt:\t//p' /proc/$rp/status) >> 1 & 1 )) = 1 ]"
kill -INT "$rp"
set +e; wait "$sr"; st=$?; set -e
expect_eq "$st" 130 "record stopped before its command: $(cat "$T/early.err")"
expect_grep "^evtrace: record: stopped before '$TRACEE' was started$" "$T/early.err" "record says it"
[ ! -s "$T/early.out" ] || fail "the command ran though record was stopped before it"
