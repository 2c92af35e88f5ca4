# A program that crashes keeps every event it wrote; record and count say
# what killed it and exit with 128 + the signal, as a shell would.  A
# program killed with SIGKILL keeps its events too.
. "$(dirname "$0")/lib.sh"
expect_status 139 "$EVTRACE" record -o "$T/tr" -- "$TRACEE" crash 500
expect_grep "^evtrace: record: '$TRACEE' (pid [0-9]*) was killed by SIGSEGV (Segmentation fault)\(, core dumped\)\{0,1\}$" \
	"$T/err" "record says the command died of SIGSEGV"
expect_status 139 "$EVTRACE" count -- "$TRACEE" crash 500
expect_grep "^evtrace: count: '$TRACEE' (pid [0-9]*) was killed by SIGSEGV" "$T/err" "count says it too"
expect_grep "^ *500 *printk/tracee/" "$T/err" "what count counted before the crash"
# Killed inside a site's write (a string argument that points nowhere):
# the site is named, from the record it had begun; the events before are
# all there, and the record begun is not.
site=$(grep -n "a string from nowhere %s" "$TRACEE_SRC" | cut -d: -f1)
[ -n "$site" ] || fail "the crashing site's line not found"
expect_status 139 "$EVTRACE" record -o "$T/trs" -- "$TRACEE" crash_in_site 300
expect_grep "^evtrace: record: '$TRACEE' (pid [0-9]*) was killed by SIGSEGV (Segmentation fault)\(, core dumped\)\{0,1\}: thread [0-9]* was writing printk/tracee/tests/progs/tracee\.c/$site\$" \
	"$T/err" "record names the site the command died in"
"$EVTRACE" report "$T/trs" >"$T/reports"
expect_eq "$(grep -c ': before crash [0-9]*$' "$T/reports")" 300 "events before the crash in a site"
expect_eq "$(grep -c 'nowhere' "$T/reports" || true)" 0 "the record begun is not in the trace"
expect_status 139 "$EVTRACE" trace -o "$T/trt" -- "$TRACEE" crash_in_site 20
expect_grep "^evtrace: trace: '$TRACEE' (pid [0-9]*) was killed by SIGSEGV (Segmentation fault)\(, core dumped\)\{0,1\}: thread [0-9]* was writing printk/tracee/tests/progs/tracee\.c/$site\$" \
	"$T/err" "trace names it too"
expect_status 137 "$EVTRACE" record -o "$T/trk" -- sh -c 'kill -KILL $$'
expect_grep "^evtrace: record: 'sh' (pid [0-9]*) was killed by SIGKILL (Killed)$" "$T/err" "a SIGKILL said"
"$EVTRACE" report "$T/tr" >"$T/report"
expect_eq "$(grep -c ': before crash [0-9]*$' "$T/report")" 500 "events before the crash"
expect_grep "# 500 events, 0 lost" "$T/report" "summary"
bt_agrees "$T/tr"
"$EVTRACE" record -o "$T/tr2" -- sh -c "\"$TRACEE\" wait & sleep 0.3; kill -9 \$!" >/dev/null 2>&1
"$EVTRACE" report "$T/tr2" >"$T/report2"
n=$(grep -c ': alive [0-9]*$' "$T/report2")
[ "$n" -gt 5 ] || fail "only $n events from the killed program"
python3 - "$T/report2" <<'PY'
import re, sys
nums = [int(m.group(1)) for m in (re.search(r': alive (\d+)$', l) for l in open(sys.argv[1])) if m]
assert nums == list(range(len(nums))), "alive events missing or twice"
PY
[ -z "$(ls "$EVTRACE_RUNDIR" | grep '\.ctl$' || true)" ] || fail "control files left behind: $(ls "$EVTRACE_RUNDIR")"
