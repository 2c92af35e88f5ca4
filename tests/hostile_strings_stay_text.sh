# What a traced program chose (its messages, its thread's name) reaches
# whoever reads its trace as text, in every output: no terminal escape
# (ESC, OSC 0 and 52, CSI as C1 in UTF-8 or as a lone byte) reaches a
# terminal, no newline forges a line, JSON stays JSON, protobuf strings
# stay UTF-8, and CSV gives no spreadsheet a formula.
. "$(dirname "$0")/lib.sh"
"$EVTRACE" record -o "$T/tr" -- "$TRACEE" hostile-text >/dev/null 2>"$T/rec.err" || fail "record: $(cat "$T/rec.err")"
# No ESC, BEL, CR, lone byte 0x9b or C1 U+009B in what was printed.
# (CSV ends its lines with CR LF.)
raw() {	# raw FILE WHAT: fails when FILE holds a byte a terminal acts on
	python3 - "$1" <<'PY' || fail "$2: a byte a terminal acts on: $(grep -c . "$1") lines"
import sys
b = open(sys.argv[1], 'rb').read()
if sys.argv[1].endswith('csv'):
    b = b.replace(b'\r\n', b'\n')
bad = [c for c in (b'\x1b', b'\x07', b'\r', b'\xc2\x9b') if c in b]
try:
    b.decode('utf-8')
except UnicodeDecodeError:
    bad.append('not UTF-8')
sys.exit(1 if bad else 0)
PY
}

"$EVTRACE" report "$T/tr" >"$T/report" 2>&1
raw "$T/report" report
msg() { sed -n "s/^.*: printk\/tracee\/[^:]*: //p" "$1"; }
msg "$T/report" >"$T/msgs"
cat >"$T/want" <<'WANT'
title \x1b]0;pwned\x07
clip \x1b]52;c;cm0gLXJmIH4=\x07
csi \u009b31m and \x9b32m
forged x\n          tracee-1       [000] 1.000000000: printk/x: forged
cr abc\rdef
=HYPERLINK("http://example.invalid") 1
WANT
diff -u "$T/want" "$T/msgs" || fail "report's messages"
expect_eq "$(grep -c '^ *ev?\[31mil?-[0-9]* ' "$T/report")" 6 "the thread's name, a '?' for each control character"
expect_eq "$(grep -c 'printk/' "$T/report")" 6 "one line an event, none forged"

# The same from the babeltrace2 plugin, byte for byte (a sanitized
# plugin cannot load into Debian's babeltrace2: the plain build checks it).
if [ -n "$(sanitizer)" ]; then
	echo "note: the babeltrace2 plugin is not checked in a sanitized build"
else
	babeltrace2 --plugin-path="$(dirname "$BT2_PLUGIN")" "$T/tr" -c sink.evtrace.text >"$T/bt2" 2>"$T/bt2.err" ||
		fail "babeltrace2's evtrace sink: $(cat "$T/bt2.err")"
	"$EVTRACE" report --clock realtime "$T/tr" >"$T/report.rt" 2>&1
	diff -u "$T/report.rt" "$T/bt2" || fail "the babeltrace2 plugin escapes otherwise"
fi

# report --json and chrome's JSON: valid, every message whole.
"$EVTRACE" report --json "$T/tr" >"$T/json"
raw "$T/json" "report --json"
python3 - "$T/json" <<'PY' || fail "report --json"
import json, sys
msgs = [json.loads(l).get('message') for l in open(sys.argv[1]) if l.strip()]
msgs = [m for m in msgs if m]
assert len(msgs) == 6, msgs
assert msgs[0] == 'title \x1b]0;pwned\x07', msgs[0]
assert msgs[2].startswith('csi \x9b31m and \ufffd'), ascii(msgs[2])
assert '\n' in msgs[3], msgs[3]
PY
"$EVTRACE" convert --to chrome-json -o "$T/chrome.json" "$T/tr" 2>/dev/null || fail "convert to chrome-json"
raw "$T/chrome.json" "chrome-json"
python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$T/chrome.json" || fail "chrome-json is not JSON"
# Perfetto's strings must be UTF-8: protoc refuses a trace that breaks it.
if command -v protoc >/dev/null; then
	data=$(cd "$(dirname "$0")/data" && pwd)
	"$EVTRACE" convert --to perfetto -o "$T/tr.pftrace" "$T/tr" 2>/dev/null || fail "convert to perfetto"
	protoc --decode=perfetto.protos.Trace -I "$data" "$data/perfetto_trace.proto" <"$T/tr.pftrace" >"$T/pf.txt" 2>"$T/pf.err" ||
		fail "protoc could not decode the Perfetto trace: $(cat "$T/pf.err")"
	expect_grep 'csi \\302\\23331m and \\357\\277\\27532m' "$T/pf.txt" "the lone byte as U+FFFD in Perfetto's string"
else
	fail "protoc is not installed (make deps installs protobuf-compiler)"
fi

# query: the table escapes as report does; CSV quotes, keeps lines, and
# gives a formula a ' first (numbers stay numbers); JSON is JSON.
"$EVTRACE" query --no-cache "$T/tr" "SELECT message FROM event WHERE message LIKE 'title%' OR message LIKE 'csi%' ORDER BY id" >"$T/q"
raw "$T/q" "query's table"
expect_eq "$(tail -n +3 "$T/q" | tr '\n' '|')" 'title \x1b]0;pwned\x07|csi \u009b31m and \x9b32m|' "query's table"
"$EVTRACE" query --no-cache --csv "$T/tr" "SELECT message FROM event WHERE message LIKE '=%'
	UNION ALL SELECT '+cmd|'' /C calc''!A0' UNION ALL SELECT '@SUM(1)' UNION ALL SELECT -5 UNION ALL SELECT '-x'" >"$T/csv"
raw "$T/csv" "query --csv"
printf '%s\r\n' message '"'"'"'=HYPERLINK(""http://example.invalid"") 1"' '"'"'"'+cmd|'"'"' /C calc'"'"'!A0"' '"'"'"'@SUM(1)"' -5 '"'"'"'-x"' |
	sed '1s/\r$//' >"$T/csv.want"
cmp -s "$T/csv.want" "$T/csv" || { diff -u "$T/csv.want" "$T/csv" | cat -A >&2; fail "query --csv"; }
"$EVTRACE" query --no-cache --json "$T/tr" "SELECT message FROM event ORDER BY id" >"$T/qj"
raw "$T/qj" "query --json"
python3 -c 'import json, sys; assert len([json.loads(l) for l in open(sys.argv[1])]) == 6' "$T/qj" || fail "query --json"

# stream, live: the same lines as report.
"$TRACEE" hostile-text wait >"$T/w.out" 2>&1 &
w=$!
BG_PIDS="$BG_PIDS $w"
wait_for "the program to start" "grep -q ready '$T/w.out'"
"$EVTRACE" stream -p "$w" -e printk >"$T/stream" 2>"$T/stream.err" &
sp=$!
BG_PIDS="$BG_PIDS $sp"
TITLE=$(tracee_event "title %s")
wait_for "the stream to switch the program's events on" \
	"'$EVTRACE' ls -p $w '$TITLE' 2>/dev/null | grep -q '\\['"
kill -USR1 "$w"
wait "$w" || fail "the program"
# (a stream of one process ends with it, its events all printed)
wait "$sp" || fail "stream: $(cat "$T/stream.err")"
raw "$T/stream" stream
msg "$T/stream" >"$T/smsgs"
diff -u "$T/want" "$T/smsgs" || fail "stream's messages"
