# evtrace trace for a user the kernel refuses the system call events
# (kernel.perf_event_paranoid 2, Debian's default): evtraced traces the
# user's own processes for them (the kernel's CAP_ANY rule), with the
# memory their arguments point to, and the lines merge with the command's
# own events in time order.  Another user's process, and a kernel event
# not flagged CAP_ANY, are refused with the rule; without evtraced the
# message gives both ways out.
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root (test users, a daemon, a sysctl)"; exit 77; }
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/daemon_lib.sh"
need_tracefs "the system calls' formats"

start_served app
old=$(cat /proc/sys/kernel/perf_event_paranoid)
RESTORE="echo $old >/proc/sys/kernel/perf_event_paranoid"
echo 2 >/proc/sys/kernel/perf_event_paranoid

# No evtraced: both ways out.
as_status evt-bob 1 env EVTRACE_RUNDIR="$T/bob/run" "$T/bin/evtrace" trace -- true
expect_eq "$(cat "$T/err")" "evtrace: trace: kernel.perf_event_paranoid is 2, so the kernel lets only root (or CAP_PERFMON) record system calls, and evtraced, which traces those of your own processes for you, is not running ($SOCK: No such file or directory): set kernel.perf_event_paranoid to 1 or less, or start evtraced ('evtrace daemon', or 'systemctl start evtraced.socket')" \
	"without evtraced"

start_daemon
BOB=$(id -u evt-bob)

# Bob's own command: its system calls from its exec on, the memory they
# point to, a child it forks; its stdout untouched; evtraced's audit.
as_status evt-bob 0 env EVTRACE_RUNDIR="$T/bob/run" "$T/bin/evtrace" trace -o "$T/bob/lines" -- "$TRACEE_U" strace-calls "$T/bob/created"
expect_grep "^fd 3 socket 5 map 0x" "$T/out" "the command's own output"
for want in \
	"execve(\"$TRACEE_U\", \\[" \
	"openat(AT_FDCWD, \"$T/bob/created\", O_RDWR|O_CREAT|O_TRUNC, 0640) = 3" \
	"write(3, \"hello\\\\n\\\\33\\[31mred\\\\0tail\", 19) = 19" \
	"connect(5, {sa_family=AF_UNIX, sun_path=\"/nonexistent-evtrace.sock\"}, 110) = -1 ENOENT (No such file or directory)" \
	"execve(\"/bin/true\", \\[\"true\", \"a\", \"b\", \"c\", \\.\\.\\.\\], 0x[0-9a-f]*)\\( = 0\\| <unfinished\\)"; do
	expect_grep "^ *[a-z]*-[0-9]* .*: $want" "$T/bob/lines" "bob's $want"
done
expect_eq "$(grep -c ': execve(' "$T/bob/lines")" 2 "from the exec on: the command's and its child's"
expect_grep "^evtraced: client pid [0-9]* uid $BOB (evt-bob): asks trace -p [0-9]*\$" "$T/daemon.log" "the audit: what bob asked"
expect_grep "^evtraced: client pid [0-9]* uid $BOB (evt-bob): served, exit status 0\$" "$T/daemon.log" "the audit: served"

# The command's own events among its system calls, in time order: each
# round of each task "before", the call, "after".
as_status evt-bob 0 env EVTRACE_RUNDIR="$T/bob/run" "$T/bin/evtrace" trace -e trace=getppid -o "$T/bob/rounds" -- "$TRACEE_U" syscalls 5
python3 - "$T/bob/rounds" <<'PY' || fail "bob's rounds not in order ($(head -20 "$T/bob/rounds"))"
import re, sys
tasks = {}
for l in open(sys.argv[1]):
    m = re.match(r'^ *\S+-(\d+) +\[\d+\] [\d.]+: (.*)$', l)
    if m and not m.group(2).startswith('+++ '):
        tasks.setdefault(m.group(1), []).append(m.group(2))
rounds = {t: e for t, e in tasks.items() if any(x.endswith(': before getppid 0') for x in e)}
assert len(rounds) == 3, sorted(tasks)
for t, evs in rounds.items():
    evs = evs[next(i for i, e in enumerate(evs) if e.endswith(': before getppid 0')):]
    kinds = ['G' if re.match(r'getppid\(\) = \d+ <', e) else e.split(': ', 1)[-1] for e in evs]
    want = []
    for i in range(5):
        want += ['before getppid %d' % i, 'G', 'after getppid %d' % i]
    assert kinds == want, (t, kinds[:9])
PY

# -c through evtraced: the table.
as_status evt-bob 0 env EVTRACE_RUNDIR="$T/bob/run" "$T/bin/evtrace" trace -c -e trace=getppid -o "$T/bob/table" -- "$TRACEE_U" syscalls 5
calls=$(awk '$NF == "getppid" { print $4 }' "$T/bob/table")
[ "${calls:-0}" -ge 15 ] || fail "-c: not the 15 getppid calls of 3 tasks x 5 rounds at least: $(cat "$T/bob/table")"
expect_grep "^100\.00 *[0-9.]* *[0-9]* *$calls *total$" "$T/bob/table" "-c: the total"
grep -q "<0\.[0-9]*>$\|getppid [0-9]$" "$T/bob/table" && fail "-c printed lines"

# A setuid program bob starts runs as root: none of its calls is shown
# (evtraced's program checks each call's effective uid), bob's own around
# it are.
[ -u /usr/bin/passwd ] || fail "no setuid /usr/bin/passwd to test with"
as_status evt-bob 0 env EVTRACE_RUNDIR="$T/bob/run" "$T/bin/evtrace" trace -o "$T/bob/setuid" -- \
	sh -c '/usr/bin/passwd -S evt-bob >/dev/null; echo after'
expect_grep "^ *sh-[0-9]* .*: write(1, \"after\\\\n\", 6) = 6" "$T/bob/setuid" "bob's shell after the setuid program"
expect_grep "^ *sh-[0-9]* .*: execve(\"/usr/bin/passwd\", " "$T/bob/setuid" "the exec of the setuid program, as bob made it"
grep -q "^ *passwd-" "$T/bob/setuid" && fail "calls of the setuid program shown to bob: $(grep -m3 '^ *passwd-' "$T/bob/setuid")"

# Alice's process: not bob's.
as_status evt-bob 1 env EVTRACE_RUNDIR="$T/bob/run" "$T/bin/evtrace" trace -p "$app"
expect_grep "^evtrace: trace: pid $app (typed, user evt-alice): evtraced traces the system calls of your own processes only (the kernel's CAP_ANY rule: a task you own and could ptrace)$" \
	"$T/err" "another user's process"
expect_grep "^evtraced: client pid [0-9]* uid $BOB (evt-bob): refused: pid $app (typed, user evt-alice): evtraced traces the system calls of your own processes only" \
	"$T/daemon.log" "the audit: refused, and why"
running "$app" || fail "alice's program"
# A kernel event not flagged CAP_ANY.
as_status evt-bob 1 env EVTRACE_RUNDIR="$T/bob/run" "$T/bin/evtrace" trace -e kernel/sched/sched_switch -- true
expect_grep "kernel/sched/sched_switch: evtraced opens for you only the kernel events flagged CAP_ANY (kernel/syscalls/ and kernel/raw_syscalls/), for your own processes$" \
	"$T/err" "a kernel event not flagged CAP_ANY"
# Keeping a trace through evtraced is not there yet, and says so.
as_status evt-bob 1 env EVTRACE_RUNDIR="$T/bob/run" "$T/bin/evtrace" trace -w "$T/bob/kept" -- true
expect_eq "$(cat "$T/err")" "evtrace: trace: -w $T/bob/kept: keeping a trace is not yet supported through evtraced (kernel.perf_event_paranoid is 2 here)" "-w through evtraced"
[ ! -e "$T/bob/kept" ] || fail "-w through evtraced left a directory"

# An evtraced whose worker cannot load the eBPF program refuses rather
# than trace without the check that leaves setuid programs out.
kill "$DAEMON"
wait_for "the daemon to end" "! running $DAEMON"
rm -f "$SOCK"
export EVTRACE_NO_EBPF=1
start_daemon
unset EVTRACE_NO_EBPF
as_status evt-bob 1 env EVTRACE_RUNDIR="$T/bob/run" "$T/bin/evtrace" trace -- "$TRACEE_U" syscalls 1
expect_grep "^evtrace: trace: eBPF: not used (\$EVTRACE_NO_EBPF is set); evtraced traces a user's system calls only with its eBPF program, which leaves out the setuid programs the user starts$" \
	"$T/err" "no eBPF in evtraced's worker"
grep -q "getppid\|tried" "$T/err" "$T/out" && fail "the command ran traced without the check: $(cat "$T/out")"
echo "ok: trace through evtraced for a user at perf_event_paranoid 2"
