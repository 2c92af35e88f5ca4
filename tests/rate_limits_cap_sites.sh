# enable --rate N PATH caps a site at N events a second in each thread,
# live, for every collection: what it suppresses is counted against the
# site as lost (rate limit), so that read + lost is what each site wrote;
# the other site is untouched; ls shows the rate; --rate 0 takes it away;
# processes started later follow the rule, until disable takes it away;
# --guard's caps end with its recording; a recording says which caps it
# did not set; bad values are refused.
. "$(dirname "$0")/lib.sh"
N=150000	# per thread: 50000 alpha, 100000 beta
alpha=$(tracee_event "alpha")
beta=$(tracee_event "beta")

# DIR [ENABLE-ARGS...]: a recording of two threads' burst, each enable
# run (with -p PID) once the program waits for its signal.
run() {
	dir=$1
	shift
	"$EVTRACE" record -o "$T/$dir" -- "$TRACEE" two-sites $N wait 2 \
		>"$T/$dir.out" 2>"$T/$dir.err" &
	rec=$!
	wait_for "the program to be ready" "grep -q '^ready' '$T/$dir.out'"
	prog=$(sed -n 's/^ready //p' "$T/$dir.out")
	while [ $# -gt 0 ]; do
		"$EVTRACE" enable -p "$prog" --rate "$1" "$alpha" ||
			fail "enable --rate $1"
		shift
	done
	"$EVTRACE" ls -p "$prog" >"$T/$dir.ls"
	kill -USR1 "$prog"
	wait $rec || fail "record: $(cat "$T/$dir.err")"
	expect_grep "^tried $((2 * N))$" "$T/$dir.out" "the program ran to its end"
}
# TRACE SITE: "read lost-by-rate lost-in-all" of the site, all threads.
counts() {
	"$EVTRACE" query --csv "$1" "SELECT
		(SELECT count(*) FROM event WHERE name = '$2') AS r,
		(SELECT coalesce(sum(count), 0) FROM loss l JOIN site s ON s.id = l.site_id
		 WHERE s.name = '$2' AND cause = 'rate_limit') AS rl,
		(SELECT coalesce(sum(count), 0) FROM loss l JOIN site s ON s.id = l.site_id
		 WHERE s.name = '$2') AS l" | tr -d '\r' | sed -n 2p | tr , ' '
}

# 1. Capped at 1000 a second in each of two threads.
run capped 1000
expect_grep "^0 $alpha \[1\] (rate 1000/s, a rule: enable --rate or eventfs, until --rate 0 or disable)$" "$T/capped.ls" "ls shows the rate and who set it"
set -- $(counts "$T/capped" "$alpha")
alpha_capped=$2
expect_eq "$(($1 + $3))" $((2 * N / 3)) "alpha read + lost"
[ "$2" -gt 0 ] || fail "nothing suppressed by the rate"
# Per thread: at least one second's worth, at most one per second the
# thread's events span (a burst may cross into the next second), and a
# few more: the writer's second is CLOCK_MONOTONIC's, the trace's times
# are its clock's mapped to CLOCK_MONOTONIC, which may be microseconds
# off, a few events at a burst's pace.
"$EVTRACE" query --csv "$T/capped" "SELECT tid,
	sum(name = '$alpha') AS a,
	max(ts) / 1000000000 - min(ts) / 1000000000 + 1 AS seconds
	FROM event GROUP BY tid" | tr -d '\r' | tail -n +2 >"$T/per_thread"
expect_eq "$(wc -l <"$T/per_thread")" 2 "two threads"
while IFS=, read -r tid a seconds; do
	[ "$a" -ge 1000 ] && [ "$a" -le $((1000 * seconds + 50)) ] ||
		fail "thread $tid wrote $a alpha events in $seconds second(s) capped at 1000"
done <"$T/per_thread"
set -- $(counts "$T/capped" "$beta")
expect_eq "$(($1 + $3))" $((2 * N * 2 / 3)) "beta read + lost"
expect_eq "$2" 0 "beta events suppressed by alpha's rate"
expect_grep "^evtrace: record: lost [0-9]* events: .*of $alpha (rate limit)" \
	"$T/capped.err" "the summary names the site and the cause"
expect_grep "^evtrace: record: $alpha_capped events of $alpha held back by a rate cap this recording did not set (evtrace enable --rate, or a consumer's or another recording's --guard; evtrace ls shows it): 'evtrace enable --rate 0 $alpha' lifts it$" \
	"$T/capped.err" "a cap the recording did not set, said with its count"

# 2. --rate 0 takes the cap away.
run uncapped 1000 0
grep -q "(rate " "$T/uncapped.ls" && fail "ls shows a rate after --rate 0"
set -- $(counts "$T/uncapped" "$alpha")
expect_eq "$2" 0 "alpha events suppressed after --rate 0"
expect_eq "$(($1 + $3))" $((2 * N / 3)) "alpha read + lost, uncapped"

# 3. Without -p, a rule: a process started later is capped from its start.
"$EVTRACE" record -o "$T/first" -- "$TRACEE" two-sites 3 wait >"$T/first.out" 2>/dev/null &
rec=$!
wait_for "the program to be ready" "grep -q '^ready' '$T/first.out'"
"$EVTRACE" enable --rate 500/s "$alpha"
kill -USR1 "$(sed -n 's/^ready //p' "$T/first.out")"
wait $rec
"$EVTRACE" record -o "$T/later" -- "$TRACEE" two-sites 30000 >/dev/null 2>&1
set -- $(counts "$T/later" "$alpha")
[ "$2" -gt 0 ] || fail "a later process was not capped"
[ "$1" -ge 500 ] && [ "$1" -le 1000 ] || fail "a later process wrote $1 alpha events capped at 500/s"

# 3b. disable takes the cap enable --rate set with it: in the processes
# it switches off (ls shows no rate) and in the rule for later ones (a
# later process loses nothing to it).
"$TRACEE" two-sites 3 wait >"$T/off.out" 2>&1 &
off=$!
BG_PIDS="$BG_PIDS $off"
wait_for "the program to be ready" "grep -q '^ready' '$T/off.out'"
"$EVTRACE" ls -p "$off" >"$T/off.ls"
expect_grep "^0 $alpha (rate 500/s, a rule: enable --rate or eventfs, until --rate 0 or disable)$" "$T/off.ls" "the rule's cap on a new process"
"$EVTRACE" disable "$alpha" || fail "disable $alpha"
"$EVTRACE" ls -p "$off" >"$T/off.ls"
expect_grep "^0 $alpha" "$T/off.ls" "alpha listed"
grep "^0 $alpha" "$T/off.ls" | grep -q "(rate " && fail "disable left the cap: $(grep "^0 $alpha" "$T/off.ls")"
kill -USR1 "$off"
wait "$off"
"$EVTRACE" record -o "$T/after-off" -- "$TRACEE" two-sites 30000 >/dev/null 2>&1
set -- $(counts "$T/after-off" "$alpha")
expect_eq "$2" 0 "alpha events held back after disable"
expect_eq "$1" 10000 "alpha events of a process started after disable"

# 4. --guard 30: a site that takes more than 30% of a thread's buffer in
# a second (a paced writer: 100 events a ms for 2 s, some 1.2 MB a
# second) is capped in its process, said, and what the cap holds back
# is counted against it: read + lost is what it wrote.
"$EVTRACE" record --guard 30 -o "$T/guarded" -- "$TRACEE" paced 200000 100 0 >/dev/null 2>"$T/guarded.err" ||
	fail "record --guard: $(cat "$T/guarded.err")"
site=$(sed -n "s/^evtrace: record: --guard capped \([^ ]*\) in pid [0-9]* at [0-9]* events a second a thread (it took [0-9]*% of a thread's buffer in a second)$/\1/p" "$T/guarded.err")
[ -n "$site" ] || fail "--guard does not say what it capped: $(cat "$T/guarded.err")"
set -- $(counts "$T/guarded" "$site")
[ "$2" -gt 0 ] || fail "--guard held nothing back"
expect_eq "$(($1 + $3))" 200000 "read + lost under --guard"
grep -q "held back by a rate cap this recording did not set" "$T/guarded.err" &&
	fail "--guard's own cap said to be another's"
expect_status 1 "$EVTRACE" record --guard 0 -o "$T/never" -- true
expect_grep "guard 0: a percentage, 1 to 100" "$T/err" "--guard 0"
expect_status 2 "$EVTRACE" record --guard 50 --overwrite -o "$T/never" -- true
expect_grep "guard and --overwrite exclude each other" "$T/err" "--guard with --overwrite"

# 4b. The caps --guard set end with its recording: a program that lives
# on after it is recorded again, uncapped, and ls shows no rate.
"$TRACEE" paced 200000 100 -2 >"$T/lives.out" 2>&1 &
lives=$!
BG_PIDS="$BG_PIDS $lives"
wait_for "the program to be ready" "grep -q '^ready' '$T/lives.out'"
"$EVTRACE" record -p "$lives" --guard 30 -o "$T/guard-p" >/dev/null 2>"$T/guard-p.err" &
rec=$!
BG_PIDS="$BG_PIDS $rec"
wait_for "the recording to take the program" "collection_in $lives $rec"
kill -USR1 "$lives"
wait_for "the burst to end" "grep -q '^burst done' '$T/lives.out'"
"$EVTRACE" ls -p "$lives" >"$T/lives-guarded.ls"
expect_grep " (rate [0-9]*/s, --guard of collection [0-9]*, which it takes away as it ends)$" "$T/lives-guarded.ls" \
	"ls names the collection whose --guard set the cap"
[ -e "$EVTRACE_RUNDIR/slot-$(sed -n 's/.* (rate [0-9]*\/s, --guard of collection \([0-9]*\),.*/\1/p' "$T/lives-guarded.ls" | head -1).caps" ] ||
	fail "no caps file of the recording's collection"
kill -INT "$rec"
wait "$rec" || fail "record -p --guard: $(cat "$T/guard-p.err")"
site=$(sed -n "s/^evtrace: record: --guard capped \([^ ]*\) in pid $lives at .*/\1/p" "$T/guard-p.err")
[ -n "$site" ] || fail "--guard -p capped nothing: $(cat "$T/guard-p.err")"
"$EVTRACE" ls -p "$lives" >"$T/lives.ls"
expect_grep "^0 $site" "$T/lives.ls" "the program's site listed"
grep "^0 $site " "$T/lives.ls" | grep -q "(rate " && fail "--guard's cap outlived its recording: $(grep "^0 $site " "$T/lives.ls")"
if ls "$EVTRACE_RUNDIR"/slot-*.caps 2>/dev/null; then fail "a caps file outlived its recording"; fi
kill -USR1 "$lives"
wait "$lives" || fail "the program guarded"

# 5. Bad values.
expect_status 1 "$EVTRACE" enable --rate 10/ms "$alpha"
expect_grep "rate '10/ms': not a number of events a second" "$T/err" "a unit it does not take"
expect_status 1 "$EVTRACE" enable --rate 100000001 "$alpha"
expect_status 2 "$EVTRACE" enable --rate 5 --collection 1 "$alpha"
expect_grep "--collection and --rate exclude each other" "$T/err" "--rate with --collection"
expect_status 2 "$EVTRACE" disable --rate 5 "$alpha"
