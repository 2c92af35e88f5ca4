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
expect_grep "the file system of $T/small/run is full (1 MiB" "$T/rec.err" "record names the full file system"
