# evtrace trace: a command's system calls as strace shows them, among its
# own events, one line each in time order, its threads and forked
# children followed, live; errors by name; the command's exit status;
# what the rings lost said where and in the total; a reader that goes
# away ends it; -w keeps a trace.  Lines go to stderr or -o FILE, the
# command's output untouched.  (strace's notation, the memory shown,
# -e trace=, -c and -p: trace_in_strace_notation; a full disk and the
# kernel's rules: trace_under_the_kernels_rules.)
. "$(dirname "$0")/lib.sh"
need_tracefs "tracefs, perf_event_paranoid"
skip_if_tsan "this test counts the processes and calls a program makes"

# 1. Each round of each of three tasks: "before", the call with its
# result (the parent's pid), "after"; the two threads' parent is evtrace,
# the child's the main thread.
"$EVTRACE" trace -o "$T/out" -- "$TRACEE" syscalls 30 >"$T/cmd.out" 2>"$T/err" || fail "trace: $(cat "$T/err")"
trace_rounds_in_order "$T/out" 30 || fail "rounds out of order (output in $T/out)"
expect_grep "^evtrace: trace: [0-9]* system calls, 180 other events; [0-9]* kernel records read, 0 events lost$" "$T/err" "the summary"
grep -q "clone(.*) = [0-9]* <" "$T/out" || grep -q "clone3(.*) = [0-9]* <" "$T/out" || fail "no clone line"
expect_grep " exit_group(0) = ?$" "$T/out" "a call that never returns"
expect_eq "$(cat "$T/cmd.out")" "tried 180" "the command's own output, untouched"

# With -w, what was shown is also a trace: every raw_syscalls record and
# every user event, which report and babeltrace2 read back in order.
set +e
"$EVTRACE" trace -w "$T/kept" -o "$T/out" -- "$TRACEE" syscalls 30 >"$T/cmd.out" 2>"$T/err"
st=$?
set -e
[ "$st" = 0 ] || fail "trace -w exited $st: $(cat "$T/err" "$T/cmd.out")"
written=$(sed -n 's/^evtrace: trace: \([0-9]*\) events written to .*; 0 events lost$/\1/p' "$T/err")
[ "${written:-0}" -gt 360 ] || fail "trace -w said no more than 360 events written, none lost: $(cat "$T/err"
	"$EVTRACE" report "$T/kept" 2>&1 | grep -i -B2 'lost' | head -40)"
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

# 2. Errors by name, arguments in strace's notation, the exit status.
set +e; "$EVTRACE" trace -o "$T/out" -- sh -c 'exec 3</nonexistent-evtrace; exit 0' >/dev/null 2>"$T/err"; st=$?; set -e
expect_eq "$st" 2 "the shell's status when its redirection fails"
expect_grep "^ *sh-[0-9]* .*openat(AT_FDCWD, \"/nonexistent-evtrace\", O_RDONLY) = -1 ENOENT (No such file or directory) <0\.[0-9]*>$" \
	"$T/out" "openat of a missing file"
set +e; "$EVTRACE" trace -- sh -c 'exit 7' >/dev/null 2>&1; st=$?; set -e
expect_eq "$st" 7 "the command's exit status"

# Children are followed however many threads came and went before (the
# map of followed processes, 16,384, once filled with them), and those
# it has no room for are said and counted, not left out silently.
"$EVTRACE" trace -e trace=lseek -o "$T/out" -- "$TRACEE" threads-then-fork 17000 >/dev/null 2>"$T/err" ||
	fail "trace of 17,000 threads: $(cat "$T/err")"
expect_grep "^ *tracee-[0-9]* .*: lseek(-1, 4242, SEEK_SET) = -1 EBADF" "$T/out" "the child forked after 17,000 threads"
EVTRACE_BPF_TASKS_MAX=4 "$EVTRACE" trace -e trace=lseek -o "$T/out" -- "$TRACEE" children-at-once 8 >/dev/null 2>"$T/err" ||
	fail "trace of 8 children, room for 4 processes: $(cat "$T/err")"
expect_eq "$(sed -n "s/^ *kernel-0 .*: \([0-9]*\) new process\(es\)\{0,1\} not followed: the eBPF program's map of followed processes is full$/\1/p" "$T/out" |
	awk '{ n += $1 } END { print n + 0 }')" 5 "children not followed, said (as they come)"
expect_eq "$(grep -c ': lseek(-1, 10[0-7], ' "$T/out")" 3 "the children followed"
expect_grep "^evtrace: trace: [0-9]* system calls, .*, 0 events lost (and new processes not followed: see their line)$" "$T/err" "the summary says it"

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
cp "$TRACEE" "$T/tracee-reader"	# (a name no other test's process has)
"$EVTRACE" trace -- "$T/tracee-reader" loop 2 2>&1 >/dev/null | head -3 >/dev/null
[ $(($(date +%s) - start)) -lt 20 ] || fail "trace ran on after its reader was gone"
pgrep -f "$T/tracee-reader loop 2" >/dev/null && fail "the command outlived trace"
echo "ok: trace shows system calls among the command's events"
