# consumer.h: a tool reads typed events with every field's exact value,
# adds an event by global id and removes it, counts exactly, gets clear
# errors; the EXAMPLE of evt_consumer(3) compiles and runs.
. "$(dirname "$0")/lib.sh"
# 1. Typed events, decoded: extremes, enum labels, arrays, strings, a cut
# sequence, an event from a library; until the process exits.
mkfifo -m 600 "$T/in"
"$TYPED" wait <"$T/in" >"$T/typed.out" 2>&1 &
tp=$!
BG_PIDS="$BG_PIDS $tp"
exec 7>"$T/in"
wait_for 'the program to say ready in typed.out' 'grep -q ready "$T/typed.out"'
"$CONSUME" record "$tp" typed/ >"$T/c1" 2>&1 7>&- &
c=$!
wait_for 'grep -q added c1' 'grep -q added "$T/c1"'
exec 7>&-
wait "$c" || { cat "$T/c1" >&2; fail "consume record exited $?"; }
expect_eq "$(head -1 "$T/c1")" "added 1" "events named by typed/"
expect_eq "$(grep -c '^typed/all id=[0-9]* pid='"$tp"' ' "$T/c1")" 4 "records"
expect_grep " u8=u:255 i8=i:-128 u16=u:65535 i16=i:-32768 u32=u:4294967295 i32=i:-2147483648 u64=u:18446744073709551615 i64=i:-9223372036854775808 color=i:-1(blue) flag=u:1 real=d:-1.5e-300 tag=a:8:97,98,99,100 trio=a:3:-2147483648,0,2147483647 text=s:255:mmmm" "$T/c1" "extremes"
expect_grep " color=i:7 flag=u:0 real=d:3.25 tag=a:8:97,98,0,0 trio=a:3:1,2,3 text=s:255:llll.* seq=a:2048:0,1,2,3 " "$T/c1" "cut text and sequence"
expect_grep " u32=u:42 i32=i:300 .* color=i:1(green) .* text=s:16:from the library seq=a:0: from_lib=i:1 | " "$T/c1" "the library's event"
expect_grep " | u8=255 i8=-128 u16=65535 " "$T/c1" "the text as report prints it"
# 2. By global id: only that event, and nothing once removed.
start_waiter
alive=$(tracee_event "alive")
"$CONSUME" ids "$WAIT_PID" "$alive" >"$T/c2" 2>&1 || { cat "$T/c2" >&2; fail "consume ids failed"; }
id=$(awk -v p="$alive" '$1 == "event" && $3 == p { print $2 }' "$T/c2")
[ -n "$id" ] || { cat "$T/c2" >&2; fail "the event is not listed with an id"; }
# ls --ids shows the id the consumer used: the run directory's.
expect_eq "$("$EVTRACE" ls --ids -p "$WAIT_PID" "$alive" | tail -1)" "0 $alive id=$id" "ls --ids"
expect_eq "$(grep -c " $alive\$" "$EVTRACE_RUNDIR/event-ids")" 1 "registry lines of the event"
# A line of the registry that is not one keeps its number; a registry
# that is full (16 MiB) or a symlink is refused, said, and ids come from
# 2^31 instead.
passwd_sum=$(sha256sum /etc/passwd)
for case in garbage big link; do
	mkdir -m 700 "$R/$case"
	case $case in
	garbage) printf 'not a line\n' >"$R/$case/event-ids" ;;
	big) truncate -s 17M "$R/$case/event-ids" ;;
	link) ln -s /etc/passwd "$R/$case/event-ids" ;;
	esac
	[ -L "$R/$case/event-ids" ] || chmod 600 "$R/$case/event-ids"
	EVTRACE_RUNDIR=$R/$case "$TRACEE" wait >"$T/$case.out" 2>/dev/null &
	cp=$!
	BG_PIDS="$BG_PIDS $cp"
	wait_for 'the program to say ready in case.out' 'grep -q ready "$T/$case.out" 2>/dev/null'
	EVTRACE_RUNDIR=$R/$case "$EVTRACE" ls --ids -p "$cp" ftrace/print >"$T/$case.ls" 2>"$T/$case.err"
	kill "$cp"
done
expect_eq "$(tail -1 "$T/garbage.ls")" "0 ftrace/print id=1" "the id after a line that is not one"
expect_eq "$(sed -n 2p "$R/garbage/event-ids" | cut -d' ' -f2)" ftrace/print "the registry after a line that is not one"
expect_eq "$(tail -1 "$T/link.ls")" "0 ftrace/print id=2147483648" "an id without a registry"
expect_eq "$(tail -1 "$T/big.ls")" "0 ftrace/print id=2147483648" "an id when the registry is full"
expect_grep "^evtrace: $R/big/event-ids: cannot give ftrace/print an id (unreadable, or more than 16777216 bytes); this engine's new events get ids of its own, from 2147483648$" "$T/big.err" "a full registry said"
expect_grep "^evtrace: $R/link/event-ids: a symbolic link, not a regular file; refused; event ids are this engine's own, from 2147483648$" "$T/link.err" "a planted registry refused"
expect_eq "$(sha256sum /etc/passwd)" "$passwd_sum" "/etc/passwd after the planted link"
# Records read before the removal (one in flight may come after it).
n=$(sed '/^removed /q' "$T/c2" | grep -c "^$alive id=$id pid=$WAIT_PID arg0=i:[0-9]* | alive [0-9]*\$")
[ "$n" -ge 10 ] || { cat "$T/c2" >&2; fail "only $n records of the event added by id"; }
grep -v "^$alive id=\|^event \|^removed \|^after " "$T/c2" && fail "records of events not added"
expect_grep "^removed 0 after $n\$" "$T/c2" "remove_id"
expect_grep "^after removing: 0\$" "$T/c2" "nothing after removing"
"$EVTRACE" ls -p "$WAIT_PID" >"$T/ls"
grep -q '^# collection' "$T/ls" && { cat "$T/ls" >&2; fail "the consumer's slot is left"; }
# 3. Counting, exactly, until the process exits.
"$TRACEE" paced 20000 100 -1 >"$T/paced.out" 2>/dev/null &
pp=$!
BG_PIDS="$BG_PIDS $pp"
wait_for "the paced program" "grep -q ready '$T/paced.out'"
burst=printk/tracee/tests/progs/tracee.c/$(grep -n 'trace_printk("burst %ld' "$TRACEE_SRC" | sed -n 2p | cut -d: -f1)
"$CONSUME" count "$pp" "$burst" >"$T/c3" 2>&1 &
cc=$!
wait_for "the counting consumer" "grep -q '^added' '$T/c3'"
kill -USR1 "$pp"
wait "$cc" || { cat "$T/c3" >&2; fail "consume count failed"; }
expect_eq "$(head -1 "$T/c3")" "added 1" "counted events"
expect_eq "$(grep '^count ' "$T/c3" | tail -1 | cut -d' ' -f2,4)" "$burst 20000" "final count"
# 4. Errors a tool can act on.
"$CONSUME" errors "$WAIT_PID" >"$T/c4" 2>&1
expect_grep "^bad pattern: -1 pattern 'printk//x': empty path component at position 8$" "$T/c4" "bad pattern"
expect_grep "^not added: -1 'printk/': not added\$" "$T/c4" "removing what was not added"
expect_grep "^counts: -1 a recording consumer counts nothing: evt_consumer_read()\$" "$T/c4" "counts of a recording consumer"
expect_grep "^none yet: 0\$" "$T/c4" "a pattern naming nothing yet"
expect_grep "^kernel: -1 kernel/nosuch: no such kernel event\$" "$T/c4" "a kernel event that is not there"
expect_grep "^kernel not added: -1 'kernel/sched': not added\$" "$T/c4" "removing kernel events not added"
expect_grep "^kernel counted: -1 kernel/sched/sched_switch: kernel events in a counting consumer are not yet supported (a recording consumer, EVT_CONSUMER_RECORD, takes them)\$" "$T/c4" "kernel events in a counting consumer"
expect_grep "^patterns: 63 'printk/many63': more than 64 patterns, or one longer than 255 bytes\$" "$T/c4" "too many patterns"
expect_grep "^read: -1 a counting consumer has no records: evt_consumer_counts()\$" "$T/c4" "read of a counting consumer"
expect_grep "^relay stats: -1 not a relay consumer\$" "$T/c4" "relay stats of a counting consumer"
expect_grep "^window: -1 not a flight consumer: a window is of a flight recorder (EVT_CONSUMER_FLIGHT)\$" "$T/c4" "a window of a counting consumer"
expect_grep "^arm: -1 not a flight consumer: triggers write windows of a flight recorder (EVT_CONSUMER_FLIGHT)\$" "$T/c4" "triggers of a counting consumer"
expect_grep "^arm nowhere: -1 /nonexistent: No such file or directory\$" "$T/c4" "triggers with no directory for their windows"
expect_grep "^arm bad: -1 --trigger 'span req >> 1ms': at position 10: expected '>' after the span's name\$" "$T/c4" "a wrong trigger, with its position"
expect_grep "^arm kernel: -1 --trigger 'kernel/sched/sched_switch': kernel events in a consumer's triggers are not yet supported (evtrace record --trigger takes them)\$" "$T/c4" "a kernel trigger in a consumer"
expect_grep "^armed: 0\$" "$T/c4" "triggers armed after refusals"
expect_grep "^arm again: -1 armed already: arm every trigger in one call\$" "$T/c4" "triggers armed twice"
"$CONSUME" record 999999 printk >"$T/c5" 2>&1 && fail "a consumer of no process opened"
expect_grep "^open: pid 999999: no traced process with this pid in $EVTRACE_RUNDIR\$" "$T/c5" "unknown pid"
# 5. The man page's EXAMPLE, built as a user would (with this build's
# sanitizers, if any, since its library has them).
sed -n '/^\.EX$/,/^\.EE$/p' "$(dirname "$0")/../doc/evt_consumer.3" | sed '1d;$d' |
	sed 's/\\-/-/g; s/\\e/\\/g' >"$T/example.c"
san=""
ldd "$EVTRACE" | grep -q libasan && san="-fsanitize=address,undefined"
cc -Wall -Wextra -Werror $san -I"$INCLUDE" -o "$T/example" "$T/example.c" \
	-L"$BUILD/engine" -levtrace-consumer || fail "the EXAMPLE does not compile"
LD_LIBRARY_PATH="$BUILD/engine:$LD_LIBRARY_PATH" "$T/example" "$WAIT_PID" "$alive" >"$T/ex.out" 2>&1 ||
	{ cat "$T/ex.out" >&2; fail "the EXAMPLE failed"; }
n=$(grep -c "^[0-9]* $alive: arg0=[0-9]*\$" "$T/ex.out")
[ "$n" -ge 10 ] || { cat "$T/ex.out" >&2; fail "the EXAMPLE printed $n events"; }
# block_ms: a burst the consumer does not read in time (it is stopped
# until the program has written it all) loses events.  With block_ms 200
# the writer waits those 200 ms for the consumer (its slowest write shows
# the wait), then drops without waiting again until the consumer reads:
# the program ends while the consumer is still stopped.  With
# EVT_CONSUMER_BLOCK_INF the writer waits as long as the consumer lives,
# and nothing is lost.  What it reads and loses add up every time.  (A
# bounded wait may run out on a busy machine even for a running consumer:
# that loss is counted, not a fault, so no test asks a bounded wait to
# lose nothing.)
burst_through() {	# burst_through BLOCK_MS [stopped]: "read lost"
	# (the files of a call before: a background job's redirection may
	# come after the wait below has read them, and their "ready" and
	# "added" would start the burst before this consumer's events are on)
	rm -f "$T/bp.out" "$T/cb"
	TRACEE_SLOWEST=1 "$TRACEE" paced 300000 100000 -1 >"$T/bp.out" 2>&1 &
	bp=$!
	BG_PIDS="$BG_PIDS $bp"
	wait_for "the burst's program" "grep -q ready '$T/bp.out'"
	CONSUME_BUFFERED=1 CONSUME_BLOCK_MS=$1 "$CONSUME" record "$bp" printk >"$T/cb" 2>&1 &
	cp=$!
	wait_for "the consumer of the burst" "grep -q '^added' '$T/cb'"
	if [ "${2:-}" = stopped ]; then
		kill -STOP "$cp"
		kill -USR1 "$bp"
		wait "$bp" || fail "the program of the burst failed"
		kill -CONT "$cp"
	else
		kill -USR1 "$bp"
	fi
	wait "$cp" || { cat "$T/cb" >&2; fail "consume with block_ms $1"; }
	echo "$(grep -c ' | burst [0-9]*$' "$T/cb") $(awk '$1 == "lost" { n += $2 } END { print n + 0 }' "$T/cb")"
}
slowest_ms() { echo $(($(sed -n 's/^slowest \([0-9]*\) us$/\1/p' "$T/bp.out") / 1000)); }
set -- $(burst_through 0 stopped)
[ "$2" -gt 0 ] || fail "no loss without block_ms: nothing to show"
expect_eq "$(($1 + $2))" 300000 "read and lost without block_ms"
set -- $(burst_through 200 stopped)
[ "$2" -gt 0 ] || fail "nothing lost with block_ms 200 while the consumer was stopped"
expect_eq "$(($1 + $2))" 300000 "read and lost with block_ms 200"
[ "$(slowest_ms)" -ge 200 ] || fail "with block_ms 200 the slowest write took $(slowest_ms) ms: it did not wait"
expect_eq "$(burst_through inf)" "300000 0" "read and lost with EVT_CONSUMER_BLOCK_INF"
# evt_consumer_set_rate: a cap of 1000 events a second holds back most of
# the burst, each event held back a lost-event notice's.
"$TRACEE" paced 300000 100000 -1 >"$T/rp.out" 2>&1 &
bp=$!
BG_PIDS="$BG_PIDS $bp"
wait_for "the capped burst's program" "grep -q ready '$T/rp.out'"
CONSUME_RATE=1000 CONSUME_BUFFERED=1 "$CONSUME" record "$bp" printk >"$T/cr" 2>&1 &
cp=$!
wait_for "the consumer to cap it" "grep -q '^rate' '$T/cr'"
expect_grep "^rate [1-9][0-9]*$" "$T/cr" "the consumer capped the program's events"
kill -USR1 "$bp"
wait "$cp" || fail "consume with a rate: $(tail -3 "$T/cr")"
read=$(grep -c ' | burst [0-9]*$' "$T/cr")
lost=$(awk '$1 == "lost" { n += $2 } END { print n + 0 }' "$T/cr")
expect_eq "$((read + lost))" 300000 "read and lost under a rate"
[ "$lost" -gt 250000 ] || fail "the rate held back only $lost events"
# The consumer's cap is its own: ls names its collection while it runs,
# and the cap goes with the consumer.
start_waiter
CONSUME_RATE=50 "$CONSUME" record "$WAIT_PID" printk >"$T/cw" 2>&1 &
cw=$!
wait_for "the consumer to cap the waiting program" "grep -q '^rate' '$T/cw'"
expect_grep "^rate [1-9][0-9]*$" "$T/cw" "the consumer capped the waiting program"
"$EVTRACE" ls -p "$WAIT_PID" >"$T/cw.ls"
expect_grep " (rate 50/s, a consumer's rate of collection [0-9]*, which it takes away as it ends)$" \
	"$T/cw.ls" "ls names the consumer's cap"
kill -USR2 "$cw"	# (it closes the consumer, then exits)
wait "$cw" || fail "the capping consumer: $(cat "$T/cw")"
"$EVTRACE" ls -p "$WAIT_PID" >"$T/cw.ls"
if grep -q '(rate ' "$T/cw.ls"; then fail "the consumer's cap outlived it: $(cat "$T/cw.ls")"; fi
set +e
CONSUME_BLOCK_MS=1001 "$CONSUME" record $$ printk >"$T/cbad" 2>&1
st=$?
set -e
expect_eq "$st" 1 "consume with block_ms 1001"
expect_grep "^open: block_ms 1001: at most 1000, or EVT_CONSUMER_BLOCK_INF$" "$T/cbad" "block_ms beyond its bound"

# Flight mode: windows on demand, each a trace of what the flight
# recorder holds, in order, none twice, read alike by babeltrace2; the
# recording goes on between them (windows are taken until one holds 20
# events); a window never goes into a directory that exists.
mkdir "$T/fl"
"$CONSUME" flight "$WAIT_PID" "$alive" "$T/fl" >"$T/cf" 2>&1 &
fp=$!
BG_PIDS="$BG_PIDS $fp"
wait_for "the flight consumer" "grep -q '^added' '$T/cf'"
expect_eq "$(head -1 "$T/cf")" "added 1" "the flight consumer's event"
k=0
n=0
while [ "$n" -lt 20 ]; do
	k=$((k + 1))
	[ "$k" -le 500 ] || fail "500 windows, none with 20 events"
	kill -USR1 "$fp"
	wait_for "window $k" "grep -q '^window $k: ' '$T/cf'"
	expect_grep "^window $k: 0\$" "$T/cf" "window $k written"
	"$EVTRACE" report "$T/fl/w$k" >"$T/fl.report"
	n=$(grep -c "^ *tracee-$WAIT_PID .*: alive [0-9]*\$" "$T/fl.report")
done
sed -n 's/.*: alive \([0-9]*\)$/\1/p' "$T/fl.report" | awk '
	NR > 1 && $1 != prev + 1 { print "alive " $1 " after " prev; bad = 1 }
	{ prev = $1 } END { exit bad }' || fail "the window's events are not consecutive"
expect_grep "^# $n events, 0 lost" "$T/fl.report" "nothing but the event added"
bt_agrees "$T/fl/w$k"
kill -TERM "$fp"
wait "$fp" || { cat "$T/cf" >&2; fail "consume flight failed"; }
expect_grep "^again: -1 $T/fl/w1: exists (a window is never written into a directory that does)\$" \
	"$T/cf" "a window into a directory that exists"

# The engine's messages go to the consumer's callback (attr.report, with
# its context), not to standard error: a control file it cannot read.
start_waiter
printf 'garbage-garbage' >"$EVTRACE_RUNDIR/99999-0.ctl"
chmod 600 "$EVTRACE_RUNDIR/99999-0.ctl"
CONSUME_REPORT=1 "$CONSUME" record "$WAIT_PID" printk >"$T/rep.out" 2>"$T/rep.err" &
rp=$!
wait_for "the engine's message to the callback" "grep -q '^report' '$T/rep.out'"
# Many reads later (200 events of the waiter's, one every 5 ms), each
# looking for new processes, it was still said once.
wait_for "200 events read" "[ \$(grep -c ' | alive ' '$T/rep.out') -ge 200 ]"
kill "$rp"; wait "$rp" 2>/dev/null || true
expect_eq "$(grep -c '^report' "$T/rep.out")" 1 "the unreadable control file said once"
expect_grep "^report (ctx): $EVTRACE_RUNDIR/99999-0.ctl: offset 0: shorter than a header$" "$T/rep.out" "the engine's message, to the callback"
expect_eq "$(cat "$T/rep.err")" "" "the consumer's standard error"
# Without the callback, standard error as before.
"$CONSUME" record "$WAIT_PID" printk >"$T/rep2.out" 2>"$T/rep2.err" &
rp=$!
wait_for "the engine's message on standard error" "grep -q 'shorter than a header' '$T/rep2.err'"
kill "$rp"; wait "$rp" 2>/dev/null || true
expect_grep "^evtrace: $EVTRACE_RUNDIR/99999-0.ctl: offset 0: shorter than a header$" "$T/rep2.err" "the message without a callback"
rm -f "$EVTRACE_RUNDIR/99999-0.ctl"
