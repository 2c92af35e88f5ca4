# A flight recorder's triggers in an error storm keep their memory
# bounded and say what they could not keep up with: firings past
# --max-windows are counted, not kept; a trigger follows 65,536 open
# spans at most and counts the begins past them; the triggers' live
# stream reads a burst a poll-full at a time.  (Scale: not under the
# sanitizers; its bounds are counts and bytes, so beside other tests.)
. "$(dirname "$0")/lib.sh"

# A million error lines, each a firing: the recorder's peak memory stays
# small (it was over 100 MB, the firings and one poll's events held).
python3 - "$EVTRACE" "$SPANS" "$T/storm" >"$T/storm.out" <<'PY' || fail "the storm: $(cat "$T/storm.out")"
import resource, subprocess, sys
evtrace, spans, out = sys.argv[1:]
r = subprocess.run([evtrace, "record", "--overwrite", "--trigger", "printk/spans/**",
                    "-o", out, "--", spans, "storm", "1000000", "0"],
                   capture_output=True, text=True)
print(r.stderr)
assert r.returncode == 0, r.returncode
kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print("peak %d KiB" % kib)
assert kib < 40 * 1024, "the recorder took %d KiB" % kib
PY
# (The windows are taken after the storm went round their buffers: they
# say they miss the events that fired them.)
fired=$(sed -n 's/^evtrace: record: triggers fired \([0-9]*\) times, 5 windows written; \([0-9]*\) firings after --max-windows 5 wrote none\(; [1-5] windows\{0,1\} do\(es\)\{0,1\} not hold the event that fired \(it\|them\) (said above)\)\{0,1\}$/\1 \2/p' "$T/storm.out")
[ -n "$fired" ] || fail "the storm's summary: $(cat "$T/storm.out")"
set -- $fired
expect_eq "$2" "$(($1 - 5))" "firings past --max-windows, counted"
[ -d "$T/storm/window-5" ] && [ ! -e "$T/storm/window-6" ] || fail "not 5 windows: $(ls "$T/storm")"

# 70,000 spans begun and never ended: 65,536 followed, the rest counted.
# Where the triggers' stream lost some (a loaded machine), a span open on
# a thread that lost events has no end seen, and makes room: every begin
# is then followed, not followed or lost, and they add up.
"$EVTRACE" record --overwrite --stats --trigger 'span leak > 3600s' -o "$T/leak" -- "$SPANS" storm 70000 0 \
	>/dev/null 2>"$T/leak.err" || fail "record of a span leak: $(cat "$T/leak.err")"
unfollowed=$(sed -n 's/^evtrace: record: the triggers did not follow \([0-9]*\) span begins: 65536 spans of a trigger were open at once, which a trigger keeps at most$/\1/p' "$T/leak.err")
missed=$(sed -n "s/^evtrace: record: the triggers' stream lost \\([0-9]*\\) events\\{0,1\\} .*/\\1/p" "$T/leak.err")
followed=$(sed -n 's/^evtrace: record: triggers followed \([0-9]*\) spans: 0 complete, \([0-9]*\) with no end seen, \([0-9]*\) open at the end$/\1 \2 \3/p' "$T/leak.err")
[ -n "$followed" ] || fail "the spans followed not said: $(cat "$T/leak.err")"
[ -n "$unfollowed" ] || [ -n "$missed" ] || fail "the span begins past 65,536 not said: $(cat "$T/leak.err")"
set -- $followed
expect_eq "$(($1 + ${unfollowed:-0} + ${missed:-0}))" 70000 "span begins followed ($1), not followed ($unfollowed) and lost (${missed:-0})"
expect_eq "$(($2 + $3))" "$1" "followed spans with no end seen ($2) and open ($3)"
[ "$3" -le 65536 ] || fail "$3 spans open at once"
if [ "${missed:-0}" = 0 ]; then
	expect_eq "$unfollowed" $((70000 - 65536)) "span begins not followed, nothing lost"
	expect_eq "$2" 0 "no end unseen, nothing lost"
fi
