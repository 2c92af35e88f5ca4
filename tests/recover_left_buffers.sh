# evtrace recover: what a recording left in a process's buffers when its
# recorder was killed, read into a trace: a flight recorder's newest
# events, exact about what was overwritten, after the process exited or
# crashed; by pid or by control file; refusals with their reasons.
. "$(dirname "$0")/lib.sh"

# kill_recorder REC: kills record -9 once its program's control file is
# there, and waits until it is gone (a process killed lets go of its slot
# lock only after unmapping its memory); sets ctl to that file (its own
# program's: a file an earlier case left may sort first).
kill_recorder() {
	# (the program by its name: a child of record's own, if any, has no
	# control file to wait for)
	wait_for "record's program" "pgrep -x tracee -P $1 >/dev/null"
	_p=$(pgrep -x tracee -P "$1" | head -1)
	wait_for "the control file of pid $_p" "ls '$EVTRACE_RUNDIR'/$_p-*.ctl >/dev/null 2>&1"
	ctl=$(ls "$EVTRACE_RUNDIR"/"$_p"-*.ctl | head -1)
	wait_for "the recording's collection in pid $_p" "collection_in $_p $1"
	kill -9 "$1"
	wait "$1" 2>/dev/null || true
}

# 1. A flight recorder whose recorder was killed; the program runs to its
#    end, then its buffers are read by control file.  (It writes once told,
#    after the recorder is gone: it must not end before the recording is
#    seen in it.)
"$EVTRACE" record --overwrite --packet-size 16384 --packets 2 -o "$T/dead" \
	-- "$TRACEE" paced 20000 20 -1 >"$T/paced.out" 2>/dev/null &
rec=$!
kill_recorder "$rec"
pid=$(basename "$ctl" | cut -d- -f1)
wait_for "the program to say ready" "grep -q '^ready' '$T/paced.out'"
kill -USR1 "$pid"
# The killed recorder's own directory holds no event, and report says
# why, and what reads them, rather than 0 events and status 0.
expect_status 1 "$EVTRACE" report "$T/dead"
expect_grep "^# 0 events, 0 lost, 0 streams$" "$T/out" "the killed flight recorder wrote no stream"
expect_grep "evtrace: report: $T/dead holds no event of its 1 process (pid $pid first), and its recording did not end: .*'evtrace recover $pid' reads what a killed one left" \
	"$T/err" "report points at recover"
wait_for 'pid to end' '! running "$pid"'
let_go "$ctl"
expect_grep "^tried 20000$" "$T/paced.out" "the program ran on without its recorder"
"$EVTRACE" recover -o "$T/rec1" "$ctl" 2>"$T/err" || fail "recover by control file: $(cat "$T/err")"
expect_grep "^evtrace: recover: 2 packets, [0-9]* bytes of pid $pid written to $T/rec1; [1-9][0-9]* events lost$" "$T/err" "recover's summary"
"$EVTRACE" report "$T/rec1" >"$T/report1"
python3 "$CHECK" suffix "$T/report1" 20000 >"$T/kept" || fail "the recovered events are not the newest, counted exactly"
expect_grep "burst 19999$" "$T/report1" "the last event"
bt_agrees "$T/rec1"

# 2. The recorder killed, then the program crashes: by pid.
"$EVTRACE" record --overwrite -o "$T/dead2" -- "$TRACEE" loop 1 >"$T/loop.out" 2>/dev/null &
rec=$!
kill_recorder "$rec"
pid=$(basename "$ctl" | cut -d- -f1)
sleep 0.3	# it writes on, into the buffers nobody reads
kill -SEGV "$pid"
wait_for 'pid to end' '! running "$pid"'
let_go "$ctl"
running "$pid" && fail "the program did not crash"
"$EVTRACE" recover -o "$T/rec2" "$pid" 2>"$T/err" || fail "recover by pid: $(cat "$T/err")"
"$EVTRACE" report "$T/rec2" >"$T/report2"
python3 "$CHECK" loop "$T/report2" 1 500 >"$T/runs" || fail "the crashed program's events are not one run"
expect_eq "$(cut -d' ' -f2 "$T/runs")" 0 "its events from the first on (nothing overwritten)"
# Once read, the buffers are gone with the slot: a second recover finds none.
expect_status 1 "$EVTRACE" recover -o "$T/rec3" "$pid"
expect_grep "evtrace: recover: pid $pid: no" "$T/err" "recovered twice"

# 3. What recover refuses, and why.
"$EVTRACE" record -o "$T/alive" -- "$TRACEE" loop 1 >"$T/loop2.out" 2>/dev/null &
rec=$!
BG_PIDS="$BG_PIDS $rec"
wait_for 'the program to say ready in loop2.out' 'grep -q ready "$T/loop2.out" 2>/dev/null'
live=$(sed -n 's/^ready //p' "$T/loop2.out")
expect_status 1 "$EVTRACE" recover -o "$T/no" "$live"
expect_grep "evtrace: recover: pid $live: no buffers left by a recorder that is gone (a running recorder reads its own" "$T/err" "a running recorder"
kill -INT "$rec"; wait "$rec" 2>/dev/null || true
kill "$live" 2>/dev/null || true
expect_status 1 "$EVTRACE" recover 999999
expect_grep "evtrace: recover: pid 999999: no control file in " "$T/err" "no such process"
expect_status 2 "$EVTRACE" recover
expect_grep "evtrace: recover: no process given" "$T/err" "no argument"
expect_status 1 "$EVTRACE" recover --slot 0 1
expect_grep "evtrace: recover: --slot '0': not a collection number (1 to 255, as ls shows them)" "$T/err" "bad slot"
expect_status 1 "$EVTRACE" recover "$T/not-a-control-file"
expect_grep "not a control file (PID-N.ctl)" "$T/err" "bad control file"

# 4. Another engine starting first clears what gone recorders left.
"$EVTRACE" record --overwrite -o "$T/dead4" -- "$TRACEE" loop 1 >/dev/null 2>&1 &
rec=$!
kill_recorder "$rec"
pid=$(basename "$ctl" | cut -d- -f1)
kill -9 "$pid"
wait_for 'pid to end' '! running "$pid"'
let_go "$ctl"
"$EVTRACE" record -o "$T/other" -- true >/dev/null 2>&1
expect_status 1 "$EVTRACE" recover -o "$T/rec4" "$pid"
expect_grep "evtrace: recover: pid $pid: no control file" "$T/err" "after another engine started"
# Root pointing recover at a directory that is no run directory (as /etc
# is) leaves nothing there, and makes none that is missing.
mkdir -m 700 "$T/etc-like"
echo x >"$T/etc-like/passwd"
EVTRACE_RUNDIR=$T/etc-like expect_status 1 "$EVTRACE" recover -o "$T/rec5" "$pid"
expect_grep "no control file in $T/etc-like" "$T/err" "recover in a directory that is no run directory"
expect_eq "$(ls -A "$T/etc-like")" passwd "what recover left in it"
EVTRACE_RUNDIR=$T/missing/run expect_status 1 "$EVTRACE" recover -o "$T/rec6" "$pid"
expect_grep "evtrace: recover: $T/missing/run: No such file or directory" "$T/err" "recover in a missing run directory"
[ ! -e "$T/missing" ] || fail "recover made a run directory"
[ ! -e "$T/rec5" ] && [ ! -e "$T/rec6" ] || fail "a recover that found nothing made its trace directory"
echo "ok: recovered $(cat "$T/kept") by control file; a crashed program's run $(cat "$T/runs")"
