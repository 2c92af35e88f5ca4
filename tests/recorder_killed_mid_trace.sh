# The recorder dies (SIGKILL) in the middle of a recording: the traced
# program neither crashes nor blocks, and finishes its work.
. "$(dirname "$0")/lib.sh"
# The program writes until told to stop (SIGUSR1), so the recorder, which
# ends with its program, is alive when it is killed.
"$EVTRACE" record --packet-size 16384 --packets 2 -o "$T/tr" -- "$TRACEE" nested -1 >"$T/prog.out" 2>/dev/null &
rec=$!
wait_for 'the program to say ready in prog.out' 'grep -q "^ready " "$T/prog.out" 2>/dev/null'
prog=$(sed -n 's/^ready //p' "$T/prog.out")
# Killed once it has written events to the trace (it flushes twice a
# second).
wait_for 'the recorder to write events' \
	'"$EVTRACE" report "$T/tr" 2>/dev/null | grep -q "^# [1-9][0-9]* events"'
running "$rec" || fail "the recorder ended before its program did"
kill -9 "$rec"
# Gone for good: a process being killed lets go of its files (the slot
# lock) only after unmapping its memory, which takes a while here.
wait "$rec" 2>/dev/null || true
# The program runs on, now without anyone draining its full buffers, and
# still answers: it stops when told and says how much it wrote.
kill -USR1 "$prog"
wait_for 'the traced program to finish after its recorder died' 'grep -q "^tried [1-9]" "$T/prog.out"'
# ... and is gone: until its last instruction (a sanitizer's exit checks
# take a while) it holds its control file, which no sweep may take.
wait_for "the traced program to exit" "! running $prog"
# What the recorder wrote before dying is a readable (partial) trace.
set +e; "$EVTRACE" report "$T/tr" >"$T/report" 2>"$T/err"; st=$?; set -e
[ "$st" -le 1 ] || fail "report crashed on the partial trace"
grep -q '^# [1-9][0-9]* events' "$T/report" || fail "the partial trace holds no event: $(tail -1 "$T/report")"
# The program may have let go of the orphaned slot itself (it looks when
# its buffer is full, every 2^31 clock units); either way the next
# recording leaves nothing stale.
# (A recording sweeps what no live process holds: one whose exit is not
# over yet, a sanitizer's checks at exit running, still holds its file,
# so the next recording is run until its sweep finds the process gone.)
swept() {
	"$EVTRACE" record -o "$T/$1" -- true 2>/dev/null
	[ -z "$(ls "$EVTRACE_RUNDIR" | grep -E '\.ctl$|\.rules$')" ]
}
wait_for "a recording to sweep the stale files ($(ls "$EVTRACE_RUNDIR" | tr '\n' ' '))" "swept tr2"
# The recorder and then its program killed: their files are left behind,
# and the next recording sweeps them.
"$EVTRACE" record --packet-size 16384 --packets 2 -o "$T/tr3" -- "$TRACEE" loop 1 >"$T/loop.out" 2>/dev/null &
rec=$!
wait_for 'the program to say ready in loop.out' 'grep -q ready "$T/loop.out" 2>/dev/null'
pid=$(sed -n 's/^ready //p' "$T/loop.out")
kill -9 "$rec"
kill -9 "$pid"
wait "$rec" 2>/dev/null || true
wait_for 'pid to end' '! running "$pid"'
ls "$EVTRACE_RUNDIR" | grep -q "^$pid-.*\.ctl$" || fail "expected the killed program's control file left behind"
ls "$EVTRACE_RUNDIR" | grep -q '\.rules$' || fail "expected the killed recorder's rules left behind"
wait_for "a recording to sweep the killed ones' files" "swept tr4"
