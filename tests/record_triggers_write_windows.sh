# record --overwrite --trigger: a service-like program (two threads of
# short requests, one slow one, an error line, a failure code in a typed
# event, an init line first) under each kind of trigger writes exactly
# the windows expected, each a whole trace: the slow span complete in it,
# the init line kept, what fired named in evtrace/trigger.  --max-windows
# bounds them; a directory where a window would go is never written
# into; -p and --after; bad
# expressions are refused with the position of the error.
. "$(dirname "$0")/lib.sh"

# A span longer than 150 ms: the one slow request (300 ms), whole, in one
# window.  The others take 0.2 ms, or what a loaded machine makes of it:
# one kept open past 150 ms fires too, rightly, and its window is only
# checked to be that of a span over 150 ms.
"$EVTRACE" record --overwrite --trigger 'span request > 150ms' -o "$T/slow" -- "$SPANS" service \
	>"$T/out" 2>"$T/err" || { cat "$T/err" >&2; fail "record with a span trigger"; }
expect_grep '^served$' "$T/out" "the service ran to its end"
w=""
nw=0
for d in "$T"/slow/window-*; do
	[ -d "$d" ] || continue
	nw=$((nw + 1))
	lasted=$(sed -n 's/^span_ns: \([0-9]*\)$/\1/p' "$d/evtrace/trigger")
	[ -n "$lasted" ] && [ "$lasted" -gt 150000000 ] ||
		fail "$d: its span's length not said, or not over 150 ms: '$lasted'"
	if [ "$lasted" -ge 300000000 ]; then
		[ -z "$w" ] || fail "two windows of spans of 300 ms: $w and $d"
		w=$d
	fi
done
[ -n "$w" ] || fail "no window of the slow request: $(ls "$T/slow"; cat "$T/err")"
expect_grep "^evtrace: record: --trigger 'span request > 150ms' fired on span/request (pid [0-9]*, tid [0-9]*): window $w$" \
	"$T/err" "the firing said"
expect_grep "^evtrace: record: triggers fired $nw times\{0,1\}, $nw windows\{0,1\} written$" "$T/err" "the summary"
expect_grep '^trigger: span request > 150ms$' "$w/evtrace/trigger" "the trigger named in the window"
expect_grep '^event: span/request$' "$w/evtrace/trigger" "the event named"
# What the window holds, said in it: its firing span's end, the service's
# process, as many events as report counts in it, nothing lost, and a
# time span that holds the firing.
svc=$(sed -n 's/^pid: //p' "$w/evtrace/trigger")
expect_grep '^firing_event: held$' "$w/evtrace/trigger" "the firing event held"
expect_grep "^processes: $svc$" "$w/evtrace/trigger" "the window's processes"
expect_grep '^lost_before: 0$' "$w/evtrace/trigger" "nothing lost before the window"
expect_grep '^lost_inside: 0$' "$w/evtrace/trigger" "nothing lost inside the window"
expect_eq "$(sed -n 's/^events: //p' "$w/evtrace/trigger")" \
	"$("$EVTRACE" report "$w" | sed -n 's/^# \([0-9]*\) events.*/\1/p')" "the window's events, as report counts them"
from=$(sed -n 's/^from_ns: //p' "$w/evtrace/trigger")
to=$(sed -n 's/^to_ns: //p' "$w/evtrace/trigger")
at=$(sed -n 's/^monotonic_ns: //p' "$w/evtrace/trigger")
[ "$from" -le "$at" ] && [ "$at" -le "$to" ] || fail "the firing ($at) is not within the window ($from..$to)"
expect_eq "$("$EVTRACE" query --no-cache --csv "$w" "SELECT args, state FROM slice WHERE dur >= 300000000" | tail -n +2 | tr -d '\r')" \
	"t=1 i=50,complete" "the slow request whole in the window, and only it of 300 ms"
"$EVTRACE" report "$w" >"$T/w1.report" || fail "report of the window"
expect_grep "printk/spans/.*: service starting$" "$T/w1.report" "the init line in the window"
bt "$w" >/dev/null
"$EVTRACE" report "$T/slow" >/dev/null || fail "the recording's own trace"

# Spans of one name on two threads, one thread's nested and the other's
# ending between them: each end pairs with its own thread's innermost
# begin, so only A's outer span (120 ms) fires, at its end; paired
# otherwise, A's spans measure 80 ms and none of A's fires.
"$EVTRACE" record --overwrite --trigger 'span req > 100ms' -o "$T/nest" -- "$SPANS" interleave \
	>"$T/out" 2>"$T/err" || { cat "$T/err" >&2; fail "record with interleaved spans"; }
a=$(sed -n 's/^A //p' "$T/out")
[ -n "$a" ] || fail "the program did not say its thread A"
expect_eq "$(grep -c "^evtrace: record: --trigger 'span req > 100ms' fired on span/req (pid [0-9]*, tid $a): window $T/nest/window-[0-9]*$" "$T/err")" \
	1 "A's outer span fired, once"
w=$(sed -n "s/^evtrace: record: --trigger .* (pid [0-9]*, tid $a): window \(.*\)$/\1/p" "$T/err")
expect_eq "$("$EVTRACE" query --no-cache --csv "$w" "SELECT depth, state, dur >= 120000000 FROM slice WHERE tid = $a ORDER BY depth" | tail -n +2 | tr -d '\r')" \
	"$(printf '0,complete,1\n1,complete,0')" "A's spans in its window, the outer one whole"

# A span whose end the triggers cannot know: they are stopped while its
# thread writes 200,000 short spans inside it, and lose some.  It never
# fires, neither as complete (its end may be an inner one's) nor as open
# past its threshold, and record says so.  An inner span fires only if it
# took over 20 ms after all (the program measures them: on a loaded
# machine, or under a sanitizer, a thread may lose its CPU for that long
# between a begin and its end), and then as the complete span it was.
"$EVTRACE" record --stats --overwrite --trigger 'span req > 20ms' -o "$T/lossy" -- "$SPANS" lossy 200000 \
	>"$T/lossy.out" 2>"$T/lossy.err" &
rec=$!
BG_PIDS="$BG_PIDS $rec"
wait_for "the program to be ready" "grep -q '^ready' '$T/lossy.out'"
prog=$(pgrep -P "$rec" -x spans)
[ -n "$prog" ] || fail "the program is not the recording's child"
kill -STOP "$rec"
kill -USR1 "$prog"
wait_for "the burst" "grep -q '^burst' '$T/lossy.out'"
kill -CONT "$rec"
wait "$rec" || fail "record with its triggers stopped: $(cat "$T/lossy.err")"
expect_grep "^evtrace: record: the triggers' stream lost [1-9][0-9]* events (its buffers were full)" \
	"$T/lossy.err" "the triggers' stream lost events"
expect_grep "^evtrace: record: the triggers did not see the end of [1-9][0-9]* spans\{0,1\} (events lost on its thread, or an enclosing span of its name ended first): those did not fire$" \
	"$T/lossy.err" "the spans of unknown end said"
slow=$(sed -n 's/^burst slow=//p' "$T/lossy.out")
fired=$(sed -n 's/^evtrace: record: triggers fired \([0-9]*\) times\{0,1\}, .*/\1/p' "$T/lossy.err")
[ -n "$slow" ] && [ -n "$fired" ] || fail "no count of slow inner spans or of firings: $(cat "$T/lossy.out" "$T/lossy.err")"
[ "$fired" -le "$slow" ] || fail "$fired firings for $slow inner spans over 20 ms: a span of unknown end fired: $(cat "$T/lossy.err")"
for w in "$T"/lossy/window-*; do
	[ -e "$w" ] || continue
	grep -q '^span_ns: [0-9]*$' "$w/evtrace/trigger" && ! grep -q '^span_open_at_firing_ns:' "$w/evtrace/trigger" ||
		fail "$w fired on a span not seen whole: $(cat "$w/evtrace/trigger")"
done
[ "$slow" = 0 ] || echo "note: $slow inner spans took over 20 ms (the machine's doing); $fired fired"

# A window taken after its firing event was overwritten says so, in it
# and in record's summary: event 100 of a storm of 200,000 fires, and its
# window, due 10 s later (--after), is taken when the recording ends with
# the program, long after the flight recorder's buffer went round.
"$EVTRACE" record --overwrite --after 10s --trigger 'printk/spans/** if arg0 == 100' -o "$T/gone" \
	-- "$SPANS" storm 200000 0 >/dev/null 2>"$T/gone.err" || fail "record of a storm: $(cat "$T/gone.err")"
expect_grep "^evtrace: record: window $T/gone/window-1 does not hold the event that fired it: overwritten before the window was taken (thread [0-9]*'s first event in it is [0-9.]* s after the firing; [1-9][0-9]* of its events went before it)$" \
	"$T/gone.err" "a window without its firing event, said"
expect_grep "^evtrace: record: triggers fired 1 time, 1 window written; 1 window does not hold the event that fired it (said above)$" \
	"$T/gone.err" "the summary counts it"
expect_grep "^firing_event: not held: overwritten before the window was taken" "$T/gone/window-1/evtrace/trigger" \
	"the window says it"
[ "$(sed -n 's/^lost_before: //p' "$T/gone/window-1/evtrace/trigger")" -gt 0 ] || fail "nothing said lost before the window"

# A span still open when the recording ends, past its duration: it fires,
# and its window, taken at the end, holds its begin.
"$EVTRACE" record --overwrite --trigger 'span drain > 5ms' -o "$T/drain" -- "$SPANS" service \
	>/dev/null 2>"$T/err" || { cat "$T/err" >&2; fail "record with a trigger on a span left open"; }
expect_grep "^evtrace: record: triggers fired 1 time, 1 window written$" "$T/err" "the open span fired once"
expect_eq "$("$EVTRACE" query --no-cache --csv "$T/drain/window-1" "SELECT name, state FROM slice WHERE name = 'drain'" | tail -n +2 | tr -d '\r')" \
	"drain,open" "the open span in its window"
open_for=$(sed -n 's/^span_open_at_firing_ns: \([0-9]*\)$/\1/p' "$T/drain/window-1/evtrace/trigger")
[ -n "$open_for" ] && [ "$open_for" -gt 5000000 ] || fail "the open span's time not said, or within 5 ms: '$open_for'"
expect_grep '^span_ns: unknown (still open when the recording ended)$' "$T/drain/window-1/evtrace/trigger" \
	"the open span's length unknown"

# A typed event's field: == fires once, > on three events.
"$EVTRACE" record --overwrite --trigger 'svc/failure if code == 28' --trigger 'svc/failure if code > 4' \
	-o "$T/code" -- "$SPANS" service >/dev/null 2>"$T/err" || { cat "$T/err" >&2; fail "record with field triggers"; }
expect_eq "$(grep -c "fired on svc/failure" "$T/err")" 4 "four firings"
expect_eq "$(grep -c "'svc/failure if code == 28' fired" "$T/err")" 1 "code == 28 once"
expect_grep "^evtrace: record: triggers fired 4 times, 4 windows written$" "$T/err" "four windows"
[ -d "$T/code/window-4" ] && [ ! -e "$T/code/window-5" ] || fail "not four windows: $(ls "$T/code")"
# --max-windows bounds them, and says what it left out.
"$EVTRACE" record --overwrite --trigger 'svc/failure if code > 4' --max-windows 2 \
	-o "$T/max" -- "$SPANS" service >/dev/null 2>"$T/err" || fail "record --max-windows"
expect_grep "^evtrace: record: triggers fired 3 times, 2 windows written; 1 firing after --max-windows 2 wrote none$" \
	"$T/err" "--max-windows"
[ ! -e "$T/max/window-3" ] || fail "a third window past --max-windows 2"
# A field the event does not have: said once, never fires.
"$EVTRACE" record --overwrite --trigger 'svc/failure if nope == 1' -o "$T/nofield" -- "$SPANS" service \
	>/dev/null 2>"$T/err" || fail "record with a trigger on a missing field"
expect_eq "$(grep -c "svc/failure has no field nope; it cannot fire on it" "$T/err")" 1 "a missing field said once"
expect_grep "triggers fired 0 times, 0 windows written" "$T/err" "nothing fired"

# A printk pattern: the init line, the program's very first event (a
# command's processes take up the triggers' stream from their start),
# then the error line, each in its window, taken 300 ms later: after the
# threads that wrote them have exited (their buffers are kept for it).
"$EVTRACE" record --overwrite --trigger 'printk/spans/**' --after 300ms -o "$T/err1" -- "$SPANS" service \
	>/dev/null 2>"$T/err" || { cat "$T/err" >&2; fail "record with a printk trigger"; }
expect_grep "^evtrace: record: triggers fired 2 times, 2 windows written$" "$T/err" "the init line and the error"
"$EVTRACE" report "$T/err1/window-1" >"$T/w1.report"
expect_grep ": service starting$" "$T/w1.report" "the first event fired its window"
"$EVTRACE" report "$T/err1/window-2" >"$T/w2.report"
expect_grep ": error: request 70 failed$" "$T/w2.report" "the error line in its window"

# -p: a running program, a printk argument compared (its second, the
# iteration), --after: the window comes later, and goes past a directory
# planted where the first window would go.
"$TRACEE" loop 1 >"$T/loop.out" &
lp=$!
BG_PIDS="$BG_PIDS $lp"
wait_for 'the loop to say ready' 'grep -q ready "$T/loop.out"'
site=$(tracee_event "loop t=")
# (>= and one window: the stream may take the process up after i=2000)
"$EVTRACE" record --overwrite -p "$lp" --trigger "$site if arg1 >= 2000" --max-windows 1 --after 200ms \
	-o "$T/loop" >/dev/null 2>"$T/loop.err" &
rec=$!
BG_PIDS="$BG_PIDS $rec"
wait_for 'the recording to make its directory' '[ -f "$T/loop/metadata" ]'
mkdir "$T/loop/window-1"
echo mine >"$T/loop/window-1/keep"
wait_for 'the window' 'grep -q "window $T/loop/window-2" "$T/loop.err"'
kill -INT "$rec"
wait "$rec" || { cat "$T/loop.err" >&2; fail "record -p with a trigger"; }
expect_eq "$(cat "$T/loop/window-1/keep")" mine "a directory where a window would go, untouched"
"$EVTRACE" report "$T/loop/window-2" >"$T/w3.report"
first=$(grep -n ": loop t=0 i=\(2[0-9][0-9][0-9]\|[3-9][0-9][0-9][0-9]\|[0-9]\{5,\}\)$" "$T/w3.report" | head -1 | cut -d: -f1)
[ -n "$first" ] || fail "no event past the firing's in its window"
[ "$(grep -c ': loop t=0 i=' "$T/w3.report")" -gt "$first" ] || fail "--after: nothing after the firing in the window"
expect_grep "1 window written" "$T/loop.err" "--max-windows 1"
expect_grep '^monotonic_ns: [0-9]*$' "$T/loop/window-2/evtrace/trigger" "the firing's time"

# --before: the slow span's window still holds it whole (its begin is
# 300 ms before the firing, far more than --before asks).
"$EVTRACE" record --overwrite --trigger 'span request > 150ms' --before 10ms -o "$T/before" \
	-- "$SPANS" service >/dev/null 2>"$T/err" || { cat "$T/err" >&2; fail "record --before"; }
expect_eq "$("$EVTRACE" query --no-cache --csv "$T/before/window-1" "SELECT state FROM slice WHERE dur > 150000000" | tail -n +2 | tr -d '\r')" \
	complete "--before: the slow span whole in its window"

# 'lost': a flight recorder loses what a rate limit holds back; the
# recorder sees its writers' counts grow and takes a window.
alpha=$(tracee_event "alpha")
"$EVTRACE" record --overwrite --trigger lost --max-windows 1 -o "$T/lost" \
	-- "$TRACEE" two-sites 30000 wait >"$T/lost.out" 2>"$T/lost.err" &
rec=$!
wait_for "the program to be ready" "grep -q '^ready' '$T/lost.out'"
prog=$(sed -n 's/^ready //p' "$T/lost.out")
"$EVTRACE" enable --rate 100 -p "$prog" "$alpha"
kill -USR1 "$prog"
wait $rec || fail "record --trigger lost: $(cat "$T/lost.err")"
expect_grep "^evtrace: record: --trigger 'lost' fired (lost [0-9]* events\{0,1\}): window $T/lost/window-1$" \
	"$T/lost.err" "'lost' fired"
expect_grep '^trigger: lost$' "$T/lost/window-1/evtrace/trigger" "the window names the trigger"
grep -q '^firing_event' "$T/lost/window-1/evtrace/trigger" && fail "a 'lost' window looked for a firing event"
# What the window says it lost, before its threads' first events and
# after: the rate limit's drops, after the first alpha, inside it; the
# two are what its loss records add up to.
before=$(sed -n 's/^lost_before: //p' "$T/lost/window-1/evtrace/trigger")
inside=$(sed -n 's/^lost_inside: //p' "$T/lost/window-1/evtrace/trigger")
[ "${inside:-0}" -gt 0 ] || fail "the 'lost' window says it lost nothing inside it: $(cat "$T/lost/window-1/evtrace/trigger")"
expect_eq "$((before + inside))" "$("$EVTRACE" query --no-cache --csv "$T/lost/window-1" \
	"SELECT coalesce(sum(count), 0) AS n FROM loss" | tail -n +2 | tr -d '\r')" \
	"lost before and inside the window, as its loss records add up"
"$EVTRACE" report "$T/lost/window-1" >"$T/lost.report" || fail "report of the 'lost' window"
expect_grep ": lost [0-9]* events: [0-9]* of $alpha (rate limit)" "$T/lost.report" \
	"the window holds the loss, named"

# The triggers' stream loses what its buffers cannot hold while the
# recorder is stopped: said, and what the triggers evaluated and what
# they missed add up to what was written.
burst=printk/tracee/tests/progs/tracee.c/$(grep -n 'trace_printk("burst %ld' "$TRACEE_SRC" | sed -n 2p | cut -d: -f1)
"$EVTRACE" record --overwrite --stats --trigger "$burst if arg0 == -1" -o "$T/missed" \
	-- "$TRACEE" paced 300000 100000 -1 >"$T/missed.out" 2>"$T/missed.err" &
rec=$!
wait_for "the program to be ready" "grep -q '^ready' '$T/missed.out'"
prog=$(sed -n 's/^ready //p' "$T/missed.out")
kill -STOP "$rec"
kill -USR1 "$prog"
wait_for "the burst to end" "grep -q '^tried' '$T/missed.out'"
kill -CONT "$rec"
wait $rec || fail "record with its triggers' stream stopped: $(cat "$T/missed.err")"
missed=$(sed -n "s/^evtrace: record: the triggers' stream lost \([0-9]*\) events (its buffers were full): a trigger may have missed them$/\1/p" "$T/missed.err")
evaluated=$(sed -n 's/^evtrace: record: triggers evaluated \([0-9]*\) events$/\1/p' "$T/missed.err")
[ "${missed:-0}" -gt 0 ] || { cat "$T/missed.err" >&2; fail "nothing missed while the recorder was stopped"; }
expect_eq "$((missed + evaluated))" 300000 "evaluated and missed"

# Bad expressions, before anything runs.
for bad in "span request >|15|expected a duration" "span request > 5 ms|16|expected a duration" "span|5|a span's name is missing" \
	   "svc/failure if code < \"x\"|21|a string compares with == and != only" \
	   "svc/failure when code == 1|13|expected 'if FIELD OP VALUE'" "a//b|1|empty path component" \
	   "svc/failure if code ~ 1|21|expected an operator" "lost 5|6|unexpected after 'lost'" \
	   "span $(printf 'x%.0s' $(seq 300)) > 1ms|6|a word of more than 255 characters"; do
	expr=${bad%%|*}; rest=${bad#*|}; pos=${rest%%|*}; why=${rest#*|}
	expect_status 1 "$EVTRACE" record --overwrite --trigger "$expr" -o "$T/never" -- "$SPANS" service
	expect_grep "^evtrace: record: --trigger '$expr': at position $pos: $why" "$T/err" "--trigger '$expr'"
	[ ! -e "$T/never" ] || fail "a refused trigger still recorded"
done
expect_status 2 "$EVTRACE" record --trigger 'svc/failure' -o "$T/never" -- true
expect_grep "give --overwrite" "$T/err" "--trigger without --overwrite"
expect_status 2 "$EVTRACE" record --overwrite --after 1s -o "$T/never" -- true
expect_grep "give --trigger too" "$T/err" "--after without --trigger"
expect_status 2 "$EVTRACE" record --overwrite --before 1s -o "$T/never" -- true
expect_grep "give --trigger too" "$T/err" "--before without --trigger"
expect_status 1 "$EVTRACE" record --overwrite --trigger 'svc/failure' --before 0s -o "$T/never" -- true
expect_grep "before 0s: more than 0" "$T/err" "--before 0"
expect_status 1 "$EVTRACE" record --overwrite --trigger 'svc/failure' --after 2h -o "$T/never" -- true
expect_grep "after 2h: a duration up to an hour" "$T/err" "--after past an hour"
expect_status 1 "$EVTRACE" record --overwrite --trigger 'svc/failure' --max-windows 0 -o "$T/never" -- true
expect_grep "max-windows 0: 1 to 10000" "$T/err" "--max-windows 0"
[ ! -e "$T/never" ] || fail "a refused option still recorded"
