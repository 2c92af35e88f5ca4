# A recording of many short-lived processes lets each one go as soon as
# its last packet is out: the run directory and the recorder's fds stay a
# few processes' worth (they grew with every process before), processes
# put off for want of fds are taken on once fds come back, and every event
# is read or counted.
. "$(dirname "$0")/lib.sh"
# A sanitized child takes 0.15 s or more to fork and exit: fewer of them there.
n1=600 n2=300
if ldd "$EVTRACE" | grep -qE 'libasan|libtsan'; then n1=60 n2=80; fi
# Children one after the other.
"$EVTRACE" record -o "$T/tr" -- "$TRACEE" spawn $n1 1 >"$T/prog.out" 2>"$T/rec.err" &
rec=$!
BG_PIDS="$BG_PIDS $rec"
maxf=0; maxc=0; samples=0
while running "$rec"; do
	f=$(ls "/proc/$rec/fd" 2>/dev/null | wc -l)
	c=$(ls "$EVTRACE_RUNDIR" 2>/dev/null | grep -c '\.ctl$' || true)
	[ "$f" -gt "$maxf" ] && maxf=$f
	[ "$c" -gt "$maxc" ] && maxc=$c
	samples=$((samples + 1))
	sleep 0.01
done
wait "$rec" || { cat "$T/rec.err" >&2; fail "record failed"; }
[ "$samples" -ge 5 ] || fail "the recording ended before it could be watched ($samples samples)"
echo "at most $maxc control files and $maxf recorder fds at once, in $samples samples"
[ "$maxc" -le 60 ] || fail "$maxc control files at once in the run directory"
[ "$maxf" -le 60 ] || fail "the recorder held $maxf fds at once"
left=$(ls "$EVTRACE_RUNDIR" | grep '\.ctl$' || true)
if [ -n "$left" ]; then
	cat "$T/rec.err" >&2
	for f in $left; do od -A d -t x4 -N 700 "$EVTRACE_RUNDIR/$f" >&2; done
	fail "control files left: $left (first line of $(head -1 "$T/prog.out"))"
fi
"$EVTRACE" report "$T/tr" >"$T/report"
bt "$T/tr" >"$T/bt"
expect_eq "$(python3 "$CHECK" count "$T/report" "$T/bt" $((5 * n1)) "child ")" "read $((5 * n1)) lost 0" "events of $n1 children"

# 40 alive at once, each wanting two fds, with 40 fds in all.
sh -c "ulimit -n 40; exec \"$EVTRACE\" record -o \"$T/tr2\" -- \"$TRACEE\" spawn $n2 40" \
	>"$T/prog.out" 2>"$T/rec.err" || { cat "$T/rec.err" >&2; fail "record with 40 fds failed"; }
grep -q 'Too many open files' "$T/rec.err" && ! grep -q 'could not follow' "$T/rec.err" &&
	fail "a process was put off without a word"
"$EVTRACE" report "$T/tr2" >"$T/report"
bt "$T/tr2" >"$T/bt"
expect_eq "$(python3 "$CHECK" count "$T/report" "$T/bt" $((5 * n2)) "child ")" "read $((5 * n2)) lost 0" "events with 40 fds"
expect_grep "from $((n2 + 1)) processes" "$T/rec.err" "every process followed"
