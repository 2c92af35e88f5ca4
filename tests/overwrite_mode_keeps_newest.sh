# Flight recorder: with a small overwrite buffer only the newest events
# survive, contiguous, and the rest are reported lost in the trace; record
# says they were overwritten, by design, and that nothing was lost.
. "$(dirname "$0")/lib.sh"
"$EVTRACE" record --overwrite --packet-size 16384 --packets 4 -o "$T/tr" -- "$TRACEE" burst 100000 >/dev/null 2>"$T/err"
"$EVTRACE" report "$T/tr" >"$T/report"
python3 "$CHECK" suffix "$T/report" 100000
# 100,000 events of 16 bytes through 64 KiB: most were overwritten.
read_n=$(sed -n 's/^# \([0-9]*\) events, \([0-9]*\) lost.*/\1/p' "$T/report")
lost_n=$(sed -n 's/^# \([0-9]*\) events, \([0-9]*\) lost.*/\2/p' "$T/report")
[ "${lost_n:-0}" -gt 50000 ] || fail "the flight recorder overwrote $lost_n events: $(tail -1 "$T/report")"
expect_eq "$((read_n + lost_n))" 100000 "events kept + overwritten"
expect_grep "^evtrace: record: every event (no -e): [0-9]* packets, [0-9]* bytes from 1 process written to $T/tr; $lost_n events overwritten (the flight recorder keeps the newest), 0 lost$" \
	"$T/err" "record's summary: overwritten, not lost"
bt_agrees "$T/tr"
