# evtrace trace in strace's notation: flags and enums by name, the memory
# arguments point to as it was at the call (eBPF), -s; -e trace= sets,
# -c's table; -p attaching to a running process.  (The rest of trace,
# and what changes the machine, is in trace_shows_system_calls.)
. "$(dirname "$0")/lib.sh"
need_tracefs "tracefs, eBPF"
skip_if_tsan "this test compares them with strace's"

# strace's notation: flags and enums by name, descriptors signed, modes
# in octal, open's mode only with O_CREAT, fcntl's argument only where
# it means something; the memory arguments point to, as it was at the
# call (eBPF): paths whole, buffers cut at -s, binary bytes and a
# terminal's escape escaped, memory not mapped as its address, the
# structs strace decodes, argv, iovecs (four elements shown, a read's
# as far as it filled them); a forked child's calls; the command's
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
	"writev(3, \\[{iov_base=\"ab\", iov_len=2}, {iov_base=\"cde\", iov_len=3}, {iov_base=\"f\", iov_len=1}, {iov_base=\"g\", iov_len=1}, \\.\\.\\.\\], 5) = 8" \
	"readv(3, \\[{iov_base=\"hell\", iov_len=4}, {iov_base=\"o\\\\n\\\\33\\[31mred\\\\0tailaaaaa\", iov_len=20}\\], 2) = 24" \
	"writev(3, \\[{iov_base=0x1, iov_len=5}\\], 1) = -1 EFAULT (Bad address)" \
	"openat(AT_FDCWD, \"$long\"\\.\\.\\., O_RDONLY) = -1 ENAMETOOLONG (File name too long)" \
	"nanosleep({tv_sec=0, tv_nsec=1000}, NULL) = 0" \
	"getcwd(\"$(pwd)\", 4096) = $(($(printf %s "$(pwd)" | wc -c) + 1))" \
	"connect(5, {sa_family=AF_INET, sin_port=htons(9), sin_addr=inet_addr(\"127.0.0.1\")}, 16) = 0" \
	"connect(5, {sa_family=AF_UNIX, sun_path=\"/nonexistent-evtrace.sock\"}, 110) = -1 ENOENT (No such file or directory)"; do
	expect_grep "^ *[a-z]*-[0-9]* .*: $want <0\.[0-9]*>$" "$T/out" "$want"
done
# The child's, whose line its parent's wait4 may split ("<unfinished ...>").
expect_grep "^ *[a-z]*-[0-9]* .*: execve(\"/bin/true\", \\[\"true\", \"a\", \"b\", \"c\", \\.\\.\\.\\], 0x[0-9a-f]*)\( = 0 <0\.[0-9]*>\| <unfinished \.\.\.>\)$" \
	"$T/out" "a forked child's execve, its argv cut after four"
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
expect_eq "$(grep -v ': +++ ' "$T/out" | sed 's/^.*[0-9]: \([a-z_0-9]*\)(.*/\1/' | sort -u | tr '\n' ' ')" \
	"connect munmap socket " "trace=%network,munmap: the calls shown"
expect_eq "$(grep -c ': socket(' "$T/out")" 3 "trace=%network: the program's three socket()"
expect_grep "^evtrace: trace: $(grep -vc ': +++ ' "$T/out") system calls, " "$T/err" "only those counted"
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
expect_grep "^ *tracee-[0-9]* .*: \(getppid()\|<\.\.\. getppid resumed>\) = [0-9]* <" "$T/out" "trace -p: the other thread's call"
grep ": getppid() = " "$T/out" | grep -q "tracee-$victim " && fail "trace -p: getppid on the wrong thread"
expect_grep "^ *tracee-$victim .*: exit_group(0) = ?$" "$T/out" "trace -p: to its end"
grep -q ": execve(\"$TRACEE\"" "$T/out" && fail "trace -p showed calls from before it attached"
expect_grep ": execve(\"/bin/true\", " "$T/out" "trace -p: a child it forks, followed"
true & gone=$!; wait "$gone"
expect_status 1 "$EVTRACE" trace -p "$gone"
expect_grep "^evtrace: trace: pid $gone: no such process$" "$T/err" "-p of a process that is gone"
expect_status 2 "$EVTRACE" trace -p 1 -- true
expect_grep "^evtrace: trace: -p 1 and a command: trace one or the other$" "$T/err" "-p and a command"
# A process's end as strace says it, whatever -e trace= leaves out.
set +e; "$EVTRACE" trace -e trace=kill -o "$T/out" -- sh -c 'sh -c "kill -9 \$\$"; exit 3' 2>"$T/err"; st=$?; set -e
expect_eq "$st" 3 "the command's status"
expect_grep "^ *sh-[0-9]* .*: kill([0-9]*, SIGKILL) = " "$T/out" "the kill"
expect_grep "^ *sh-[0-9]* .*: +++ killed by SIGKILL +++$" "$T/out" "a process killed"
expect_grep "^ *sh-[0-9]* .*: +++ exited with 3 +++$" "$T/out" "a process that exited"
grep -q "exit_group" "$T/out" && fail "-e trace=kill showed exit_group"
# Calls that end otherwise than by returning, as strace shows them: a
# child killed by seccomp at getppid (whose entry the kernel never
# traces: only its exit is seen, and shown whole, as strace shows it); a
# handled signal, its handler's call
# and rt_sigreturn; a thread in pause() when another calls exit(3)
# (its last pause: under ASan, the leak check at exit stops the threads,
# which interrupts and restarts the pause first).
set +e; "$EVTRACE" trace -o "$T/out" -- "$TRACEE" strace-ends 2>"$T/err"; st=$?; set -e
expect_eq "$st" 3 "strace-ends' status: $(cat "$T/err")"
python3 - "$T/out" <<'PY' || { cat "$T/out" >&2; fail "how calls ended"; }
import re, sys
tasks = {}
for l in open(sys.argv[1]):
    m = re.match(r'^ *\S+-(\d+) +\[\d+\] (\d+\.\d+): (.*)$', l.rstrip('\n'))
    if m:
        tasks.setdefault(int(m.group(1)), []).append(m.group(3))
def whole(lines):
    # A call another task's line came into is shown as strace shows it,
    # "<unfinished ...>" then "<... NAME resumed>" (a loaded machine
    # preempts the child in its prctl): taken as the one call it is.
    out = []
    for x in lines:
        m = re.match(r'<\.\.\. \w+ resumed>(.*)$', x)
        if m and out and out[-1].endswith(' <unfinished ...>'):
            out[-1] = out[-1][:-len(' <unfinished ...>')] + m.group(1)
        else:
            out.append(x)
    return out
def after(tid, first, want, last=False, calls_whole=True):
    lines = [re.sub(r' <\d+\.\d{6}>$', '', x) for x in tasks[tid]]
    if calls_whole:
        lines = whole(lines)
    at = [i for i, x in enumerate(lines) if re.fullmatch(first, x)]
    i = at[-1] if last else at[0]
    got = lines[i:i + len(want)]
    assert all(re.fullmatch(w, g) for w, g in zip(want, got)) and len(got) == len(want), (tid, got, want)
child = next(t for t, ls in tasks.items() if any('SIGSYS' in x for x in ls))
after(child, r'prctl\(22, .*\) = 0', [r'prctl\(22, .*\) = 0', r'getppid\(\) = 110',
      r'--- SIGSYS \{si_signo=SIGSYS, si_code=SYS_SECCOMP\} ---', r'\+\+\+ killed by SIGSYS \+\+\+'])
main = next(t for t, ls in tasks.items() if any(x.startswith('kill(') for x in ls))
after(main, r'kill\(\d+, SIGUSR1\) = 0', [r'kill\(%d, SIGUSR1\) = 0' % main,
      r'--- SIGUSR1 \{si_signo=SIGUSR1, si_code=SI_USER\} ---', r'getppid\(\) = \d+', r'rt_sigreturn\(\) = 0'])
after(main, r'exit_group\(3\) = \?', [r'exit_group\(3\) = \?', r'\+\+\+ exited with 3 \+\+\+'])
thread = next(t for t, ls in tasks.items() if any(x.startswith('pause()') for x in ls))
assert thread != main
after(thread, r'pause\(\) <unfinished \.\.\.>', [r'pause\(\) <unfinished \.\.\.>',
      r'<\.\.\. pause resumed> = \? ERESTARTNOHAND \(To be restarted if no handler\)',
      r'\+\+\+ exited with 3 \+\+\+'], last=True, calls_whole=False)
PY
echo "ok: trace in strace's notation"
