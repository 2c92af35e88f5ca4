# Four threads x 2000 events: each read back once, in order per thread,
# and babeltrace2 reads the same trace with the same values.
. "$(dirname "$0")/lib.sh"
"$EVTRACE" record -o "$T/tr" -- "$TRACEE" threads 4 2000 >"$T/prog.out"
"$EVTRACE" report "$T/tr" >"$T/report"
bt "$T/tr" >"$T/bt"
python3 "$CHECK" seq "$T/report" "$T/bt" 4 2000
expect_grep "# 8000 events, 0 lost" "$T/report" "summary"
