# A program built with these headers, whose C sites test a flag byte, run
# with a libevtrace that maps no flag pages (0.1.9 and older, built here
# as one: tests/as_0_1_9): its sites call in and read their enable word,
# so that what is enabled is recorded, exactly.
. "$(dirname "$0")/lib.sh"
two=$(site_flags_event "site two")
env LD_LIBRARY_PATH="$OLD_LIB_DIR" "$SITE_FLAGS" >"$T/out" &
p=$!
BG_PIDS="$BG_PIDS $p"
wait_for "the program" "grep -q ready '$T/out'"
grep -q " $OLD_LIB_DIR/libevtrace.so" "/proc/$p/maps" ||
	fail "the program did not load the old library: $(grep libevtrace "/proc/$p/maps")"
ask() { answer "$p" "$T/out" "$1"; }
expect_eq "$(ask USR2)" "flags 2 mapped 0" "no page mapped; both sites' bytes set by the module"
ask USR1 >/dev/null
# Rounds 2 and 3 are recorded, site two's only.
"$EVTRACE" record -q -p "$p" -e "$two" -o "$T/tr" 2>"$T/rec.err" &
rec=$!
BG_PIDS="$BG_PIDS $rec"
wait_for "the recording's collection" "collection_in $p $rec"
ask USR1 >/dev/null
ask USR1 >/dev/null
kill -INT "$rec"
wait "$rec" || fail "record -p: $(cat "$T/rec.err")"
expect_eq "$(ask USR1)" "flags 2 mapped 0" "the bytes stay set"
kill -TERM "$p"
wait "$p" || fail "the program did not end well"
"$EVTRACE" report "$T/tr" >"$T/report"
expect_eq "$(grep -o 'site [a-z]* [0-9]*' "$T/report" | tr '\n' ,)" "site two 2,site two 3," \
	"the events recorded"
# A program of two units (one module): the first unit's constructor sets
# the module's sites' bytes, the second unit's as well as its own.
mkfifo "$T/in"
: >"$T/out"	# (not the last program's "ready")
env LD_LIBRARY_PATH="$OLD_LIB_DIR" "$TWO_UNITS" <"$T/in" >"$T/out" 2>"$T/err" &
p=$!
BG_PIDS="$BG_PIDS $p"
exec 8>"$T/in"
wait_for "the program of two units" "grep -q ready '$T/out'"
"$EVTRACE" record -q -p "$p" -e printk/two_units/ -o "$T/tr2" 2>"$T/rec2.err" &
rec=$!
BG_PIDS="$BG_PIDS $rec"
wait_for "the recording's collection" "collection_in $p $rec"
round 0
kill -INT "$rec"
wait "$rec" || fail "record -p: $(cat "$T/rec2.err")"
exec 8>&-
wait "$p" || fail "the program of two units failed: $(cat "$T/err")"
expect_eq "$("$EVTRACE" report "$T/tr2" | grep -o 'inline [ab] [0-9]*$' | tr '\n' ,)" \
	"inline a 0,inline b 0," "both units' sites through the old library"
echo "ok: new sites through an old library: every enabled event, no other"
