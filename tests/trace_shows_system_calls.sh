# evtrace trace: a command's system calls as strace shows them, among its
# own events, one line each in time order, its threads and forked
# children followed, live; errors by name; the command's exit status;
# what the rings lost said where and in the total; unprivileged where
# the kernel allows; a reader that goes away ends it; -w keeps a trace.
# Lines go to stderr or -o FILE, the command's output untouched; strace's
# notation, -e trace= sets and -c's table.
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

# strace's notation: flags and enums by name, descriptors signed, modes
# in octal, open's mode only with O_CREAT, fcntl's argument only where
# it means something; the memory arguments point to, as it was at the
# call (eBPF): paths whole, buffers cut at -s, binary bytes and a
# terminal's escape escaped, memory not mapped as its address, the
# structs strace decodes, argv; a forked child's calls; the command's
# stdout its own.
"$EVTRACE" trace -- "$TRACEE" strace-calls "$T/created" >"$T/cmd.out" 2>"$T/out" || fail "trace: $(cat "$T/out")"
expect_grep "^fd 3 socket 5 map 0x" "$T/cmd.out" "the command's output on its stdout"
grep -q "openat\|evtrace: trace:" "$T/cmd.out" && fail "trace's lines on the command's stdout"
grep -q "eBPF" "$T/out" && fail "root's trace without eBPF: $(grep eBPF "$T/out")"
map=$(sed -n 's/.* map 0x\([0-9a-f]*\)$/\1/p' "$T/cmd.out")
long=$(printf '%4095s' '' | tr ' ' x)
# argv's strings are cut at -s (32), unlike the path execve runs.
quoted() { if [ ${#1} -gt 32 ]; then printf '"%s"\\.\\.\\.' "$(printf %s "$1" | cut -c1-32)"; else printf '"%s"' "$1"; fi; }
for want in \
	"execve(\"$TRACEE\", \\[$(quoted "$TRACEE"), \"strace-calls\", $(quoted "$T/created")\\], 0x[0-9a-f]*) = 0" \
	"openat(AT_FDCWD, \"/nonexistent-evtrace\", O_RDONLY|O_CLOEXEC) = -1 ENOENT (No such file or directory)" \
	"openat(AT_FDCWD, \"$T/created\", O_RDWR|O_CREAT|O_TRUNC, 0640) = 3" \
	"lseek(3, 0, SEEK_END) = 0" \
	"fcntl(3, F_GETFL) = [0-9]*" \
	"close(-1) = -1 EBADF (Bad file descriptor)" \
	"mmap(NULL, 4096, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = 0x$map" \
	"mprotect(0x$map, 4096, PROT_NONE) = 0" \
	"munmap(0x$map, 4096) = 0" \
	"kill([0-9]*, SIGUSR2) = 0" \
	"socket(AF_INET6, SOCK_DGRAM|SOCK_CLOEXEC, 0) = 5" \
	"write(3, \"hello\\\\n\\\\33\\[31mred\\\\0tail\", 19) = 19" \
	"read(3, \"hello\\\\n\\\\33\\[31mred\\\\0tail\", 64) = 19" \
	"write(3, \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\"\\.\\.\\., 64) = 64" \
	"write(3, 0x1, 5) = -1 EFAULT (Bad address)" \
	"fstat(3, {st_mode=S_IFREG|0640, st_size=83, \\.\\.\\.}) = 0" \
	"openat(AT_FDCWD, \"$long\"\\.\\.\\., O_RDONLY) = -1 ENAMETOOLONG (File name too long)" \
	"nanosleep({tv_sec=0, tv_nsec=1000}, NULL) = 0" \
	"getcwd(\"$(pwd)\", 4096) = $(($(printf %s "$(pwd)" | wc -c) + 1))" \
	"connect(5, {sa_family=AF_INET, sin_port=htons(9), sin_addr=inet_addr(\"127.0.0.1\")}, 16) = 0" \
	"connect(5, {sa_family=AF_UNIX, sun_path=\"/nonexistent-evtrace.sock\"}, 110) = -1 ENOENT (No such file or directory)" \
	"execve(\"/bin/true\", \\[\"true\", \"a\", \"b\", \"c\", \\.\\.\\.\\], 0x[0-9a-f]*) = 0"; do
	expect_grep "^ *[a-z]*-[0-9]* .*: $want <0\.[0-9]*>$" "$T/out" "$want"
done
expect_eq "$(grep -c 'execve(' "$T/out")" 2 "the command's one execve (not execvp's tries along PATH) and its child's"
expect_grep "^evtrace: trace: [0-9]* system calls, 0 other events" "$T/out" "the summary on stderr"
# -s: buffers and argv's strings cut there, paths whole.
"$EVTRACE" trace -s 4 -o "$T/out" -- "$TRACEE" strace-calls "$T/created" >/dev/null 2>"$T/err" || fail "trace -s 4: $(cat "$T/err")"
expect_grep ": write(3, \"hell\"\\.\\.\\., 19) = 19 <" "$T/out" "-s 4: a buffer"
expect_grep ": execve(\"/bin/true\", \\[\"true\", \"a\", \"b\", \"c\", \\.\\.\\.\\]" "$T/out" "-s 4: argv's strings of 4"
expect_grep ": openat(AT_FDCWD, \"$T/created\", " "$T/out" "-s 4: a path whole"
expect_status 1 "$EVTRACE" trace -s 4097 -- true
expect_grep "^evtrace: trace: -s 4097: not a size from 0 to 4096 bytes$" "$T/err" "-s too large"
expect_status 1 "$EVTRACE" trace -s -1 -- true
expect_grep "^evtrace: trace: -s -1: not a size from 0 to 4096 bytes$" "$T/err" "-s negative"

# -e trace=: classes and names; only those calls shown and counted.
"$EVTRACE" trace -e trace=%network,munmap -o "$T/out" -- "$TRACEE" strace-calls "$T/created" >/dev/null 2>"$T/err" || fail "trace: $(cat "$T/err")"
expect_eq "$(sed 's/^.*[0-9]: \([a-z_0-9]*\)(.*/\1/' "$T/out" | sort -u | tr '\n' ' ')" \
	"connect munmap socket " "trace=%network,munmap: the calls shown"
expect_eq "$(grep -c ': socket(' "$T/out")" 3 "trace=%network: the program's three socket()"
expect_grep "^evtrace: trace: $(wc -l <"$T/out") system calls, " "$T/err" "only those counted"
"$EVTRACE" trace -e trace=file -e trace=kill -o "$T/out" -- "$TRACEE" strace-calls "$T/created" >/dev/null 2>"$T/err" || fail "trace: $(cat "$T/err")"
grep -q ": socket(" "$T/out" && fail "trace=file showed socket()"
expect_grep ": openat(AT_FDCWD, \"$T/created\", O_RDWR|O_CREAT|O_TRUNC, 0640) = 3" "$T/out" "trace=file: openat"
expect_grep ": kill([0-9]*, SIGUSR2) = 0" "$T/out" "a second -e trace=: the union"
"$EVTRACE" trace -e 'trace=!close,munmap,mmap,execve' -o "$T/out" -- "$TRACEE" strace-calls "$T/created" >/dev/null 2>"$T/err" || fail "trace: $(cat "$T/err")"
grep -q ": \(close\|munmap\|mmap\)(" "$T/out" && fail "trace=!close,...: a call it leaves out shown"
expect_grep ": socket(AF_INET6" "$T/out" "trace=!...: the others shown"
expect_status 1 "$EVTRACE" trace -e trace=opnat -- true
expect_grep "^evtrace: trace: -e trace=opnat: no system call or class of that name (classes: file, desc, process, network, memory, signal, ipc)$" "$T/err" "a misspelt call"
expect_status 1 "$EVTRACE" trace -e trace=%files -- true
expect_grep "^evtrace: trace: -e trace=%files: no such class" "$T/err" "a misspelt class"
expect_status 1 "$EVTRACE" trace -o "$T/nodir/lines" -- true
expect_grep "^evtrace: trace: -o $T/nodir/lines: No such file or directory$" "$T/err" "-o where no file can be"

# -c: strace's table instead of the lines (the calls counted, errors and
# all), -C: both.
"$EVTRACE" trace -c -e trace=close,openat,kill -o "$T/out" -- "$TRACEE" strace-calls "$T/created" >/dev/null 2>"$T/err" || fail "trace -c: $(cat "$T/err")"
python3 - "$T/out" <<'PY' || fail "trace -c: the table ($(cat "$T/out"))"
import re, sys
lines = open(sys.argv[1]).read().splitlines()
assert lines[0].split() == ['%', 'time', 'seconds', 'usecs/call', 'calls', 'errors', 'syscall'], lines[0]
assert set(lines[1]) <= set('- '), lines[1]
rows = {}
for l in lines[2:]:
    if set(l) <= set('- '):
        continue
    f = l.split()
    calls = int(f[3])
    errors = int(f[4]) if len(f) == 6 else 0
    rows[f[-1]] = (float(f[1]), calls, errors)
assert lines[-1].split()[-1] == 'total', lines[-1]
# The program's own: 2 openat (1 failing), 3 close (1 failing), 1 kill;
# the loader's before main: more openat and close, some failing.
assert rows['kill'][1:] == (1, 0), rows
assert rows['openat'][1] >= 2 and rows['openat'][2] >= 1, rows
assert rows['close'][1] >= 3 and rows['close'][2] >= 1, rows
total = rows.pop('total')
assert total[1] == sum(r[1] for r in rows.values()), (total, rows)
assert total[2] == sum(r[2] for r in rows.values()), (total, rows)
secs = [r[0] for r in rows.values()]
order = [float(l.split()[1]) for l in lines[2:-2]]
assert order == sorted(order, reverse=True), order
PY
grep -q "<0\.[0-9]*>$" "$T/out" && fail "trace -c printed lines"
"$EVTRACE" trace -C -e trace=kill -o "$T/out" -- "$TRACEE" strace-calls "$T/created" >/dev/null 2>"$T/err" || fail "trace -C: $(cat "$T/err")"
expect_grep ": kill([0-9]*, SIGUSR2) = 0 <0\.[0-9]*>$" "$T/out" "trace -C: the lines"
expect_grep "^ *[0-9.]* *[0-9.]* *[0-9]* *1 *kill$" "$T/out" "trace -C: and the table"

# -p: a running process's calls from the moment trace has attached,
# every thread's, until it exits; status 0.
"$TRACEE" strace-calls-on-signal "$T/created" >"$T/ready" &
BG_PIDS="$BG_PIDS $!"
wait_for 'the tracee' 'grep -q ready "$T/ready"'
victim=$(sed -n 's/^ready //p' "$T/ready")
"$EVTRACE" trace -p "$victim" -o "$T/out" 2>"$T/err" &
tracer=$!
wait_for 'trace -p to attach' 'grep -q "attached" "$T/err"'
expect_eq "$(cat "$T/err")" "evtrace: trace: process $victim attached" "what trace -p says once attached"
kill -USR1 "$victim"
set +e; wait "$tracer"; st=$?; set -e
expect_eq "$st" 0 "trace -p's status once the process exited"
expect_grep "^ *tracee-$victim .*: socket(AF_INET6, SOCK_DGRAM|SOCK_CLOEXEC, 0) = 5 <" "$T/out" "trace -p: the main thread's calls"
expect_grep "^ *tracee-[0-9]* .*: getppid() = [0-9]* <" "$T/out" "trace -p: the other thread's call"
grep ": getppid() = " "$T/out" | grep -q "tracee-$victim " && fail "trace -p: getppid on the wrong thread"
expect_grep "^ *tracee-$victim .*: exit_group(0) = ?$" "$T/out" "trace -p: to its end"
grep -q ": execve(\"$TRACEE\"" "$T/out" && fail "trace -p showed calls from before it attached"
expect_grep ": execve(\"/bin/true\", " "$T/out" "trace -p: a child it forks, followed"
true & gone=$!; wait "$gone"
expect_status 1 "$EVTRACE" trace -p "$gone"
expect_grep "^evtrace: trace: pid $gone: no such process$" "$T/err" "-p of a process that is gone"
expect_status 2 "$EVTRACE" trace -p 1 -- true
expect_grep "^evtrace: trace: -p 1 and a command: trace one or the other$" "$T/err" "-p and a command"

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
