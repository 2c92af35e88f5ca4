# evtrace report's options on traces with known content: -e, --pid,
# --tid, --since/--until (as printed, after the start, time of day,
# date; a range that selects nothing), --clock, --stats
# against exact numbers, --json read back by Python's json module, the
# default directory, and what a directory that is no trace gets.
. "$(dirname "$0")/lib.sh"

# Three threads of 100 numbered events each, and a fork + exec: two
# processes, four sites.
before=$(date +%s)
"$EVTRACE" record -o "$T/thr" -- "$TRACEE" threads 3 100 >/dev/null 2>"$T/rec.err" ||
	fail "record: $(cat "$T/rec.err")"
"$EVTRACE" record -o "$T/fork" -- "$TRACEE" fork >/dev/null 2>"$T/rec.err" ||
	fail "record: $(cat "$T/rec.err")"
after=$(($(date +%s) + 1))
"$EVTRACE" report "$T/thr" >"$T/all"
expect_grep "^# 300 events, 0 lost, 3 streams$" "$T/all" "the whole trace"

# --tid: one thread's 100 events, in order, nothing else.
tid=$(grep "seq t=1 i=0$" "$T/all" | sed 's/^ *[^ ]*-\([0-9]*\) .*/\1/')
"$EVTRACE" report --tid "$tid" "$T/thr" >"$T/tid"
grep -v '^#' "$T/tid" | sed 's/.*: seq //' >"$T/got"
seq 0 99 | sed 's/^/t=1 i=/' >"$T/want"
cmp -s "$T/got" "$T/want" || { diff "$T/want" "$T/got" | head >&2; fail "--tid $tid: not thread 1's 100 events in order"; }
expect_grep "^# 100 of 300 events, 0 of 0 lost, 3 streams$" "$T/tid" "--tid summary"
"$EVTRACE" report -t 1 "$T/thr" >"$T/none"
expect_grep "^# 0 of 300 events" "$T/none" "a thread not in the trace"

# --pid and -e on the fork trace: the parent's three events; the child's
# site alone; two patterns.
"$EVTRACE" report "$T/fork" >"$T/fall"
expect_grep "^# 4 events, 0 lost, 3 streams$" "$T/fall" "fork trace"
parent=$(grep "parent before fork" "$T/fall" | sed 's/^ *[^ ]*-\([0-9]*\) .*/\1/')
"$EVTRACE" report --pid "$parent" "$T/fork" | grep -v '^#' | sed 's/.*: //' >"$T/got"
printf 'parent before fork 1\nparent after fork 3\n' >"$T/want"
cmp -s "$T/got" "$T/want" || { diff "$T/want" "$T/got" >&2; fail "--pid $parent"; }
child=$(tracee_event "child after fork")
"$EVTRACE" report -e "$child" "$T/fork" >"$T/e"
expect_eq "$(grep -vc '^#' "$T/e")" 1 "-e one site"
expect_grep "child after fork 2$" "$T/e" "-e one site"
exec_line=$(tracee_event "exec child" | sed 's|.*/||')
"$EVTRACE" report -e "$child" -e "printk/*/*/*/tracee.c/$exec_line" "$T/fork" >"$T/e2"
expect_grep "^# 2 of 4 events" "$T/e2" "two -e"
# A pattern that names nothing is said, one after a broader one included
# (it is tried even when the broader one took the event).
expect_status 0 "$EVTRACE" report -e "$child" -e 'printk/tracee/typo' -e 'printk/**' -e "$child" "$T/fork"
expect_eq "$(grep -c 'matched no event' "$T/err")" 1 "one unmatched pattern said"
expect_grep "^evtrace: report: -e printk/tracee/typo matched no event (report --stats lists the trace's)$" \
	"$T/err" "the typo named"
expect_status 0 "$EVTRACE" report -e "$child" --tid 1 "$T/fork"
expect_grep "^evtrace: report: -e $child matched no event of those the other filters kept" "$T/err" \
	"a pattern cut out by another filter"
expect_status 0 "$EVTRACE" report "$T/fork"
[ ! -s "$T/err" ] || { cat "$T/err" >&2; fail "a complete trace, unfiltered: said something"; }

# format --trace: a printk site's format, from the trace alone.
expect_eq "$("$EVTRACE" format --trace "$T/thr" "$(tracee_event "seq t=")")" '"seq t=%d i=%d\n"' \
	"format --trace of a printk site"

# --clock: relative starts at 0; realtime falls within the recording;
# monotonic is the default.
"$EVTRACE" report --clock relative "$T/thr" >"$T/rel"
head -1 "$T/rel" | grep -q '\] 0\.000000000: ' || fail "relative time does not start at 0: $(head -1 "$T/rel")"
"$EVTRACE" report --clock realtime "$T/thr" >"$T/real"
first=$(head -1 "$T/real" | sed 's/.*\] \([^ ]*\): .*/\1/')
case $first in
[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9].[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]) ;;
*) fail "realtime stamp '$first'";;
esac
s=$(date -d "${first%.*}" +%s)
[ "$s" -ge "$before" ] && [ "$s" -le "$after" ] || fail "realtime $first is not when it was recorded ($before..$after)"
"$EVTRACE" report --clock monotonic "$T/thr" | cmp -s - "$T/all" || fail "--clock monotonic differs from the default"

# --since/--until: the same events as the times printed say, whichever
# way the time is written.  The cut is the first event from the 101st on
# whose relative and wall-clock times both differ from its neighbours'
# (wall-clock stamps are babeltrace2's, from a double: 256 ns apart).
grep -v '^#' "$T/rel" | sed 's/.*\] \([0-9.]*\): .*/\1/' >"$T/rel.t"
grep -v '^#' "$T/real" | sed 's/.*\] \([^ ]*\): .*/\1/' >"$T/real.t"
k=$(paste -d' ' "$T/rel.t" "$T/real.t" |
	awk 'NR > 101 && $1 != r && $2 != w && r != rr && w != ww { print NR - 1; exit }
	     { rr = r; ww = w; r = $1; w = $2 }')
[ -n "$k" ] && [ "$k" -le 150 ] || fail "no cut between events 101 and 150: ${k:-none}"
cut_rel=$(grep -v '^#' "$T/rel" | sed -n "${k}s/.*\] \([0-9.]*\): .*/\1/p")
cut_real=$(grep -v '^#' "$T/real" | sed -n "${k}s/.*\] \([^ ]*\): .*/\1/p")
cut_mono=$(grep -v '^#' "$T/all" | sed -n "${k}s/.*\] \([0-9.]*\): .*/\1/p")
cut_ms=$(echo "$cut_rel * 1000" | bc)
want=$((300 - k + 1))
# A time as report prints it on its clock (a bare number: the default
# clock's, or --clock relative's), after the start with a sign or a unit,
# a time of day, a date and time.
for since in "$cut_mono" "--clock relative $cut_rel" "+$cut_rel" "${cut_rel}s" "${cut_ms}ms" \
	     "${cut_real#*T}" "$cut_real" "$(echo "$cut_real" | tr T ' ')"; do
	case $since in
	--clock*) set -- --clock relative --since "${since##* }";;
	*) set -- --since "$since";;
	esac
	"$EVTRACE" report "$@" "$T/thr" >"$T/since" 2>"$T/since.err"
	expect_grep "^# $want of 300 events" "$T/since" "--since '$since'"
	first_seq=$(grep -v '^#' "$T/since" | head -1 | sed 's/.*: //')
	expect_eq "$first_seq" "$(grep -v '^#' "$T/all" | sed -n "${k}s/.*: //p")" "--since '$since' starts at event $k"
	[ ! -s "$T/since.err" ] || fail "--since '$since' said: $(cat "$T/since.err")"
done
"$EVTRACE" report --until "+$cut_rel" "$T/thr" >"$T/until"
expect_grep "^# $((300 - want + 1)) of 300 events" "$T/until" "--until (the cut itself included)"
"$EVTRACE" report --until "$cut_mono" "$T/thr" >"$T/until2"
cmp -s "$T/until" "$T/until2" || fail "--until as printed and as after the start differ"
# A range that selects nothing says so, with the trace's first and last
# times as report prints them; a bare number before the trace (seconds
# after its start, as evtrace read it before) cuts nothing and says
# how to write that.
first_mono=$(grep -v '^#' "$T/all" | head -1 | sed 's/.*\] \([0-9.]*\): .*/\1/')
last_mono=$(grep -v '^#' "$T/all" | tail -1 | sed 's/.*\] \([0-9.]*\): .*/\1/')
"$EVTRACE" report --since +100000 --until +100001 "$T/thr" >"$T/none" 2>"$T/none.err"
expect_grep "^# 0 of 300 events" "$T/none" "a range past the trace"
expect_grep "^evtrace: report: --since +100000 --until +100001 selects nothing: the trace runs from $first_mono to $last_mono (monotonic)$" \
	"$T/none.err" "a range that selects nothing, said"
"$EVTRACE" report --clock relative --until 0.000000001 --since 0.000000001 "$T/thr" >/dev/null 2>"$T/none.err"
last_rel=$(tail -1 "$T/rel.t")
expect_grep "^evtrace: report: --since 0.000000001 --until 0.000000001 selects nothing: the trace runs from 0.000000000 to $last_rel (relative)$" \
	"$T/none.err" "a range that selects nothing, on the relative clock"
"$EVTRACE" report --since 1.5 "$T/thr" >"$T/old" 2>"$T/old.err"
expect_grep "^# 300 of 300 events" "$T/old" "--since 1.5 on CLOCK_MONOTONIC cuts nothing"
expect_grep "^evtrace: report: --since 1.5 is before the trace's first event ($first_mono, CLOCK_MONOTONIC seconds as report prints them): it cuts nothing$" \
	"$T/old.err" "a bare number before the trace, said"
expect_grep "^evtrace: report: 1.5 seconds after the trace's first event are written +1.5 (or 1.5s)$" \
	"$T/old.err" "how to write it after the start"
"$EVTRACE" report --since +0 --until "+$cut_rel" -t "$tid" "$T/thr" >"$T/both"
want=$(grep -v '^#' "$T/rel" | awk -v c="$cut_rel" -v tid="-$tid " '{ t = $0; sub(/.*\] /, "", t); sub(/:.*/, "", t); if (index($0, tid) && t + 0 <= c + 0) n++ } END { print n + 0 }')
expect_grep "^# $want of 300 events" "$T/both" "--since --until -t together"
expect_eq "$(grep -vc '^#' "$T/both")" "$want" "--since --until -t lines"

# --stats: exact counts per event and per thread, lost per thread.
"$EVTRACE" report --stats "$T/fork" >"$T/stats"
for site in "parent before fork" "child after fork" "parent after fork" "exec child"; do
	grep -q "^  $(tracee_event "$site")  *1 " "$T/stats" ||
		{ cat "$T/stats" >&2; fail "--stats: $site not counted once"; }
done
expect_eq "$(grep -c '^  [^ ]*-[0-9]' "$T/stats")" 2 "--stats: one line per thread"
grep -q "^  tracee-$parent  *$parent  *2  *0$" "$T/stats" || { cat "$T/stats" >&2; fail "--stats: the parent's events"; }
"$EVTRACE" record --packet-size 16384 --packets 2 -o "$T/lost" -- "$TRACEE" burst 200000 >/dev/null 2>&1
"$EVTRACE" report "$T/lost" | tail -1 >"$T/sum"
read_n=$(sed -n 's/^# \([0-9]*\) events, \([0-9]*\) lost.*/\1/p' "$T/sum")
lost_n=$(sed -n 's/^# \([0-9]*\) events, \([0-9]*\) lost.*/\2/p' "$T/sum")
[ "$lost_n" -gt 0 ] || fail "the burst lost nothing: $(cat "$T/sum")"
expect_eq "$((read_n + lost_n))" 200000 "events read + lost"
"$EVTRACE" report --stats "$T/lost" >"$T/lstats"
grep -q "^  printk/tracee/.*  *$read_n " "$T/lstats" || { cat "$T/lstats" >&2; fail "--stats: the burst's count"; }
grep -q "^  tracee-[0-9]*  *[0-9]*  *$read_n  *$lost_n$" "$T/lstats" || { cat "$T/lstats" >&2; fail "--stats: the thread's lost"; }
# A trace without a single event or thread: --stats says so (it once
# handed qsort a NULL array, which UBSan stops on).
"$EVTRACE" record -e nosuch/event -o "$T/noevent" -- "$TRACEE" threads 1 3 >/dev/null 2>"$T/none.err" || fail "record of no event: $(cat "$T/none.err")"
"$EVTRACE" report --stats "$T/noevent" >"$T/nstats" || fail "--stats of a trace without events: $(cat "$T/nstats")"
expect_eq "$(grep -c '^  ' "$T/nstats" || true)" 0 "--stats lines of a trace without events"

# -F: events whose field passes; with -e, either keeps an event.
"$EVTRACE" report -F 'printk/tracee if arg1 < 10' "$T/thr" >"$T/f1" 2>"$T/f1.err"
expect_grep "^# 30 of 300 events" "$T/f1" "-F arg1 < 10: ten of each thread"
grep -v '^#' "$T/f1" | grep -vq ' i=[0-9]$' && fail "-F kept an event whose arg1 is 10 or more: $(grep -v ' i=[0-9]$' "$T/f1" | head -3)"
"$EVTRACE" report -F 'printk/tracee if arg0 == 2' -F 'printk/tracee if arg1 >= 99' "$T/thr" >"$T/f2"
expect_grep "^# 102 of 300 events" "$T/f2" "two -F: thread 2's 100 and the others' last"
"$EVTRACE" report -e 'printk/nosuch' -F 'printk/tracee if arg1 == 5' "$T/thr" >"$T/f3" 2>/dev/null
expect_grep "^# 3 of 300 events" "$T/f3" "-e and -F together"
"$EVTRACE" record -q -o "$T/typedf" -e 'typed/*' -- "$TYPED" rows >/dev/null 2>&1
"$EVTRACE" report -F 'typed/all if text == "from the library"' -F 'typed/all if color == blue' "$T/typedf" >"$T/f4"
expect_eq "$(grep -v '^#' "$T/f4" | sed 's/.* u32=\([0-9]*\) .* color=\([a-z0-9]*\) .*/\1 \2/' | tr '\n' ' ')" "4294967295 blue 42 green " \
	"-F on a quoted string and an enum's label"
"$EVTRACE" report -F 'printk/tracee if nosuch == 1' "$T/thr" >/dev/null 2>"$T/f5.err"
expect_grep "^evtrace: report: --filter 'printk/tracee if nosuch == 1': the events printk/tracee names have no field nosuch" "$T/f5.err" "a field the events lack"
"$EVTRACE" report -F 'printk/tracee if arg1 > 1000' "$T/thr" >/dev/null 2>"$T/f6.err"
expect_grep "^evtrace: report: --filter 'printk/tracee if arg1 > 1000': no event passed it$" "$T/f6.err" "a filter nothing passed"
expect_status 1 "$EVTRACE" report -F 'printk/tracee' "$T/thr"
expect_grep "^evtrace: report: --filter 'printk/tracee': expected 'PATTERN if FIELD OP VALUE'$" "$T/err" "a filter without a test"
expect_status 1 "$EVTRACE" report -F 'printk/tracee if arg0 < blue' "$T/thr"
expect_grep "^evtrace: report: --filter 'printk/tracee if arg0 < blue': at position 23: a string compares with == and != only$" "$T/err" "a string with <"
"$EVTRACE" convert --to chrome-json -F 'printk/tracee if arg1 < 10' -o "$T/f.json" "$T/thr" 2>"$T/fc.err" ||
	fail "convert -F: $(cat "$T/fc.err")"
expect_grep "^evtrace: convert: 30 of 300 events" "$T/fc.err" "convert -F"

# --json: every line parses, values decoded, times agree with the text.
"$EVTRACE" report --json "$T/fork" >"$T/json" 2>"$T/json.err"
expect_grep "^# 4 events, 0 lost, 3 streams$" "$T/json.err" "--json summary on stderr"
"$EVTRACE" record -o "$T/typed" -e 'typed/*' -- "$TYPED" rows >/dev/null 2>&1
"$EVTRACE" report --json "$T/typed" >"$T/tjson" 2>/dev/null
"$EVTRACE" record -o "$T/types" -- "$TRACEE" types >/dev/null 2>&1
"$EVTRACE" report --json "$T/types" >"$T/pjson" 2>/dev/null
python3 - "$T/json" "$T/tjson" "$T/pjson" "$T/fall" <<'PY' || fail "--json"
import json, sys
fork = [json.loads(l) for l in open(sys.argv[1])]
assert [e["message"] for e in fork] == ["parent before fork 1", "child after fork 2",
    "exec child 4", "parent after fork 3"], fork
assert fork[0]["fields"] == {"arg0": 1}, fork[0]
text_times = [l.split("] ")[1].split(":")[0] for l in open(sys.argv[4]) if not l.startswith("#")]
assert ["%d.%09d" % divmod(e["time_ns"], 10**9) for e in fork] == text_times
assert fork[1]["pid"] != fork[0]["pid"] and fork[3]["pid"] == fork[0]["pid"]
typed = [json.loads(l) for l in open(sys.argv[2])]
assert len(typed) == 4, typed
t = typed[1]["fields"]
assert (t["u8"], t["i8"], t["u64"], t["i64"]) == (255, -128, 2**64 - 1, -2**63), t
assert t["color"] == "blue" and t["flag"] is True and t["tag"] == "abcdefgh", t
assert t["trio"] == [-2**31, 0, 2**31 - 1] and t["seq"] == [1, 2, 65535], t
assert t["real"] == -1.5e-300 and t["text"] == "m" * 255, t
assert typed[2]["fields"]["color"] == 7 and typed[2]["fields"]["seq"][:3] == [0, 1, 2]
assert typed[3]["fields"]["text"] == "from the library"
p = {e["message"].split()[0]: e for e in (json.loads(l) for l in open(sys.argv[3]))}
assert p["ints"]["fields"]["arg0"] == -128, p["ints"]
assert p["misc"]["fields"]["arg0"] == ord("Z") and p["misc"]["fields"]["arg3"] == 3.14159, p["misc"]
assert p["strings"]["fields"]["arg0"] == "", p["strings"]
PY

# The default directory is ./trace; what is no trace says so.
(cd "$T" && cp -r thr trace && "$EVTRACE" report >"$T/default") || fail "report without DIR"
cmp -s "$T/default" "$T/all" || fail "report without DIR is not ./trace"
(cd / && "$EVTRACE" report) 2>"$T/err" && fail "report without ./trace succeeded"
expect_grep "evtrace: report: trace: no such trace directory" "$T/err" "no ./trace"
mkdir "$T/plain"
"$EVTRACE" report "$T/plain" 2>"$T/err" && fail "a plain directory was read"
expect_grep "evtrace: report: $T/plain: not an evtrace trace (no evtrace/index in it)" "$T/err" "plain directory"
"$EVTRACE" report /etc/passwd 2>"$T/err" && fail "a file was read"
expect_grep "/etc/passwd: not a directory" "$T/err" "a file"

# Bad options, each with its message.
expect_status 1 "$EVTRACE" report --since 12:xx "$T/thr"
expect_grep "evtrace: report: --since '12:xx': not a time" "$T/err" "bad --since"
expect_status 1 "$EVTRACE" report --until 1.1234567891 "$T/thr"
expect_grep "not a time" "$T/err" "ten fraction digits"
for bad in -1 5xs 1.5m +ms 1e3 99999999999999999999 "+ 1"; do
	expect_status 1 "$EVTRACE" report --since "$bad" "$T/thr"
	expect_grep "^evtrace: report: --since '$bad': not a time (a time as report prints it, like" "$T/err" "--since '$bad'"
done
expect_status 1 "$EVTRACE" report --clock tai "$T/thr"
expect_grep "evtrace: report: --clock tai: not a clock (monotonic, realtime or relative)" "$T/err" "bad --clock"
expect_status 1 "$EVTRACE" report --stats --json "$T/thr"
expect_grep "do not go together" "$T/err" "--stats --json"
expect_status 1 "$EVTRACE" report -e 'printk//x' "$T/thr"
expect_grep "evtrace: report: pattern 'printk//x': empty path component at position 8" "$T/err" "bad -e"
expect_status 1 "$EVTRACE" report -p x "$T/thr"
expect_grep "'x': not a process id" "$T/err" "bad --pid"
expect_status 2 "$EVTRACE" report --bogus
expect_grep "^evtrace: report: unrecognized option '--bogus'" "$T/err" "getopt's message has the prefix"
# Two traces: merged on real time, every event of both, in time order.
expect_status 0 "$EVTRACE" report "$T/thr" "$T/fork"
expect_eq "$(sed -n 's/^# \([0-9]*\) events.*/\1/p' "$T/out")" \
	"$(( $("$EVTRACE" report "$T/thr" | sed -n 's/^# \([0-9]*\) events.*/\1/p') + $("$EVTRACE" report "$T/fork" | sed -n 's/^# \([0-9]*\) events.*/\1/p') ))" \
	"two traces reported as one"
grep -v '^#' "$T/out" | awk '{ print $3 }' | sort -c ||
	fail "two traces' events not in time order"
echo "ok: report -e, --pid, --tid, --since/--until, --clock, --stats, --json"
