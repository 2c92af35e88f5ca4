# trace_pipe on the real FUSE mount: two readers share the events of a
# program (each in order, none read twice, none missing but those counted
# lost); stopped readers make the program lose events, counted exactly;
# a reader killed while it waits harms nothing; O_NONBLOCK gets EAGAIN;
# the default collection held by `evtrace stream` is EBUSY; unmounting
# while readers wait ends their reads cleanly.
. "$(dirname "$0")/lib.sh"
M=$T/mnt
# paced's site: the second "burst" of the file.
burst=printk/tracee/tests/progs/tracee.c/$(grep -n 'trace_printk("burst' "$TRACEE_SRC" | sed -n 2p | cut -d: -f1)
mount_events "$M"

# Starts `tracee paced N PER_MS IDLE_MS` as PACED and switches its burst
# site on (through the filesystem) while it idles.
start_paced() {
	"$TRACEE" paced "$1" "$2" "$3" >"$T/paced.out" &
	PACED=$!
	wait_for 'M/proc/PACED/events/burst/enable to appear' '[ -e "$M/proc/$PACED/events/$burst/enable" ]'
	echo 1 >"$M/proc/$PACED/events/$burst/enable" || fail "cannot switch the burst site on"
}
# Prints "<events> <lost>" of pid $1 in the files given after it, and
# fails when a file's numbers are not increasing or two files share one.
tally() {
	pid=$1; shift
	# (awk: python took seconds a call on the million-event files)
	awk -v pid="$pid" '
	FNR == 1 { last = -1 }
	{
		n = split($1, who, "-")
		if (who[n] != pid || $2 !~ /^\[[-0-9]+\]$/ || $3 !~ /^[0-9]+\.[0-9]+:$/)
			next
		if ($4 == "lost" && NF == 6 && $6 ~ /^events?$/) { lost += $5; next }
		if ($4 !~ /^printk\/.*:$/ || $5 != "burst" || NF != 6 || $6 !~ /^[0-9]+$/) {
			print FILENAME ": not a burst event: " $0; bad = 1; exit
		}
		v = $6 + 0
		if (v <= last) { print FILENAME ": burst " v " after " last; bad = 1; exit }
		if (v in seen) { print "burst " v " read twice"; bad = 1; exit }
		seen[v] = 1; count++; last = v
	}
	END { if (bad) exit 1; print count + 0, lost + 0 }' "$@"
}
# Waits until pid $1's events and losses in the readers' files add up
# to $2 (at most 10 s); sets GOT and LOST.
settle() {
	for _ in $(seq 200); do
		tally "$1" "$T/r1" "$T/r2" >"$T/tally" || fail "$(cat "$T/tally")"
		read -r GOT LOST <"$T/tally"
		[ $((GOT + LOST)) -ge "$2" ] && break
		sleep 0.05
	done
}

# The default collection is one reader's at a time: a stream without -e
# holds it, and trace_pipe says so.
"$EVTRACE" stream >/dev/null 2>&1 &
stream=$!
BG_PIDS="$BG_PIDS $stream"
wait_for "the stream to hold the default collection" "slot_held 0"
cat "$M/trace_pipe" >/dev/null 2>"$T/busy.err" && fail "trace_pipe opened while stream held it"
expect_grep "Device or resource busy" "$T/busy.err" "trace_pipe beside stream"
kill -TERM "$stream"
wait "$stream" || true

# Nothing there yet: a non-blocking read gets EAGAIN at once.
expect_eq "$(python3 -c '
import os, sys
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_NONBLOCK)
try:
    os.read(fd, 4096); print("data")
except BlockingIOError:
    print("EAGAIN")' "$M/trace_pipe")" EAGAIN "O_NONBLOCK on an empty pipe"

# Two readers, one program: 20000 events in 1 s.
cat "$M/trace_pipe" >"$T/r1" 2>"$T/r1.err" &
r1=$!
cat "$M/trace_pipe" >"$T/r2" 2>"$T/r2.err" &
r2=$!
BG_PIDS="$BG_PIDS $r1 $r2"
start_paced 20000 20 500
wait "$PACED" || fail "the program failed"
settle "$PACED" 20000
expect_eq "$((GOT + LOST))" 20000 "events read + lost ($GOT + $LOST)"
n1=$(grep -c "burst" "$T/r1" || true)
n2=$(grep -c "burst" "$T/r2" || true)
[ "$n1" -gt 0 ] && [ "$n2" -gt 0 ] || fail "one reader got nothing ($n1, $n2): they do not share"
first_read=$GOT first_lost=$LOST

# Readers stopped: the queue and the program's buffers fill, the rest is
# dropped by the program and counted.  (A round of the mount that comes
# late takes all the buffers hold, past its queue's 1 MiB: then nothing
# is lost, seen twice in 1,000,000 events; a second program writes 3
# times as many.)
for n in 1000000 3000000; do
	kill -STOP "$r1" "$r2"
	start_paced $n 3000 300
	wait "$PACED" || fail "the program failed"
	kill -CONT "$r1" "$r2"
	settle "$PACED" $n
	expect_eq "$((GOT + LOST))" $n "events read + lost with stopped readers ($GOT + $LOST)"
	[ "$LOST" -gt 0 ] && break
done
[ "$LOST" -gt 0 ] || fail "nothing was lost with the readers stopped: the test did not test"
stopped_read=$GOT stopped_lost=$LOST

# A reader killed while it waits: the others and the mount go on.
cat "$M/trace_pipe" >/dev/null &
r3=$!
wait_for "the reader to have trace_pipe open" "reading_pipe $r3"
kill -9 "$r3"
wait "$r3" 2>/dev/null || true
start_paced 100 10 200
wait "$PACED"
settle "$PACED" 100
expect_eq "$((GOT + LOST))" 100 "events after a reader was killed"

# Stopping the mount while both readers wait: they read to the end of the
# file and exit 0; the mount is gone and evtrace mount exits 0.
kill -TERM "$MOUNT_PID"
wait "$r1" || fail "reader 1 ended with $?: $(cat "$T/r1.err")"
wait "$r2" || fail "reader 2 ended with $?: $(cat "$T/r2.err")"
wait "$MOUNT_PID" || fail "evtrace mount exited $?: $(cat "$T/mount.err")"
[ ! -e "$M/README" ] || fail "still mounted after SIGTERM"

# A mount killed outright: its reader gets an error instead of waiting
# forever, and the mount goes with it.
mount_events "$M"
cat "$M/trace_pipe" >/dev/null 2>"$T/r4.err" &
r4=$!
wait_for "the reader to have trace_pipe open" "reading_pipe $r4"
kill -9 "$MOUNT_PID"
wait_for 'r4 to end' '! running "$r4"'
running "$r4" && fail "a reader still waits 5 s after its mount was killed"
wait "$r4" && fail "the reader of a killed mount saw a clean end"
wait_for 'the mount to go' '! mountpoint -q "$M"'
mountpoint -q "$M" && fail "a killed mount stays mounted"
echo "ok: two readers ($n1 + $n2 lines, $first_read read, $first_lost lost), stopped readers ($stopped_read read, $stopped_lost lost), busy, EAGAIN, clean end, killed mount"
