# The recorder dies (SIGKILL) in the middle of a recording: the traced
# program neither crashes nor blocks, and finishes its work.
. "$(dirname "$0")/lib.sh"
"$EVTRACE" record --packet-size 16384 --packets 2 -o "$T/tr" -- "$TRACEE" nested 1500 >"$T/prog.out" 2>/dev/null &
rec=$!
sleep 0.4
kill -9 "$rec"
# The program runs on, now without anyone draining its full buffers.
for _ in $(seq 100); do grep -q '^tried' "$T/prog.out" 2>/dev/null && break; sleep 0.05; done
grep -q '^tried [1-9]' "$T/prog.out" || fail "the traced program did not finish after its recorder died"
# What the recorder wrote before dying is a readable (partial) trace.
set +e; "$EVTRACE" report "$T/tr" >"$T/report" 2>"$T/err"; st=$?; set -e
[ "$st" -le 1 ] || fail "report crashed on the partial trace"
# The next recording sweeps what the dead recorder and its program left.
ls "$EVTRACE_RUNDIR" | grep -q '\.ctl$' || fail "expected a control file left behind"
"$EVTRACE" record -o "$T/tr2" -- true 2>/dev/null
left=$(ls "$EVTRACE_RUNDIR" | grep -E '\.ctl$|\.rules$' || true)
[ -z "$left" ] || fail "stale files not swept: $left"
