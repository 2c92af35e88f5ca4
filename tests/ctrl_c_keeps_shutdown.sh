# Ctrl-C on record, as a shell treats it: a real ^C on a terminal (a
# pty) reaches the command once, record says it waits for it, goes on
# recording its clean shutdown to its exit and exits with its status;
# SIGINT or SIGTERM sent to record alone are passed on, once; a second ^C
# stops at once, says so, keeps what was drained, and leaves the command
# running.  count and trace stop the same way (cli/session.c).
. "$(dirname "$0")/lib.sh"

# on_pty OUT CTRL_CS GAP -- CMD...: runs CMD on a new terminal as a
# shell would (the session's leader stays, CMD in a foreground process
# group of its own), types ^C CTRL_CS times once the command says
# "ready" (GAP seconds apart), saves what the terminal showed in OUT and
# prints CMD's exit status (128+N for signal N, as the shell says it).
on_pty() {
	out=$1 n=$2 gap=$3; shift 4
	python3 - "$out" "$n" "$gap" "$@" <<'PY'
import os, pty, signal, sys, time
out, n, gap, argv = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), sys.argv[4:]
JOB_SIGNALS = (signal.SIGINT, signal.SIGQUIT, signal.SIGTSTP, signal.SIGTTOU, signal.SIGPIPE)
pid, fd = pty.fork()
if pid == 0:
    # The "shell": ignores the terminal's signals, gives the terminal to
    # the job, takes it back when the job ends and only then leaves, so
    # the terminal is not hung up on what the job left running.
    for s in JOB_SIGNALS:
        signal.signal(s, signal.SIG_IGN)
    job = os.fork()
    if job == 0:
        os.setpgid(0, 0)
        os.tcsetpgrp(0, os.getpid())
        for s in JOB_SIGNALS:
            signal.signal(s, signal.SIG_DFL)
        os.execvp(argv[0], argv)
    try:
        os.setpgid(job, job)
        os.tcsetpgrp(0, job)
    except OSError:
        pass  # the job did it first
    _, st = os.waitpid(job, 0)
    os.tcsetpgrp(0, os.getpgrp())
    os._exit(128 + os.WTERMSIG(st) if os.WIFSIGNALED(st) else os.WEXITSTATUS(st))
buf = b""
def more(timeout):
    end = time.monotonic() + timeout
    global buf
    while time.monotonic() < end:
        import select
        r, _, _ = select.select([fd], [], [], 0.05)
        if r:
            try:
                d = os.read(fd, 4096)
            except OSError:
                return False
            if not d:
                return False
            buf += d
    return True
while b"ready" not in buf:
    if not more(0.05):
        break
time.sleep(0.3)
for i in range(n):
    os.write(fd, b"\x03")
    if i + 1 < n:
        more(gap)
t0 = time.monotonic()
status = None
while time.monotonic() - t0 < 20:
    ended, st = os.waitpid(pid, os.WNOHANG)
    if ended:
        status = st
        break
    more(0.05)
more(0.1)  # what the job wrote just before it ended
if status is None:
    os.kill(pid, signal.SIGKILL)
    _, status = os.waitpid(pid, 0)
open(out, "wb").write(buf)
print(os.waitstatus_to_exitcode(status))
print("%.2f" % (time.monotonic() - t0), file=sys.stderr)
PY
}
shutdown_recorded() {	# shutdown_recorded TRACE PARTS
	"$EVTRACE" report "$1" >"$T/report"
	grep -o 'flushing part [0-9]*\|clean exit after [0-9]* signals' "$T/report" >"$T/got"
	seq "$2" | sed 's/^/flushing part /' >"$T/want"
	echo "clean exit after 1 signals" >>"$T/want"
	cmp -s "$T/got" "$T/want" || { diff "$T/want" "$T/got" >&2; fail "$1: the shutdown is not all there, once, in order"; }
	expect_grep "working 0" "$T/report" "$1: the work before ^C"
}

# One ^C on a terminal: 4 parts 100 ms apart, well past the moment the
# command got the signal.
status=$(on_pty "$T/pty1" 1 0 -- "$EVTRACE" record -o "$T/tr1" -- "$TRACEE" graceful 4 100 2>/dev/null)
expect_eq "$status" 3 "record's status after ^C is the command's"
shutdown_recorded "$T/tr1" 4
grep -q "; 0 events lost" "$T/pty1" || { cat "$T/pty1" >&2; fail "events lost after ^C"; }
grep -q "record: waiting for '$TRACEE' (pid [0-9]*) to exit; Ctrl-C again to stop recording now" "$T/pty1" ||
	{ cat "$T/pty1" >&2; fail "no word of what the first ^C does"; }

# SIGINT and SIGTERM sent to record alone: passed on once.
for sig in INT TERM HUP; do
	"$EVTRACE" record -o "$T/tr-$sig" -- "$TRACEE" graceful 3 50 >"$T/out-$sig" 2>"$T/err-$sig" &
	rec=$!
	wait_for 'the program to say ready in out-sig' 'grep -q ready "$T/out-$sig"'
	sleep 0.1
	kill -"$sig" "$rec"
	wait_exit "$rec" "record after SIG$sig" "cat '$T/err-$sig'"
	got=$EXITED
	if [ "$sig" = HUP ]; then
		# The command has no handler for SIGHUP: it dies of it, as it
		# would under a shell that hung up.
		expect_eq "$got" 129 "record's status when its command died of SIGHUP"
		"$EVTRACE" report "$T/tr-$sig" >"$T/report"
		expect_grep "working 0" "$T/report" "SIGHUP: what came before"
	else
		expect_eq "$got" 3 "record's status after SIG$sig"
		shutdown_recorded "$T/tr-$sig" 3
	fi
done

# Two ^C: the second stops record at once, the command runs on.
status=$(on_pty "$T/pty2" 2 0.5 -- "$EVTRACE" record -o "$T/tr2" -- "$TRACEE" graceful 30 100 2>"$T/time2")
expect_eq "$status" 130 "record's status after two ^C"
grep -q "stopped by a second signal before '$TRACEE' (pid [0-9]*) ended" "$T/pty2" ||
	{ cat "$T/pty2" >&2; fail "no word of the second ^C"; }
secs=$(cat "$T/time2")
awk "BEGIN { exit !($secs < 2) }" || fail "record took $secs s after the second ^C"
child=$(sed -n "s/.*ready \([0-9]*\).*/\1/p" "$T/pty2" | head -1)
BG_PIDS="$BG_PIDS $child"
running "$child" || fail "the command did not run on after the second ^C"
"$EVTRACE" report "$T/tr2" >"$T/report"
expect_grep "flushing part 3" "$T/report" "the parts drained before the second ^C"
grep -q "clean exit" "$T/report" && fail "the trace has an exit that came after it stopped"

# count and trace: SIGINT sent to them alone reaches the command, and
# they go on through its shutdown; a second one stops them at once.
flush=$(tracee_event "flushing part")
for cmd in count trace; do
	case $cmd in count) doing=counting ;; trace) doing=tracing ;; esac
	"$EVTRACE" $cmd -- "$TRACEE" graceful 3 50 >"$T/out-$cmd" 2>"$T/err-$cmd" &
	pid=$!
	wait_for "$cmd's command to be ready" "grep -q ready '$T/out-$cmd'"
	kill -INT "$pid"
	wait_exit "$pid" "$cmd after SIGINT" "cat '$T/err-$cmd'"
	got=$EXITED
	expect_eq "$got" 3 "$cmd's status after SIGINT is the command's"
	expect_grep "$cmd: waiting for '$TRACEE' (pid [0-9]*) to exit; Ctrl-C again to stop $doing now" \
		"$T/err-$cmd" "$cmd: what the first SIGINT does"
	case $cmd in
	count) expect_grep "^ *3      $flush\$" "$T/err-$cmd" "count: the command's shutdown counted" ;;
	trace) expect_grep "flushing part 3" "$T/err-$cmd" "trace: the command's shutdown shown"
	       expect_grep "clean exit after 1 signals" "$T/err-$cmd" "trace: the signal passed on once" ;;
	esac

	"$EVTRACE" $cmd -- "$TRACEE" graceful 30 100 >"$T/out2-$cmd" 2>"$T/err2-$cmd" &
	pid=$!
	wait_for "$cmd's command to be ready" "grep -q ready '$T/out2-$cmd'"
	child=$(sed -n "s/^ready \([0-9]*\).*/\1/p" "$T/out2-$cmd" | head -1)
	BG_PIDS="$BG_PIDS $child"
	kill -INT "$pid"
	wait_for "$cmd to say it waits" "grep -q 'waiting for' '$T/err2-$cmd'"
	kill -INT "$pid"
	wait_exit "$pid" "$cmd after a second SIGINT" "cat '$T/err2-$cmd'"
	got=$EXITED
	expect_eq "$got" 130 "$cmd's status after a second SIGINT"
	expect_grep "$cmd: stopped by a second signal before '$TRACEE' (pid $child) ended" \
		"$T/err2-$cmd" "$cmd: what the second SIGINT does"
	running "$child" || fail "$cmd: the command did not run on after the second SIGINT"
	kill -KILL "$child"
done
echo "ok: ^C, SIGINT, SIGTERM, SIGHUP and a second ^C (stopped in $secs s); count and trace alike"
