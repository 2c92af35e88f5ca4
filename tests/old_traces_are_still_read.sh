# Traces of earlier releases read as those releases read them: evtrace
# 0.1.1's (trace index 1: a 12-byte record header with the CPU in every
# record) and 0.1.10's (index 6: printk, typed and stable events, spans,
# async spans, counters and a kernel tracepoint, of three processes).
# report, the babeltrace2 sink, a conversion and query; an index of a
# later version is refused, saying so; the new writer's are compact.
. "$(dirname "$0")/lib.sh"
data="$(dirname "$0")/data"
# old_trace DIR INDEX_VERSION: DIR reads as DIR.report says (what its
# release's report printed).
old_trace() {
	old=$1
	expect_eq "$(head -1 "$old/evtrace/index")" "evtrace-index $2" "$old's index version"
	"$EVTRACE" report "$old" >"$T/report" || fail "report of $old: $(cat "$T/report")"
	cmp "$T/report" "$old.report" || { diff "$old.report" "$T/report" >&2;
		fail "$old reads otherwise than its release read it"; }
	bt_agrees "$old"
	# (babeltrace2, not sanitized, cannot load a sanitized plugin)
	if [ -z "$(sanitizer)" ]; then
		babeltrace2 --plugin-path="$(dirname "$BT2_PLUGIN")" "$old" -c sink.evtrace.text >"$T/sink" 2>&1
		"$EVTRACE" report --clock realtime "$old" | cmp - "$T/sink" ||
			fail "the babeltrace2 sink reads $old otherwise than report"
	fi
	"$EVTRACE" convert --to chrome-json -o "$T/old.json" "$old" >/dev/null 2>&1 ||
		fail "convert of $old"
	python3 "$(dirname "$0")/check_chrome_json.py" "$T/old.json" "$T/report" ||
		fail "the conversion of $old"
}

old_trace "$data/trace-index-1" 1
expect_grep '\[001\] .*seq t=1 i=2$' "$T/report" "a CPU from the old records"
expect_grep 'cpu_id = 1 }' "$T/bt.agree" "babeltrace2 sees the old records' CPU"
# query reads it too (no cache: the fixture is in the source tree).
expect_eq "$("$EVTRACE" query --no-cache --csv "$data/trace-index-1" 'SELECT count(*), count(function) FROM event JOIN site ON site.id = site_id' | tail -1 | tr -d '\r')" \
	"$(sed -n 's/^# \([0-9]*\) events.*/\1/p' "$T/report"),0" "query of the old trace: every event, no function known"

old_trace "$data/trace-0.1.10" 6
for kind in 'typed/all' 'stable/typed_small' 'span/work: begin' 'async/job: begin' \
	'counter/load: 0.5' 'kernel/sched/sched_process_exec: filename=' 'printk/tracee/'; do
	expect_grep "$kind" "$T/report" "0.1.10's trace: $kind"
done
"$EVTRACE" query --no-cache --csv "$data/trace-0.1.10" \
	"SELECT name, count(*) FROM slice GROUP BY name ORDER BY name" >"$T/slices" 2>&1 ||
	fail "query of 0.1.10's trace: $(cat "$T/slices")"
expect_eq "$(tr -d '\r' <"$T/slices" | paste -sd' ')" "name,count(*) job,2 step,4 tail,2 work,2" \
	"0.1.10's spans paired into slices by query"

# An index of a later minor of the newest version this evtrace reads
# ("6.3") may hold lines it does not know: skipped, the rest read as
# before.  In an index of its own minor, such a line is an error.
cp -r "$data/trace-0.1.10" "$T/minor"
sed -i '1s/.*/evtrace-index 6.3/' "$T/minor/evtrace/index"
echo 'a-later-line 1 "two"' >>"$T/minor/evtrace/index"
"$EVTRACE" report "$T/minor" >"$T/minor.report" 2>"$T/minor.err" || fail "report of a later minor: $(cat "$T/minor.err")"
cmp "$T/minor.report" "$data/trace-0.1.10.report" || fail "a later minor's index reads otherwise"
sed -i '1s/.*/evtrace-index 6/' "$T/minor/evtrace/index"
expect_status 1 "$EVTRACE" report "$T/minor"
expect_grep "index:[0-9]*: unknown line" "$T/err" "a line its own minor does not have"
for bad in 6. 6.x 06 '+6' 0 '6 .1'; do
	sed -i "1s/.*/evtrace-index $bad/" "$T/minor/evtrace/index"
	expect_status 1 "$EVTRACE" report "$T/minor"
	expect_grep "not an evtrace-index 1 to 6 file" "$T/err" "'evtrace-index $bad'"
done

# An index of a later version: what to do, not a parse error.
cp -r "$data/trace-0.1.10" "$T/later"
sed -i '1s/.*/evtrace-index 99/' "$T/later/evtrace/index"
expect_status 1 "$EVTRACE" report "$T/later"
expect_grep "evtrace-index 99: written by an evtrace later than this one ([0-9.]*, which reads evtrace-index 1 to 6): read it with a later evtrace" \
	"$T/err" "a later index version"

# And what is written now is compact: 16 bytes a record for this site.
"$EVTRACE" record -q -o "$T/new" -- "$TRACEE" threads 2 3 >/dev/null 2>&1
expect_eq "$(head -1 "$T/new/evtrace/index")" "evtrace-index 4" "a new trace's index version"
bt_agrees "$T/new"
echo "ok: traces of 0.1.1 and 0.1.10 read as they did"
