# record -e usdt/...: the USDT probes of an unmodified program and of the
# libraries it links are recorded, through uprobes, in one timeline with
# the program's own events, their arguments typed from the probes' notes
# (Python's names as strings); a semaphore-guarded probe is switched on
# while it is recorded and off after; a library the program dlopens is
# named with --probes-in; the uprobes go when the recording ends, and
# those a killed recorder left go at the next one.  Needs root (tracefs's
# uprobe_events).
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

# 5. A library the program dlopens, named with --probes-in.
"$EVTRACE" record -q -e usdt/evttest_lib/hit --probes-in "$USDT_LIB" -o "$T/pl" \
	-- "$USDT_PROG" plugin "$USDT_LIB" 2>"$T/pl.err" || { cat "$T/pl.err" >&2; fail "record --probes-in"; }
"$EVTRACE" report "$T/pl" >"$T/pl.report"
expect_eq "$(sed -n 's/.*usdt\/evttest_lib\/hit: .* arg1=\([0-9]*\)$/\1/p' "$T/pl.report" | tr '\n' ' ')" \
	"1 2 3 4 5 " "the dlopen'd library's probe"

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
expect_grep "^evtrace: record: usdt/: USDT probes need uprobes, which tracefs's uprobe_events makes for root only; through evtraced: not yet supported\$" \
	"$T/err" "a user without privilege"
as_nobody "$EVTRACE" ls --probes "$USDT_PROG" >"$T/nobody.ls" || fail "ls --probes as nobody"
expect_eq "$(grep -c '^usdt/evttest/' "$T/nobody.ls")" 2 "ls --probes as nobody"
expect_status 1 "$EVTRACE" record --probes-in "$USDT_LIB" -e printk -o "$T/nope" -- "$USDT_PROG" args 1
expect_grep "^evtrace: record: --probes-in: no -e usdt/... names probes to look for there\$" "$T/err" "--probes-in alone"
expect_status 1 "$EVTRACE" record --probes-in "$T/no-such.so" -e usdt/evttest/args -o "$T/nope" -- "$USDT_PROG" args 1
expect_grep "^evtrace: record: --probes-in $T/no-such.so: No such file or directory\$" "$T/err" "--probes-in of no file"
