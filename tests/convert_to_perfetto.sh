# convert --to perfetto writes Perfetto's protobuf trace: protoc decodes
# it against the schema of its published field numbers (data/
# perfetto_trace.proto) with exactly the slices, counters and instants
# written: spans as begin/end pairs on their thread's track, async spans
# on a track each, counters on counter tracks, typed fields as typed
# debug annotations, printk sites with their source location, losses as
# slices whose counts add up to report's; filters cut it.  Every export
# keeps the importer's rules on interned data (perfetto_decoded.py checks
# them: doc/perfetto.md); span names and their arguments' names are
# interned; each thread writes a sequence of its own, whose times are
# deltas on its own clock, as query's; a loss is data loss on the
# thread's sequence, named by the trace's stats.
. "$(dirname "$0")/lib.sh"
command -v protoc >/dev/null || fail "protoc is not installed (make deps installs protobuf-compiler)"
data=$(cd "$(dirname "$0")/data" && pwd)
decode() {	# FILE: FILE.txt as protoc decodes it, FILE.json its events
	protoc --decode=perfetto.protos.Trace -I "$data" "$data/perfetto_trace.proto" <"$1" >"$1.txt" ||
		fail "protoc could not decode $1"
	python3 "$(dirname "$0")/perfetto_decoded.py" "$1.txt" >"$1.json" 2>"$1.why" ||
		fail "$1 breaks an importer's rule: $(cat "$1.why")"
}
count() { grep -c -- "$1" "$2" || true; }
events() {	# FILE.json CONDITION: how many track events e meet the Python CONDITION
	python3 -c "import json, sys; print(sum(1 for e in json.load(open(sys.argv[1]))['events'] if $2))" "$1"
}

"$EVTRACE" record -e 'span/**' -e 'async/**' -e 'counter/**' -o "$T/sp" -- "$SPANS" 3 >/dev/null 2>&1 ||
	fail "record spans"
"$EVTRACE" convert --to perfetto -o "$T/sp.pftrace" "$T/sp" 2>"$T/conv.err" || { cat "$T/conv.err" >&2; fail "convert"; }
expect_grep "^evtrace: convert: 45 events, 0 lost, 3 streams into $T/sp.pftrace$" "$T/conv.err" "convert's summary"
decode "$T/sp.pftrace"
t=$T/sp.pftrace.txt
# 3 threads x (work, 2 steps, tail) + 3 jobs: begun and ended each.
expect_eq "$(count 'type: TYPE_SLICE_BEGIN' "$t")" 15 "slice begins"
expect_eq "$(count 'type: TYPE_SLICE_END' "$t")" 15 "slice ends"
expect_eq "$(count 'type: TYPE_COUNTER' "$t")" 15 "counter values"
expect_eq "$(count 'type: TYPE_INSTANT' "$t")" 0 "no span shown as an instant"
j=$T/sp.pftrace.json
expect_eq "$(events "$j" "e['name'] == 'step' and e['type'] == 'TYPE_SLICE_BEGIN' and e['categories'] == ['span']")" 6 "step slices"
expect_eq "$(count '^    name: "step"$' "$t")" 0 "span names interned, not written with each slice"
# (interning is per sequence: a thread's each)
expect_eq "$(count '^      name: "step"$' "$t")" 3 "a span's name interned once a thread"
expect_eq "$(events "$j" "True")" 45 "track events"
expect_eq "$(python3 -c "import json, sys; print(len({e['seq'] for e in json.load(open(sys.argv[1]))['events']}))" "$j")" 3 \
	"a sequence a thread"
expect_eq "$(events "$j" "e['seq'] == 1")" 0 "track events on the trace's own sequence"
# The times, resolved from each sequence's clock, are query's.
"$EVTRACE" query --no-cache --csv "$T/sp" "SELECT ts FROM slice WHERE name = 'step' ORDER BY ts" | tail -n +2 | tr -d '\r' >"$T/step.want"
python3 -c "import json, sys; print('\n'.join(str(t) for t in sorted(e['ts'] for e in json.load(open(sys.argv[1]))['events']
	if e['name'] == 'step' and e['type'] == 'TYPE_SLICE_BEGIN')))" "$j" >"$T/step.got"
expect_eq "$(cat "$T/step.got")" "$(cat "$T/step.want")" "the steps' begin times"
expect_eq "$(count 'string_value: "i=1"' "$t")" 3 "a begin's message"
# ... and its arguments, each a debug annotation of its own type: the
# works' and jobs' thread numbers and the steps' i, integers all, their
# name interned once.
expect_eq "$(events "$j" "e['annotations'].get('arg0') in (0, 1, 2)")" 12 "the begins' arguments, typed as integers"
expect_eq "$(count '^      name: "arg0"$' "$t")" 3 "an argument's name interned once a thread"
# (a slice says its state when it is not complete)
expect_eq "$(count 'string_value: "complete"' "$t")" 0 "a complete slice's state"
expect_eq "$(count '^    thread {$' "$t")" 3 "a track per thread"
expect_eq "$(count '^    process {$' "$t")" 1 "a track per process"
expect_eq "$(count '^    counter {$' "$t")" 2 "a counter track per name"
expect_eq "$(count '^    counter_value: 3$' "$t")" 3 "integer counter values"
expect_eq "$(count '^    double_counter_value: 2.5$' "$t")" 1 "real counter values"
expect_eq "$(count 'primary_trace_clock: 3' "$t")" 1 "the clock snapshot names CLOCK_MONOTONIC"
# Each async job on a track of its own, named after it.
python3 - "$j" <<'PY' || fail "slices on their tracks"
import json, sys
d = json.load(open(sys.argv[1]))
tracks = {int(k): v["name"] for k, v in d["tracks"].items()}
events = [(e["type"], e["ts"], e["track"], e["name"]) for e in d["events"]]
jobs = [e for e in events if e[3] == "job"]
assert len(jobs) == 3 and len({e[2] for e in jobs}) == 3, jobs
assert all(tracks[e[2]] == "job" for e in jobs), (jobs, tracks)
# Per track, begins and ends nest in time order, none left over.
by_track = {}
for e in sorted(events, key=lambda e: e[1]):
    if e[0] in ("TYPE_SLICE_BEGIN", "TYPE_SLICE_END"):
        by_track.setdefault(e[2], []).append(e)
for uuid, evs in by_track.items():
    depth = 0
    for e in evs:
        depth += 1 if e[0] == "TYPE_SLICE_BEGIN" else -1
        assert depth >= 0, (uuid, evs)
    assert depth == 0, (uuid, evs)
PY

# Spans that do not pair: an instant with its state where a slice would
# have to make up a begin or an end; a begin alone for one still open; a
# NaN counter as such.
"$EVTRACE" record -e 'span/**' -e 'async/**' -e 'counter/**' -o "$T/odd" -- "$SPANS" odd >/dev/null 2>&1 ||
	fail "record odd"
"$EVTRACE" convert --to perfetto -o "$T/odd.pftrace" "$T/odd" 2>/dev/null || fail "convert odd"
decode "$T/odd.pftrace"
python3 - "$T/odd.pftrace.json" <<'PY' || fail "unpaired spans"
import json, sys
got = [(e["name"], e["type"], e["annotations"].get("state", "complete"))
       for e in json.load(open(sys.argv[1]))["events"]
       if e["type"] not in ("TYPE_SLICE_END", "TYPE_COUNTER")]
want = [("orphan", "TYPE_INSTANT", "no_begin"), ("outer", "TYPE_SLICE_BEGIN", "complete"),
        ("inner", "TYPE_INSTANT", "no_end"), ("dup", "TYPE_SLICE_BEGIN", "no_end"),
        ("dup", "TYPE_SLICE_BEGIN", "open"), ("dup", "TYPE_INSTANT", "no_begin"),
        ("left open", "TYPE_SLICE_BEGIN", "open")]
assert sorted(got) == sorted(want), got
PY
expect_eq "$(count 'type: TYPE_SLICE_END' "$T/odd.pftrace.txt")" 1 "only outer ends"
expect_grep 'double_counter_value: nan' "$T/odd.pftrace.txt" "a NaN counter"

# Typed fields as typed annotations, printk sites with their location.
"$EVTRACE" record -o "$T/typed" -e 'typed/*' -- "$TYPED" rows >/dev/null 2>&1 || fail "record typed"
"$EVTRACE" convert --to perfetto -o "$T/typed.pftrace" "$T/typed" 2>/dev/null || fail "convert typed"
decode "$T/typed.pftrace"
t=$T/typed.pftrace.txt
expect_eq "$(count 'type: TYPE_INSTANT' "$t")" 4 "an instant per typed event"
for want in 'int_value: -128' 'uint_value: 18446744073709551615' 'int_value: -9223372036854775808' \
	    'double_value: -1.5e-300' 'bool_value: true' 'string_value: "blue"' 'string_value: "abcdefgh"' \
	    'string_value: "\[1,2,65535\]"' 'string_value: "from the library"'; do
	grep -q -- "$want" "$t" || fail "typed annotation: no '$want'"
done
expect_eq "$(count '^      name: "u64"$' "$t")" 1 "field names interned once"
# Each value once: a typed event's fields, not their rendering too.
expect_eq "$(events "$T/typed.pftrace.json" "'message' in e['annotations']")" 0 "typed events' messages"
"$EVTRACE" record -o "$T/pk" -- "$TRACEE" threads 2 5 >/dev/null 2>&1 || fail "record printk"
"$EVTRACE" convert --to perfetto -o "$T/pk.pftrace" "$T/pk" 2>/dev/null || fail "convert printk"
decode "$T/pk.pftrace"
site=$(tracee_event "seq t=%d i=%d")
line=${site##*/}
grep -A3 'source_locations {' "$T/pk.pftrace.txt" | grep -q 'file_name: "tests/progs/tracee.c"' ||
	fail "no source location of tracee.c"
grep -q "line_number: $line\$" "$T/pk.pftrace.txt" || fail "no line $line"
grep -A4 'source_locations {' "$T/pk.pftrace.txt" | grep -q 'function_name: "seq_thread"' ||
	fail "no function name of the site"
expect_eq "$("$EVTRACE" query --no-cache --csv "$T/pk" "SELECT file, line, function FROM site WHERE name = '$site'" | tail -1 | tr -d '\r')" \
	"tests/progs/tracee.c,$line,seq_thread" "query's site: file, line, function"
# ... a printk's message, not its arguments without their names again.
expect_eq "$(events "$T/pk.pftrace.json" "sorted(e['annotations']) != ['cpu', 'message']")" 0 "a printk's annotations"
expect_eq "$(events "$T/pk.pftrace.json" "e['annotations'].get('message', '').startswith('seq t=1 i=')")" 5 "a thread's messages"
expect_eq "$(count 'type: TYPE_INSTANT' "$T/pk.pftrace.txt")" \
	"$(sed -n 's/^# \([0-9]*\) events.*/\1/p' "$("$EVTRACE" report "$T/pk" >"$T/pk.report"; echo "$T/pk.report")")" \
	"an instant per printk event"

# A hostile index: a printk site's path with no file nor line in it is an
# event like any other, with no source location.
cp -r "$T/pk" "$T/pkbad"
sed -i "s|\"$site\"|\"printk/x\"|" "$T/pkbad/evtrace/index"
"$EVTRACE" convert --to perfetto -o "$T/pkbad.pftrace" "$T/pkbad" 2>"$T/conv.err" ||
	{ cat "$T/conv.err" >&2; fail "convert of a trace with a path of no file"; }
decode "$T/pkbad.pftrace"
expect_grep 'name: "printk/x"' "$T/pkbad.pftrace.txt" "the odd path kept as the event's name"
expect_eq "$(count 'source_locations {' "$T/pkbad.pftrace.txt")" 0 "no source location made up"

# Losses: slices on a lost-events track, adding up to report's count.
"$EVTRACE" record --overwrite --packet-size 16384 --packets 4 -o "$T/lost" -- "$TRACEE" burst 100000 \
	>/dev/null 2>&1 || fail "record the burst"
"$EVTRACE" report "$T/lost" >"$T/lost.report"
lost_n=$(sed -n 's/^# [0-9]* events, \([0-9]*\) lost.*/\1/p' "$T/lost.report")
[ "$lost_n" -gt 0 ] || fail "the burst lost nothing"
"$EVTRACE" convert --to perfetto -o "$T/lost.pftrace" "$T/lost" 2>/dev/null || fail "convert the burst"
decode "$T/lost.pftrace"
expect_eq "$(grep -o 'name: "lost [0-9]* events\{0,1\}[":]' "$T/lost.pftrace.txt" | grep -o '[0-9]*' | paste -sd+ | bc)" \
	"$lost_n" "lost counts add up"
expect_grep 'name: "lost events"' "$T/lost.pftrace.txt" "a lost-events track"
# ... and data loss on the thread's sequence, once a notice, which the
# trace's stats name (perfetto_decoded.py checks that they do).
notices=$(grep -c 'name: "lost [0-9]* events\{0,1\}[":]' "$T/lost.pftrace.txt")
expect_eq "$(python3 -c "import json, sys; print(sum(json.load(open(sys.argv[1]))['dropped'].values()))" "$T/lost.pftrace.json")" \
	"$notices" "drops said on the thread's sequence"
expect_eq "$("$EVTRACE" query "$T/lost" 'SELECT sum(count) FROM loss' | tail -1 | tr -d ' ')" "$lost_n" \
	"query's loss table adds up too"

# Filters: one span's slices, one thread.
"$EVTRACE" convert --to perfetto -e 'span/step' -o "$T/cut.pftrace" "$T/sp" 2>"$T/conv.err" || fail "convert -e"
expect_grep "12 of 45 events" "$T/conv.err" "what -e kept"
decode "$T/cut.pftrace"
expect_eq "$(count 'type: TYPE_SLICE_BEGIN' "$T/cut.pftrace.txt")" 6 "only steps"
expect_eq "$(events "$T/cut.pftrace.json" "e['name'] == 'work'")" 0 "no work"
expect_eq "$(events "$T/cut.pftrace.json" "e['name'] == 'step'")" 6 "the steps' begins"
# A file that could not be written to its end is removed.
expect_status 1 "$EVTRACE" convert --to perfetto -o "$T/gone.pftrace" "$T/nowhere"
[ ! -e "$T/gone.pftrace" ] || fail "a half file left"
