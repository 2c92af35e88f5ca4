# evtrace record -e kernel/syscalls: a whole system of events (some 700
# tracepoints), twice in a row: the second recording finds nothing of the
# first's held (its perf events are let go of in a child of its own, which
# keeps nothing else).  A scale test, apart from kernel_events_recorded.
. "$(dirname "$0")/lib.sh"
need_tracefs "tracefs, perf_event_paranoid"
ENTER=kernel/syscalls/sys_enter_getppid
EXIT=kernel/syscalls/sys_exit_getppid
for round in 1 2; do
	"$EVTRACE" record -o "$T/tr-all$round" -e kernel/syscalls -- "$TRACEE" syscalls 2 >/dev/null 2>"$T/rec" ||
		fail "record -e kernel/syscalls: $(cat "$T/rec")"
	"$EVTRACE" report "$T/tr-all$round" >"$T/report-all"
	n=$(grep -c ": $ENTER: " "$T/report-all")
	[ "$n" -ge 6 ] || fail "round $round: $n getppid calls recorded of kernel/syscalls"
	expect_eq "$(grep -c ": $EXIT: " "$T/report-all")" "$n" "round $round: as many returns"
	grep -q ": kernel/syscalls/sys_enter_exit_group: " "$T/report-all" || fail "round $round: no exit_group"
done
# Their letting go holds the kernel's event mutex for seconds: the next
# perf event opened waits for it, so that the next test starts after.
"$EVTRACE" count -e kernel/sched/sched_process_exec -- true 2>/dev/null
echo "ok: kernel/syscalls recorded twice in a row, $n calls each"
