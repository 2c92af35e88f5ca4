# Every event a writer drops is counted against its site and a cause: in
# bursts through small buffers, what each site's events read and lost add
# up to is what it wrote, exactly, in query, report --stats and the
# recording's summary.  A burst that ends while the buffer is full (its
# recorder stopped) is named by the recorder at the end; with --block the
# cause is the block timeout.
. "$(dirname "$0")/lib.sh"
small="--packet-size 16384 --packets 2"
N=300000
alpha=$(tracee_event "alpha")
beta=$(tracee_event "beta")
A=$(((N + 2) / 3))
B=$((N - A))

# TRACE WHAT: each site's events read plus lost is what it wrote; nothing
# lost goes unnamed; something was lost.
exact_per_site() {
	"$EVTRACE" query --csv "$1" "SELECT s.name AS site,
		(SELECT count(*) FROM event e WHERE e.site_id = s.id) +
		(SELECT coalesce(sum(count), 0) FROM loss l WHERE l.site_id = s.id)
		AS written,
		(SELECT coalesce(sum(count), 0) FROM loss l WHERE l.site_id = s.id)
		AS lost FROM site s WHERE s.name IN ('$alpha', '$beta') ORDER BY s.name" |
		tr -d '\r' >"$T/sites" || fail "$2: query failed"
	expect_eq "$(sed -n 2p "$T/sites" | cut -d, -f1,2)" "$alpha,$A" "$2: alpha read + lost"
	expect_eq "$(sed -n 3p "$T/sites" | cut -d, -f1,2)" "$beta,$B" "$2: beta read + lost"
	[ "$(sed -n 2p "$T/sites" | cut -d, -f3)" -gt 0 ] || fail "$2: alpha lost nothing"
	[ "$(sed -n 3p "$T/sites" | cut -d, -f3)" -gt 0 ] || fail "$2: beta lost nothing"
	expect_eq "$("$EVTRACE" query --csv "$1" \
		"SELECT coalesce(sum(count), 0) AS n FROM loss WHERE site_id IS NULL" |
		tr -d '\r' | sed -n 2p)" \
		0 "$2: events lost without a site"
}

# 1. The writer outruns its recorder: each packet after a loss names it.
# shellcheck disable=SC2086
"$EVTRACE" record $small -o "$T/run" -- "$TRACEE" two-sites $N >/dev/null 2>"$T/run.err"
exact_per_site "$T/run" "a burst"
lost=$(sed -n 's/.*; \([0-9]*\) events lost$/\1/p' "$T/run.err")
expect_grep "^evtrace: record: lost $lost events: [0-9]* of printk/.*(buffer full), [0-9]* of printk/.*(buffer full)$" \
	"$T/run.err" "the summary names both sites"
"$EVTRACE" report --stats "$T/run" >"$T/stats"
alpha_lost=$(sed -n 2p "$T/sites" | cut -d, -f3)
grep -Eq "^  $alpha +buffer full +$alpha_lost$" "$T/stats" ||
	fail "report --stats: no '$alpha buffer full $alpha_lost' in $(cat "$T/stats")"
"$EVTRACE" report "$T/run" >"$T/report"
# (a line names its sites in the order they first lost: beta first or
# second)
grep -Eq ": lost [0-9]+ events: ([0-9]+ of [^ ]+ \(buffer full\), )?[0-9]+ of $beta \(buffer full\)" "$T/report" ||
	fail "no loss line of report names beta"
bt "$T/run" >"$T/bt"
grep -q "evtrace/lost: .*site = .*cause = ( \"full\"" "$T/bt" ||
	fail "babeltrace2 does not see the evtrace/lost records"

# 2. The recorder stopped before the burst: the drops are pending when
# the program ends, and the recorder, continued, names them at the end.
# BLOCK: --block's value, or empty.
stopped_burst() {
	# shellcheck disable=SC2086
	"$EVTRACE" record $small $1 -o "$T/$2" -- "$TRACEE" two-sites $N wait \
		>"$T/$2.out" 2>"$T/$2.err" &
	rec=$!
	wait_for "the program to be ready" "grep -q '^ready' '$T/$2.out'"
	prog=$(sed -n 's/^ready //p' "$T/$2.out")
	kill -STOP $rec
	kill -USR1 "$prog"
	wait_for "the program to end" "! running $prog"
	kill -CONT $rec
	wait $rec || fail "record: $(cat "$T/$2.err")"
	expect_grep "^tried $N$" "$T/$2.out" "the program ran to its end"
}
stopped_burst "" stop
exact_per_site "$T/stop" "a burst while the recorder was stopped"
expect_eq "$("$EVTRACE" query --csv "$T/stop" \
	"SELECT DISTINCT cause AS c FROM loss ORDER BY 1" | tr -d '\r' | tail -n +2 |
	paste -sd,)" \
	full "causes with no --block"

stopped_burst --block=100 block
exact_per_site "$T/block" "a burst with --block while the recorder was stopped"
expect_eq "$("$EVTRACE" query --csv "$T/block" \
	"SELECT DISTINCT cause AS c FROM loss ORDER BY 1" | tr -d '\r' | tail -n +2 |
	paste -sd,)" \
	block_timeout "causes with --block"
expect_grep "(block timeout)" "$T/block.err" "the summary says why"

# 3. Hostile lost records: one that names more than its packet lost is
# left out (the count stays the header's); one with no cause is an error
# with the file and offset, and the rest is still read.
mutate() {	# TRACE OUT WHAT: a copy with the first evtrace/lost record changed
	cp -r "$1" "$2"
	python3 - "$2" "$3" <<'PY'
import glob, struct, sys
path = sorted(glob.glob(sys.argv[1] + '/stream_*'))[0]
b = bytearray(open(path, 'rb').read())
at = b.find(b'\xff\x07\xfe\xff')       # extended header of id 0xfffe
assert at > 0, 'no evtrace/lost record'
if sys.argv[2] == 'count':
    struct.pack_into('<Q', b, at + 12 + 5, 1 << 60)
else:
    b[at + 12 + 4] = 0
open(path, 'wb').write(b)
# the record as readers count it starts with the CPU record before it
print(at - 14 if b[at - 14:at - 10] == b'\xff\x07\xff\xff' else at)
PY
}
mutate "$T/run" "$T/big" count >/dev/null
"$EVTRACE" report "$T/big" >"$T/big.txt" 2>"$T/big.err" || fail "report of a lost record counting too many: $(cat "$T/big.err")"
expect_eq "$(sed -n 's/^# .* events\{0,1\}, \([0-9]*\) lost.*/\1/p' "$T/big.txt")" "$lost" "the lost total stays the headers'"
grep -q ': lost [0-9]* events$' "$T/big.txt" || fail "the loss whose record counted too many is still shown, unnamed"
off=$(mutate "$T/run" "$T/nocause" cause)
set +e
"$EVTRACE" report "$T/nocause" >"$T/nocause.txt" 2>"$T/nocause.err"
st=$?
set -e
expect_eq "$st" 1 "report of a lost record without a cause"
expect_grep "stream_.*: offset $off: bad evtrace/lost record" "$T/nocause.err" "the error names the file and offset"
