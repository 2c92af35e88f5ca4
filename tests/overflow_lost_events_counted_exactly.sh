# A burst much larger than two small packets: the buffer overflows, and
# events read + events lost == events written, exactly; --fail-on-loss
# makes that record's exit status 1, and leaves one that lost nothing 0.
. "$(dirname "$0")/lib.sh"
set +e
"$EVTRACE" record --fail-on-loss --packet-size 16384 --packets 2 -o "$T/tr" -- "$TRACEE" burst 300000 >"$T/prog.out" 2>"$T/rec.err"
st=$?
set -e
"$EVTRACE" report "$T/tr" >"$T/report"
bt "$T/tr" >"$T/bt"
python3 "$CHECK" count "$T/report" "$T/bt" 300000 "burst " >"$T/counts"
grep -q 'lost [1-9]' "$T/counts" || fail "the buffer did not overflow: $(cat "$T/counts")"
lost=$(sed -n 's/.*lost //p' "$T/counts")
expect_grep "; $lost events lost" "$T/rec.err" "record's summary"
grep -q 'lost [0-9]* events\?: [0-9]* of printk/.* (buffer full)$' "$T/report" ||
	fail "no lost-event line in the report"
expect_eq "$st" 1 "--fail-on-loss with events lost"
expect_grep "^evtrace: record: exits 1 (--fail-on-loss): $lost events lost$" "$T/rec.err" "--fail-on-loss says why"
expect_status 0 "$EVTRACE" record --fail-on-loss -o "$T/none" -- "$TRACEE" threads 1 10
expect_grep "; 0 events lost$" "$T/err" "a recording that lost nothing"
