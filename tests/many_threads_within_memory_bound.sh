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
# Named against the site each thread wrote, for the cause.
expect_grep "lost 88 events: 88 of printk/tracee/tests/progs/tracee.c/[0-9]* (no buffer for the thread)$" \
	"$T/rec.err" "record names the loss"
expect_grep "a process has 512 buffers in 64 MiB" "$T/rec.err" "record says why"
"$EVTRACE" report --stats "$T/tr" >"$T/stats"
expect_grep "no buffer for the thread *88$" "$T/stats" "report --stats names the loss"
"$EVTRACE" record --packet-size 16384 --packets 2 -o "$T/tr2" -- "$TRACEE" sequential 1500 >"$T/prog.out"
"$EVTRACE" report "$T/tr2" >"$T/report2"
bt "$T/tr2" >"$T/bt2"
python3 "$CHECK" count "$T/report2" "$T/bt2" 4500 "seq " >"$T/counts2"
# Exactness always; with buffers reused, more than 512 threads got one.
read_n=$(sed -n 's/read \([0-9]*\) .*/\1/p' "$T/counts2")
[ "$read_n" -gt $((512 * 3)) ] || fail "buffers were not reused: $(cat "$T/counts2")"
