# evtrace diff: two runs of one program differ in nothing it marks
# significant and trip no gate; a run whose spans take twice as long is
# marked, in text and in JSON, and trips --fail-if; several runs a side
# are compared run by run; a key of one run only is new or gone; bad
# gates and arguments, and a gate on what one run a side cannot test,
# are refused, saying how.
. "$(dirname "$0")/lib.sh"

rec() {	# DIR N US: spans timed N US, recorded into DIR
	"$EVTRACE" record -q -o "$T/$1" -- "$SPANS" timed "$2" "$3" >/dev/null ||
		fail "record of spans timed $2 $3"
}
rec a 2000 100
rec b 2000 100
rec slow 2000 200
item=$("$EVTRACE" report "$T/a" | sed -n 's/.* \(printk\/spans\/[^:]*\): item 0$/\1/p')
[ -n "$item" ] || fail "no item line in the trace"

# The same program twice: counts equal, nothing marked, no gate trips (a
# busy 100 us span is preempted now and then on a loaded machine: its
# median is the figure that stays).
"$EVTRACE" diff --fail-if 'span/get p50 > +50%' --fail-if "$item count < -1%" "$T/a" "$T/b" >"$T/same" ||
	{ cat "$T/same" >&2; fail "two runs of one program tripped a gate"; }
expect_grep "^$item  *count  *2000  *2000  *+0.0%  *-\$" "$T/same" "the printk site's counts"
expect_grep "^span/get  *count  *2000  *2000  *+0.0%  *-\$" "$T/same" "the span's counts"
grep -q "^span/get  *p50 .*\*\$" "$T/same" && { cat "$T/same" >&2; fail "the same program's median marked significant"; }

# Spans twice as long: marked, and the gate trips (exit 1, said).
expect_status 1 "$EVTRACE" diff --fail-if 'span/get p50 > +50%' "$T/a" "$T/slow"
expect_grep "^span/get  *p50  *[0-9.]* us  *[0-9.]* us  *+[0-9.]*%  *[0-9.e+-]* \*\$" "$T/out" "the slower median marked"
expect_grep "^evtrace: diff: 'span/get p50 > +50%' tripped: span/get p50 +[0-9.]*% (p [0-9.e+-]*)\$" \
	"$T/err" "the gate that tripped, said"
"$EVTRACE" diff --json "$T/a" "$T/slow" >"$T/slower.json"
python3 - "$T/slower.json" <<'PY' || fail "diff --json"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["a"]["events"] == 6000 and d["b"]["lost"] == 0 and len(d["a"]["traces"]) == 1, d["a"]
rows = {(r["key"], r["metric"]): r for r in d["rows"]}
p50 = rows[("span/get", "p50")]
assert 90e3 <= p50["a"] <= 150e3 and 190e3 <= p50["b"] <= 300e3, p50
assert p50["significant"] is True and p50["p"] < 0.001 and 0.5 < p50["change"] < 2, p50
count = rows[("span/get", "count")]
assert count["a"] == count["b"] == 2000 and count["p"] is None and not count["significant"], count
assert d["gates"] == [], d["gates"]
PY

# Three runs a side (a directory of traces each): every figure tested on
# the runs' values; the same program against itself marks nothing, the
# slower one its median and p90.
mkdir "$T/runs_a" "$T/runs_b" "$T/runs_slow"
for i in 1 2 3; do
	rec runs_a/$i 500 100
	rec runs_b/$i 500 100
	rec runs_slow/$i 500 200
done
"$EVTRACE" diff "$T/runs_a" "$T/runs_b" >"$T/runs_same"
expect_grep "^# A: $T/runs_a: 3 runs, 4500 events in" "$T/runs_same" "the runs of a side"
grep -q '\*$' "$T/runs_same" && { cat "$T/runs_same" >&2; fail "three runs of one program against three marked something"; }
expect_grep "^span/get  *count  *500  *500  *+0.0%  *1\$" "$T/runs_same" "equal counts, tested: p 1"
expect_status 1 "$EVTRACE" diff --fail-if 'span/get p50 > +50%' "$T/runs_a" "$T/runs_slow"
expect_grep "^span/get  *p50 .* \*\$" "$T/out" "the slower runs' median marked"

# A key of one run only: new or gone; a count gate on it trips.
"$EVTRACE" record -q -o "$T/other" -- "$TRACEE" threads 1 10 >/dev/null
expect_status 1 "$EVTRACE" diff --fail-if 'span/* count < -50%' "$T/a" "$T/other"
expect_grep "^span/get  *count  *2000  *-  *gone  *-\$" "$T/out" "a key of A only"
expect_grep "^printk/tracee/.*  *count  *-  *10  *new  *-\$" "$T/out" "a key of B only"
expect_grep "tripped: span/get count gone" "$T/err" "the gate on what is gone"

# A trace cut short: diff compares what reads, and says the rest (1).
cp -r "$T/a" "$T/cut"
for f in "$T"/cut/stream_*; do truncate -s $(($(stat -c %s "$f") / 2 + 3)) "$f"; done
expect_status 1 "$EVTRACE" diff "$T/a" "$T/cut"
expect_grep "^evtrace: diff: part of the traces could not be read (report says where)\$" "$T/err" "a trace cut short"
expect_grep "^span/get  *count  *2000 " "$T/out" "what reads, compared"

# Bad input.
expect_status 2 "$EVTRACE" diff "$T/a"
expect_grep "two traces (or trees of runs) to compare, A then B" "$T/err" "one trace"
expect_status 2 "$EVTRACE" diff --fail-if 'span/get p95 > 10%' "$T/a" "$T/b"
expect_grep "^evtrace: diff: --fail-if 'span/get p95 > 10%': not KEY METRIC (> | <) CHANGE%, such as 'span/Get p99 > +10%' (METRIC: count, rate, p50, p90, p99 or mean)\$" \
	"$T/err" "a metric diff does not know"
expect_status 2 "$EVTRACE" diff --fail-if 'span/get p99 > 10' "$T/a" "$T/b"
expect_status 2 "$EVTRACE" diff --fail-if 'span/nope p99 > +10%' "$T/a" "$T/b"
expect_grep "^evtrace: diff: --fail-if 'span/nope p99 > +10%': no p99 of a key 'span/nope' in either run\$" \
	"$T/err" "a gate that names nothing"
expect_status 2 "$EVTRACE" diff --fail-if 'span/get p99 > +10%' "$T/a" "$T/b"
expect_grep "^evtrace: diff: --fail-if 'span/get p99 > +10%': span/get p99 is not tested: with one run a side, a tail or a mean moves with the machine's other work from run to run; give several runs a side (a directory of traces each), or gate p50 or p90\$" \
	"$T/err" "a tail gate on one run a side"
expect_status 2 "$EVTRACE" diff --alpha 2 "$T/a" "$T/b"
expect_grep "alpha 2: a probability between 0 and 1" "$T/err" "a bad alpha"
expect_status 1 "$EVTRACE" diff "$T/a" "$T/nowhere"
expect_grep "^evtrace: diff: .*nowhere" "$T/err" "a trace that is not there"
