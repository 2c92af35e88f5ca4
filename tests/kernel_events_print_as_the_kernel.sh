# Kernel events print as the kernel prints them: each record of a
# recording, in report and in trace's live lines, is the text of its
# event's print fmt, the same, field for field, as the kernel's own
# rendering of the same records in a tracefs instance that recorded them
# alongside, and as trace-cmd report prints that instance's records
# (-N: the print fmt, not its plugins); prev_state by letter.  The
# syscalls/ events show in strace's notation instead of their print
# fmt's hex.  A trace keeps the formats: it prints so on a machine
# without tracefs too (here: its index read back, nothing else).
. "$(dirname "$0")/lib.sh"
need_tracefs "tracefs instances"
command -v trace-cmd >/dev/null || fail "trace-cmd is not installed (make deps installs it)"

EVENTS="sched/sched_switch sched/sched_process_exec sched/sched_process_fork sched/sched_wakeup_new"
set --
for e in $EVENTS; do set -- "$@" -e "kernel/$e"; done
# capture N: the events recorded by evtrace (record and trace) and in a
# tracefs instance alongside, whose records the kernel's trace file and
# trace-cmd extract then give.  Fails when extract does: it copies
# /proc/kallsyms and gives up when its size changes meanwhile, as it does
# when an eBPF program is loaded (so this test is a serial one: other
# tests' evtrace trace load theirs); extract consumes the instance, so
# the whole capture is made again.
capture() {
	n=$1
	shift
	I=$TR/instances/evtrace-test-$$-$n
	mkdir "$I" || fail "cannot make a tracefs instance"
	RESTORE="[ ! -d '$I' ] || { echo 0 >'$I/tracing_on'; rmdir '$I'; }"
	for e in $EVENTS; do echo 1 >"$I/events/$e/enable"; done
	echo 1 >"$I/tracing_on"
	rm -rf "$T/tr" "$T/live" "$T/tc.dat"
	"$EVTRACE" record -q -o "$T/tr" "$@" -- sh -c 'for i in 1 2 3 4 5; do sleep 0.01; done; (sleep 0.01 &) ; wait' \
		2>"$T/err" || fail "record: $(cat "$T/err")"
	"$EVTRACE" trace -o "$T/live" "$@" -e trace=none -- sh -c 'for i in 1 2 3; do sleep 0.01; done' >/dev/null 2>"$T/err" ||
		fail "trace: $(cat "$T/err")"
	echo 0 >"$I/tracing_on"
	cat "$I/trace" >"$T/kernel.txt"
	# (extract consumes the instance's buffers and removes the instance)
	(cd "$T" && trace-cmd extract -B "evtrace-test-$$-$n" -o "$T/tc.dat" >"$T/tc.log" 2>&1)
}
if ! capture 1 "$@"; then
	echo "trace-cmd extract failed once: $(tail -2 "$T/tc.log" | tr '\n' ' '); captured again" >&2
	eval "$RESTORE"
	capture 2 "$@" || fail "trace-cmd extract: $(tail -5 "$T/tc.log")"
fi
trace-cmd report -N -i "$T/tc.dat" >"$T/tc.txt" 2>/dev/null || fail "trace-cmd report"
"$EVTRACE" report "$T/tr" >"$T/report1" || fail "report"

python3 - "$T/report1" "$T/live" "$T/kernel.txt" "$T/tc.txt" <<'PY' || fail "kernel events printed otherwise than the kernel prints them"
import re, sys
report, live, kernel, tc = sys.argv[1:]
names = ('sched_switch', 'sched_process_exec', 'sched_process_fork', 'sched_wakeup_new')

def ours(path):
    got = []
    for l in open(path):
        m = re.search(r': kernel/sched/(\w+): (.*)$', l)
        if m and m.group(1) in names:
            got.append((m.group(1), m.group(2)))
    return got

def theirs(path):
    seen = set()
    for l in open(path):
        m = re.search(r' (\w+): +(.*?)\s*$', l)
        if m and m.group(1) in names:
            seen.add((m.group(1), m.group(2)))
    return seen

k, t = theirs(kernel), theirs(tc)
for path in (report, live):
    got = ours(path)
    assert len([g for g in got if g[0] == 'sched_switch']) >= 5, (path, got)
    assert any(g[0] == 'sched_process_exec' for g in got), (path, got)
    for g in got:
        assert g in k, '%s: %r is not how the kernel printed it (%d records of it)' % (
            path, g, len(k))
    # trace-cmd's copy of the instance may lack a record the kernel's
    # trace file shows (extract read it once, among other tests, without
    # one exec): the records it has are printed the same, and most are
    # there.
    same = [g for g in got if g in t]
    assert len(same) * 10 >= len(got) * 8, '%s: only %d of %d records as trace-cmd report -N printed them: %r' % (
        path, len(same), len(got), [g for g in got if g not in t][:3])
    states = set(re.search(r'prev_state=(\S+)', g[1]).group(1) for g in got if g[0] == 'sched_switch')
    assert states and all(re.fullmatch(r'[A-Z+|]+', s) for s in states), states
fork = [g for g in ours(report) if g[0] == 'sched_process_fork']
assert fork and re.match(r'comm=sh pid=\d+ child_comm=sh child_pid=\d+$', fork[0][1]), fork
PY

# The syscalls/ events: strace's notation, in report and live (the
# memory their arguments point to: syscalls_recorded_with_memory).
"$EVTRACE" record -q -o "$T/sys" -e kernel/syscalls/sys_enter_openat -e kernel/syscalls/sys_exit_openat \
	-- "$TRACEE" strace-calls "$T/created" >/dev/null 2>"$T/err" || fail "record: $(cat "$T/err")"
"$EVTRACE" report "$T/sys" >"$T/report"
expect_grep ": kernel/syscalls/sys_enter_openat: openat(AT_FDCWD, \"$T/created\", O_RDWR|O_CREAT|O_TRUNC, 0640)$" "$T/report" "sys_enter_openat in report"
expect_grep ": kernel/syscalls/sys_exit_openat: <\.\.\. openat resumed> = -1 ENOENT (No such file or directory)$" "$T/report" "sys_exit_openat in report"

# Read where tracefs is not: the formats come from the trace itself.
expect_grep "^kernel-format " "$T/tr/evtrace/index" "the kernel's formats kept in the index"
expect_eq "$(head -1 "$T/tr/evtrace/index")" "evtrace-index 6.1" "the index version that keeps them (6.1: the kernel line)"
unshare -m sh -c "umount -l '$TR' 2>/dev/null; '$EVTRACE' report '$T/tr'" >"$T/report2" 2>&1 || fail "report without tracefs: $(cat "$T/report2")"
grep -q "prev_state=[A-Z]" "$T/report2" || fail "without tracefs: not printed by the print fmt: $(head -3 "$T/report2")"
expect_eq "$(grep -c 'kernel/sched/sched_switch: prev_comm=' "$T/report2")" \
	"$(grep -c 'kernel/sched/sched_switch: prev_comm=' "$T/report1")" "the same lines without tracefs"

# A damaged kernel-format line is refused with its place, not trusted.
sed 's/^kernel-format \([0-9]*\) \([0-9]*\) .*/kernel-format \1 \2 "broken/' "$T/tr/evtrace/index" >"$T/idx"
cp "$T/idx" "$T/tr/evtrace/index"
expect_status 1 "$EVTRACE" report "$T/tr"
expect_grep "evtrace/index:[0-9]*: bad quoted kernel format" "$T/err" "a damaged kernel-format line"
echo "ok: kernel events print as the kernel and trace-cmd print them"
