# evtrace query's questions about time, on exact answers: three threads'
# nested spans and async jobs handed between them (spans 3) give each
# slice its ancestors and descendants, the slices it overlaps (the
# function agrees with the overlap written out in SQL, on every slice
# and scope), the flow of each job from the "work" that began it to the
# "tail" that ended it, and each counter's value at any time.  thread_state
# turns made-up sched events into the states the kernel names, and real
# ones recorded with a program's spans into a sleep inside each 2 ms step;
# convert --to sqlite's file has the same views.  Bad arguments are said.
. "$(dirname "$0")/lib.sh"

"$EVTRACE" record -e 'span/**' -e 'async/**' -e 'counter/**' -o "$T/all" -- "$SPANS" 3 \
	>"$T/out" 2>"$T/err" || { cat "$T/err" >&2; fail "record"; }
q() { "$EVTRACE" query --csv "$@" 2>"$T/q.err" | tr -d '\r' | tail -n +2; }
rows() {	# WHAT SQL...: fails with the rows when a statement has any
	_what=$1; shift
	_sql=$(printf '%s;\n' "$@")
	"$EVTRACE" query --fail-if-rows "$T/all" "$_sql" >"$T/rows" 2>&1 ||
		{ cat "$T/rows" >&2; fail "$_what"; }
}

# Ancestors: a step's is its work, one level up; a work has none.
expect_eq "$(q "$T/all" "SELECT group_concat(s.name || ':' || a.name || ':' || a.distance || ':' || (a.id = s.parent_id), ' ')
	FROM slice s, ancestor_slices(s.id) a")" \
	"step:work:1:1 step:work:1:1 step:work:1:1 step:work:1:1 step:work:1:1 step:work:1:1" "ancestors"
# Descendants: each work's two steps, in order, its own thread's; the
# async job begun inside it is not one.
rows "descendants of each work" \
	"SELECT w.id FROM slice w WHERE w.name = 'work' AND (SELECT group_concat(d.name || d.args || d.distance, ' ')
	 FROM descendant_slices(w.id) d WHERE d.tid = w.tid AND d.parent_id = w.id) IS NOT 'stepi=01 stepi=11'" \
	"SELECT s.id FROM slice s, descendant_slices(s.id) WHERE s.name != 'work'"
# Overlaps on the thread: a step's is its work alone; a work's, its two
# steps and the job it began.
expect_eq "$(q "$T/all" "SELECT DISTINCT (SELECT group_concat(o.name, ' ') FROM overlapping_slices(s.id, 'thread') o) FROM slice s WHERE s.name = 'step'")" \
	"work" "what a step overlaps on its thread"
expect_eq "$(q "$T/all" "SELECT DISTINCT (SELECT group_concat(o.name || ':' || (o.overlap = o.dur), ' ') FROM overlapping_slices(s.id, 'thread') o) FROM slice s WHERE s.name = 'work'")" \
	"step:1 step:1 job:0" "what a work overlaps on its thread"
# Every scope, every slice: the function says what the overlap written out says.
rows "overlapping_slices as its definition" \
	"SELECT s.id, sc.v FROM slice s, (SELECT 'any' AS v UNION ALL SELECT 'process' UNION ALL SELECT 'thread') sc
	 WHERE (SELECT group_concat(id) FROM (SELECT id FROM overlapping_slices(s.id, sc.v) ORDER BY id))
	 IS NOT (SELECT group_concat(id) FROM (SELECT o.id FROM slice o WHERE o.id != s.id
	  AND o.ts < s.end_ts AND o.end_ts > s.ts
	  AND (sc.v = 'any' OR o.pid = s.pid) AND (sc.v != 'thread' OR o.tid = s.tid) ORDER BY o.id))"
expect_eq "$(q "$T/all" "SELECT count(*) FROM slice s, overlapping_slices(s.id) o WHERE o.overlap <= 0")" 0 \
	"overlaps are positive"

# Flows: each job from the work that began it to the tail of the next
# thread, which ended it.
expect_eq "$(q "$T/all" "SELECT count(*), sum(o.name = 'work' AND o.tid = a.tid AND i.name = 'tail' AND i.tid = a.end_tid
	AND a.tid != a.end_tid AND a.ts BETWEEN o.ts AND o.end_ts AND a.end_ts BETWEEN i.ts AND i.end_ts) AS right
	FROM flow f JOIN slice a ON a.id = f.async_slice_id JOIN slice o ON o.id = f.slice_out
	JOIN slice i ON i.id = f.slice_in")" "3,3" "flows"

# Counters: the value held at each sample's time, and until the next;
# nothing before the first; a counter of the process without a pid.
rows "counter_at" \
	"SELECT * FROM counter_span WHERE dur > 0 AND (counter_at(name, ts, pid) IS NOT value
	 OR counter_at(name, end_ts - 1, pid) IS NOT value OR counter_at(name, ts) IS NOT value)" \
	"SELECT * FROM counter_span WHERE end_ts IS NULL AND counter_at(name, 9223372036854775807, pid) IS NOT value" \
	"SELECT name FROM counter GROUP BY name HAVING counter_at(name, min(ts) - 1) IS NOT NULL
	 OR counter_at(name, min(ts) - 1, min(pid)) IS NOT NULL" \
	"SELECT 1 WHERE counter_at('no such', 1) IS NOT NULL OR counter_at('queue', NULL) IS NOT NULL
	 OR counter_at('queue', 9e18, 1) IS NOT NULL"
expect_eq "$(q "$T/all" "SELECT name, count(*), sum(dur) = max(ts) - min(ts), typeof(counter_at(name, max(ts)))
	FROM counter_span GROUP BY name ORDER BY name")" "load,3,1,real
queue,12,1,integer" "counter_span"

# Bad arguments are said, with what is wanted.
expect_status 2 "$EVTRACE" query "$T/all" 'SELECT * FROM ancestor_slices'
expect_grep "^evtrace: query: ancestor_slices: give it a slice_id: ancestor_slices(slice_id)$" "$T/err" "no id"
expect_status 2 "$EVTRACE" query "$T/all" "SELECT * FROM overlapping_slices(1, 'cpu')"
expect_grep "^evtrace: query: overlapping_slices: the scope is 'any', 'process' or 'thread'$" "$T/err" "a bad scope"
expect_status 2 "$EVTRACE" query "$T/all" "SELECT counter_at('queue', 'soon')"
expect_grep "^evtrace: query: counter_at: the time is a number (ns on the query's clock)$" "$T/err" "a bad time"

# thread_state from made-up sched events in convert's file: a wakeup of
# a running or preempted thread changes nothing, a second one neither;
# the states as the kernel prints them; a switch out with no switch in
# before it (not recorded) goes on in its state; idle (tid 0) left out.
"$EVTRACE" convert --to sqlite -o "$T/all.db" "$T/all" 2>"$T/conv.err" || { cat "$T/conv.err" >&2; fail "convert"; }
sw() { echo "($1, 900, 0, 0, $2, NULL, '{\"prev_pid\":$3,\"prev_state\":$4,\"next_pid\":$5}', 9)"; }
wk() { echo "($1, 901, 0, 0, 0, NULL, '{\"pid\":$2,\"target_cpu\":$3}', 9)"; }
sqlite3 "$T/all.db" "INSERT INTO site(id, name, kind, trace_id) VALUES (900, 'kernel/sched/sched_switch', 'kernel', 9),
	(901, 'kernel/sched/sched_wakeup', 'kernel', 9);
	INSERT INTO event_row(ts, site_id, pid, tid, cpu, message, fields, trace_id) VALUES
	$(sw 100 0 0 0 101), $(wk 200 101 0), $(sw 300 0 101 1 102), $(wk 400 101 1), $(wk 450 101 1),
	$(sw 500 1 0 0 101), $(sw 600 0 102 256 0), $(wk 650 102 0), $(sw 700 1 101 2 102),
	$(sw 800 1 102 3 0), $(sw 900 1 101 2 0)" || fail "the made-up events"
expect_eq "$(sqlite3 -csv "$T/all.db" "SELECT ts, end_ts, dur, tid, state, cpu FROM thread_state WHERE trace_id = 9 ORDER BY tid, ts")" \
"100,300,200,101,Running,0
300,400,100,101,S,0
400,500,100,101,R,1
500,700,200,101,Running,1
700,,,101,D,1
300,600,300,102,Running,0
600,700,100,102,R+,0
700,800,100,102,Running,1
800,,,102,S|D,1" "thread_state of made-up events"

# Real sched events, of every CPU (-a): inside each 2 ms step of the program's thread, a
# sleep of that thread of most of it; a thread's states follow each
# other, each ending where the next begins; query and convert agree.
need_tracefs "kernel sched events"
"$EVTRACE" record -a -e 'span/**' -e kernel/sched/sched_switch -e kernel/sched/sched_wakeup \
	-o "$T/k" -- "$SPANS" 1 >/dev/null 2>"$T/k.err" || { cat "$T/k.err" >&2; fail "record with sched events"; }
expect_eq "$(q "$T/k" "SELECT count(*), sum(EXISTS (SELECT 1 FROM thread_state t WHERE t.tid = s.tid
	AND t.state = 'S' AND t.ts >= s.ts AND t.end_ts <= s.end_ts AND t.dur >= 1500000)) AS slept FROM slice s WHERE s.name = 'step'")" \
	"2,2" "a sleep inside each step"
"$EVTRACE" query --fail-if-rows "$T/k" "SELECT * FROM (SELECT tid, ts, end_ts, state, lead(ts) OVER w AS next_ts,
	lead(state) OVER w AS next_state FROM thread_state WINDOW w AS (PARTITION BY trace_id, tid ORDER BY ts, end_ts))
	WHERE end_ts IS NOT next_ts OR state = next_state" >"$T/rows" 2>&1 || { cat "$T/rows" >&2; fail "states follow each other"; }
expect_eq "$(q "$T/k" "SELECT count(DISTINCT state) >= 3, count(DISTINCT tid) > 1 FROM thread_state")" "1,1" \
	"states of several threads"
"$EVTRACE" convert --to sqlite -o "$T/k.db" "$T/k" 2>"$T/conv.err" || { cat "$T/conv.err" >&2; fail "convert k"; }
sql="SELECT * FROM thread_state ORDER BY trace_id, tid, ts, end_ts"
expect_eq "$(sqlite3 -csv "$T/k.db" "$sql" | tr -d '\r' | md5sum)" "$(q "$T/k" "$sql" | md5sum)" \
	"query and convert's file agree on thread_state"
