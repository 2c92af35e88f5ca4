# record --block: a writer whose buffer is full waits for the recorder
# instead of dropping; a recorder that stops answering costs a thread one
# wait, after which it drops and counts until the recorder reads again; a
# recorder that dies leaves the program unharmed.  --block=inf: nothing
# lost with both CPUs held by other work; a recorder stopped for longer
# than a second is waited for that second, then events are dropped and
# counted.
. "$(dirname "$0")/lib.sh"
small="--packet-size 16384 --packets 2"
lost_of() { sed -n 's/.*; \([0-9]*\) events\{0,1\} lost$/\1/p' "$1" | head -1; }
# The numbers of a report's "burst N" events, in order.  (awk: sed's
# s/.*: burst \(...\)/ takes seconds on 200,000 lines.)
bursts() { awk '$(NF - 1) == "burst" { print $NF }' "$@"; }

# 1. Without --block, a burst through small buffers loses events.
# shellcheck disable=SC2086
"$EVTRACE" record -o "$T/drop" $small -- "$TRACEE" burst 200000 >/dev/null 2>"$T/drop.err"
[ "$(lost_of "$T/drop.err")" -gt 0 ] || fail "no loss without --block: nothing to show"

# 2. With --block=inf, none, with both CPUs held by other work: every
# event once, in order.  (A bounded --block may run out on a busy machine
# even while the recorder reads: that loss is counted, not a fault, so
# the bounded waits are shown against a stopped recorder, below.)
for _ in 1 2; do sh -c 'while :; do :; done' & BG_PIDS="$BG_PIDS $!"; done
hogs=$BG_PIDS
# shellcheck disable=SC2086
"$EVTRACE" record --block=inf -o "$T/inf" $small -- "$TRACEE" burst 200000 >/dev/null 2>"$T/inf.err"
expect_eq "$(lost_of "$T/inf.err")" 0 "events lost with --block=inf and busy CPUs"
"$EVTRACE" report "$T/inf" | bursts |
	awk '$1 != NR - 1 { exit 1 } END { exit NR == 200000 ? 0 : 1 }' ||
	fail "--block=inf: not every burst event once and in order"
# shellcheck disable=SC2086
kill $hogs 2>/dev/null || true

# 3. A recorder stopped (SIGSTOP) while the program writes: the program
# waits 100 ms once (its slowest write shows it), then drops, the drops
# named as a wait that ran out; it ends while the recorder is still
# stopped.  Continued, the recorder writes what it had: read + lost is
# what was written.
N=400000
# stopped_recorder BLOCK NAME WAIT_MS: the program under record --BLOCK,
# its recorder stopped while it writes; the program must end while it is
# stopped, one write having waited WAIT_MS at least, and, continued, the
# recorder writes what it had: read + lost is what was written, the drops
# named as a wait that ran out.  Sets lost.
stopped_recorder() {
	# shellcheck disable=SC2086
	TRACEE_SLOWEST=1 "$EVTRACE" record "--$1" -o "$T/$2" $small -- "$TRACEE" paced $N 1000 300 \
		>"$T/$2.out" 2>"$T/$2.err" &
	rec=$!
	wait_for "the program under --$1" "pgrep -P $rec >/dev/null"
	prog=$(pgrep -P $rec)
	wait_for "the program to write" "[ -n \"\$(ls '$EVTRACE_RUNDIR' | grep '^$prog-')\" ]"
	kill -STOP $rec
	i=0
	while running "$prog" && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	running "$prog" && { kill -CONT $rec; fail "--$1: the program still runs 10 s after its recorder stopped"; }
	kill -CONT $rec
	wait $rec || fail "record --$1: $(cat "$T/$2.err")"
	expect_grep "^tried $N$" "$T/$2.out" "--$1: the program ran to its end"
	lost=$(lost_of "$T/$2.err")
	[ "$lost" -gt 0 ] || fail "--$1: no event dropped while the recorder was stopped"
	read=$("$EVTRACE" report "$T/$2" | grep -c ': burst [0-9]*$')
	expect_eq "$((read + lost))" $N "--$1: events read and lost"
	expect_grep "^evtrace: record: lost $lost events: $lost of printk/tracee/.* (block timeout)" "$T/$2.err" \
		"--$1: the drops named as a wait that ran out"
	slowest=$(sed -n 's/^slowest \([0-9]*\) us$/\1/p' "$T/$2.out")
	[ "$((slowest / 1000))" -ge "$3" ] ||
		fail "--$1: the slowest write took $((slowest / 1000)) ms: it did not wait $3 ms"
}
stopped_recorder block=100 stop 100

# 3b. The same with --block=inf: the program waits the second a stopped
# recorder is given, then drops.
stopped_recorder block=inf stopinf 1000

# 4. A recorder killed: the program is not held up, whether its threads
# wait a bounded time or as long as the recorder lives.
for block in block=1000 block=inf; do
	# shellcheck disable=SC2086
	"$EVTRACE" record --$block -o "$T/kill" $small -- "$TRACEE" paced $N 1000 300 \
		>"$T/kill.out" 2>/dev/null &
	rec=$!
	wait_for "the program under --$block" "pgrep -P $rec >/dev/null"
	prog=$(pgrep -P $rec)
	wait_for "the program to write" "[ -n \"\$(ls '$EVTRACE_RUNDIR' | grep '^$prog-')\" ]"
	kill -9 $rec
	wait $rec 2>/dev/null || true
	i=0
	while running "$prog" && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	running "$prog" && { kill -9 "$prog"; fail "--$block: the program still runs 10 s after its recorder died"; }
	expect_grep "^tried $N$" "$T/kill.out" "--$block: the program ran to its end"
	rm -rf "$T/kill"
done

# 5. Bad values.
expect_status 1 "$EVTRACE" record --block=0 -- true
expect_grep "evtrace: record: --block=0: a wait in milliseconds, 1 to 1000, or inf$" "$T/err" "--block=0"
expect_status 1 "$EVTRACE" record --block=1001 -- true
expect_grep "1 to 1000" "$T/err" "--block=1001"
expect_status 1 "$EVTRACE" record --block=5ms -- true
expect_status 2 "$EVTRACE" record --block --overwrite -- true
expect_grep "\-\-block and \-\-overwrite exclude each other" "$T/err" "--block --overwrite"
echo "ok: $lost of $N dropped while the recorder was stopped, none with it running"
