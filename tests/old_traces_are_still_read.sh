# A trace of evtrace 0.1.1 (trace index 1: a 12-byte record header with
# the CPU in every record) reads as that evtrace read it: report, the
# babeltrace2 sink, and a conversion; the new writer's are compact.
. "$(dirname "$0")/lib.sh"
old="$(dirname "$0")/data/trace-index-1"
expect_eq "$(head -1 "$old/evtrace/index")" "evtrace-index 1" "the fixture's index version"
"$EVTRACE" report "$old" >"$T/report" || fail "report of the old trace: $(cat "$T/report")"
cmp "$T/report" "$old.report" || fail "the old trace reads otherwise than 0.1.1 read it"
expect_grep '\[001\] .*seq t=1 i=2$' "$T/report" "a CPU from the old records"
bt_agrees "$old"
expect_grep 'cpu_id = 1 }' "$T/bt.agree" "babeltrace2 sees the old records' CPU"
# (babeltrace2, not sanitized, cannot load a sanitized plugin)
if ! ldd "$EVTRACE" | grep -qE 'libasan|libtsan'; then
	babeltrace2 --plugin-path="$(dirname "$BT2_PLUGIN")" "$old" -c sink.evtrace.text >"$T/sink" 2>&1
	"$EVTRACE" report --clock realtime "$old" | cmp - "$T/sink" ||
		fail "the babeltrace2 sink reads the old trace otherwise than report"
fi
"$EVTRACE" convert --to chrome-json -o "$T/old.json" "$old" >/dev/null 2>&1 ||
	fail "convert of the old trace"
python3 "$(dirname "$0")/check_chrome_json.py" "$T/old.json" "$T/report" ||
	fail "the old trace's conversion"
# query reads it too (no cache: the fixture is in the source tree).
expect_eq "$("$EVTRACE" query --no-cache --csv "$old" 'SELECT count(*), count(function) FROM event JOIN site ON site.id = site_id' | tail -1 | tr -d '\r')" \
	"$(sed -n 's/^# \([0-9]*\) events.*/\1/p' "$T/report"),0" "query of the old trace: every event, no function known"
# And what is written now is compact: 16 bytes a record for this site.
"$EVTRACE" record -q -o "$T/new" -- "$TRACEE" threads 2 3 >/dev/null 2>&1
expect_eq "$(head -1 "$T/new/evtrace/index")" "evtrace-index 4" "a new trace's index version"
bt_agrees "$T/new"
