# A slow program's events reach the trace directory within a second, not
# when a packet fills: report works on a running recording, and a
# recorder killed loses at most the last second; nothing twice.
. "$(dirname "$0")/lib.sh"

# alive REPORT: the "alive N" numbers must run 0, 1, 2... with none
# twice; prints the last one and its CLOCK_MONOTONIC time.
alive() {
	python3 - "$1" <<'PY'
import re, sys
nums, last_t = [], None
for line in open(sys.argv[1]):
    m = re.match(r"\s*\S+-\d+\s+\[\d+\] (\d+\.\d+): \S+: alive (\d+)$", line)
    if m:
        nums.append(int(m.group(2)))
        last_t = m.group(1)
if not nums:
    sys.exit("no alive events")
if nums != list(range(len(nums))):
    sys.exit("alive events not 0, 1, 2...: %r" % nums[:10])
print(nums[-1], last_t)
PY
}

"$EVTRACE" record -o "$T/tr" -- "$TRACEE" wait >"$T/w.out" 2>"$T/rec.err" &
rec=$!
BG_PIDS="$BG_PIDS $rec"
wait_for 'the program to say ready in w.out' 'grep -q ready "$T/w.out" 2>/dev/null'
pid=$(sed -n 's/^ready //p' "$T/w.out")
BG_PIDS="$BG_PIDS $pid"
sleep 1.5
# One event every 5 ms: a 64 KiB packet would take seconds to fill, so
# these reports read flushed parts of open packets.  A flush only
# appends (a piece of the packet as a packet of its own): every report
# reads, and what one copy of the trace held, a later one still holds.
mkdir "$T/copy1"
cp "$T"/tr/stream_* "$T/copy1/"
for k in $(seq 8); do
	"$EVTRACE" report "$T/tr" >"$T/r1" 2>"$T/r1.err" ||
		fail "report $k of the running recording: $(cat "$T/r1.err")"
	alive "$T/r1" >/dev/null || fail "report $k of the running recording"
	sleep 0.15
done
for f in "$T"/copy1/stream_*; do
	cmp -n "$(stat -c %s "$f")" "$f" "$T/tr/${f##*/}" >/dev/null ||
		fail "${f##*/} changed after it was flushed (not only appended to)"
done
first=$(alive "$T/r1") || fail "the running recording"
n1=${first% *}
[ "$n1" -ge 100 ] || fail "after 1.5 s only $n1 events of a program writing 200 a second reached the trace"

sleep 1
killed=$(python3 -c 'import time; print("%.9f" % time.monotonic())')
kill -9 "$rec"
"$EVTRACE" report "$T/tr" >"$T/r2" 2>"$T/r2.err" || fail "report after the recorder was killed: $(cat "$T/r2.err")"
last=$(alive "$T/r2") || fail "the recording of a killed recorder"
python3 -c "import sys; sys.exit(0 if float('${last#* }') >= $killed - 1.0 else 1)" ||
	fail "the killed recorder lost more than the last second: last event at ${last#* }, killed at $killed"
[ "${last% *}" -gt "$n1" ] || fail "nothing reached the trace after the first report"
bt_agrees "$T/tr"
kill "$pid"
echo "ok: $n1 events after 1.5 s; the last kept ${last% *} at ${last#* }, the recorder killed at $killed"
