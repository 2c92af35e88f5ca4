# Timestamps map to real time in babeltrace2 and to CLOCK_MONOTONIC in
# report, with the TSC and with the CLOCK_MONOTONIC fallback.
. "$(dirname "$0")/lib.sh"
for clock in default monotonic; do
	if [ $clock = monotonic ]; then export EVTRACE_CLOCK=monotonic; fi
	before=$(date -u +%s)
	"$EVTRACE" record -o "$T/tr-$clock" -- "$TRACEE" threads 2 50 >/dev/null
	after=$(date -u +%s)
	up_before=$(cut -d' ' -f1 /proc/uptime)
	"$EVTRACE" report "$T/tr-$clock" >"$T/report"
	expect_grep "# 100 events, 0 lost" "$T/report" "$clock: events"
	bt_agrees "$T/tr-$clock"
	babeltrace2 --clock-seconds --clock-gmt "$T/tr-$clock" >"$T/bt"
	python3 - "$T/bt" "$before" "$after" "$T/report" "$up_before" <<'PY'
import re, sys
bt, before, after, report, uptime = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], float(sys.argv[5])
secs = [float(m.group(1)) for m in (re.match(r'\[(\d+\.\d+)\]', l) for l in open(bt)) if m]
assert secs and all(before - 1 <= s <= after + 1 for s in secs), "real time %r not in [%d, %d]" % (secs[:2], before, after)
assert secs == sorted(secs)
mono = [float(m.group(1)) for m in (re.search(r' (\d+\.\d{9}): ', l) for l in open(report)) if m]
# CLOCK_MONOTONIC is close to uptime on Linux: the events are from just now.
assert all(uptime - 10 <= t <= uptime + 1 for t in mono), "monotonic %r vs uptime %r" % (mono[:2], uptime)
PY
	unset EVTRACE_CLOCK
done
expect_grep "CLOCK_MONOTONIC" "$T/tr-monotonic/metadata" "fallback clock named in the metadata"
