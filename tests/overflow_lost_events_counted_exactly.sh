# A burst much larger than two small packets: the buffer overflows, and
# events read + events lost == events written, exactly.
. "$(dirname "$0")/lib.sh"
"$EVTRACE" record --packet-size 16384 --packets 2 -o "$T/tr" -- "$TRACEE" burst 300000 >"$T/prog.out" 2>"$T/rec.err"
"$EVTRACE" report "$T/tr" >"$T/report"
bt "$T/tr" >"$T/bt"
python3 "$CHECK" count "$T/report" "$T/bt" 300000 "burst " >"$T/counts"
grep -q 'lost [1-9]' "$T/counts" || fail "the buffer did not overflow: $(cat "$T/counts")"
lost=$(sed -n 's/.*lost //p' "$T/counts")
expect_grep "; $lost events lost" "$T/rec.err" "record's summary"
grep -q 'lost [0-9]* events\?$' "$T/report" || fail "no lost-event line in the report"
