# evtrace snapshot: a running --overwrite recording's buffers written as a
# trace while it goes on: each thread's newest events, contiguous, with
# what was overwritten counted exactly; a later snapshot has later events;
# the recording itself is untouched and ends whole; refusals with reasons.
. "$(dirname "$0")/lib.sh"

# runs REPORT: per thread "t first last lost", checking that each thread's
# events are one contiguous run starting right after what it lost.
runs() {
	python3 - "$1" <<'PY'
import re, sys
first, last, lost, tids = {}, {}, {}, {}
for line in open(sys.argv[1]):
    m = re.match(r"\s*\S+-(\d+)\s+\[(\S+)\] \S+: (.*)$", line)
    if not m:
        continue
    tid, rest = int(m.group(1)), m.group(3)
    l = re.fullmatch(r"lost (\d+) events?(: .*)?", rest)
    if l and m.group(2) == "---":
        lost[tid] = lost.get(tid, 0) + int(l.group(1))
        continue
    e = re.search(r": loop t=(\d+) i=(\d+)$", rest)
    if not e:
        continue
    t, i = int(e.group(1)), int(e.group(2))
    tids[t] = tid
    if t in last and last[t] + 1 != i:
        sys.exit("thread %d: event %d after %d" % (t, i, last[t]))
    first.setdefault(t, i)
    last[t] = i
for t in sorted(first):
    if lost.get(tids[t], 0) != first[t]:
        sys.exit("thread %d: starts at %d but %d counted lost" % (t, first[t], lost.get(tids[t], 0)))
    print(t, first[t], last[t], lost.get(tids[t], 0))
PY
}

"$EVTRACE" record --overwrite --packet-size 16384 --packets 2 -o "$T/flight" \
	-- "$TRACEE" loop 2 >"$T/loop.out" 2>"$T/rec.err" &
rec=$!
BG_PIDS="$BG_PIDS $rec"
wait_for 'the program to say ready in loop.out' 'grep -q ready "$T/loop.out" 2>/dev/null'
pid=$(sed -n 's/^ready //p' "$T/loop.out")
[ -n "$pid" ] || fail "the program did not start"
BG_PIDS="$BG_PIDS $pid"
sleep 0.6	# the rings (2 x 16 KiB a thread) wrap; on a busy machine, later
# (until each thread's ring wrapped: on a busy machine one thread may
# lag the other, seen in the suite with both CPUs busy)
for _ in $(seq 50); do
	rm -rf "$T/s1"
	"$EVTRACE" snapshot -o "$T/s1" -p "$pid" 2>"$T/err" || fail "snapshot -p: $(cat "$T/err")"
	if grep -q "; [1-9][0-9]* events\? overwritten" "$T/err"; then
		"$EVTRACE" report "$T/s1" >"$T/r1"
		runs "$T/r1" >"$T/runs1" 2>/dev/null &&
			[ "$(wc -l <"$T/runs1")" = 2 ] && awk '$4 == 0 { exit 1 }' "$T/runs1" && break
	fi
	sleep 0.1
done
expect_grep "^evtrace: snapshot: [1-9][0-9]* packets\?, [0-9]* bytes from 1 process written to $T/s1; [1-9][0-9]* events\? overwritten before it, 0 lost$" "$T/err" "snapshot's summary"
"$EVTRACE" report "$T/s1" >"$T/r1"
runs "$T/r1" >"$T/runs1" || fail "snapshot 1: not each thread's newest events, counted exactly"
expect_eq "$(wc -l <"$T/runs1")" 2 "snapshot 1: both threads"
awk '$4 == 0 { exit 1 }' "$T/runs1" || fail "the rings did not wrap: $(cat "$T/runs1")"
bt_agrees "$T/s1"

sleep 0.3
slot=$("$EVTRACE" ls -p "$pid" | sed -n 's/^# collection \([0-9]*\): pid [0-9]*, evtrace record .*/\1/p')
[ -n "$slot" ] || fail "ls does not name the recording's number"
"$EVTRACE" snapshot -o "$T/s2" --collection "$slot" 2>"$T/err" || fail "snapshot --collection: $(cat "$T/err")"
"$EVTRACE" report "$T/s2" >"$T/r2"
runs "$T/r2" >"$T/runs2" || fail "snapshot 2"
paste "$T/runs1" "$T/runs2" | awk '$7 <= $3 { exit 1 }' || fail "snapshot 2 has no later events: $(paste "$T/runs1" "$T/runs2")"
"$EVTRACE" ls -p "$pid" | grep -q "^# collection $slot: pid [0-9]*, evtrace record" ||
	fail "the recording lost its slot to the snapshots"

# The recording goes on, and ends whole.
kill -TERM "$pid"
wait "$rec" || fail "record failed after the snapshots: $(cat "$T/rec.err")"
"$EVTRACE" report "$T/flight" >"$T/rf"
runs "$T/rf" >"$T/runsf" || fail "the recording after the snapshots"
paste "$T/runs2" "$T/runsf" | awk '$7 < $3 { exit 1 }' || fail "the recording ends before snapshot 2"

# Refusals: no flight recorder running, a discard-mode one, bad options.
expect_status 1 "$EVTRACE" snapshot -o "$T/none"
expect_grep "evtrace: snapshot: the run directory: no control file in\|evtrace: snapshot: the run directory: no running --overwrite recording" "$T/err" "nothing running"
"$EVTRACE" record -o "$T/discard" -- "$TRACEE" loop 1 >"$T/loop2.out" 2>/dev/null &
rec=$!
BG_PIDS="$BG_PIDS $rec"
wait_for 'the program to say ready in loop2.out' 'grep -q ready "$T/loop2.out" 2>/dev/null'
pid2=$(sed -n 's/^ready //p' "$T/loop2.out")
expect_status 1 "$EVTRACE" snapshot -o "$T/none" -p "$pid2"
expect_grep "evtrace: snapshot: pid $pid2: no running --overwrite recording (a snapshot is of a flight recorder" "$T/err" "a discard-mode recording"
kill -TERM "$pid2"; wait "$rec" 2>/dev/null || true
expect_status 1 "$EVTRACE" snapshot --collection 256
expect_grep "evtrace: snapshot: --collection '256': not a collection number (1 to 255, as ls shows them)" "$T/err" "bad number"
expect_status 2 "$EVTRACE" snapshot extra
expect_grep "evtrace: snapshot: 'extra': unexpected" "$T/err" "stray argument"
echo "ok: snapshots $(tr '\n' ';' <"$T/runs1") then $(tr '\n' ';' <"$T/runs2"), the recording $(tr '\n' ';' <"$T/runsf")"

# paced_started NAME: the last job started is record of "tracee paced
# ... -1|-2" writing into $T/NAME.out; rec is that job, pid its program,
# told to start once it says ready.
paced_started() {
	rec=$!
	BG_PIDS="$BG_PIDS $rec"
	wait_for 'the paced program to say ready' "grep -q ready '$T/$1.out' 2>/dev/null"
	pid=$(sed -n 's/^ready //p' "$T/$1.out")
	BG_PIDS="$BG_PIDS $pid"
	kill -USR1 "$pid"
}

# A snapshot copies what the rings hold, not their pages never written:
# 100 events in rings of 32 MiB (a packet of 1 MiB in use), snapshotted,
# leave the program's control file as big as it was, give or take a
# packet (a ring touched whole would make its 32 MiB), and are all there.
"$EVTRACE" record --overwrite --packet-size 1048576 --packets 32 -o "$T/sparse" \
	-- "$TRACEE" paced 100 100 -2 >"$T/sparse.out" 2>"$T/sparse.err" &
paced_started sparse
wait_for 'the burst' 'grep -q "burst done" "$T/sparse.out"'
ctl=$(ls "$EVTRACE_RUNDIR"/"$pid"-*.ctl)
kib=$(du -k "$ctl" | cut -f1)
"$EVTRACE" snapshot -o "$T/sparse.snap" -p "$pid" 2>"$T/err" || fail "snapshot of the sparse rings: $(cat "$T/err")"
grown=$(($(du -k "$ctl" | cut -f1) - kib))
[ "$grown" -lt 2048 ] || fail "a snapshot made $grown KiB of the rings' pages (the control file had $kib KiB)"
expect_eq "$("$EVTRACE" report "$T/sparse.snap" | grep -c ': burst [0-9]*$')" 100 "the 100 events in the snapshot"
kill -USR1 "$pid"
wait "$rec" || fail "the sparse recording: $(cat "$T/sparse.err")"

# --before: only the last DURATION of the rings before the snapshot was
# asked for, in whole packets.  A paced writer (100 events a ms) fills 64
# packets of 16 KiB, 10 ms each; once a whole snapshot spans more than
# 400 ms, one --before 100ms holds nothing older than 100 ms before it
# was asked, but for the oldest packet, whole: 60 ms more at most (a
# packet and the pacing's slips), and the longest time the writer did not
# run (a stall inside that packet stretches it).  It holds what came
# after the asking too, until the recorder took it (a loaded machine's
# 200 ms), and at least 50 ms.
"$EVTRACE" record --overwrite --packet-size 16384 --packets 64 -o "$T/paced" \
	-- "$TRACEE" paced 2000000 100 -1 >"$T/paced.out" 2>"$T/paced.err" &
paced_started paced
span() {	# TRACE: ms between its first and last event
	"$EVTRACE" query --no-cache --csv "$1" \
		"SELECT (max(ts) - min(ts)) / 1000000 AS ms FROM event" | tr -d '\r' | sed -n 2p
}
whole_spans() {
	rm -rf "$T/whole"
	"$EVTRACE" snapshot -o "$T/whole" -p "$pid" 2>/dev/null && [ "$(span "$T/whole")" -gt 400 ]
}
wait_for "a snapshot spanning 400 ms" whole_spans
asked=$(python3 -c 'import time; print(time.clock_gettime_ns(time.CLOCK_MONOTONIC))')
"$EVTRACE" snapshot --before 100ms -o "$T/last" -p "$pid" 2>"$T/err" || fail "snapshot --before: $(cat "$T/err")"
ms=$(span "$T/last")
"$EVTRACE" query --csv "$T/last" "SELECT min(ts), coalesce(max(gap), 0) FROM
	(SELECT ts, ts - lag(ts) OVER (ORDER BY ts) AS gap FROM event)" | tr -d '\r' | sed -n 2p >"$T/first"
first=$(cut -d, -f1 "$T/first") stall=$(cut -d, -f2 "$T/first")
older=$(((asked - 100000000 - first) / 1000000))
[ -n "$ms" ] && [ "$ms" -ge 50 ] && [ "$older" -lt $((60 + stall / 1000000)) ] ||
	fail "snapshot --before 100ms holds $ms ms, from $older ms before the 100 asked (the writer stalled $((stall / 1000000)) ms at most; the whole one $(span "$T/whole") ms)"
expect_status 1 "$EVTRACE" snapshot --before 10 -p "$pid"
expect_grep "before '10': not a duration" "$T/err" "a duration without a unit"
kill "$pid"
wait $rec || true
