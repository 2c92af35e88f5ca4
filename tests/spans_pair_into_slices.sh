# Spans, async spans and counters (span.h): three threads of nested
# scopes of known durations (one left by an early return), begin
# arguments, async spans handed from thread to thread and counters of
# both types are recorded exactly (report), read by babeltrace2, and
# paired into slices in chrome-json with their nesting, durations, states
# and values.  One switch: a span enabled alone records its begins (with
# arguments: another event underneath) and its ends.  Spans that do not
# pair are shown as what they are.  A name a typed event has is refused.
# ls lists each once, with its kind.
# (C++ scopes: cxx_program_is_traced.)
. "$(dirname "$0")/lib.sh"

# Both compilers take the macros, scopes beside trace_printk() included.
for cc in gcc clang; do
	$cc -std=gnu11 -O2 -Wall -Wextra -Werror -I"$INCLUDE" -c "$(dirname "$0")/progs/spans.c" \
		-o "$T/spans-$cc.o" || fail "$cc: spans.c does not compile"
done

"$EVTRACE" record -e 'span/**' -e 'async/**' -e 'counter/**' -o "$T/all" -- "$SPANS" 3 \
	>"$T/out" 2>"$T/err" || { cat "$T/err" >&2; fail "record"; }
expect_grep '^done$' "$T/out" "the program ran"
"$EVTRACE" report "$T/all" >"$T/report" || fail "report"
# Per thread: work, two steps and tail, begin and end each (8), a job's
# begin and another's end (2), five counters.
expect_grep '^# 45 events, 0 lost, 3 streams$' "$T/report" "every record, once"
for t in 0 1 2; do
	expect_grep "span/work: begin: thread $t\$" "$T/report" "work's argument"
	expect_grep "async/job: begin 10$t: from $t\$" "$T/report" "job's id and argument"
	expect_grep "async/job: end 10$t\$" "$T/report" "job 10$t ended"
done
expect_eq "$(grep -c 'span/step: begin: i=1$' "$T/report")" 3 "step 1 begins"
expect_eq "$(grep -c 'span/step: end$' "$T/report")" 6 "step ends, the early return's too"
expect_eq "$(grep -c 'counter/load: [0-9.]*$' "$T/report")" 3 "real counters"
for v in 0.5 1.5 2.5; do expect_grep "counter/load: $v\$" "$T/report" "load $v"; done
expect_eq "$(grep -c 'counter/queue: 3$' "$T/report")" 3 "integer counters"

# report --json (and consumers) name the fields as the metadata does.
"$EVTRACE" report --json "$T/all" >"$T/json" || fail "report --json"
expect_eq "$(grep -c '"event":"async/job","message":"end 10[012]","fields":{"phase":2,"id":10[012]}}$' "$T/json")" 3 \
	"report --json: async ends"
expect_grep '"event":"span/step","message":"begin: i=1","fields":{"phase":1,"arg0":1}}$' "$T/json" \
	"report --json: a begin's argument"
expect_grep '"event":"counter/load","message":"2.5","fields":{"value":2.5}}$' "$T/json" \
	"report --json: a real counter"

# babeltrace2 reads the same records, with the phase and fields named.
bt "$T/all" >"$T/bt" || fail "babeltrace2"
expect_eq "$(grep -c 'span/step: .*phase = ( "begin"' "$T/bt")" 6 "babeltrace2: step begins"
expect_eq "$(grep -c 'async/job: .*phase = ( "end" : container = 2 ), id = 10[012] }' "$T/bt")" 3 \
	"babeltrace2: async ends with their ids"
expect_grep 'counter/load: .*{ value = 2.5 }' "$T/bt" "babeltrace2: a real counter"

# Slices: every span paired, nested, as long as its sleeps at least.
"$EVTRACE" convert --to chrome-json -o "$T/all.json" "$T/all" 2>/dev/null || fail "convert"
python3 "$(dirname "$0")/check_chrome_json.py" "$T/all.json" "$T/report" >"$T/check" ||
	fail "the strict check of all.json"
expect_eq "$(cat "$T/check")" "0 events, 0 lost" "no instants besides the slices"
python3 - "$T/all.json" <<'PY' || fail "slices"
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
x = [e for e in ev if e["ph"] == "X"]
assert all(e["args"]["state"] == "complete" for e in x), x
tids = sorted({e["tid"] for e in x})
assert len(tids) == 3, tids
for tid in tids:
    mine = sorted((e for e in x if e["tid"] == tid), key=lambda e: e["ts"])
    assert [e["name"] for e in mine] == ["work", "step", "step", "tail"], mine
    work, s0, s1, tail = mine
    assert [s0["args"]["message"], s1["args"]["message"]] == ["i=0", "i=1"], mine
    for s in (s0, s1):
        assert s["dur"] >= 2000, s	# 2 ms sleeps, in microseconds
        assert work["ts"] <= s["ts"] and s["ts"] + s["dur"] <= work["ts"] + work["dur"], (work, s)
    assert s0["ts"] + s0["dur"] <= s1["ts"], (s0, s1)
    assert tail["dur"] >= 1000 and "message" not in tail["args"], tail
b = {e["id"]: e for e in ev if e["ph"] == "b"}
e_ = {e["id"]: e for e in ev if e["ph"] == "e"}
assert sorted(b) == sorted(e_) == ["0x64", "0x65", "0x66"], (b, e_)
for i in b:
    assert b[i]["name"] == "job" and b[i]["args"]["state"] == "complete", b[i]
    assert b[i]["tid"] != e_[i]["tid"] and b[i]["ts"] <= e_[i]["ts"], (b[i], e_[i])
    assert b[i]["args"]["message"] == "from %d" % (int(i, 16) - 100), b[i]
c = [e for e in ev if e["ph"] == "C"]
for tid in tids:
    assert [e["args"]["value"] for e in c if e["tid"] == tid and e["name"] == "queue"] == [0, 1, 2, 3]
assert sorted(e["args"]["value"] for e in c if e["name"] == "load") == [0.5, 1.5, 2.5]
assert not [e for e in ev if e["ph"] == "i"], "span records shown as instants too"
PY

# One switch: a span with begin arguments, enabled alone.
"$EVTRACE" record -e span/step -o "$T/step" -- "$SPANS" 2 >/dev/null 2>&1 || fail "record span/step"
"$EVTRACE" report "$T/step" >"$T/step.report"
expect_grep '^# 8 events, 0 lost' "$T/step.report" "span/step alone: 4 begins, 4 ends"
expect_eq "$(grep -c 'span/step: end$' "$T/step.report")" 4 "span/step alone: its ends"
expect_eq "$(grep -vc '^#\|span/step: ' "$T/step.report")" 0 "span/step alone: nothing else"
"$EVTRACE" record -e 'printk/**' -o "$T/none" -- "$SPANS" 2 >/dev/null 2>&1 || fail "record printk"
"$EVTRACE" report "$T/none" >"$T/none.report" 2>&1
expect_grep '^# 0 events, 0 lost' "$T/none.report" "spans off: nothing written"

# count: a span's begins with arguments and its ends, on one line.
"$EVTRACE" count -e 'span/**' -- "$SPANS" 3 >/dev/null 2>"$T/count" || fail "count"
expect_eq "$(grep -c ' span/step$' "$T/count")" 1 "count: span/step on one line"
expect_grep '^ *12      span/step$' "$T/count" "count: 3 threads x 2 steps x begin and end"

# What does not pair is shown as such.
"$EVTRACE" record -e 'span/**' -e 'async/**' -o "$T/odd" -- "$SPANS" odd >/dev/null 2>&1 || fail "record odd"
"$EVTRACE" convert --to chrome-json -o "$T/odd.json" "$T/odd" 2>/dev/null || fail "convert odd"
python3 - "$T/odd.json" <<'PY' || fail "unpaired slices"
import json, sys
ev = [e for e in json.load(open(sys.argv[1]))["traceEvents"] if e["ph"] != "M"]
got = sorted((e["name"], e["ph"], e["args"]["state"], e["args"].get("message", "")) for e in ev)
want = sorted([("orphan", "X", "no_begin", ""), ("outer", "X", "complete", ""),
               ("inner", "B", "no_end", ""), ("dup", "b", "no_end", ""),
               ("dup", "b", "open", "again"),
               ("dup", "b", "no_begin", ""), ("dup", "e", "no_begin", ""),
               ("left open", "B", "open", "")])
assert got == want, got
PY

# A name a typed event took first: the span stays off, saying why once.
"$EVTRACE" record -e 'span/**' -o "$T/taken" -- "$SPAN_TAKEN" >/dev/null 2>"$T/taken.err" ||
	{ cat "$T/taken.err" >&2; fail "record span_taken"; }
expect_eq "$(grep -c 'span/clash: the name is taken by another event; this site stays off' "$T/taken.err")" 2 \
	"the clash said once per site"
expect_eq "$(grep -c 'span/wide: more than 31 arguments; this site stays off' "$T/taken.err")" 1 \
	"a begin with too many arguments said once"
"$EVTRACE" report "$T/taken" >"$T/taken.report"
expect_grep '^# 2 events, 0 lost' "$T/taken.report" "the typed event and the wide span's end"
expect_grep 'span/clash: v=7$' "$T/taken.report" "the typed event recorded"
expect_grep 'span/wide: end$' "$T/taken.report" "the wide span's end (its begin stayed off)"

# ls: each span and counter once, with its kind; the rider is not listed.
: >"$T/wait.out"
"$SPANS" wait >>"$T/wait.out" &
w=$!
BG_PIDS="$BG_PIDS $w"
wait_for 'spans to say ready' 'grep -q ready "$T/wait.out"'
"$EVTRACE" ls -p "$w" >"$T/ls"
for want in '0 span/step (span)' '0 span/work (span)' '0 async/job (async span)' \
	    '0 counter/queue (counter)' '0 counter/load (counter)'; do
	expect_eq "$(grep -cxF "$want" "$T/ls")" 1 "ls: $want"
done
expect_eq "$(grep -c '@' "$T/ls")" 0 "ls: no rider listed"

