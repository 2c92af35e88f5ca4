# evtrace trace: a command's system calls as strace shows them, among its
# own events, one line each in time order, its threads and forked
# children followed, live; errors by name; the command's exit status;
# what the rings lost said where and in the total; unprivileged where
# the kernel allows; a reader that goes away ends it; -w keeps a trace.
# Lines go to stderr or -o FILE, the command's output untouched.  (strace's
# notation, the memory shown, -e trace=, -c and -p:
# trace_in_strace_notation.)
. "$(dirname "$0")/lib.sh"
need_tracefs "tracefs, perf_event_paranoid"

# 1. Each round of each of three tasks: "before", the call with its
# result (the parent's pid), "after"; the two threads' parent is evtrace,
# the child's the main thread.
rounds_in_order() {
	python3 - "$1" "$2" <<'PY'
import re, sys
out, n = sys.argv[1], int(sys.argv[2])
line_re = re.compile(r'^ *(\S+)-(\d+) +\[(\d+)\] (\d+\.\d+): (.*)$')
tasks = {}
for l in open(out):
    m = line_re.match(l)
    if m:
        tasks.setdefault(int(m.group(2)), []).append((float(m.group(4)), m.group(5)))
tasks = {t: e for t, e in tasks.items() if any(x[1].endswith(': before getppid 0') for x in e)}
assert len(tasks) == 3, "tasks: %r" % sorted(tasks)
parents = {}
for tid, evs in tasks.items():
    times = [e[0] for e in evs]
    assert times == sorted(times), "tid %d: lines out of time order" % tid
    first = next(i for i, e in enumerate(evs) if e[1].endswith(': before getppid 0'))
    # The call on one line, or, interrupted by another task's line, its
    # result on a "resumed" one; other calls (a buffer allocated) between.
    toks = []
    for _, text in evs[first:]:
        m = re.match(r'^(?:getppid\(\)|<\.\.\. getppid resumed>) = (\d+) <0\.\d{6}>$', text)
        if m:
            toks.append(('G', m.group(1)))
        elif re.search(r': (before|after) getppid \d+$', text):
            toks.append(tuple(text.split(': ')[-1].rsplit(' getppid ', 1)))
    want = []
    for i in range(n):
        want += [('before', str(i)), 'G', ('after', str(i))]
    assert len(toks) == len(want), (tid, len(toks), toks[:6])
    for got, w in zip(toks, want):
        assert (got[0] == 'G') if w == 'G' else got == w, (tid, got, w)
    parents[tid] = set(t[1] for t in toks if t[0] == 'G')
main = min(tasks)
assert all(len(p) == 1 for p in parents.values()), parents
parents = {t: p.pop() for t, p in parents.items()}
assert sorted(parents.values()).count(str(main)) == 1, parents
PY
}
"$EVTRACE" trace -o "$T/out" -- "$TRACEE" syscalls 30 >"$T/cmd.out" 2>"$T/err" || fail "trace: $(cat "$T/err")"
rounds_in_order "$T/out" 30 || fail "rounds out of order (output in $T/out)"
expect_grep "^evtrace: trace: [0-9]* system calls, 180 other events; [0-9]* kernel records read, 0 events lost$" "$T/err" "the summary"
grep -q "clone(.*) = [0-9]* <" "$T/out" || grep -q "clone3(.*) = [0-9]* <" "$T/out" || fail "no clone line"
expect_grep " exit_group(0) = ?$" "$T/out" "a call that never returns"
expect_eq "$(cat "$T/cmd.out")" "tried 180" "the command's own output, untouched"

# With -w, what was shown is also a trace: every raw_syscalls record and
# every user event, which report and babeltrace2 read back in order.
"$EVTRACE" trace -w "$T/kept" -o "$T/out" -- "$TRACEE" syscalls 30 >/dev/null 2>"$T/err" || fail "trace -w: $(cat "$T/err")"
written=$(sed -n 's/^evtrace: trace: \([0-9]*\) events written to .*; 0 events lost$/\1/p' "$T/err")
[ "${written:-0}" -gt 360 ] || fail "trace -w: $(cat "$T/err")"
"$EVTRACE" report "$T/kept" >"$T/kept.report"
expect_grep "^# $written events, 0 lost" "$T/kept.report" "the trace kept, read back"
expect_eq "$(grep -c 'kernel/raw_syscalls/sys_enter: NR 110 (' "$T/kept.report")" \
	"$(grep -c ': \(getppid()\|<\.\.\. getppid resumed>\) = [0-9]* <' "$T/out")" "getppid calls kept and shown"
python3 - "$T/kept.report" <<'PY' || fail "the trace kept: rounds out of order"
import re, sys
seq = {}
for l in open(sys.argv[1]):
    m = re.match(r'^ *\S+-(\d+) +\[\d+\] [\d.]+: (\S+): (.*)$', l)
    if not m:
        continue
    if m.group(2) == 'kernel/raw_syscalls/sys_enter' and m.group(3).startswith('NR 110 ('):
        seq.setdefault(m.group(1), []).append('G')
    elif re.match(r'(before|after) getppid \d+$', m.group(3)):
        seq.setdefault(m.group(1), []).append(m.group(3))
rounds = {t: s for t, s in seq.items() if 'before getppid 0' in s}
assert len(rounds) == 3, sorted(seq)
for t, s in rounds.items():
    s = s[s.index('before getppid 0'):]
    assert len(s) == 90, (t, len(s))
    for i in range(30):
        assert s[3 * i:3 * i + 3] == ['before getppid %d' % i, 'G', 'after getppid %d' % i], (t, i, s[3 * i:3 * i + 3])
PY
bt_agrees "$T/kept"

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

# 2. Errors by name, arguments in strace's notation, the exit status.
set +e; "$EVTRACE" trace -o "$T/out" -- sh -c 'exec 3</nonexistent-evtrace; exit 0' >/dev/null 2>"$T/err"; st=$?; set -e
expect_eq "$st" 2 "the shell's status when its redirection fails"
expect_grep "^ *sh-[0-9]* .*openat(AT_FDCWD, \"/nonexistent-evtrace\", O_RDONLY) = -1 ENOENT (No such file or directory) <0\.[0-9]*>$" \
	"$T/out" "openat of a missing file"
set +e; "$EVTRACE" trace -- sh -c 'exit 7' >/dev/null 2>&1; st=$?; set -e
expect_eq "$st" 7 "the command's exit status"

# 3. Kernel events named beside the system calls, and a full ring: each
# loss said where it happened, and the total the sum of them.
"$EVTRACE" trace -o "$T/out" -e kernel/sched/sched_process_fork -- sh -c 'true & wait' 2>"$T/err" || fail "trace: $(cat "$T/err")"
expect_grep "^ *sh-[0-9]* .*kernel/sched/sched_process_fork: comm=sh pid=[0-9]* child_comm=sh child_pid=[0-9]*$" "$T/out" "a kernel event among the calls"
"$EVTRACE" trace -o "$T/out" --kernel-buffer 8 -e "$(tracee_event "before getppid")" -- "$TRACEE" syscalls 20000 >/dev/null 2>"$T/err" || fail "trace: $(cat "$T/err")"
lost=$(sed -n 's/.*kernel records read, \([0-9]*\) events lost$/\1/p' "$T/err")
said=$(sed -n 's/.*\] [0-9.]*: lost \([0-9]*\) kernel records$/\1/p' "$T/out" | awk '{s += $1} END {print s + 0}')
[ "${lost:-0}" -gt 0 ] || fail "8 KiB rings lost nothing: $(cat "$T/err")"
expect_eq "$said" "$lost" "the losses said in lines and in the total"

# 4. A reader that goes away ends it, and the command.
start=$(date +%s)
"$EVTRACE" trace -- "$TRACEE" loop 2 2>&1 >/dev/null | head -3 >/dev/null
[ $(($(date +%s) - start)) -lt 20 ] || fail "trace ran on after its reader was gone"
pgrep -f "$TRACEE loop 2" >/dev/null && fail "the command outlived trace"

# 5. The kernel's rules: root's capabilities dropped (tracefs still
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
rounds_in_order "$T/out" 3 || fail "unprivileged: rounds out of order"
# Without the privilege eBPF needs: said once, and addresses instead.
expect_eq "$(grep -c 'eBPF' "$T/err")" 1 "the fall-back said once"
expect_grep "^evtrace: trace: eBPF: the kernel refuses the program (Operation not permitted): it needs CAP_BPF and CAP_PERFMON (root); system calls show the addresses of their arguments, not the memory there$" "$T/err" "why, and what it means"
nocaps "$EVTRACE" trace -e trace=openat -o "$T/out" -- "$TRACEE" strace-calls "$T/created2" >/dev/null 2>"$T/err" || fail "trace at paranoid 1: $(cat "$T/err")"
expect_grep ": openat(AT_FDCWD, 0x[0-9a-f]*, O_RDWR|O_CREAT|O_TRUNC, 0640) = 3 <" "$T/out" "without eBPF: the path's address"
echo "$old" >/proc/sys/kernel/perf_event_paranoid
