# More threads at once than there are buffers: the ones without a buffer
# drop their events, counted exactly.  Many short-lived threads one after
# the other reuse the buffers their predecessors left, once drained.
. "$(dirname "$0")/lib.sh"
"$EVTRACE" record --packet-size 16384 --packets 2 -o "$T/tr" -- "$TRACEE" concurrent 600 >"$T/prog.out" 2>"$T/rec.err"
expect_grep "tried 600" "$T/prog.out" "all threads ran"
"$EVTRACE" report "$T/tr" >"$T/report"
bt "$T/tr" >"$T/bt"
python3 "$CHECK" count "$T/report" "$T/bt" 600 "thread " >"$T/counts"
expect_eq "$(cat "$T/counts")" "read 512 lost 88" "512 buffers, 88 threads without"
expect_grep "88 of them found no buffer" "$T/rec.err" "record says why"
"$EVTRACE" record --packet-size 16384 --packets 2 -o "$T/tr2" -- "$TRACEE" sequential 1500 >"$T/prog.out"
"$EVTRACE" report "$T/tr2" >"$T/report2"
bt "$T/tr2" >"$T/bt2"
python3 "$CHECK" count "$T/report2" "$T/bt2" 4500 "seq " >"$T/counts2"
# Exactness always; with buffers reused, more than 512 threads got one.
read_n=$(sed -n 's/read \([0-9]*\) .*/\1/p' "$T/counts2")
[ "$read_n" -gt $((512 * 3)) ] || fail "buffers were not reused: $(cat "$T/counts2")"
