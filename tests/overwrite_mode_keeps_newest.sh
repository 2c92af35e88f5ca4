# Flight recorder: with a small overwrite buffer only the newest events
# survive, contiguous, and the rest are reported lost.
. "$(dirname "$0")/lib.sh"
"$EVTRACE" record --overwrite --packet-size 16384 --packets 4 -o "$T/tr" -- "$TRACEE" burst 100000 >/dev/null 2>&1
"$EVTRACE" report "$T/tr" >"$T/report"
python3 "$CHECK" suffix "$T/report" 100000
bt_agrees "$T/tr"
