# consumer.h's triggers (evt_consumer_arm): a flight consumer of every
# process in its run directory, armed with a span trigger, writes one
# window for each slow span of a program started after it, as record
# --trigger does: each holding its span whole and the event that fired
# it, said to the tool's callback with where it fired, and described in
# its evtrace/trigger; the summary comes when the consumer is closed.
. "$(dirname "$0")/lib.sh"

# (the windows' directory first: the consumer arms on it at once)
mkdir "$T/w"
CONSUME_AFTER_MS=20 "$CONSUME" triggers 0 'span/**' "$T/w" 'span req > 100ms' \
	>"$T/c" 2>"$T/c.err" &
c=$!
BG_PIDS="$BG_PIDS $c"
wait_for "the consumer's triggers" "grep -q '^armed' '$T/c'"
expect_eq "$(head -2 "$T/c" | tr '\n' ' ')" "added 0 armed 0 " "the flight consumer armed"
# Three slow spans (250 ms) among short ones, on two threads.
"$SPANS" slow 3 250 >"$T/out" 2>&1 || fail "the program: $(cat "$T/out")"
expect_grep '^slow done$' "$T/out" "the program ran to its end"
# classify_windows: each window said since the last call, checked, and
# its firing span in seen: "slow N" (one of the three), or "late" for a
# short one that a loaded machine kept open past 100 ms (its trigger was
# right, and it is checked as the others).
: >"$T/seen"
classify_windows() {
	grep '^window ' "$T/c" | tail -n +$(($(wc -l <"$T/seen") + 1)) >"$T/windows"
	while read -r _ dir held pid tid rest; do
		k=$(($(wc -l <"$T/seen") + 1))
		expect_eq "$dir" "$T/w/window-$k" "window $k's directory"
		expect_eq "$held" held=1 "window $k holds its firing event"
		expect_eq "$rest" "trigger=span req > 100ms event=span/req" "window $k's trigger"
		f=$dir/evtrace/trigger
		expect_grep "^pid: ${pid#pid=}$" "$f" "window $k's pid in its evtrace/trigger"
		expect_grep "^tid: ${tid#tid=}$" "$f" "window $k's tid in its evtrace/trigger"
		expect_grep '^firing_event: held$' "$f" "window $k's evtrace/trigger"
		at=$(sed -n 's/^monotonic_ns: //p' "$f")
		# (a span fires at its end when the consumer did not see it
		# open past 100 ms, an end the triggers' stream and the window
		# place on the clock each by its own measurement: 10 us either
		# way)
		row=$("$EVTRACE" query --no-cache --csv "$dir" "SELECT args, state,
			dur > 100000000 FROM slice WHERE tid = ${tid#tid=} AND name = 'req'
			AND ts <= $at + 10000 AND ts + dur >= $at - 10000
			ORDER BY dur DESC LIMIT 1" | tail -n +2 | tr -d '\r')
		case $row in
		"slow "*,complete,1) echo "${row%%,*}" >>"$T/seen";;
		short,complete,1) echo late >>"$T/seen";;
		*) fail "window $k: not a span whole and over 100 ms at its firing: '$row'";;
		esac
	done <"$T/windows"
}
wait_for "the three slow spans' windows" \
	"classify_windows; [ \$(grep -c '^slow ' '$T/seen') -ge 3 ]"
kill -TERM "$c"
wait "$c" || fail "the consumer: $(cat "$T/c" "$T/c.err")"
classify_windows
expect_eq "$(grep '^slow ' "$T/seen" | sort -u | wc -l) $(grep -c '^slow ' "$T/seen")" "3 3" \
	"the three slow spans, one window each: $(cat "$T/c")"
n=$(wc -l <"$T/seen")
expect_eq "$(grep -c '^window ' "$T/c")" "$n" "windows said to the callback"
expect_grep "^evtrace: consumer: triggers fired $n times, $n windows written$" "$T/c.err" \
	"the summary as the consumer closed"
