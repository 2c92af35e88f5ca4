# A C site writes its record into the thread's window itself when its
# arguments are stored as they are (bits/window.h), and calls otherwise;
# either way the record reads as printf wrote it, in order, and the
# typed event's fields are its values.  The program says how many went
# each way; built with EVT_NO_INLINE_WRITER, none goes into the window
# and the trace reads the same.
. "$(dirname "$0")/lib.sh"
n=200
for prog in "$WINDOW" "$WINDOW_CALLED"; do
	name=$(basename "$prog")
	"$EVTRACE" record -e '**' -e 'printk/**' -e 'span/**' -e 'async/**' -e 'counter/**' \
		-o "$T/$name" -- "$prog" check $n >"$T/$name.out" 2>"$T/$name.err" ||
		{ cat "$T/$name.err" >&2; fail "$name: record failed"; }
	expect_grep "0 events lost" "$T/$name.err" "$name: nothing lost"
	"$EVTRACE" report "$T/$name" >"$T/$name.report"
	sed -n 's/^.*: printk\/[^:]*: //p' "$T/$name.report" >"$T/$name.got"
	grep -v '^inline [0-9]* called [0-9]*$' "$T/$name.out" >"$T/$name.want"
	diff -u "$T/$name.want" "$T/$name.got" >&2 || fail "$name: printk records differ from printf"
	grep -o 'window/typed: .*' "$T/$name.report" >"$T/$name.typed"
	seq 0 $((n - 1)) | sed 's/.*/window\/typed: seq=& name="kworker\/0:1"/' >"$T/typed.want"
	diff -u "$T/typed.want" "$T/$name.typed" >&2 || fail "$name: typed records differ"
	# spans, async spans and counters: each round's, in order
	sed -n 's/^.*: \(span\/span\|async\/async\|counter\/count\|counter\/real\): /\1 /p' \
		"$T/$name.report" >"$T/$name.spans"
	awk -v n=$n 'BEGIN { for (i = 0; i < n; i++) {
		print "span/span begin"; print "counter/count " i * 3
		print "counter/real " i / 8; print "async/async begin " i + 1
		print "async/async end " i + 1; print "span/span end" } }' >"$T/spans.want"
	diff -u "$T/spans.want" "$T/$name.spans" >&2 || fail "$name: spans or counters differ"
	bt_agrees "$T/$name"
done
records=$((n * 13 + n / 8))
set -- $(sed -n 's/^inline \([0-9]*\) called \([0-9]*\)$/\1 \2/p' "$T/window.out")
expect_eq "$(($1 + $2))" "$records" "window: records counted"
# A round's w, none, typed, span, counter and async records go inline
# (the window is lent again after each record through libevtrace), but
# for the first record and one at each packet's end; char/short (%hd: a
# short stored), float, narrow, precision and null call.
[ "$1" -ge $((n * 9 - 20)) ] || fail "window: only $1 of $records records went into the window"
[ "$2" -ge $((n * 4)) ] || fail "window: only $2 records called"
expect_eq "$(sed -n 's/^inline \([0-9]*\) .*/\1/p' "$T/window_called.out")" 0 \
	"window_called: no record into the window"

# A forked child that no recording follows (the default collection's)
# shares its parent's file until it writes: the window its parent had
# (whose packet is the parent's) is taken back at fork, and the parent's
# records are all there, in order, whatever the child writes.  The
# program goes on once the stream has shown its first record: a stream
# that holds the default collection's lock has not read the process yet,
# whose file goes at its exit.
"$WINDOW" forkwait 300 >"$T/fork.out" 2>&1 &
fp=$!
BG_PIDS="$BG_PIDS $fp"
wait_for "the forking program" "grep -q '^ready' '$T/fork.out'"
"$EVTRACE" enable -p "$fp" 'printk/**'
"$EVTRACE" stream -p "$fp" >"$T/fork.stream" 2>"$T/fork.err" &
st=$!
BG_PIDS="$BG_PIDS $st"
wait_for "the stream to read the default collection" "slot_held 0" "cat '$T/fork.err'"
kill -USR1 "$fp"
wait_for "the stream's first record" "grep -q ': parent ready$' '$T/fork.stream'" "cat '$T/fork.err'"
kill -USR2 "$fp"
wait_exit "$fp" "the forking program" "$T/fork.out"
expect_grep "^parent window lent$" "$T/fork.out" "the parent wrote into its window"
expect_grep "^child window none$" "$T/fork.out" "the child's window, taken back at fork"
# (the stream ends by itself once its process has)
wait_exit "$st" "the stream of the forking program" "$T/fork.err"
parent=$(sed -n 's/^ready //p' "$T/fork.out")
grep -- "-$parent " "$T/fork.stream" | sed -n 's/^.*: \(parent .*\)$/\1/p' >"$T/fork.got"
{ echo "parent ready"; seq 0 299 | sed 's/^/parent before /'
  seq 0 299 | sed 's/^/parent after /'; } >"$T/fork.want"
diff -u "$T/fork.want" "$T/fork.got" >&2 || fail "the parent's records after its child wrote"
expect_eq "$(grep -- "-$parent " "$T/fork.stream" | grep -c ': child ' || true)" 0 \
	"no child record in the parent's stream"
