# evtrace convert --to chrome-json: a Trace Event file that a strict check
# of the format's schema accepts (check_chrome_json.py), holding the
# report's events in order with their messages, times and threads, named
# tracks per process and thread, decoded fields, and losses that add up;
# a large trace with drops, bad input with its message.
. "$(dirname "$0")/lib.sh"
CHROME="python3 $(dirname "$0")/check_chrome_json.py"

# Two processes (a fork and an exec) and three threads.
"$EVTRACE" record -o "$T/fork" -- "$TRACEE" fork >/dev/null 2>&1
"$EVTRACE" record -o "$T/thr" -- "$TRACEE" threads 3 200 >/dev/null 2>&1
for tr in fork thr; do
	"$EVTRACE" convert --to chrome-json -o "$T/$tr.json" "$T/$tr" 2>"$T/conv.err" ||
		{ cat "$T/conv.err" >&2; fail "convert $tr"; }
	"$EVTRACE" report "$T/$tr" >"$T/$tr.report"
	$CHROME "$T/$tr.json" "$T/$tr.report" >"$T/$tr.check" || fail "$tr.json"
done
expect_eq "$(cat "$T/fork.check")" "4 events, 0 lost" "fork.json"
expect_eq "$(cat "$T/thr.check")" "600 events, 0 lost" "thr.json"
expect_grep "^evtrace: convert: 600 events, 0 lost, 3 streams into $T/thr.json$" "$T/conv.err" "convert's summary"
python3 - "$T/fork.json" "$T/thr.json" <<'PY' || fail "tracks and args"
import json, sys
fork = json.load(open(sys.argv[1]))["traceEvents"]
procs = {e["pid"]: e["args"]["name"] for e in fork if e["name"] == "process_name"}
threads = {e["tid"]: e["args"]["name"] for e in fork if e["name"] == "thread_name"}
assert len(procs) == 2 and all(n.startswith("tracee (") for n in procs.values()), procs
assert all(n == "tracee-%d" % t for t, n in threads.items()), threads
first = [e for e in fork if e["ph"] == "i"][0]
assert first["args"]["fields"] == {"arg0": 1} and first["cat"] == "printk", first
assert first["ts"] == 0, first
thr = json.load(open(sys.argv[2]))["traceEvents"]
assert len([e for e in thr if e["name"] == "thread_name"]) == 3
PY

# Standard output, and the default directory ./trace.
(cd "$T" && cp -r thr trace && "$EVTRACE" convert --to chrome-json >"$T/stdout.json" 2>/dev/null) ||
	fail "convert to standard output from ./trace"
cmp -s "$T/stdout.json" "$T/thr.json" || fail "standard output differs from -o"

# report's filters cut it: the file holds what report shows with them.
tid=$(sed -n 's/.*tracee-\([0-9]*\) .*/\1/p' "$T/thr.report" | sort -u | tail -1)
"$EVTRACE" convert --to chrome-json --tid "$tid" --since +0 -o "$T/cut.json" "$T/thr" 2>"$T/conv.err" ||
	fail "convert with filters"
expect_grep "^evtrace: convert: 200 of 600 events, 0 of 0 lost, 3 streams into $T/cut.json$" "$T/conv.err" \
	"convert's summary with filters"
"$EVTRACE" report --tid "$tid" --since +0 "$T/thr" >"$T/cut.report"
$CHROME "$T/cut.json" "$T/cut.report" >"$T/cut.check" || fail "cut.json"
expect_eq "$(cat "$T/cut.check")" "200 events, 0 lost" "cut.json against report with the same filters"
expect_status 1 "$EVTRACE" convert --to chrome-json -e 'a//b' "$T/thr"
expect_grep "evtrace: convert: pattern 'a//b': empty path component at position 3" "$T/err" "a bad pattern"

# The largest trace of the tests: a burst that overflows, losses marked.
"$EVTRACE" record --packet-size 16384 --packets 2 -o "$T/lost" -- "$TRACEE" burst 200000 >/dev/null 2>&1
"$EVTRACE" convert --to chrome-json -o "$T/lost.json" "$T/lost" 2>/dev/null || fail "convert of the burst"
"$EVTRACE" report "$T/lost" >"$T/lost.report"
$CHROME "$T/lost.json" "$T/lost.report" >"$T/lost.check" || fail "lost.json"
read_n=$(sed -n 's/^# \([0-9]*\) events, \([0-9]*\) lost.*/\1/p' "$T/lost.report")
lost_n=$(sed -n 's/^# \([0-9]*\) events, \([0-9]*\) lost.*/\2/p' "$T/lost.report")
[ "$lost_n" -gt 0 ] || fail "the burst lost nothing"
expect_eq "$(cat "$T/lost.check")" "$read_n events, $lost_n lost" "the burst's markers"
expect_eq "$((read_n + lost_n))" 200000 "events converted + lost"

# Bad input: each with its message, no file left behind.
# A corrupt whole timestamp (a packet's first record) far before the
# first event: still valid JSON, the time negative ("ts":-1.5, never
# "ts":-1.-500).
# (a packet after the first that starts with a CPU record: the recorder
# may have written an open packet in pieces when the writer was slow, and
# a piece that continues one starts with no CPU record)
"$EVTRACE" record --packet-size 16384 -o "$T/back" -- "$TRACEE" threads 1 3000 >/dev/null 2>&1
python3 - "$(ls -S "$T"/back/stream_* | head -1)" <<'PY' || fail "no packet of the trace to corrupt"
import struct, sys
p = sys.argv[1]
b = bytearray(open(p, "rb").read())
off = struct.unpack_from("<Q", b, 32)[0] // 8	# past the first packet
# 88 bytes of packet header, then the CPU record: a word, then its time.
while off + 100 <= len(b) and struct.unpack_from("<I", b, off + 88)[0] != 0xffff07ff:
	size = struct.unpack_from("<Q", b, off + 32)[0] // 8
	assert size > 0, "a packet of no size"
	off += size
assert off + 100 <= len(b), "no packet after the first starts with a CPU record"
struct.pack_into("<Q", b, off + 92, 1000)
open(p, "wb").write(b)
PY
"$EVTRACE" convert --to chrome-json -o "$T/back.json" "$T/back" 2>/dev/null || fail "convert of a trace going back in time"
python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$T/back.json" || fail "convert wrote invalid JSON for a corrupt timestamp"
grep -q '"ts":-[0-9]*\.[0-9][0-9][0-9],' "$T/back.json" || fail "no negative time in back.json"
expect_status 2 "$EVTRACE" convert "$T/thr"
expect_grep "evtrace: convert: --to FORMAT is needed (chrome-json, perfetto, sqlite)" "$T/err" "no --to"
expect_status 1 "$EVTRACE" convert --to ctf "$T/thr"
expect_grep "evtrace: convert: --to ctf: not a format evtrace converts to (chrome-json, perfetto, sqlite)" "$T/err" "bad --to"
mkdir "$T/plain"
expect_status 1 "$EVTRACE" convert --to chrome-json -o "$T/plain.json" "$T/plain"
expect_grep "not an evtrace trace" "$T/err" "a plain directory"
[ ! -e "$T/plain.json" ] || fail "a failed convert left its file"
expect_status 1 "$EVTRACE" convert --to chrome-json -o "$T/nodir/x.json" "$T/thr"
expect_grep "evtrace: convert: $T/nodir/x.json: No such file or directory" "$T/err" "unwritable output"
# A full disk: a /dev/full of the test's own, which must survive it.
mknod -m 666 "$T/full" c 1 7 || fail "cannot make a full device"
expect_status 1 "$EVTRACE" convert --to chrome-json -o "$T/full" "$T/thr"
expect_grep "evtrace: convert: $T/full: No space left on device" "$T/err" "a full disk"
[ -c "$T/full" ] || fail "a failed convert removed the device it wrote to"
# Two traces: one timeline, every event of both.
expect_status 0 "$EVTRACE" convert --to chrome-json -o "$T/two.json" "$T/thr" "$T/fork"
expect_eq "$(python3 -c "import json,sys; print(sum(1 for e in json.load(open(sys.argv[1]))['traceEvents'] if e.get('ph') == 'i'))" "$T/two.json")" \
	"$(( $("$EVTRACE" report "$T/thr" | sed -n 's/^# \([0-9]*\) events.*/\1/p') + $("$EVTRACE" report "$T/fork" | sed -n 's/^# \([0-9]*\) events.*/\1/p') ))" \
	"two traces converted into one"
echo "ok: chrome-json of $read_n events and $lost_n lost checked against the report"
