# Two recordings at once, in one run directory: each claims its own slot
# and gets exactly the events of its own program, none of the other's.
. "$(dirname "$0")/lib.sh"
"$EVTRACE" record -o "$T/a" -- "$TRACEE" threads 2 3000 >/dev/null 2>"$T/a.err" &
ra=$!
"$EVTRACE" record -o "$T/b" -- "$TRACEE" burst 5000 >/dev/null 2>"$T/b.err" &
rb=$!
BG_PIDS="$BG_PIDS $ra $rb"
wait "$ra" || fail "first recording failed"
wait "$rb" || fail "second recording failed"
"$EVTRACE" report "$T/a" >"$T/ra"
"$EVTRACE" report "$T/b" >"$T/rb"
expect_grep "# 6000 events, 0 lost" "$T/ra" "first recording"
expect_grep "# 5000 events, 0 lost" "$T/rb" "second recording"
grep -q ': burst ' "$T/ra" && fail "the first recording has the second's events"
grep -q ': seq t=' "$T/rb" && fail "the second recording has the first's events"
bt_agrees "$T/a"
bt_agrees "$T/b"
