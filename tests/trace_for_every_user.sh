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
    # (a call whose exit the live view had not yet when it printed the
    # entry shows as strace shows it then: unfinished, then resumed)
    joined = []
    for e in evs:
        if re.match(r'<\.\.\. getppid resumed> = \d+ <', e) and joined and \
                joined[-1] == 'getppid() <unfinished ...>':
            joined[-1] = 'getppid() = 0 <'
        else:
            joined.append(e)
    kinds = ['G' if re.match(r'getppid\(\) = \d+ <', e) else e.split(': ', 1)[-1] for e in joined]
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

# A setuid or setgid program bob starts is let go of at its exec, as
# strace -f loses it (the kernel's rule: bob could not ptrace it): the
# exec as bob made it, a line saying so, and nothing it did after.
# chage and expiry (setgid shadow) read /etc/shadow, passwd is setuid.
[ -u /usr/bin/passwd ] && [ -g /usr/bin/chage ] && [ -g /usr/bin/expiry ] ||
	fail "no setuid passwd, setgid chage and expiry to test with"
for prog in "passwd -S evt-bob" "chage -l evt-bob" "expiry -c"; do
	name=${prog%% *}
	as_status evt-bob 0 env EVTRACE_RUNDIR="$T/bob/run" "$T/bin/evtrace" trace -s 4096 -o "$T/bob/setid" -- \
		sh -c "/usr/bin/$prog >/dev/null; echo after"
	expect_grep "^ *sh-[0-9]* .*: execve(\"/usr/bin/$name\", " "$T/bob/setid" "$name: its exec, as bob made it"
	expect_grep "^ *$name-[0-9]* .*: +++ no longer traced: its user or group ids are no longer only yours (a setuid or setgid program) +++\$" \
		"$T/bob/setid" "$name: let go of, said"
	expect_grep "^ *sh-[0-9]* .*: write(1, \"after\\\\n\", 6) = 6" "$T/bob/setid" "$name: bob's shell after it"
	if grep -v "+++ no longer traced" "$T/bob/setid" | grep -q "^ *$name-\|shadow\|root:"; then
		fail "$name: what it did after its exec shown to bob: $(grep -v '+++ no longer' "$T/bob/setid" | grep -m3 "^ *$name-\|shadow\|root:")"
	fi
done
# Root keeps everything: chage's read of /etc/shadow, whole.
"$EVTRACE" trace -s 4096 -e trace=openat,read -o "$T/root-chage" -- chage -l evt-bob >/dev/null 2>"$T/err" ||
	fail "root's trace of chage: $(cat "$T/err")"
expect_grep "^ *chage-[0-9]* .*: read([0-9]*, \"root:" "$T/root-chage" "root: chage's read of /etc/shadow"

# A process of bob's that stops being dumpable (ssh-agent's way) is let
# go of at once: its calls before, the line, none after.
as_status evt-bob 0 env EVTRACE_RUNDIR="$T/bob/run" "$T/bin/evtrace" trace -e trace=lseek -o "$T/bob/undumpable" -- "$TRACEE_U" undumpable 3
for i in 0 1 2; do
	expect_grep "^ *tracee-[0-9]* .*: lseek(-1, $i, SEEK_SET) = -1 EBADF" "$T/bob/undumpable" "lseek $i before PR_SET_DUMPABLE 0"
done
expect_grep "^ *tracee-[0-9]* .*: +++ no longer traced: it is not dumpable (a program that gained privilege, or PR_SET_DUMPABLE 0) +++\$" \
	"$T/bob/undumpable" "let go of at PR_SET_DUMPABLE 0"
grep -q "lseek(-1, 100[0-9]" "$T/bob/undumpable" && fail "calls after PR_SET_DUMPABLE 0 shown: $(grep -m2 'lseek(-1, 100' "$T/bob/undumpable")"

# -p: bob's own process is traced; one that is not dumpable, and root's
# process running with bob's effective uid, are refused with the reason.
as_bg evt-bob env EVTRACE_RUNDIR="$T/bob/run" "$TRACEE_U" lseeks-on-signal 3 >"$T/mine.out" &
mine=$!
BG_PIDS="$BG_PIDS $mine"
wait_for "bob's process to start" "grep -q ready '$T/mine.out'"
as_bg evt-bob env EVTRACE_RUNDIR="$T/bob/run" "$T/bin/evtrace" trace -p "$mine" -o "$T/bob/mine" 2>"$T/mine.err" &
tracing=$!
wait_for "trace -p of bob's own process to attach" "grep -q attached '$T/mine.err' || ! running $tracing"
grep -q attached "$T/mine.err" || fail "trace -p of bob's own process: $(cat "$T/mine.err")"
kill -USR1 "$mine"
wait_for "bob's process to make its calls" "grep -q done '$T/mine.out'"
kill -USR1 "$mine"
wait "$tracing" || fail "trace -p of bob's own process: $(cat "$T/mine.err")"
expect_grep "^ *tracee-$mine .*: lseek(-1, 2, SEEK_SET) = -1 EBADF" "$T/bob/mine" "trace -p: bob's own process"
as_bg evt-bob env EVTRACE_RUNDIR="$T/bob/run" "$TRACEE_U" undumpable wait >"$T/agent.out" &
agent=$!
BG_PIDS="$BG_PIDS $agent"
python3 -c 'import os, sys, time
os.setresuid(0, int(sys.argv[1]), 0)
print("ready", flush=True)
time.sleep(600)' "$BOB" >"$T/euid.out" &
euid_only=$!
BG_PIDS="$BG_PIDS $euid_only"
wait_for "the non-dumpable process to start" "grep -q ready '$T/agent.out'"
wait_for "root's process with bob's euid to start" "grep -q ready '$T/euid.out'"
as_status evt-bob 1 env EVTRACE_RUNDIR="$T/bob/run" "$T/bin/evtrace" trace -p "$agent"
expect_grep "^evtrace: trace: pid $agent (tracee, user evt-bob): evtraced traces the system calls and probes of your own processes only (the kernel's CAP_ANY rule: a task you own and could ptrace): it is not dumpable (it gained privilege at an exec, or said PR_SET_DUMPABLE 0)\$" \
	"$T/err" "trace -p of a process that is not dumpable"
as_status evt-bob 1 env EVTRACE_RUNDIR="$T/bob/run" "$T/bin/evtrace" trace -p "$euid_only"
expect_grep "^evtrace: trace: pid $euid_only (python3, user evt-bob): evtraced traces the system calls and probes of your own processes only (the kernel's CAP_ANY rule: a task you own and could ptrace): its user ids (real 0, effective $BOB, saved 0) are not all yours\$" \
	"$T/err" "trace -p of root's process with bob's effective uid"

# Each session puts the eBPF program on every system call of the
# machine: a user has two at once, a third is refused until one ends.
for n in 1 2 3; do
	as_bg evt-bob env EVTRACE_RUNDIR="$T/bob/run" "$TRACEE_U" wait >"$T/idle$n.out" 2>/dev/null &
	eval "idle$n=\$!"
	BG_PIDS="$BG_PIDS $!"
	wait_for "bob's process $n to start" "grep -q ready '$T/idle$n.out'"
done
for n in 1 2; do
	eval "p=\$idle$n"
	as_bg evt-bob env EVTRACE_RUNDIR="$T/bob/run" "$T/bin/evtrace" trace -p "$p" -o /dev/null 2>"$T/seat$n.err" &
	eval "seat$n=\$!"
	BG_PIDS="$BG_PIDS $!"
	wait_for "bob's trace session $n to attach" "grep -q attached '$T/seat$n.err'"
done
as_status evt-bob 1 env EVTRACE_RUNDIR="$T/bob/run" "$T/bin/evtrace" trace -p "$idle3"
expect_eq "$(cat "$T/err")" "evtrace: trace: you have 2 trace sessions through evtraced already, as many as a user may (each puts its eBPF program on every system call of the machine, other users' too): end one first" \
	"bob's third trace session"
kill -INT "$seat1"
wait "$seat1" || fail "bob's first trace session: $(cat "$T/seat1.err")"
wait_for "evtraced to give bob's seat back" \
	"as evt-bob env EVTRACE_RUNDIR='$T/bob/run' '$T/bin/evtrace' trace -e trace=getppid -o /dev/null -- true 2>/dev/null"
kill -INT "$seat2"
wait "$seat2" || fail "bob's second trace session: $(cat "$T/seat2.err")"
kill "$idle1" "$idle2" "$idle3"

# Alice's process: not bob's.
as_status evt-bob 1 env EVTRACE_RUNDIR="$T/bob/run" "$T/bin/evtrace" trace -p "$app"
expect_grep "^evtrace: trace: pid $app (typed, user evt-alice): evtraced traces the system calls and probes of your own processes only (the kernel's CAP_ANY rule: a task you own and could ptrace): its user ids (real $ALICE, effective $ALICE, saved $ALICE) are not all yours\$" \
	"$T/err" "another user's process"
expect_grep "^evtraced: client pid [0-9]* uid $BOB (evt-bob): refused: pid $app (typed, user evt-alice): evtraced traces the system calls and probes of your own processes only" \
	"$T/daemon.log" "the audit: refused, and why"
running "$app" || fail "alice's program"
# A kernel event not flagged CAP_ANY.
as_status evt-bob 1 env EVTRACE_RUNDIR="$T/bob/run" "$T/bin/evtrace" trace -e kernel/sched/sched_switch -- true
expect_grep "kernel/sched/sched_switch: evtraced opens for you only the kernel events flagged CAP_ANY (kernel/syscalls/ and kernel/raw_syscalls/), and the usdt/ probes of files you may read, for your own processes$" \
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
