# evtrace trace where it changes the machine: a trace kept (-w) on a file
# system that fills (a tmpfs mounted for it), and the kernel's rules for
# the system call events (kernel.perf_event_paranoid 2 refuses, 1 allows
# one's own, with root's capabilities dropped), with eBPF's fall-back.
. "$(dirname "$0")/lib.sh"
need_tracefs "tracefs, perf_event_paranoid, a tmpfs"

# A trace kept on a file system that fills: trace says so once and the
# live view goes on to the end.
mkdir "$T/small"
mount -t tmpfs -o size=64k evtrace-test "$T/small" || fail "cannot mount a tmpfs"
set +e; "$EVTRACE" trace -w "$T/small/kept" -o "$T/out" -- "$TRACEE" syscalls 3000 >/dev/null 2>"$T/err"; st=$?; set -e
umount "$T/small"
expect_eq "$st" 0 "the command's status when the trace kept fills its disk"
expect_eq "$(grep -c 'the trace stops there, the live view goes on' "$T/err")" 1 "said once"
expect_grep "^evtrace: trace: .*stream_.*: No space left on device; the trace stops there" "$T/err" "which file, and why"
expect_eq "$(grep -c ': after getppid 2999$' "$T/out")" 3 "the live view to the end (its three tasks' last rounds)"

# The kernel's rules: root's capabilities dropped (tracefs still
# reads), paranoid 2 refuses, 1 allows one's own system calls.
old=$(cat /proc/sys/kernel/perf_event_paranoid)
trap 'echo "$old" >/proc/sys/kernel/perf_event_paranoid; cleanup' EXIT
nocaps() { setpriv --bounding-set=-all --inh-caps=-all --securebits=+noroot,+noroot_locked "$@"; }
echo 2 >/proc/sys/kernel/perf_event_paranoid
set +e; nocaps "$EVTRACE" trace -- true >/dev/null 2>"$T/err"; st=$?; set -e
expect_eq "$st" 1 "trace without privilege at paranoid 2"
expect_grep "^evtrace: trace: kernel/raw_syscalls/sys_enter: the kernel refuses to record it in pid [0-9]* (perf_event_open: Permission denied): kernel.perf_event_paranoid is 2; recording the syscalls/ and raw_syscalls/ events of your own processes needs it at 1 or less" "$T/err" "the refusal"
echo 1 >/proc/sys/kernel/perf_event_paranoid
nocaps "$EVTRACE" trace -o "$T/out" -- "$TRACEE" syscalls 3 >/dev/null 2>"$T/err" || fail "trace at paranoid 1: $(cat "$T/err")"
trace_rounds_in_order "$T/out" 3 || fail "unprivileged: rounds out of order"
# Without the privilege eBPF needs: said once, and addresses instead.
expect_eq "$(grep -c 'eBPF' "$T/err")" 1 "the fall-back said once"
expect_grep "^evtrace: trace: eBPF: the kernel refuses the program (Operation not permitted): it needs CAP_BPF and CAP_PERFMON (root); system calls show the addresses of their arguments, not the memory there$" "$T/err" "why, and what it means"
nocaps "$EVTRACE" trace -e trace=openat -o "$T/out" -- "$TRACEE" strace-calls "$T/created2" >/dev/null 2>"$T/err" || fail "trace at paranoid 1: $(cat "$T/err")"
expect_grep ": openat(AT_FDCWD, 0x[0-9a-f]*, O_RDWR|O_CREAT|O_TRUNC, 0640) = 3 <" "$T/out" "without eBPF: the path's address"
echo "$old" >/proc/sys/kernel/perf_event_paranoid
echo "ok: trace on a full disk and under the kernel's rules"
