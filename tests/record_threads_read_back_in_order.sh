# Four threads x 2000 events: each read back once, in order per thread,
# and babeltrace2 reads the same trace with the same values.
. "$(dirname "$0")/lib.sh"
TRACEE_CONSTRUCTOR=1 "$EVTRACE" record -o "$T/tr" -- "$TRACEE" threads 4 2000 >"$T/prog.out"
"$EVTRACE" report "$T/tr" >"$T/report"
bt "$T/tr" >"$T/bt"
python3 "$CHECK" seq "$T/report" "$T/bt" 4 2000
expect_grep "# 8001 events, 0 lost" "$T/report" "summary"
# The program's own constructor traced before main(), and was recorded.
expect_grep ": constructor ran in [0-9]*$" "$T/report" "event from a constructor"
