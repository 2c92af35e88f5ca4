# Timer signals interrupt writes for 15 ms: every event is either
# read back once or counted as lost; nothing is corrupt.  The program
# counts the handler's writes that came inside one of its own, so that
# the test knows writes did nest.
. "$(dirname "$0")/lib.sh"
"$EVTRACE" record -o "$T/tr" -- "$TRACEE" nested 15 >"$T/prog.out"
tried=$(sed -n 's/^tried //p' "$T/prog.out")
nested=$(sed -n 's/^nested //p' "$T/prog.out")
[ "${nested:-0}" -gt 0 ] || fail "no handler write came inside another: $(cat "$T/prog.out")"
"$EVTRACE" report "$T/tr" >"$T/report"
bt "$T/tr" >"$T/bt"
python3 "$CHECK" count "$T/report" "$T/bt" "$tried" "" >"$T/counts"
grep -q 'read [1-9]' "$T/counts" || fail "nothing read"
