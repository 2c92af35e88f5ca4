# lib.sh - what every shell test sources: a private run directory and
# scratch space removed on exit, and assertions that say what failed.
# Expects EVTRACE, TRACEE, PLUGIN, CHECK (set by meson).
set -eu
T=$(mktemp -d /tmp/evtrace-test.XXXXXX)
# The run directory on tmpfs, as by default: on a disk file system the
# buffers' pages cost writers page faults and write-back.
R=$(mktemp -d /dev/shm/evtrace-test.XXXXXX)
export EVTRACE_RUNDIR="$R/run"
BG_PIDS=""
MOUNTS=""
USERS_USED=""
USERS_MADE=""
GROUP_MADE=""
RESTORE=""
WATCHDOG=""
cleanup() {
	[ -z "$WATCHDOG" ] || kill -9 "-$WATCHDOG" 2>/dev/null || true
	for m in $MOUNTS; do fusermount3 -u -z "$m" 2>/dev/null || true; done
	for p in $BG_PIDS; do kill -9 "$p" 2>/dev/null || true; done
	for u in $USERS_USED; do pkill -9 -u "$u" 2>/dev/null || true; done
	for u in $USERS_MADE; do userdel "$u" 2>/dev/null || true; done
	[ -z "$GROUP_MADE" ] || groupdel "$GROUP_MADE" 2>/dev/null || true
	[ -z "$RESTORE" ] || eval "$RESTORE" || true
	rm -rf "$T" "$R"
}
trap 'exit 143' TERM
trap 'exit 130' INT
trap cleanup EXIT
# The processes of session $1 (the test's): each one's command line,
# state, where it sleeps and its kernel stack (root), on stderr.
SHOW_PROCESSES='for p in $(pgrep -s "$1"); do
	echo "  $p $(tr "\0" " " <"/proc/$p/cmdline" 2>/dev/null | cut -c1-120)" \
	     "state $(sed "s/.*) //" "/proc/$p/stat" 2>/dev/null | cut -d" " -f1)" \
	     "in $(cat "/proc/$p/wchan" 2>/dev/null)"
	head -8 "/proc/$p/stack" 2>/dev/null | sed "s/^/      /"
done >&2'
show_processes() { sh -c "$SHOW_PROCESSES" sh "$1"; }
TEST_SID=$(ps -o sid= $$ | tr -d ' ')
# A test still running 10 s before meson's timeout (120 s) says where its
# processes are, so that a hang is found at its side, not guessed at.  In
# a session of its own, which cleanup ends whole.
setsid sh -c 'sleep "$2"; echo "still running after $2 s: the test'"'"'s processes:" >&2
	'"$SHOW_PROCESSES" sh "$TEST_SID" "${WATCHDOG_S:-110}" </dev/null >/dev/null &
WATCHDOG=$!

fail() { echo "FAIL: $*" >&2; exit 1; }
# Whether PID runs: not gone and not a zombie. kill -0 alone succeeds
# on a zombie, and an orphan may stay one for seconds before the
# machine's init reaps it.
running() {
	_st=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null) || return 1
	[ -n "$_st" ] && [ "${_st%% *}" != Z ]
}
# wait_for WHAT CONDITION [SHOW]: evaluates the shell CONDITION every
# 50 ms until it holds; fails saying WHAT after 30 s, with the last
# lines of the shell command SHOW (what the test knows of the state it
# waited in).  Tests wait for the thing itself, never for a time.
wait_for() {
	_waited=0
	until eval "$2"; do
		_waited=$((_waited + 1))
		# (a bound for a thing that never comes, not a time a thing
		# takes: generous, for a loaded machine and sanitizers)
		[ "$_waited" -lt 600 ] ||
			fail "waited 30 s for $1${3:+; $(eval "$3" 2>&1 | tail -20)}"
		sleep 0.05
	done
}
# wait_exit PID WHAT [SHOW]: waits for background job PID to end (60 s at
# most: a hang becomes a failure that says where each process of the
# test's was, not a timeout that says nothing); its exit status in
# EXITED.
wait_exit() {
	_waited=0
	while running "$1"; do
		_waited=$((_waited + 1))
		if [ "$_waited" -ge 1200 ]; then
			# (what SHOW says first, cut: meson keeps a log's last
			# 100 lines, which are the processes')
			[ -n "${3:-}" ] && eval "$3" 2>&1 | tail -20 >&2
			echo "$2: still running after 60 s; the test's processes:" >&2
			show_processes "$TEST_SID"
			fail "$2 did not end"
		fi
		sleep 0.05
	done
	set +e; wait "$1"; EXITED=$?; set -e
}
# Whether an engine holds collection number $1 of the run directory (0: a
# reader of the default collection).
slot_held() {
	held_in "$EVTRACE_RUNDIR" "$1"
}
# The same in run directory $1, for number $2.
held_in() {
	[ -e "$1/slot-$2.lock" ] && ! flock -n -s "$1/slot-$2.lock" true 2>/dev/null
}
# Kernel tests: root, with tracefs mounted at $TR; or a skip (77) saying
# what root is needed for ($1).
need_tracefs() {
	[ "$(id -u)" = 0 ] || { echo "SKIP: needs root ($1)"; exit 77; }
	TR=/sys/kernel/tracing
	mountpoint -q "$TR" || mount -t tracefs nodev "$TR" || fail "cannot mount tracefs"
}
# Whether process $1 has an events filesystem's trace_pipe open.
reading_pipe() {
	ls -l "/proc/$1/fd" 2>/dev/null | grep -q '/trace_pipe$'
}
# Whether the engine of pid $2 (a stream, a recording, a count) has its
# collection in process $1 with its selection applied: every event the
# process has registered is on or off as the engine wants (its
# acknowledgment in the slot, which ls shows; before it, the line says
# "switching its events on").
collection_in() {
	"$EVTRACE" ls -p "$1" 2>/dev/null | grep -q "^# collection [0-9]*: pid $2, .* (slot [0-9]*)\$"
}
# record_all_until DIR ERR TEXT: record -a into DIR, its messages in ERR,
# until it says TEXT (or ends), then stopped with SIGINT: it must end well.
record_all_until() {
	"$EVTRACE" record -a -o "$1" >/dev/null 2>"$2" &
	_all=$!
	BG_PIDS="$BG_PIDS $_all"
	wait_for "record -a to say '$3'" "grep -q '$3' '$2' || ! running $_all"
	kill -INT "$_all"
	wait "$_all" || fail "record -a: $(cat "$2")"
}
# Whether process $1 is in $2 collections, each with its selection applied.
collections_applied() {
	[ "$("$EVTRACE" ls -p "$1" 2>/dev/null | grep -c "^# collection [0-9]*: pid [0-9]*, .* (slot [0-9]*)\$")" = "$2" ]
}
expect_eq() { [ "$1" = "$2" ] || fail "$3: expected '$2', got '$1'"; }
expect_grep() { grep -q -- "$1" "$2" || { cat "$2" >&2; fail "$3: no '$1' in $2"; }; }
# Runs a command that must fail with status $1, its stderr saved in $T/err.
expect_status() {
	want=$1; shift
	set +e; "$@" >"$T/out" 2>"$T/err"; got=$?; set -e
	[ "$got" = "$want" ] || { cat "$T/err" >&2; fail "'$*' exited $got, expected $want"; }
}
# Starts the tracee in wait mode; sets WAIT_PID once it has registered.
start_waiter() {
	# Emptied here: the child's own truncation may come after the first
	# look, which would find the last waiter's "ready".
	: >"$T/waiter.out"
	"$TRACEE" wait >>"$T/waiter.out" 2>"$T/waiter.err" &
	WAIT_PID=$!
	BG_PIDS="$BG_PIDS $WAIT_PID"
	wait_for "tracee wait to start" "grep -q ready '$T/waiter.out'"
}
# let_go CTL: waits until no process holds CTL's lock, which says it is
# alive.  A process's end comes first: its file's last reference may be
# dropped later, by a reader of its /proc entries (ps, pgrep) holding its
# memory a moment.
let_go() {
	wait_for "$1 let go by its process" "flock -n -x '$1' true"
}
# Prints the first control file to appear in the run directory, waiting
# for one (wait_for's bound); fails without one.
first_ctl() {
	wait_for "a control file" "ls '$EVTRACE_RUNDIR'/*.ctl >/dev/null 2>&1" >&2
	ls "$EVTRACE_RUNDIR"/*.ctl | head -1
}
# babeltrace2 must read the trace; its only warnings may be about the
# events and packets the trace says were lost.
bt() {
	babeltrace2 "$1" 2>"$T/bt.err" || { cat "$T/bt.err" >&2; fail "babeltrace2 failed on $1"; }
	if grep -v -E '^WARNING: Tracer (may have )?discarded [0-9]* ?(events?|packets?) ' "$T/bt.err" | grep -q .; then
		cat "$T/bt.err" >&2; fail "babeltrace2 complained about $1"
	fi
}
# babeltrace2 reads the trace and shows as many events as evtrace report
# (not counting the evtrace/cpu events that give the CPU of the others,
# nor the evtrace/lost ones that name the sites of a loss).
bt_agrees() {
	bt "$1" | { grep -v '^\[[^]]*\] ([^)]*) [^ ]* evtrace/\(cpu\|lost\): ' || true; } >"$T/bt.agree"
	"$EVTRACE" report "$1" >"$T/report.agree"
	ours=$(sed -n 's/^# \([0-9]*\) events\{0,1\},.*/\1/p' "$T/report.agree")
	theirs=$(wc -l <"$T/bt.agree")
	[ "$ours" = "$theirs" ] || fail "babeltrace2 shows $theirs events, report $ours in $1"
}
# Overwrites 20 random bytes of file $1, the same ones for the same seed $2.
garble() {
	python3 -c "
import random, sys
r = random.Random(int(sys.argv[2])); p = sys.argv[1]; b = bytearray(open(p, 'rb').read())
for _ in range(20): b[r.randrange(len(b))] = r.randrange(256)
open(p, 'wb').write(b)" "$1" "$2"
}
# The event path of the tracee's trace_printk() whose format starts with $1.
tracee_event() {
	n=$(grep -n "trace_printk(\"$1" "$TRACEE_SRC" | head -1 | cut -d: -f1)
	[ -n "$n" ] || fail "no site '$1' in $TRACEE_SRC"
	echo "printk/tracee/tests/progs/tracee.c/$n"
}
# The event path of tests/progs/site_flags.c's site whose format starts with $1.
site_flags_event() {
	_src=$(dirname "$TRACEE_SRC")/site_flags.c
	n=$(grep -n "trace_printk(\"$1" "$_src" | head -1 | cut -d: -f1)
	[ -n "$n" ] || fail "no site '$1' in $_src"
	echo "printk/site_flags/tests/progs/site_flags.c/$n"
}
# answer PID FILE SIGNAL: sends SIGNAL to a program that answers each one
# with a line in FILE, and prints that line.
answer() {
	_n=$(wc -l <"$2")
	kill -"$3" "$1"
	wait_for "the program's answer" "[ \$(wc -l <'$2') -gt $_n ]"
	tail -1 "$2"
}
# round N: the next round of a program that runs one for each line it
# reads (tests/progs/two_units, tracee dlopen-all), its stdin a pipe
# open on fd 8, its stdout $T/out: it must answer "round N".
round() {
	_n=$(wc -l <"$T/out")
	echo >&8
	wait_for "round $1" "[ \$(wc -l <'$T/out') -gt $_n ]"
	expect_eq "$(tail -1 "$T/out")" "round $1" "the program's round"
}
# The sanitizer this build runs under: asan, tsan, or nothing.
sanitizer() {
	ldd "$EVTRACE" | sed -n 's/.*lib\(asan\|tsan\)\.so.*/\1/p' | head -1
}
# Under ThreadSanitizer, whose runtime executes a program again (without
# address randomization) and maps its shadow memory at fixed addresses
# first, the system calls a program makes are not its own alone: a test
# of exact system calls skips (77) there, saying so.
skip_if_tsan() {
	if [ "$(sanitizer)" = tsan ]; then
		echo "SKIP: under ThreadSanitizer a program's system calls include its runtime's; $1"
		exit 77
	fi
}
# Programs a test builds itself are not sanitized, and cannot load a
# sanitized libevtrace: skip (77) in sanitizer builds, saying so.
skip_if_sanitized() {
	if [ -n "$(sanitizer)" ]; then
		echo "SKIP: this build is sanitized; $1 cannot load its library"
		exit 77
	fi
}
# Needs root: creates the users evt-alice and evt-bob (removed on exit),
# sets ALICE and BOB to their uids, and copies what they run to $T/bin,
# which every user can reach: EVTRACE_U, TRACEE_U.
make_users() {
	USERS_USED="evt-alice evt-bob"
	for u in $USERS_USED; do
		if ! id "$u" >/dev/null 2>&1; then
			useradd -M -N -s /bin/sh "$u" || fail "useradd $u"
			USERS_MADE="$USERS_MADE $u"
		fi
	done
	ALICE=$(id -u evt-alice)
	BOB=$(id -u evt-bob)
	mkdir -p "$T/bin"
	chmod 755 "$T" "$T/bin"
	cp "$EVTRACE" "$TRACEE" "$T/bin/"
	cp -L "$BUILD/libevtrace.so.0" "$T/bin/"
	EVTRACE_U=$T/bin/evtrace
	TRACEE_U=$T/bin/tracee
}
# make_users, and evt-carol and the group evt-team (TEAM its gid), which
# carol is not in: "setpriv --groups=$TEAM" puts her there.
make_team() {
	make_users
	USERS_USED="$USERS_USED evt-carol"
	id evt-carol >/dev/null 2>&1 || { useradd -M -N -s /bin/sh evt-carol; USERS_MADE="$USERS_MADE evt-carol"; }
	getent group evt-team >/dev/null || { groupadd evt-team; GROUP_MADE=evt-team; }
	TEAM=$(getent group evt-team | cut -d: -f3)
}
# Runs a command as user $1 (no groups), with the copied library.
as_user() {
	u=$1; shift
	setpriv --reuid="$u" --regid="$(id -g "$u")" --clear-groups \
		env LD_LIBRARY_PATH="$T/bin" "$@"
}
# Mounts the events filesystem on $1 (made when missing; the other
# arguments go to evtrace mount), in the background as MOUNT_PID, and
# waits until it serves; unmounted on exit.
mount_events() {
	dir=$1; shift
	mkdir -p "$dir"
	"$EVTRACE" mount "$@" "$dir" 2>"$T/mount.err" &
	MOUNT_PID=$!
	BG_PIDS="$BG_PIDS $MOUNT_PID"
	MOUNTS="$MOUNTS $dir"
	wait_for "evtrace mount to mount $dir" "[ -e '$dir/README' ] || ! running $MOUNT_PID"
	[ -e "$dir/README" ] || fail "evtrace mount did not mount $dir: $(cat "$T/mount.err")"
}
# Writes $2 (backslash escapes as in Python) to the file $1 in one
# write, opened as a shell's > opens it; prints OK or the errno's name
# (EINVAL, EACCES, ...).  $AS_USER, when set, is a command prefix to run
# it as someone else.
WRITE_ERRNO_PY='
import errno, os, sys
try:
    fd = os.open(sys.argv[1], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        os.write(fd, sys.argv[2].encode().decode("unicode_escape").encode("latin-1"))
    finally:
        os.close(fd)
    print("OK")
except OSError as e:
    print(errno.errorcode[e.errno])'
write_errno() {
	${AS_USER:-} python3 -c "$WRITE_ERRNO_PY" "$1" "$2"
}

# The first of three consecutive free TCP ports (control, data, live).
free_ports3() {
	python3 -c '
import random, socket
while True:
    p = random.randrange(20000, 60000)
    ok = True
    for q in (p, p + 1, p + 2):
        s = socket.socket()
        try:
            s.bind(("127.0.0.1", q))
        except OSError:
            ok = False
        s.close()
    if ok:
        print(p)
        break'
}
listening() {	# PORT: whether something accepts there
	python3 -c 'import socket, sys; socket.create_connection(("127.0.0.1", int(sys.argv[1])), 1)' "$1" 2>/dev/null
}
# An lttng-relayd on ports $P..$P+2 storing into $T/relay; RELAYD its pid.
# Its other arguments go to lttng-relayd (-v: its log says when a live
# viewer attaches).
start_relay() {
	command -v lttng-relayd >/dev/null ||
		fail "lttng-relayd is not installed (make deps installs lttng-tools)"
	lttng-relayd "$@" -o "$T/relay" -C tcp://127.0.0.1:$P -D tcp://127.0.0.1:$((P + 1)) \
		-L tcp://127.0.0.1:$((P + 2)) >>"$T/relayd.log" 2>&1 &
	RELAYD=$!
	BG_PIDS="$BG_PIDS $RELAYD"
	for _ in $(seq 100); do listening $((P + 2)) && return; sleep 0.05; done
	fail "lttng-relayd did not listen on $P..$((P + 2))"
}

# report_rounds_in_order REPORT N: in report's lines, each of the three
# tasks of "tracee syscalls N" (recorded with its before/after getppid
# events and sys_enter/sys_exit_getppid) has its N rounds in order, each
# whole: "before", the call's entry and exit (the parent's pid), "after".
report_rounds_in_order() {
	python3 - "$1" "$2" <<'PY'
import re, sys
report, n = sys.argv[1], int(sys.argv[2])
tasks = {}
line_re = re.compile(r'^ *(\S+)-(\d+) +\[(\d+)\] (\d+\.\d+): (\S+): (.*)$')
for l in open(report):
    m = line_re.match(l)
    if m:
        tasks.setdefault(int(m.group(2)), []).append((m.group(5), m.group(6), m.group(1)))
# (A sanitized build's own thread may make system calls too: tasks
# without rounds are not the program's.)
tasks = {t: e for t, e in tasks.items() if any(x[1] == 'before getppid 0' for x in e)}
assert len(tasks) == 3, "tasks: %r" % sorted(tasks)
for tid, evs in tasks.items():
    first = next(i for i, e in enumerate(evs) if e[1] == 'before getppid 0')
    evs = evs[first:]
    assert len(evs) == 4 * n, "tid %d: %d events after the first round began" % (tid, len(evs))
    rets = set()
    for i in range(n):
        r = evs[4 * i:4 * i + 4]
        kinds = [e[0].split('/')[0] + ':' + (e[1] if e[0].startswith('printk') else e[0].split('/')[-1]) for e in r]
        want = ['printk:before getppid %d' % i, 'kernel:sys_enter_getppid',
                'kernel:sys_exit_getppid', 'printk:after getppid %d' % i]
        assert kinds == want, "tid %d round %d: %r" % (tid, i, kinds)
        assert r[1][1] == 'getppid()', r[1]
        rets.add(re.fullmatch(r'<\.\.\. getppid resumed> = (\d+)', r[2][1]).group(1))
        assert all(e[2] == 'tracee' for e in r), r
    assert len(rets) == 1, rets
    tasks[tid] = rets.pop()
# The forked child's parent is the main thread (the task whose tid is
# the process's pid: not the least tid once pids wrap); the threads'
# parent is evtrace, the same for both.
child = [t for t in tasks if int(tasks[t]) in tasks]
assert len(child) == 1, tasks
main = int(tasks[child[0]])
others = [tasks[t] for t in tasks if t not in child]
assert len(set(others)) == 1 and others[0] != str(main) and main != child[0], tasks
PY
}
# trace_rounds_in_order OUT N: in trace's lines OUT, each of the three
# tasks of "tracee syscalls N" has its N rounds in order: "before", the
# call with its result (the parent's pid), "after"; the two threads'
# parent is the same (evtrace), the child's the main thread.
trace_rounds_in_order() {
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
assert all(len(p) == 1 for p in parents.values()), parents
parents = {t: p.pop() for t, p in parents.items()}
# (the main thread: the child's parent, whatever its tid's rank)
children = [t for t in parents if int(parents[t]) in parents]
assert len(children) == 1, parents
others = [parents[t] for t in parents if t not in children]
assert len(set(others)) == 1 and int(others[0]) not in parents, parents
PY
}
