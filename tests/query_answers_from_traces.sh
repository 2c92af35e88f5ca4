# evtrace query: SQL over traces.  Three threads of nested scopes of
# known durations (one left by an early return), async spans handed
# between threads and counters of known values come back as exactly those
# slices (nesting, durations at least the sleeps, states, arguments),
# counters and events, with every field typed in args.  --fail-if-rows
# exits right both ways; CSV, JSON and aligned output say the same; bad
# SQL gets SQLite's message and the tables.  Several traces and a tree
# of them carry their host and trace.  Nothing is written beside the
# trace, and a file planted where an older evtrace kept its cache is not
# read; a corrupt trace gets report's errors at every query.  convert --to
# sqlite answers the same queries in the sqlite3 shell.
. "$(dirname "$0")/lib.sh"

"$EVTRACE" record -e 'span/**' -e 'async/**' -e 'counter/**' -o "$T/all" -- "$SPANS" 3 \
	>"$T/out" 2>"$T/err" || { cat "$T/err" >&2; fail "record"; }
q() { "$EVTRACE" query "$@" 2>"$T/q.err" | tr -d '\r'; }

# Slices: how many of each, their depths, states and arguments.
expect_eq "$(q --csv "$T/all" 'SELECT name, count(*), min(depth), max(depth),
	group_concat(DISTINCT state) FROM slice GROUP BY name ORDER BY name')" \
"name,count(*),min(depth),max(depth),group_concat(DISTINCT state)
job,3,0,0,complete
step,6,1,1,complete
tail,3,0,0,complete
work,3,0,0,complete" "slices by name"
expect_eq "$(q --csv "$T/all" "SELECT args, count(*) FROM slice WHERE name = 'step' GROUP BY args")" \
"args,count(*)
i=0,3
i=1,3" "the steps' arguments"
# The same arguments typed, in slice_args (and slice.fields): the steps'
# i integers, and no row for a span without arguments.
expect_eq "$(q --csv "$T/all" "SELECT a.key, typeof(a.value) AS type, group_concat(a.value, ' ') AS v
	FROM (SELECT * FROM slice_args ORDER BY value) a JOIN slice s ON s.id = a.slice_id
	WHERE s.name = 'step' GROUP BY a.key")" "key,type,v
arg0,integer,0 0 0 1 1 1" "the steps' arguments, typed"
expect_eq "$(q --csv "$T/all" "SELECT count(*) FROM slice WHERE name = 'step' AND fields = '{\"arg0\":' || substr(args, 3) || '}'")" \
	"count(*)
6" "slice.fields, a JSON object of the arguments"
# Each step inside its own thread's work, lasting its 2 ms at least; each
# work its 4 ms; the two steps of a thread one after the other.
"$EVTRACE" query --fail-if-rows "$T/all" "SELECT s.id FROM slice s JOIN slice w ON w.id = s.parent_id
	WHERE s.name = 'step' AND (w.name != 'work' OR w.tid != s.tid OR s.ts < w.ts
	OR s.end_ts > w.end_ts OR s.dur < 2000000 OR s.dur != s.end_ts - s.ts);
	SELECT id FROM slice WHERE name = 'work' AND dur < 4000000;
	SELECT a.id FROM slice a JOIN slice b ON a.tid = b.tid AND a.name = 'step'
	AND b.name = 'step' AND a.args = 'i=0' AND b.args = 'i=1' WHERE a.end_ts > b.ts" \
	>"$T/rows" 2>&1 || { cat "$T/rows" >&2; fail "steps nest in their work and last their sleeps"; }
# ... and --fail-if-rows does fail when there are rows, printing them.
expect_status 1 "$EVTRACE" query --fail-if-rows "$T/all" "SELECT name, dur FROM slice WHERE dur >= 2000000"
expect_eq "$(grep -c '^step ' "$T/out")" 6 "--fail-if-rows printed the rows it failed on"
# Async jobs: ids 100..102, begun on a thread of their own each.
expect_eq "$(q --csv "$T/all" "SELECT group_concat(async_id, ' ') AS ids, count(DISTINCT tid) AS threads,
	min(dur) > 0 AS lasted FROM (SELECT * FROM slice WHERE name = 'job' ORDER BY async_id)")" \
"ids,threads,lasted
100 101 102,3,1" "async jobs"
# Counters, in order per thread, integers and reals typed as such.
for tid in $(q --csv "$T/all" 'SELECT DISTINCT tid FROM counter' | tail -n +2); do
	expect_eq "$(q --csv "$T/all" "SELECT group_concat(value, ' ') FROM (SELECT value FROM counter
		WHERE name = 'queue' AND tid = $tid ORDER BY ts)" | tail -1)" "0 1 2 3" "queue on $tid"
done
expect_eq "$(q --csv "$T/all" "SELECT value, typeof(value) FROM counter WHERE name = 'load' ORDER BY value" | tail -n +2 | tr '\n' ' ')" \
	"0.5,real 1.5,real 2.5,real " "load values"
# Events: as many as report counts, with its messages; fields in args.
"$EVTRACE" report "$T/all" >"$T/report"
expect_eq "$(q "$T/all" 'SELECT count(*) FROM event' | tail -1 | tr -d ' ')" \
	"$(sed -n 's/^# \([0-9]*\) events.*/\1/p' "$T/report")" "every event, once"
expect_eq "$(q --csv "$T/all" "SELECT message FROM event WHERE name = 'span/work' ORDER BY id" | tail -n +2 | sort | uniq -c | sort | tr -s ' ' | tr '\n' ';')" \
	" 1 begin: thread 0; 1 begin: thread 1; 1 begin: thread 2; 3 end;" "messages as report renders them"
expect_eq "$(q --csv "$T/all" "SELECT a.key, a.value, typeof(a.value) FROM args a JOIN event e ON e.id = a.event_id
	WHERE e.name = 'async/job' AND e.message = 'begin 101: from 1'")" \
"key,value,typeof(a.value)
phase,1,integer
id,101,integer
arg0,1,integer" "an async begin's fields"
expect_eq "$(q --csv "$T/all" "SELECT DISTINCT name, kind, module FROM site ORDER BY name" | tail -n +2 | tr '\n' ' ')" \
	"async/job,async, counter/load,counter, counter/queue,counter, span/step,span, span/tail,span, span/work,span, " "sites"

# The three outputs of one row; CSV quotes what it must.
expect_eq "$(q --json "$T/all" "SELECT 1 AS n, 2.5 AS r, 'a,\"b\"' AS t, NULL AS z")" \
	'{"n":1,"r":2.5,"t":"a,\"b\"","z":null}' "--json"
expect_eq "$(q --csv "$T/all" "SELECT 1 AS n, 2.5 AS r, 'a,\"b\"' AS t, NULL AS z")" \
	'n,r,t,z
1,2.5,"a,""b""",' "--csv"
expect_eq "$(q "$T/all" "SELECT 1 AS n, 'x' AS text, NULL AS z")" \
	'n  text  z
-  ----  ----
1  x     NULL' "aligned columns"
expect_eq "$(q "$T/all" "SELECT 'two
lines' AS t")" 't
----------
two\nlines' "a newline shown as \\n in a column"

# Bad SQL: exit 2, SQLite's message and the tables.
expect_status 2 "$EVTRACE" query "$T/all" 'SELECT * FROM slices'
expect_grep '^evtrace: query: no such table: slices$' "$T/err" "SQLite's message"
expect_grep '^  slice(id, ts, dur, end_ts, name, depth, parent_id, pid, tid, args,$' "$T/err" "the tables listed"
expect_grep '^  trace_error(trace_id, message)$' "$T/err" "the tables listed, to the last"
# ... each with the columns it has, and every table and view listed.
python3 - "$T/err" "$EVTRACE" "$T/all" <<'PY' || fail "the tables listed are not the database's"
import re, subprocess, sys
text = open(sys.argv[1]).read()
body = text.split("evtrace(1) says more):\n", 1)[1].split("\nand the functions", 1)[0]
listed = dict(re.findall(r"^  (\w+)\(([^)]*)\)", re.sub(r",\n +", ", ", body), re.M))
def q(sql):
    out = subprocess.run([sys.argv[2], "query", "--csv", sys.argv[3], sql], capture_output=True,
                         text=True, check=True).stdout
    return [l.strip() for l in out.splitlines()[1:]]
have = set(q("SELECT name FROM sqlite_schema WHERE type IN ('table', 'view') UNION"
             " SELECT name FROM sqlite_temp_schema WHERE type IN ('table', 'view')"))
assert set(listed) == have, (sorted(set(listed) - have), sorted(have - set(listed)))
for table, cols in listed.items():
    real = q("SELECT group_concat(name, ', ') FROM (SELECT name FROM pragma_table_info('%s') ORDER BY cid)" % table)
    assert real == ['"%s"' % cols] or real == [cols], (table, cols, real)
PY
expect_status 2 "$EVTRACE" query "$T/all"
expect_status 1 "$EVTRACE" query "$T/nowhere" 'SELECT 1'
expect_grep "evtrace: query: $T/nowhere: no such trace directory" "$T/err" "no trace"
expect_status 2 "$EVTRACE" query --clock wall "$T/all" 'SELECT 1'
expect_grep "not a clock" "$T/err" "a bad clock"

# Clocks: relative starts at 0; realtime is now, give or take the test.
expect_eq "$(q --clock relative --csv "$T/all" 'SELECT min(ts) FROM event' | tail -1)" 0 "relative clock"
now=$(date +%s)
rt=$(q --clock realtime --csv "$T/all" 'SELECT min(ts) / 1000000000 FROM event' | tail -1)
[ $((now - rt)) -ge 0 ] && [ $((now - rt)) -lt 600 ] || fail "realtime clock: $rt, now $now"

# Spans that do not pair are what they are.
"$EVTRACE" record -e 'span/**' -e 'async/**' -e 'counter/**' -o "$T/odd" -- "$SPANS" odd >/dev/null 2>&1 ||
	fail "record odd"
expect_eq "$(q --csv "$T/odd" "SELECT name, state, ts IS NULL, dur IS NULL, coalesce(args, '') FROM slice ORDER BY name, state" | tail -n +2 | tr '\n' ' ')" \
	"dup,no_begin,1,1, dup,no_end,0,1, dup,open,0,1,again inner,no_end,0,1, left open,open,0,1, orphan,no_begin,1,1, outer,complete,0,0, " \
	"unpaired slices"
expect_eq "$(q --csv "$T/odd" "SELECT name, value IS NULL, typeof(value) FROM counter" | tail -n +2)" "ratio,1,null" \
	"a NaN counter is NULL"
expect_grep 'counter/ratio: -\{0,1\}nan$' "$("$EVTRACE" report "$T/odd" >"$T/odd.report"; echo "$T/odd.report")" \
	"report shows the NaN as such"
# Nothing is kept beside the trace: a query reads it afresh (the events
# in place), so a changed trace is answered as it is now, and a file
# planted where an older evtrace kept its cache is never read; babeltrace2
# reads the trace as before.
ls -A "$T/all" >"$T/listing"
q "$T/all" 'SELECT 1' >/dev/null
ls -A "$T/all" | diff -u "$T/listing" - >&2 || fail "a query wrote beside the trace"
bt_agrees "$T/all"
cp -r "$T/all" "$T/fresh"
sqlite3 "$T/fresh/.evtrace-query-monotonic.db" \
	"CREATE TABLE slice(name TEXT); INSERT INTO slice VALUES('planted')"
expect_eq "$(q --csv "$T/fresh" "SELECT count(*), sum(name = 'planted') FROM slice" | tail -1)" \
	15,0 "a planted cache not read"
expect_eq "$(q --csv --no-cache "$T/fresh" 'SELECT count(*) FROM slice' | tail -1)" 15 \
	"--no-cache, which changes nothing now, still taken"
# Several traces at once, and a tree of them: each trace its id, path
# and host; slice ids stay unique.
"$EVTRACE" record -e 'span/**' -o "$T/two" -- "$SPANS" 2 >/dev/null 2>&1 || fail "record two"
expect_eq "$(q --csv "$T/all" "$T/two" "SELECT trace_id, trace, host, count(*) FROM process GROUP BY trace_id" | tail -n +2 | tr '\n' ' ')" \
	"1,$T/all,$(uname -n),1 2,$T/two,$(uname -n),1 " "process: host and trace of each"
expect_eq "$(q --csv "$T/all" "$T/two" "SELECT count(*), count(DISTINCT id), count(DISTINCT trace_id) FROM slice" | tail -1)" \
	"23,23,2" "slices of both, ids unique"
mkdir -p "$T/tree/host-a" "$T/tree/host-b/session"
cp -r "$T/all" "$T/tree/host-a/"
cp -r "$T/two" "$T/tree/host-b/session/"
expect_eq "$(q --csv "$T/tree" "SELECT path, events FROM trace ORDER BY id" | tail -n +2 | tr '\n' ' ')" \
	"$T/tree/host-a/all,45 $T/tree/host-b/session/two,16 " "the traces of a tree"
expect_status 1 "$EVTRACE" query "$T/tree/host-b" "$T/empty-dir-that-is-not" 'SELECT 1'
mkdir "$T/empty"
expect_status 1 "$EVTRACE" query "$T/empty" 'SELECT 1'
expect_grep "no trace in it or below it" "$T/err" "a directory with no trace"

# A corrupt trace: report's errors, exit 1, at every query.
cp -r "$T/all" "$T/bad" && rm -f "$T/bad"/.evtrace-query-*
s=$(ls "$T/bad"/stream_* | head -1)
truncate -s $(($(stat -c %s "$s") - 5)) "$s"
expect_status 1 "$EVTRACE" report "$T/bad"
grep '^evtrace: report: ' "$T/err" | sed 's/^evtrace: report: //' >"$T/report.err"
[ -s "$T/report.err" ] || fail "report said nothing of the corrupt trace"
for pass in first second; do
	expect_status 1 "$EVTRACE" query "$T/bad" 'SELECT count(*) FROM event'
	expect_eq "$(sed -n 's/^evtrace: query: //p' "$T/err")" "$(cat "$T/report.err")" \
		"query's errors are report's (query $pass)"
	grep -q '^ *[1-9][0-9]*$' "$T/out" || fail "the rest of the trace was read (query $pass)"
done

# convert --to sqlite: the same tables for the sqlite3 shell.
"$EVTRACE" convert --to sqlite -o "$T/all.db" "$T/all" 2>"$T/conv.err" || { cat "$T/conv.err" >&2; fail "convert --to sqlite"; }
expect_grep "45 events, 0 lost, 3 streams into $T/all.db" "$T/conv.err" "convert's summary"
# (query reads events in place, convert writes them as rows: the same
# answers, through each way the event table finds rows)
for sql in "SELECT name, count(*), sum(dur) FROM slice GROUP BY name ORDER BY name" \
	   "SELECT e.name, a.key, a.value FROM args a JOIN event e ON e.id = a.event_id ORDER BY e.id, a.key" \
	   "SELECT ts, name, value FROM counter ORDER BY ts" \
	   "SELECT id, ts, name, kind, pid, tid, cpu, site_id, hex(message), trace_id FROM event ORDER BY id" \
	   "SELECT name, count(*), min(id), max(id), sum(ts) FROM event GROUP BY name" \
	   "SELECT name, count(*) FROM event GROUP BY name ORDER BY count(*) DESC, name" \
	   "SELECT group_concat(id) FROM (SELECT id FROM event WHERE id > 5 AND id <= 17)" \
	   "SELECT group_concat(id) FROM (SELECT id FROM event WHERE id = 12 OR id = 40)" \
	   "SELECT count(*) FROM event WHERE ts >= (SELECT ts FROM event WHERE id = 10) AND ts < (SELECT ts FROM event WHERE id = 30)" \
	   "SELECT group_concat(id) FROM (SELECT id FROM event WHERE ts = (SELECT ts FROM event WHERE id = 7))" \
	   "SELECT count(*) FROM event WHERE ts > (SELECT ts FROM event WHERE id = 20) + 0.5 AND id < '40'" \
	   "SELECT count(*) FROM event WHERE ts > NULL OR id <= -3 OR id > 9223372036854775807" \
	   "SELECT id, ts FROM event ORDER BY ts DESC, id DESC LIMIT 5" \
	   "SELECT name, min(id) FROM event WHERE id BETWEEN 3 AND 33 GROUP BY name ORDER BY name" \
	   "SELECT group_concat(id) FROM (SELECT id FROM event WHERE name = 'span/step' ORDER BY ts)" \
	   "SELECT group_concat(id) FROM (SELECT id FROM event WHERE name = 'span/work' AND id > 10 AND ts <= (SELECT ts FROM event WHERE id = 40))" \
	   "SELECT name, count(*) FROM event WHERE name IN ('counter/load', 'async/job', 'none') GROUP BY name ORDER BY name" \
	   "SELECT count(*) FROM event WHERE name = 'SPAN/STEP' COLLATE NOCASE" \
	   "SELECT count(*) FROM event WHERE name = 'span/step' AND name = 'span/work'" \
	   "SELECT count(*) FROM event WHERE name = 'span/zzz' OR name = 'async' OR name = 1 OR name = NULL" \
	   "SELECT e.id, f.id FROM event e JOIN event f ON f.name = e.name AND f.id = e.id + 1 WHERE e.name = 'async/job' ORDER BY e.id DESC"; do
	expect_eq "$(sqlite3 -csv "$T/all.db" "$sql" | tr -d '\r')" "$(q --csv "$T/all" "$sql" | tail -n +2)" \
		"sqlite3 and query agree on: $sql"
done
# Filters cut it; an existing file is replaced, anything else refused.
"$EVTRACE" convert --to sqlite -o "$T/all.db" -e 'span/step' --tid "$(q --csv "$T/all" 'SELECT min(tid) FROM slice' | tail -1)" \
	"$T/all" 2>"$T/conv.err" || fail "convert --to sqlite with filters"
expect_grep "4 of 45 events, 0 of 0 lost" "$T/conv.err" "what the filters kept"
expect_eq "$(sqlite3 "$T/all.db" "SELECT count(*), count(DISTINCT tid), min(name) FROM slice")" "2|1|step" "a cut database"
mkfifo "$T/fifo"
expect_status 1 "$EVTRACE" convert --to sqlite -o "$T/fifo" "$T/all"
expect_grep "not a regular file; not replaced" "$T/err" "a FIFO refused"
expect_status 1 "$EVTRACE" convert --to sqlite "$T/all"
expect_grep "needs -o FILE" "$T/err" "sqlite needs a file"
expect_status 1 "$EVTRACE" convert --to chrome-json --clock realtime "$T/all"
expect_grep "clock is for --to sqlite" "$T/err" "--clock with another format"

# The README's worked queries run on this trace and answer: the slowest
# span is a work scope; the busiest site in a second is a span; around the
# worst span, every event of its own thread's work shows.
python3 - "$(dirname "$0")/../README.md" "$T" <<'PY' || fail "the README's queries"
import re, sys
text = open(sys.argv[1]).read()
blocks = re.findall(r"```sql\n(.*?)```", text, re.S)
# (the last two, of time and threads' states: docs_are_right)
assert len(blocks) == 5, len(blocks)
for i, sql in enumerate(blocks):
    open("%s/readme-%d.sql" % (sys.argv[2], i), "w").write(sql)
PY
expect_eq "$(q --csv "$T/all" "$(cat "$T/readme-0.sql")" | sed -n 2p | cut -d, -f1,3,4)" \
	"$(q --csv "$T/all" "SELECT name, count(*), max(dur) / 1e6 FROM slice GROUP BY name, tid ORDER BY 3 DESC LIMIT 1" | tail -1)" \
	"README: the slowest spans per thread, the slowest first"
expect_eq "$(q --csv "$T/all" "$(cat "$T/readme-0.sql")" | tail -n +2 | wc -l)" 10 "README: ten rows"
q --clock relative --csv "$T/all" "$(cat "$T/readme-1.sql")" >"$T/readme-1.out"
expect_eq "$(sed -n 1p "$T/readme-1.out")" "second,name,events" "README: events per site per second"
expect_eq "$(sed -n 2p "$T/readme-1.out" | cut -d, -f1)" 0 "README: in the trace's first second"
q --csv "$T/all" "$(cat "$T/readme-2.sql")" >"$T/readme-2.out"
worst=$(q --csv "$T/all" "SELECT tid, CASE WHEN async_id IS NULL THEN 'span/' ELSE 'async/' END || name
	FROM slice WHERE dur IS NOT NULL ORDER BY dur DESC LIMIT 1" | tail -1)
expect_grep "^0,${worst%%,*},${worst#*,},begin" "$T/readme-2.out" "README: around the worst span, its own begin at 0"
expect_eq "$(tail -n +2 "$T/readme-2.out" | wc -l)" \
	"$(q --csv "$T/all" "SELECT count(*) FROM event e, (SELECT * FROM slice WHERE dur IS NOT NULL
		ORDER BY dur DESC LIMIT 1) w WHERE e.ts BETWEEN w.ts - 1000000 AND w.end_ts + 1000000" | tail -1)" \
	"README: every event around the worst span"
