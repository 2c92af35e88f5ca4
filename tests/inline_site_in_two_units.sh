# A static inline function with a trace_printk(), compiled by two units
# of one program: two sites of one file, line and format, each tested by
# its own unit's flag byte, are two events (the second's path ends in
# -1).  Enabling one records its unit's site alone; enabling both
# records both, each round.
. "$(dirname "$0")/lib.sh"
mkfifo "$T/in"
"$TWO_UNITS" <"$T/in" >"$T/out" 2>"$T/err" &
p=$!
BG_PIDS="$BG_PIDS $p"
exec 8>"$T/in"
wait_for "the program" "grep -q ready '$T/out'"
dir=printk/two_units/tests/progs/inline_site.h
"$EVTRACE" ls -p "$p" "$dir/" >"$T/ls"
first=$(sed -n "s|^0 \($dir/[0-9][0-9]*\)\$|\1|p" "$T/ls")
[ -n "$first" ] || fail "no event of inline_site.h: $(cat "$T/ls")"
expect_eq "$(grep -c "^0 $dir/[0-9]" "$T/ls")" 2 "the two units' sites, two events"
expect_grep "^0 $first-1\$" "$T/ls" "the second event's path"
# record_rounds NAME PATTERN FIRST: rounds FIRST and FIRST+1 under
# record -p -e PATTERN; what was recorded, in $T/NAME.got, comma-joined.
record_rounds() {
	"$EVTRACE" record -q -p "$p" -e "$2" -o "$T/$1" 2>"$T/$1.err" &
	rec=$!
	BG_PIDS="$BG_PIDS $rec"
	wait_for "the recording's collection" "collection_in $p $rec"
	round "$3"
	round $(($3 + 1))
	kill -INT "$rec"
	wait "$rec" || fail "record -p: $(cat "$T/$1.err")"
	"$EVTRACE" report "$T/$1" | grep -o 'inline [ab] [0-9]*$' | tr '\n' , >"$T/$1.got"
}
round 0
record_rounds one "$first" 1
one=$(cat "$T/one.got")
case "$one" in
"inline a 1,inline a 2," | "inline b 1,inline b 2,") ;;
*) fail "one event enabled: recorded '$one', not one unit's rounds 1 and 2" ;;
esac
record_rounds both "$dir/" 3
expect_eq "$(cat "$T/both.got")" "inline a 3,inline b 3,inline a 4,inline b 4," \
	"both events enabled: both units' sites"
round 5
exec 8>&-
wait "$p" || fail "the program failed: $(cat "$T/err")"
echo "ok: one inline site in two units, two events, each recorded when enabled"
