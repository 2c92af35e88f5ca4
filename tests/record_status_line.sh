# record's status line: on a terminal, a recording longer than 2 s shows
# what was drained, redrawn in place, and takes it away before its
# summary; -q, or stderr not a terminal, shows none.
. "$(dirname "$0")/lib.sh"

# on_pty OUT CMD...: runs CMD with a pty as its terminal, saves all it
# showed in OUT.
on_pty() {
	out=$1; shift
	python3 - "$out" "$@" <<'PY'
import os, pty, sys
out, argv = sys.argv[1], sys.argv[2:]
pid, fd = pty.fork()
if pid == 0:
    os.execvp(argv[0], argv)
buf = b""
while True:
    try:
        d = os.read(fd, 4096)
    except OSError:
        break
    if not d:
        break
    buf += d
_, st = os.waitpid(pid, 0)
open(out, "wb").write(buf)
sys.exit(os.waitstatus_to_exitcode(st))
PY
}

# The three recordings at once (each lasts 3 s, longer than the 2 s
# before a line is drawn): -q, and stderr into a file, beside the one on
# a terminal.
on_pty "$T/quiet" "$EVTRACE" record -q -o "$T/trq" -- "$TRACEE" paced 60000 20 0 &
quiet=$!
"$EVTRACE" record -o "$T/trf" -- "$TRACEE" paced 60000 20 0 >"$T/out" 2>"$T/err" &
tofile=$!
BG_PIDS="$BG_PIDS $quiet $tofile"
on_pty "$T/tty" "$EVTRACE" record -o "$T/tr" -- "$TRACEE" paced 60000 20 0 || fail "record on a terminal"
python3 - "$T/tty" <<'PY' || fail "the status line"
import re, sys
text = open(sys.argv[1], "rb").read().decode()
draws = re.findall(r"\r\x1b\[Krecording (\d+) s: (\d+)\+ events, ([\d.]+) MB in (\d+) packets from 1 process, 0 lost, ([\d.]+) MB/s", text)
assert len(draws) >= 2, repr(text[-600:])
assert draws[0][0] == "2", draws[0]
events = [int(d[1]) for d in draws]
assert events == sorted(events) and 0 < events[-1] <= 60000, events
draws = [(d[0], d[2], d[3], d[4]) for d in draws]
mbs = [float(d[1]) for d in draws]
assert mbs == sorted(mbs) and mbs[-1] > 0, mbs
summary = re.search(r"(.)evtrace: record: every event \(no -e\): (\d+) packets?, (\d+) bytes", text)
assert summary, repr(text[-600:])
# the line was taken away before the summary: a clear, then the summary
assert re.search(r"\r\x1b\[Kevtrace: record: every event", text), repr(text[-300:])
assert float(draws[-1][1]) <= int(summary.group(3)) / 1e6 + 0.05, (draws[-1], summary.group(3))
PY
expect_grep "tried 60000" "$T/tty" "the program ran"
"$EVTRACE" report "$T/tr" | grep -q "^# 60000 events, 0 lost" || fail "the recording under a status line"

wait "$quiet" || fail "record -q"
grep -q "recording " "$T/quiet" && fail "-q still shows a status line"
expect_grep "evtrace: record: every event" "$T/quiet" "-q keeps the summary"

wait "$tofile" || fail "record into a file: $(cat "$T/err")"
grep -q "recording \|$(printf '\033')" "$T/err" && fail "a status line on a stderr that is no terminal"
expect_grep "^evtrace: record: every event" "$T/err" "the summary in a file"
echo "ok: the status line drawn $(grep -o 'recording [0-9]* s' "$T/tty" | wc -l) times, none with -q or into a file"
