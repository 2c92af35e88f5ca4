# The run directory on a tmpfs too small for the buffers: the traced
# program runs to its end, and every event it could not store is counted.
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" = 0 ] || { echo "SKIP: mounting a tmpfs needs root"; exit 77; }
mkdir -p "$T/small"
mount -t tmpfs -o size=1m evtrace-test "$T/small" || { echo "SKIP: cannot mount tmpfs"; exit 77; }
trap 'umount "$T/small" 2>/dev/null; cleanup' EXIT
export EVTRACE_RUNDIR="$T/small/run"
# Each thread wants 1 MiB of buffer and writes more than 1 MiB of events;
# the file system has 1 MiB in all.
"$EVTRACE" record -o "$T/tr" -- "$TRACEE" threads 4 50000 >"$T/prog.out" 2>"$T/rec.err"
expect_grep "^tried 200000$" "$T/prog.out" "the program ran to its end"
"$EVTRACE" report "$T/tr" >"$T/report"
bt "$T/tr" >"$T/bt"
python3 "$CHECK" count "$T/report" "$T/bt" 200000 "seq " >"$T/counts"
grep -q 'lost [1-9]' "$T/counts" || fail "expected events lost for want of space: $(cat "$T/counts")"
# A thread that found no room for its buffer's first page, or one whose
# buffer could not grow: either way the loss is named, and the full file
# system with its size.
grep -Eq "^evtrace: record: lost [0-9]* events: [0-9]* of printk/.* \(no space in the run directory\)" \
	"$T/rec.err" || { cat "$T/rec.err" >&2; fail "record does not name the cause"; }
expect_grep "^evtrace: record: the file system of $T/small/run, mounted on $T/small, is full: 1 MiB, 0 MiB free; free some, set EVTRACE_RUNDIR to a directory on a larger one, or record with smaller buffers (--packets, --packet-size)$" \
	"$T/rec.err" "record names the full file system, its size and what to do"

# A run directory with no room at all: the program runs untraced and
# says why, and record cannot publish its rules: both name the file
# system, where it is mounted, its size, and what to do.
dd if=/dev/zero of="$T/small/filler" bs=64k 2>/dev/null || true	# until full
full="No space left on device (the file system of $T/small/run, mounted on $T/small, is full: 1 MiB, 0 MiB free; free some, set EVTRACE_RUNDIR to a directory on a larger one, or record with smaller buffers (--packets, --packet-size))"
"$TRACEE" threads 1 10 >"$T/untraced.out" 2>"$T/untraced.err" || fail "the program failed on a full run directory"
expect_grep "^tried 10$" "$T/untraced.out" "the program ran untraced"
expect_grep "^evtrace: $T/small/run/[0-9]*-0.ctl: $full; this process runs untraced$" "$T/untraced.err" "the program says the full file system"
expect_status 1 "$EVTRACE" record -o "$T/tr-full" -- "$TRACEE" threads 1 10
expect_grep "^evtrace: record: $T/small/run/collection-[0-9]*.rules: $full$" "$T/err" "record says the full file system"
rm "$T/small/filler"

# A window written onto a full disk: that window is lost (its directory
# gone, counted, said), never the recording, which ends whole once there
# is room again.
mkdir -p "$T/disk"
mount -t tmpfs -o size=2m evtrace-disk "$T/disk" || fail "cannot mount a second tmpfs"
trap 'umount "$T/small" "$T/disk" 2>/dev/null; cleanup' EXIT
unset EVTRACE_RUNDIR
# (the program lives on after its burst until the test has made room
# again: its buffers are drained, into DIR, when it exits)
burst=printk/tracee/tests/progs/tracee.c/$(grep -n 'trace_printk("burst %ld' "$TRACEE_SRC" | sed -n 2p | cut -d: -f1)
"$EVTRACE" record --overwrite --trigger "$burst if arg0 == 0" -o "$T/disk/rec" \
	-- "$TRACEE" paced 3000 1000 -2 >"$T/w.out" 2>"$T/w.err" &
rec=$!
wait_for "the program to be ready" "grep -q '^ready' '$T/w.out'"
prog=$(sed -n 's/^ready //p' "$T/w.out")
# The recording's own index names the program's events before the disk
# fills: only the window is to meet the full disk (an index the recorder
# could not write would stop the recording, as it must).
wait_for "the recording's index to name the burst's site" "grep -q '\"$burst\"' '$T/disk/rec/evtrace/index'"
dd if=/dev/zero of="$T/disk/filler" bs=64k 2>/dev/null || true	# until full
kill -USR1 "$prog"
wait_for "the window to fail" "grep -q 'could not be written' '$T/w.err'"
rm "$T/disk/filler"
kill -USR1 "$prog"	# its end
wait "$rec" || { cat "$T/w.err" >&2; fail "record failed after a window that could not be written"; }
expect_grep "^evtrace: record: --trigger '$burst if arg0 == 0' fired, but its window $T/disk/rec/window-1 could not be written: .*No space left on device" \
	"$T/w.err" "the lost window said, and why"
expect_grep "^evtrace: record: triggers fired 1 time, 0 windows written; 1 window could not be written (the recording went on)$" "$T/w.err" "the lost window counted"
expect_grep "No space left on device" "$T/w.err" "why"
[ ! -e "$T/disk/rec/window-1" ] || fail "the half-written window is left: $(ls -R "$T/disk/rec/window-1")"
"$EVTRACE" report "$T/disk/rec" >"$T/w.report"
expect_grep "^# 3000 events, 0 lost" "$T/w.report" "the recording whole"
