# record -e usdt/...: the USDT probes of an unmodified program and of the
# libraries it links are recorded, through uprobes, in one timeline with
# the program's own events, their arguments typed from the probes' notes
# (Python's names as strings); a semaphore-guarded probe is switched on
# while it is recorded and off after; a library the program dlopens is
# named with --probes-in; the uprobes go when the recording ends, and
# those a killed recorder left go at the next one; a user's own processes
# are traced through evtraced, which makes the uprobes and opens the files
# as the user.  Needs root (tracefs's uprobe_events).
. "$(dirname "$0")/lib.sh"
need_tracefs "uprobes"
UE=$TR/uprobe_events
# No uprobe of ours is left when a recording ends.
none_left() {
	if grep -q "evtrace_usdt_$1/" "$UE"; then
		cat "$UE" >&2
		fail "$2: uprobes left in $UE"
	fi
}

# 1. A C++ program's 100 throws and 100 catches, between its own events.
cat >"$T/throw.cc" <<'CXX'
#include <cstdio>
#include <stdexcept>
#include <evtrace/evtrace.h>
int main()
{
	int caught = 0;
	for (int i = 0; i < 100; i++) {
		trace_printk("before %d\n", i);
		try {
			throw std::runtime_error("evtrace");
		} catch (const std::exception &) {
			caught++;
		}
		trace_printk("after %d\n", i);
	}
	std::printf("caught %d\n", caught);
	return 0;
}
CXX
g++ -O2 -I"$INCLUDE" "$T/throw.cc" -o "$T/throw" -L"$BUILD" -Wl,-rpath,"$BUILD" -levtrace ||
	fail "g++ build"
"$EVTRACE" record -q -e 'usdt/libstdcxx/*' -e printk -o "$T/cxx" -- "$T/throw" >"$T/cxx.out" 2>"$T/cxx.err" &
REC=$!
wait $REC || { cat "$T/cxx.err" >&2; fail "record of the C++ program"; }
none_left $REC "after the C++ program"
expect_grep "^caught 100\$" "$T/cxx.out" "the program ran as without"
"$EVTRACE" report "$T/cxx" >"$T/cxx.report"
python3 - "$T/cxx.report" <<'PY'
import re, sys
seq = []
for line in open(sys.argv[1]):
    m = re.search(r': (printk/\S+|usdt/\S+): (.*)$', line)
    if m:
        seq.append(m.group(1) if m.group(1).startswith('usdt/') else m.group(2))
want = []
for i in range(100):
    want += ['before %d' % i, 'usdt/libstdcxx/throw', 'usdt/libstdcxx/catch', 'after %d' % i]
if seq != want:
    k = next((k for k in range(min(len(seq), len(want))) if seq[k] != want[k]),
             min(len(seq), len(want)))
    sys.exit('%d events, %d expected; first difference at %d: %r' % (
        len(seq), len(want), k, seq[max(0, k - 2):k + 3]))
PY
bt_agrees "$T/cxx"

# 2. The program's own probes: each argument as its note types it (a
#    register, a negative 64-bit one, a constant), between its events.
"$EVTRACE" record -q -e 'usdt/evttest/*' -e printk -o "$T/args" -- "$USDT_PROG" args 50 ||
	fail "record usdt_prog args"
"$EVTRACE" report "$T/args" >"$T/args.report"
python3 - "$T/args.report" <<'PY'
import re, sys
seq = [re.sub(r'__probe_ip=\d+ ', '', l.split(': ', 2)[2].strip()) if 'usdt/' in l else
       l.rsplit(': ', 1)[1].strip() for l in open(sys.argv[1]) if ': printk/' in l or ': usdt/' in l]
want = []
for i in range(50):
    want += ['step %d' % i, 'arg1=%d arg2=%d arg3=7' % (i, -i), 'done %d' % i]
assert seq == want, seq[:6]
PY
bt "$T/args" >"$T/args.bt"
expect_grep 'usdt/evttest/args: .* arg1 = 3, arg2 = -3, arg3 = 7 }' "$T/args.bt" "babeltrace2 reads a probe's arguments"

# 2b. trace shows them among the command's system calls and events.
"$EVTRACE" trace -e 'usdt/evttest/*' -- "$USDT_PROG" args 3 >"$T/trace.out" 2>&1 || {
	cat "$T/trace.out" >&2; fail "trace -e usdt/"; }
expect_eq "$(sed -n 's/.*usdt\/evttest\/args: .* arg1=\(-\{0,1\}[0-9]*\) arg2=\(-\{0,1\}[0-9]*\) arg3=7$/\1,\2/p' "$T/trace.out" | tr '\n' ' ')" \
	"0,0 1,-1 2,-2 " "trace's probe lines"
expect_grep "exit_group(0) = ?" "$T/trace.out" "trace's system calls beside them"

# 3. Python's function__entry names the function (with line on: CPython
#    3.11 calls its function probes only while its line probe is on).
cat >"$T/prog.py" <<'PY'
def evtrace_probe_target(i):
    return i * 2
print(sum(map(evtrace_probe_target, range(100))))
PY
"$EVTRACE" record -q -e usdt/python/function__entry -e usdt/python/line -o "$T/py" \
	-- /usr/bin/python3 "$T/prog.py" >"$T/py.out" 2>"$T/py.err" || { cat "$T/py.err" >&2; fail "record python3"; }
expect_eq "$(cat "$T/py.out")" 9900 "python3's answer"
"$EVTRACE" report "$T/py" >"$T/py.report"
expect_eq "$(grep -c "usdt/python/function__entry: .* arg1=\"$T/prog.py\" arg2=\"evtrace_probe_target\" arg3=1\$" "$T/py.report")" \
	100 "function__entry naming the function, its file and line"

# 4. A semaphore-guarded probe in a running process (-p): the semaphore
#    is set while the recording runs, and cleared after it.
"$USDT_PROG" guarded >"$T/g.out" &
G=$!
BG_PIDS="$BG_PIDS $G"
wait_for "usdt_prog to start" "grep -q ready '$T/g.out'"
grep -q '^on$' "$T/g.out" && fail "the semaphore was set before any recording"
"$EVTRACE" record -q -p "$G" -e usdt/evttest/guarded -o "$T/gd" 2>"$T/gd.err" &
REC=$!
BG_PIDS="$BG_PIDS $REC"
wait_for "the program to see its semaphore set" "grep -q '^on\$' '$T/g.out'" "cat '$T/g.out' '$T/gd.err'"
# (set with the first CPU's event: the recording is attached once it
# says it runs in the process)
wait_for "the recording to run in the program" "collection_in $G $REC"
kill -USR1 "$G"
wait_for "the program to fire" "grep -q '^fired\$' '$T/g.out'" "cat '$T/g.out' '$T/gd.err'"
grep -q "evtrace_usdt_$REC/evttest__guarded" "$UE" || fail "no uprobe of the recording in $UE"
kill -INT "$REC"
wait "$REC" || { cat "$T/gd.err" >&2; fail "record -p"; }
wait_for "the semaphore cleared" "grep -q '^off\$' '$T/g.out'" "cat '$T/g.out'"
wait "$G" || fail "usdt_prog guarded: $(cat "$T/g.out")"
none_left "$REC" "after record -p"
"$EVTRACE" report "$T/gd" >"$T/gd.report"
expect_eq "$(sed -n 's/.*usdt\/evttest\/guarded: .* arg1=\([0-9]*\)$/\1/p' "$T/gd.report" | tr '\n' ' ')" \
	"0 1 2 3 4 5 6 7 8 9 " "the guarded probe's values"

# 4b. The same streamed live (stream -p: a consumer's path too).
"$USDT_PROG" guarded >"$T/s.out" &
G=$!
BG_PIDS="$BG_PIDS $G"
wait_for "usdt_prog to start" "grep -q ready '$T/s.out'"
"$EVTRACE" stream -p "$G" -e usdt/evttest/guarded >"$T/st.out" 2>"$T/st.err" &
S=$!
BG_PIDS="$BG_PIDS $S"
wait_for "the semaphore set by the stream" "grep -q '^on\$' '$T/s.out'" "cat '$T/s.out' '$T/st.err'"
wait_for "the stream to run in the program" "collection_in $G $S"
kill -USR1 "$G"
wait_for "the ten hits streamed" "[ \$(grep -c usdt/evttest/guarded '$T/st.out') = 10 ]" "cat '$T/st.out' '$T/st.err'"
kill -INT "$S"
wait "$S" || { cat "$T/st.err" >&2; fail "stream -p"; }
wait_for "the semaphore cleared after the stream" "grep -q '^off\$' '$T/s.out'"
none_left "$S" "after stream -p"
expect_eq "$(sed -n 's/.*usdt\/evttest\/guarded: .* arg1=\([0-9]*\)$/\1/p' "$T/st.out" | tr '\n' ' ')" \
	"0 1 2 3 4 5 6 7 8 9 " "the streamed probe's values"
expect_status 1 "$EVTRACE" stream -e usdt/evttest/guarded
expect_grep "usdt/evttest/guarded: USDT probes are streamed from one process (-p PID); not yet from every process" \
	"$T/err" "stream of every process"

# 4c. Switched like any event: enable and disable lines (a directory on,
#     one of its probes off) of the default collection, which stream -p
#     without -e reads; a disable while it streams takes the probe out.
"$USDT_PROG" guarded >"$T/e.out" &
G=$!
BG_PIDS="$BG_PIDS $G"
wait_for "usdt_prog to start" "grep -q ready '$T/e.out'"
"$EVTRACE" enable usdt/evttest || fail "enable usdt/evttest"
"$EVTRACE" disable usdt/evttest/args || fail "disable usdt/evttest/args"
# (a stream of every process is told, once, and streams on)
"$EVTRACE" stream >/dev/null 2>"$T/ea.err" &
EA=$!
BG_PIDS="$BG_PIDS $EA"
wait_for "the every-process stream to say it" \
	"grep -q '^evtrace: stream: usdt/evttest: USDT probes are streamed from one process (stream -p PID); not yet from every process\$' '$T/ea.err'"
running "$EA" || fail "the every-process stream ended: $(cat "$T/ea.err")"
kill -INT "$EA"
wait "$EA" || fail "the every-process stream: $(cat "$T/ea.err")"
expect_eq "$(grep -c USDT "$T/ea.err")" 1 "said once"
"$EVTRACE" stream -p "$G" >"$T/es.out" 2>"$T/es.err" &
S=$!
BG_PIDS="$BG_PIDS $S"
wait_for "the semaphore set by the default collection's stream" "grep -q '^on\$' '$T/e.out'" "cat '$T/e.out' '$T/es.err'"
# (every CPU's perf events open, CPU by CPU: its task names', the one
# uprobe's and a flush event: no hit falls before one)
wait_for "the stream's perf events" "[ \$(ls -l /proc/$S/fd | grep -c 'perf_event') -ge $((3 * $(nproc))) ]"
grep -q "evtrace_usdt_$S/evttest__guarded" "$UE" || fail "no uprobe of the guarded probe"
grep -q "evtrace_usdt_$S/evttest__args" "$UE" && fail "a uprobe of the probe disabled"
kill -USR1 "$G"
wait_for "the ten hits streamed" "[ \$(grep -c usdt/evttest/guarded '$T/es.out') = 10 ]" "cat '$T/es.out' '$T/es.err'"
"$EVTRACE" disable usdt/evttest/guarded || fail "disable usdt/evttest/guarded"
wait_for "the semaphore cleared by the disable" "grep -q '^off\$' '$T/e.out'" "cat '$T/e.out' '$T/es.err'"
# (the program ends once its probe is off, and the stream of it with it:
# by itself, or at the ^C if it has not seen the end yet)
kill -INT "$S" 2>/dev/null
wait "$S" || { cat "$T/es.err" >&2; fail "stream -p of the default collection"; }
expect_eq "$(sed -n 's/.*usdt\/evttest\/guarded: .* arg1=\([0-9]*\)$/\1/p' "$T/es.out" | tr '\n' ' ')" \
	"0 1 2 3 4 5 6 7 8 9 " "the enabled probe's values"
none_left "$S" "after the default collection's stream"
expect_status 1 "$EVTRACE" enable --collection 1 usdt/evttest/guarded
expect_grep "^evtrace: enable: --collection 1 usdt/evttest/guarded: a recording's USDT probes are those its -e named; switching them while it runs is not yet supported\$" \
	"$T/err" "a collection's probes"
expect_status 1 "$EVTRACE" enable --rate 10 usdt/evttest/guarded
expect_grep "^evtrace: enable: --rate usdt/evttest/guarded: USDT probes take no rate cap\$" "$T/err" "a probe's rate"
"$EVTRACE" disable usdt/evttest

# 4e. The events filesystem of one process (mount -p): events/usdt/ has
#     its probes, each with its places as format and an enable that is a
#     rule of its default collection, which its trace_pipe follows.
"$USDT_PROG" guarded >"$T/f.out" &
G=$!
BG_PIDS="$BG_PIDS $G"
wait_for "usdt_prog to start" "grep -q ready '$T/f.out'"
mount_events "$T/mnt" -p "$G"
expect_eq "$(ls "$T/mnt/events/usdt/evttest" | tr '\n' ' ')" "args enable guarded " "events/usdt/evttest"
expect_eq "$(cat "$T/mnt/events/usdt/evttest/guarded/format")" \
	"$("$EVTRACE" ls --probes "$(realpath "$USDT_PROG")" | grep '^usdt/evttest/guarded arg1:s32  (.*, semaphore)$')" \
	"a probe's format: its place, as ls --probes says it"
expect_eq "$(cat "$T/mnt/events/usdt/enable")" 0 "usdt/ off"
cat "$T/mnt/trace_pipe" >"$T/f.pipe" &
PIPE=$!
BG_PIDS="$BG_PIDS $PIPE"
wait_for "a reader of trace_pipe" "reading_pipe $PIPE"
echo 1 >"$T/mnt/events/usdt/evttest/guarded/enable"
expect_eq "$(cat "$T/mnt/events/usdt/evttest/enable") $(cat "$T/mnt/events/usdt/evttest/guarded/enable")" \
	"X 1" "the states after one probe's enable"
wait_for "the semaphore set by trace_pipe's stream" "grep -q '^on\$' '$T/f.out'" "cat '$T/mount.err'"
wait_for "the mount's perf events" "[ \$(ls -l /proc/$MOUNT_PID/fd | grep -c 'perf_event') -ge $((3 * $(nproc))) ]"
kill -USR1 "$G"
wait_for "the ten hits in trace_pipe" "[ \$(grep -c usdt/evttest/guarded '$T/f.pipe') = 10 ]" "cat '$T/f.pipe' '$T/mount.err'"
echo 0 >"$T/mnt/events/usdt/evttest/enable"
wait_for "the semaphore cleared by the directory's disable" "grep -q '^off\$' '$T/f.out'" "cat '$T/mount.err'"
# (the program ends at "off": its probes stay shown, as they were)
wait_for "the program to end" "! running $G"
expect_eq "$(cat "$T/mnt/events/usdt/enable")" 0 "usdt/ off again, the program gone"
expect_eq "$(sed -n 's/.*usdt\/evttest\/guarded: .* arg1=\([0-9]*\)$/\1/p' "$T/f.pipe" | tr '\n' ' ')" \
	"0 1 2 3 4 5 6 7 8 9 " "trace_pipe's probe values"
kill "$PIPE"
wait "$PIPE" 2>/dev/null || true
fusermount3 -u "$T/mnt"
wait "$MOUNT_PID" 2>/dev/null || true

# 4d. Counted, exactly, beside the program's own sites: a command's, and
#     a running process's guarded probe (its semaphore set by the count).
"$EVTRACE" count -e usdt/evttest/args -e printk -- "$USDT_PROG" args 250 2>"$T/c.err" >/dev/null ||
	{ cat "$T/c.err" >&2; fail "count -e usdt/"; }
expect_grep "^ *250      usdt/evttest/args\$" "$T/c.err" "the probe counted"
expect_grep "^ *250      printk/usdt_prog/tests/progs/usdt_prog.c/[0-9]*\$" "$T/c.err" "the program's own site counted"
"$USDT_PROG" guarded >"$T/cg.out" &
G=$!
BG_PIDS="$BG_PIDS $G"
wait_for "usdt_prog to start" "grep -q ready '$T/cg.out'"
"$EVTRACE" count -p "$G" -e usdt/evttest/guarded 2>"$T/cp.err" &
C=$!
BG_PIDS="$BG_PIDS $C"
wait_for "the semaphore set by the count" "grep -q '^on\$' '$T/cg.out'" "cat '$T/cp.err'"
# (one counter, inherited: open once the semaphore is up)
kill -USR1 "$G"
wait_for "the program to fire" "grep -q '^fired\$' '$T/cg.out'"
kill -INT "$C"
wait "$C" || { cat "$T/cp.err" >&2; fail "count -p"; }
wait_for "the semaphore cleared after the count" "grep -q '^off\$' '$T/cg.out'"
expect_grep "^ *10      usdt/evttest/guarded\$" "$T/cp.err" "the guarded probe counted"
none_left "$C" "after count -p"

# 5. A library the program dlopens, named with --probes-in.
"$EVTRACE" record -q -e usdt/evttest_lib/hit --probes-in "$USDT_LIB" -o "$T/pl" \
	-- "$USDT_PROG" plugin "$USDT_LIB" 2>"$T/pl.err" || { cat "$T/pl.err" >&2; fail "record --probes-in"; }
"$EVTRACE" report "$T/pl" >"$T/pl.report"
expect_eq "$(sed -n 's/.*usdt\/evttest_lib\/hit: .* arg1=\([0-9]*\)$/\1/p' "$T/pl.report" | tr '\n' ' ')" \
	"1 2 3 4 5 " "the dlopen'd library's probe"

# 5b. Every process (-a): the files named with --probes-in, the probes
#     hit in any process that runs them (here one started apart).
"$EVTRACE" record -q -a -e usdt/evttest/args --probes-in "$USDT_PROG" -o "$T/all" 2>"$T/all.err" &
REC=$!
BG_PIDS="$BG_PIDS $REC"
# (as in 4c: every CPU's three perf events open)
wait_for "the recording's perf events" "[ \$(ls -l /proc/$REC/fd | grep -c 'perf_event') -ge $((3 * $(nproc))) ]" "cat '$T/all.err'"
"$USDT_PROG" args 5 >/dev/null || fail "usdt_prog args 5"
kill -INT "$REC"
wait "$REC" || { cat "$T/all.err" >&2; fail "record -a of usdt/"; }
"$EVTRACE" report "$T/all" >"$T/all.report"
expect_eq "$(sed -n 's/.*usdt\/evttest\/args: .* arg1=\([0-9]*\) arg2=.*/\1/p' "$T/all.report" | tr '\n' ' ')" \
	"0 1 2 3 4 " "-a: the probe's hits in a process started apart"
none_left "$REC" "after record -a"
expect_status 1 "$EVTRACE" record -a -e usdt/evttest/args -o "$T/nope"
expect_grep "^evtrace: record: usdt/: USDT probes are looked for in a command's files (record -e usdt/... -- CMD) or those of -p processes; in every process (-a), name the binaries or libraries with --probes-in FILE\$" \
	"$T/err" "-a without --probes-in"

# 6. A recorder killed with its uprobes on leaves them; the next
#    recording removes them (their engine is gone).
"$USDT_PROG" guarded >"$T/k.out" &
G=$!
BG_PIDS="$BG_PIDS $G"
wait_for "usdt_prog to start" "grep -q ready '$T/k.out'"
"$EVTRACE" record -q -p "$G" -e usdt/evttest/guarded -o "$T/killed" 2>/dev/null &
REC=$!
wait_for "the program to see its semaphore set" "grep -q '^on\$' '$T/k.out'"
kill -USR1 "$G"
wait_for "the program to fire" "grep -q '^fired\$' '$T/k.out'"
kill -KILL "$REC"
wait "$REC" 2>/dev/null || true
grep -q "evtrace_usdt_$REC/" "$UE" || fail "the killed recorder's uprobes are not there to sweep"
wait_for "the semaphore cleared with the recorder's perf events" "grep -q '^off\$' '$T/k.out'"
"$EVTRACE" record -q -e usdt/evttest/args -o "$T/next" -- "$USDT_PROG" args 1 || fail "the next recording"
none_left "$REC" "a killed recorder's, after the next recording"

# 7. Errors a person can act on.
expect_status 1 "$EVTRACE" record -e usdt/evttest/nope -o "$T/nope" -- "$USDT_PROG" args 1
expect_grep "^evtrace: record: usdt/evttest/nope: no USDT probe of that name in $USDT_PROG or the libraries it maps (evtrace ls --probes FILE lists a file's)\$" \
	"$T/err" "a probe that is not there"
# A user without privilege (nobody): told what is not yet supported; ls
# --probes is anyone's.
chmod 711 "$T"	# (nobody passes through to its directory)
mkdir "$T/nobody"
chmod 777 "$T/nobody"
as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups env EVTRACE_RUNDIR="$T/nobody/run" "$@"; }
expect_status 1 as_nobody "$EVTRACE" record -e usdt/evttest/args -o "$T/nobody/tr" -- "$USDT_PROG" args 1
expect_grep "^evtrace: record: usdt/: USDT probes need uprobes, which only root may make (tracefs's uprobe_events); for your own processes, 'evtrace trace -e usdt/...' has evtraced make them\$" \
	"$T/err" "a user without privilege"
as_nobody "$EVTRACE" ls --probes "$USDT_PROG" >"$T/nobody.ls" || fail "ls --probes as nobody"
expect_eq "$(grep -c '^usdt/evttest/' "$T/nobody.ls")" 2 "ls --probes as nobody"
expect_status 1 "$EVTRACE" record --probes-in "$USDT_LIB" -e printk -o "$T/nope" -- "$USDT_PROG" args 1
expect_grep "^evtrace: record: --probes-in: no -e usdt/... names probes to look for there\$" "$T/err" "--probes-in alone"
expect_status 1 "$EVTRACE" record --probes-in "$T/no-such.so" -e usdt/evttest/args -o "$T/nope" -- "$USDT_PROG" args 1
expect_grep "^evtrace: record: --probes-in $T/no-such.so: No such file or directory\$" "$T/err" "--probes-in of no file"

# 8. A user's own processes through evtraced, which makes the uprobes:
#    nobody's trace sees each hit with its arguments between the program's
#    own events, leaves root's process of the same file untouched (its
#    semaphore stays down), and nothing once the trace is over; another user's
#    process is refused; a file nobody may read, or a FIFO, is not opened
#    for them (a request made by hand: evtrace itself names only files
#    the user reads).
mkdir -m 755 "$T/nobody/bin"
cp "$EVTRACE" "$USDT_PROG" "$T/nobody/bin/"
cp -L "$BUILD/libevtrace.so.0" "$T/nobody/bin/"
SOCK=$T/evtraced.sock
"$EVTRACE" daemon --socket "$SOCK" 2>"$T/daemon.log" &
DAEMON=$!
BG_PIDS="$BG_PIDS $DAEMON"
wait_for "evtraced to listen on $SOCK" "[ -S '$SOCK' ] || ! running $DAEMON"
as_nobody_d() { as_nobody env LD_LIBRARY_PATH="$T/nobody/bin" EVTRACE_DAEMON_SOCKET="$SOCK" "$@"; }
# Root's process of the same file, whose guarded probe nobody's trace
# names: the kernel arms it only in the processes traced.
"$USDT_PROG" guarded >"$T/r.out" &
G=$!
BG_PIDS="$BG_PIDS $G"
wait_for "root's usdt_prog to start" "grep -q ready '$T/r.out'"
as_nobody_d "$T/nobody/bin/evtrace" trace -e usdt/evttest/args -e usdt/evttest/guarded -e trace=none \
	-- "$T/nobody/bin/usdt_prog" args 100 >"$T/nb.out" 2>"$T/nb.lines" ||
	{ cat "$T/nb.lines" "$T/daemon.log" >&2; fail "nobody's trace of usdt/evttest/args"; }
python3 - "$T/nb.lines" <<'PY' || fail "nobody's trace: not each step, probe and done in order"
import re, sys
got = []
for l in open(sys.argv[1]):
    m = re.search(r': (step|done) (\d+)$', l) or re.search(r'usdt/evttest/(args): .*arg1=(\d+) arg2=(-?\d+) arg3=7$', l)
    if m:
        got.append((m.group(1), int(m.group(2))))
        if m.group(1) == 'args':
            assert int(m.group(3)) == -int(m.group(2)), l
want = [(k, i) for i in range(100) for k in ('step', 'args', 'done')]
assert got == want, (len(got), got[:6])
PY
expect_grep "^evtrace: trace: 0 system calls, 100 other events; .* 0 events lost\$" "$T/nb.lines" "nobody's trace's summary"
grep -q '^on$' "$T/r.out" && fail "nobody's trace set the semaphore of root's process"
for g in $(sed -n 's/^p:evtrace_usdt_\([0-9]*\)\/.*/\1/p' "$UE" | sort -u); do
	running "$g" || { cat "$UE" >&2; fail "uprobes of a gone engine ($g) left after nobody's trace"; }
done
# A probe that is not there: said before evtraced is asked, by the
# file's own name.
expect_status 1 as_nobody_d "$T/nobody/bin/evtrace" trace -e usdt/evttest/nope -- "$T/nobody/bin/usdt_prog" args 1
expect_grep "^evtrace: trace: usdt/evttest/nope: no USDT probe of that name in $T/nobody/bin/usdt_prog or the libraries it maps (evtrace ls --probes FILE lists a file's)\$" \
	"$T/err" "nobody's probe that is not there"
# Another user's process: refused by evtraced's rule.
expect_status 1 as_nobody_d "$T/nobody/bin/evtrace" trace -p "$G" -e usdt/evttest/guarded
expect_grep "^evtrace: trace: pid $G (usdt_prog, user root): evtraced traces the system calls and probes of your own processes only" \
	"$T/err" "another user's process"
kill "$G"
# By hand: a root-only file, and a FIFO, as probe files of nobody's own
# process.
cp "$USDT_PROG" "$T/secret"
chmod 600 "$T/secret"
mkfifo -m 666 "$T/nobody/fifo"
setpriv --reuid=65534 --regid=65534 --clear-groups sleep 60 &
S=$!
BG_PIDS="$BG_PIDS $S"
ask_by_hand() {	# FILE: evtraced's standard error for a trace naming it
	as_nobody python3 - "$SOCK" "$S" "$1" <<'PY'
import socket, struct, sys
s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])
body = ("verb trace\npid %s\nevent usdt/evttest/args\nprobe-file %s\n" % (sys.argv[2], sys.argv[3])).encode()
s.sendall(struct.pack("<II", 0x44545645, len(body)) + body)
def take(n):
    b = b""
    while len(b) < n:
        more = s.recv(n - len(b))
        if not more: sys.exit("evtraced hung up")
        b += more
    return b
while True:
    _, n = struct.unpack("<II", take(8))
    frame = take(n)
    if frame[:1] == b"e": sys.stdout.write(frame[1:].decode())
    if frame[:1] == b"x": sys.exit(0 if frame[1:] == b"1" else "exit status %r" % frame[1:])
PY
}
ask_by_hand "$T/secret" >"$T/secret.err" || fail "the root-only file's request"
expect_grep "^evtrace: trace: usdt/: $T/secret: Permission denied (evtraced opens it as you)\$" "$T/secret.err" "a file nobody may not read"
ask_by_hand "$T/nobody/fifo" >"$T/fifo.err" || fail "the FIFO's request"
expect_grep "^evtrace: trace: usdt/: $T/nobody/fifo: not a regular file\$" "$T/fifo.err" "a FIFO named as a probe file"
