# A name a program can write is one the commands take: a span "L0
# slowdown" and a counter "memtable bytes" are listed by ls --patterns in
# the form the commands accept (quoted), and that form works with
# enable, format, count, record -e and a trigger's span name; a quote
# left open, or a control character in one, is refused with its place.
. "$(dirname "$0")/lib.sh"
"$SPANS" spaced >"$T/out" 2>"$T/err" &
app=$!
BG_PIDS="$BG_PIDS $app"
wait_for "the program to be ready" "grep -q '^ready' '$T/out'"
"$EVTRACE" ls --patterns -p "$app" >"$T/patterns"
expect_grep '^span/"L0 slowdown"$' "$T/patterns" "ls --patterns quotes the span's name"
expect_grep '^counter/"memtable bytes"$' "$T/patterns" "and the counter's"
"$EVTRACE" enable -p "$app" 'span/"L0 slowdown"' 2>"$T/en.err" || fail "enable of a quoted name: $(cat "$T/en.err")"
"$EVTRACE" ls -p "$app" >"$T/ls"
expect_grep '^1 span/L0 slowdown (span)$' "$T/ls" "the span switched on by its quoted name"
expect_grep '^0 counter/memtable bytes (counter)$' "$T/ls" "the counter left off"
"$EVTRACE" disable -p "$app" 'span/"L0 slowdown"' || fail "disable of a quoted name"
"$EVTRACE" format -p "$app" 'counter/"memtable bytes"' >"$T/format" 2>"$T/format.err" ||
	fail "format of a quoted name: $(cat "$T/format.err")"
expect_eq "$(cat "$T/format")" "\"\"" "the counter's format (none: its value is its record)"
kill "$app"

# record -e and a trigger on the span by its quoted name; count.  (The
# program waits for SIGUSR1 after "ready": a command's sites are on from
# its start.)
run_spaced() {	# run_spaced OUT COMMAND...: COMMAND -- spans spaced, released
	out=$1
	shift
	"$@" -- "$SPANS" spaced >"$out" 2>"$out.err" &
	tool=$!
	BG_PIDS="$BG_PIDS $tool"
	wait_for "the program to be ready" "grep -q '^ready' '$out'"
	kill -USR1 "$(pgrep -P "$tool" -x spans)"
	wait "$tool" || fail "$*: $(cat "$out.err")"
}
run_spaced "$T/rec.out" "$EVTRACE" record --overwrite --trigger 'span "L0 slowdown" > 20ms' \
	-e 'span/"L0 slowdown"' -e 'counter/"memtable bytes"' -o "$T/tr"
expect_grep "^evtrace: record: --trigger 'span \"L0 slowdown\" > 20ms' fired on span/L0 slowdown (pid [0-9]*, tid [0-9]*): window $T/tr/window-1$" \
	"$T/rec.out.err" "the trigger on the quoted span fired"
"$EVTRACE" report "$T/tr" >"$T/report"
# It fires for each span over 20 ms as the trace has them: the one that
# sleeps 30 ms, and a 1 ms one a loaded machine stretched past 20 ms.
over=$(python3 - "$T/report" <<'PY'
import re, sys
begin, over = None, 0
for line in open(sys.argv[1]):
    m = re.search(r' (\d+\.\d+): span/L0 slowdown: (begin|end)$', line)
    if m and m.group(2) == 'begin':
        begin = float(m.group(1))
    elif m and begin is not None:
        over += float(m.group(1)) - begin > 0.020
        begin = None
print(over)
PY
)
[ "$over" -ge 1 ] || fail "no span over 20 ms in the trace: $(grep 'L0 slowdown' "$T/report")"
[ "$over" = 1 ] && expect_grep "^evtrace: record: triggers fired 1 time, 1 window written$" "$T/rec.out.err" "once"
[ "$over" = 1 ] || expect_grep "^evtrace: record: triggers fired $over times, $over windows written$" \
	"$T/rec.out.err" "once for each span over 20 ms"
span_ns=$(sed -n 's/^span_ns: \([0-9]*\)$/\1/p' "$T/tr/window-1/evtrace/trigger")
[ -n "$span_ns" ] && [ "$span_ns" -gt 20000000 ] ||
	fail "the first window's span, over 20 ms and whole: span_ns '$span_ns'"
expect_eq "$(sed -n 's/.*: counter\/memtable bytes: //p' "$T/report" | tr '\n' ' ')" "100 101 102 " "the counter's values"
expect_eq "$(grep -c ': span/L0 slowdown: begin$' "$T/report")" 3 "the span's begins"
run_spaced "$T/count.out" "$EVTRACE" count -e 'counter/"memtable bytes"'
expect_grep "^ *3 *counter/memtable bytes$" "$T/count.out.err" "counted by its quoted name"

# Refused with the place of what is wrong.
expect_status 1 "$EVTRACE" record -e 'span/"L0 slowdown' -o "$T/no" -- true
expect_grep "^evtrace: record: pattern 'span/\"L0 slowdown': the quote at position 6 is not closed$" "$T/err" "an open quote"
expect_status 1 "$EVTRACE" record -e 'span/""' -o "$T/no" -- true
expect_grep "an empty quoted name at position 6" "$T/err" "an empty quote"
expect_status 1 "$EVTRACE" record --overwrite --trigger 'span "L0 > 1ms' -o "$T/no" -- true
expect_grep "not a span's name" "$T/err" "an open quote in a trigger"
