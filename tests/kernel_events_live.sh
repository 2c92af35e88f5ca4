# Kernel events live: stream -e kernel/..., a consumer's
# evt_consumer_add("kernel/..."), enable --collection N on a running
# stream, and enable kernel/... in the default collection that a stream
# without -e reads.  Each shows the process's system calls with its own
# events, in time order, each call once, with the kernel's values.
. "$(dirname "$0")/lib.sh"
N=40
P=printk/tracee/tests/progs/tracee.c
before=$P/$(grep -n 'trace_printk("before getppid' "$TRACEE_SRC" | cut -d: -f1)

# perf events open in a process: its samplers are attached.
perf_fds() {
	ls -l "/proc/$1/fd" 2>/dev/null | grep -c 'perf_event' || true
}

# rounds_in_order OUT TASKS: in the stream's lines OUT, each of the
# TASKS tasks that made rounds has its N rounds in order: "before i",
# getppid() with its parent's pid, "after i"; each line once.  The
# program's events and the kernel's are each in order; between the two,
# a call may stand up to TOL ns (5 us) on the wrong side of the program's
# events of its round: the kernel's clock is placed on the TSC by
# measurement, which a loaded machine makes worse in a stream's first
# 100 ms (2 us seen in CI), and a call's entry follows "before" by some
# 0.1 us (design-notes.md).
rounds_in_order() {
	python3 - "$1" "$N" "$2" <<'PY'
import re, sys
out, n, ntasks = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
line_re = re.compile(r'^ *(\S+)-(\d+) +\[(\d+)\] (\d+\.\d+): (\S+): (.*)$')
tasks = {}
for l in open(out):
    m = line_re.match(l)
    if m:
        tasks.setdefault(int(m.group(2)), []).append((m.group(4), m.group(5), m.group(6)))
tasks = {t: e for t, e in tasks.items() if any(x[2] == 'before getppid 0' for x in e)}
assert len(tasks) == ntasks, "tasks: %r" % sorted(tasks)
for tid, evs in tasks.items():
    times = [float(e[0]) for e in evs]
    back = [(evs[i], evs[i + 1]) for i in range(len(evs) - 1) if times[i + 1] < times[i]]
    assert not back, "tid %d: lines out of time order: %r" % (tid, back[:2])
    TOL = 5000
    user, kern = [], []
    for t, path, text in evs:
        ns = round(float(t) * 1e9)
        if path == 'kernel/syscalls/sys_enter_getppid':
            assert text == 'getppid()', text
            kern.append(('enter', ns))
        elif path == 'kernel/syscalls/sys_exit_getppid':
            m = re.match(r'^<\.\.\. getppid resumed> = (\d+)$', text)
            assert m, text
            kern.append(('exit', ns))
        elif re.match(r'^(before|after) getppid \d+$', text):
            user.append((text, ns))
    want_user = []
    for i in range(n):
        want_user += ['before getppid %d' % i, 'after getppid %d' % i]
    assert [u[0] for u in user] == want_user, (tid, 'user', len(user), [u[0] for u, w in zip(user, want_user) if u[0] != w][:4])
    # (the first round's entry may follow a call of the start's, an exit
    # that came before "before 0": the kernel's from there on)
    while kern and kern[0][1] < user[0][1] - TOL:
        kern.pop(0)
    assert [k[0] for k in kern[:2 * n]] == ['enter', 'exit'] * n, (tid, 'kernel', len(kern))
    for i in range(n):
        before, after = user[2 * i][1], user[2 * i + 1][1]
        enter, exit_ = kern[2 * i][1], kern[2 * i + 1][1]
        assert before - TOL <= enter <= exit_ <= after + TOL, (tid, i, before, enter, exit_, after)
PY
}

# 1. stream -e kernel/... and a consumer, side by side, on one process
# whose three tasks (two threads and a forked child) make N rounds.
"$TRACEE" syscalls-on-signal "$N" >"$T/p.out" 2>&1 &
p=$!
BG_PIDS="$BG_PIDS $p"
wait_for "the program" "grep -q ready '$T/p.out'"
ppid=$(ps -o ppid= -p "$p" | tr -d ' ')
"$EVTRACE" stream -p "$p" -e kernel/syscalls/sys_enter_getppid \
	-e kernel/syscalls/sys_exit_getppid -e "$P" >"$T/s" 2>"$T/s.err" &
s=$!
CONSUME_TID=1 "$CONSUME" record "$p" kernel/syscalls/sys_exit_getppid "$P" >"$T/c" 2>&1 &
c=$!
BG_PIDS="$BG_PIDS $s $c"
# The kernel patterns are added first: the printk events on in both
# collections say both samplers are attached.
wait_for "both collections' events in the program" \
	"\"\$EVTRACE\" ls -p $p '$before' | grep -q '^0 $before \\[[0-9]*,[0-9]*\\]\$'"
expect_eq "$(head -1 "$T/c")" "added 1" "the consumer's kernel event"
slot=$("$EVTRACE" ls -p "$p" | sed -n "s/^# collection \([0-9]*\): pid $s, .*/\1/p")
[ -n "$slot" ] || { "$EVTRACE" ls -p "$p" >&2; fail "the stream's collection is not listed"; }
kill -USR1 "$p"
wait_for "the rounds" "grep -q done '$T/p.out'" \
	"echo program:; cat '$T/p.out'; ps -L -o pid,tid,stat,wchan:30,comm -p $p --ppid $p; echo stream:; tail -3 '$T/s' '$T/s.err'; echo consumer:; tail -3 '$T/c'"
# Another kernel event, added to the running stream by enable
# --collection; the process's exit shows it.
"$EVTRACE" enable --collection "$slot" kernel/sched/sched_process_exit 2>"$T/en.err" ||
	fail "enable --collection of a kernel event: $(cat "$T/en.err")"
kill -USR1 "$p"
wait "$s" || fail "stream: $(cat "$T/s.err")"
wait "$c" || { cat "$T/c" >&2; fail "the consumer exited $?"; }
rounds_in_order "$T/s" 3 2>"$T/why" || { cat "$T/s" >&2; fail "stream -e kernel/: rounds: $(tail -1 "$T/why")"; }
expect_eq "$(grep -c ': kernel/syscalls/sys_exit_getppid: <... getppid resumed> = '"$ppid"'$' "$T/s")" \
	"$((2 * N))" "the main thread's and the thread's parent"
expect_grep "^ *tracee-$p .*: kernel/sched/sched_process_exit: comm=tracee pid=$p prio=[0-9]* group_dead=" \
	"$T/s" "the event enable --collection added"
consumer_failed() {
	cat "$T/c" >&2
	echo "the consumer's other lines:" >&2
	grep -v ' id=' "$T/c" | head -20 >&2
	cat "$T/why" >&2
	fail "the consumer's records: $(tail -1 "$T/why")"
}
# The consumer's records: the exit's fields with their values, by task,
# in round order.
python3 - "$T/c" "$N" "$p" "$ppid" <<'PY' 2>"$T/why" || consumer_failed
import re, sys
out, n, pid, ppid = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
tasks = {}
for l in open(out):
    m = re.match(r'^(\S+) id=(\d+) pid=(\d+) tid=(\d+)(.*) \| (.*)$', l.rstrip('\n'))
    if not m:
        continue
    path, ident, p, tid, fields, text = m.groups()
    if path == 'kernel/syscalls/sys_exit_getppid':
        assert ident == '4294967295', l
        f = re.fullmatch(r' __syscall_nr=i:(\d+) ret=i:(\d+)', fields)
        assert f, l
        assert f.group(1) == '110', l
        assert text == '<... getppid resumed> = ' + f.group(2), l
        tasks.setdefault(tid, []).append(('exit', f.group(2), p))
    elif re.match(r'^(before|after) getppid \d+$', text):
        tasks.setdefault(tid, []).append((text, None, p))
tasks = {t: e for t, e in tasks.items() if e and any(x[0] == 'before getppid 0' for x in e)}
assert len(tasks) == 3, tasks.keys()
child = [t for t, e in tasks.items() if e[0][2] != pid]
assert len(child) == 1, child
for tid, evs in tasks.items():
    first = next(i for i, e in enumerate(evs) if e[0] == 'before getppid 0')
    want = []
    for i in range(n):
        want += ['before getppid %d' % i, 'exit', 'after getppid %d' % i]
    got = [e[0] for e in evs[first:]]
    # (with, for each task, its exits before its first round and in all)
    assert got == want, (tid, len(got), len(want), next(
        ((i, g, w) for i, (g, w) in enumerate(zip(got, want)) if g != w), None),
        {t: (sum(x[0] == 'exit' for x in e[:next(i for i, x in enumerate(e) if x[0] == 'before getppid 0')]),
             sum(x[0] == 'exit' for x in e)) for t, e in tasks.items()})
    parent = pid if tid in child else ppid
    assert all(e[1] == parent for e in evs[first:] if e[0] == 'exit'), (tid, parent)
PY

# 2. A recording's kernel events are those it started with.
start_waiter
"$EVTRACE" record -o "$T/rec" -p "$WAIT_PID" -e "$P" >/dev/null 2>"$T/rec.err" &
r=$!
BG_PIDS="$BG_PIDS $r"
wait_for "the recording's collection" "collection_in $WAIT_PID $r"
rslot=$("$EVTRACE" ls -p "$WAIT_PID" | sed -n "s/^# collection \([0-9]*\): pid $r, .*/\1/p")
expect_status 1 "$EVTRACE" enable --collection "$rslot" kernel/sched/sched_switch
expect_grep "kernel/sched/sched_switch: the kernel events of a recording or count are those it started with (-e kernel/...); a stream or consumer takes them while it runs" \
	"$T/err" "enable --collection of a recording"
kill -INT "$r"
wait "$r" || fail "the recording: $(cat "$T/rec.err")"

# 3. The default collection: enable kernel/... is a rule that the stream
# without -e follows while it runs, and ls shows; disable takes it back.
"$TRACEE" syscalls-on-signal "$N" >"$T/q.out" 2>&1 &
q=$!
BG_PIDS="$BG_PIDS $q"
wait_for "the second program" "grep -q ready '$T/q.out'"
"$EVTRACE" enable kernel/syscalls/sys_enter_getppid
"$EVTRACE" enable kernel/syscalls/sys_exit_getppid
"$EVTRACE" enable "$P"
# (a usdt/ rule that names no probe of the program changes nothing)
"$EVTRACE" enable usdt/nowhere
expect_eq "$("$EVTRACE" ls kernel/syscalls | grep -v '^0 ')" \
	"$(printf 'X kernel/syscalls/\n1 kernel/syscalls/sys_enter_getppid\n1 kernel/syscalls/sys_exit_getppid')" \
	"ls of what enable switched on"
"$EVTRACE" stream -p "$q" >"$T/d" 2>"$T/d.err" &
d=$!
BG_PIDS="$BG_PIDS $d"
# All its perf events open (the sampler's ring of task names on each CPU,
# opened after the eBPF program, which takes the system calls through
# its five tracepoints, follows the process): a fork before would not
# take it to the child.
ncpu=$(getconf _NPROCESSORS_ONLN)
wait_for "the default stream's kernel events" "[ \"\$(perf_fds $d)\" = $((ncpu + 5)) ]"
kill -USR1 "$q"
wait_for "the second program's rounds" "grep -q done '$T/q.out'"
"$EVTRACE" disable kernel/syscalls
wait_for "the default stream to close its kernel events" "[ \"\$(perf_fds $d)\" = 0 ]"
expect_eq "$("$EVTRACE" ls kernel/syscalls | grep -vc '^0 ')" 0 "ls after disable"
kill -USR1 "$q"
wait "$d" || fail "the default stream: $(cat "$T/d.err")"
# (A stream -p of the default collection reads that process, not its
# children; the kernel's events are of its children too: the child's N
# calls, and the one of evtrace's library as the child registers.)
rounds_in_order "$T/d" 2 2>"$T/why" || { cat "$T/d" >&2; fail "the default stream: rounds: $(tail -1 "$T/why")"; }
expect_eq "$(grep -c ': kernel/syscalls/sys_exit_getppid: <... getppid resumed> = '"$q"'$' "$T/d")" \
	"$((N + 1))" "the child's calls in the default stream"

# 4. default.rules that are not rules: the default stream says so, once,
# and streams on without kernel events.
printf 'junk\n' >"$EVTRACE_RUNDIR/default.rules"
"$EVTRACE" stream -p "$WAIT_PID" >"$T/j" 2>"$T/j.err" &
j=$!
BG_PIDS="$BG_PIDS $j"
wait_for "the default stream to read the rules" "[ -s '$T/j.err' ]"
wait_for "the default stream to read the program's events" "grep -q ': alive' '$T/j'"
kill -INT "$j"
wait "$j" || fail "the default stream after bad rules: $(cat "$T/j.err")"
expect_eq "$(cat "$T/j.err")" "evtrace: stream: $EVTRACE_RUNDIR/default.rules: line 1: not an evtrace-rules 1 file" \
	"bad default.rules said once"
if grep -q ': kernel/' "$T/j"; then fail "kernel events from rules that are not rules"; fi
