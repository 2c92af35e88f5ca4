# Every field type, extremes included, goes through record, CTF, report
# and babeltrace2 with the same values; a library that defines the same
# event shares it.
. "$(dirname "$0")/lib.sh"
"$EVTRACE" record -o "$T/tr" -e 'typed/*' -- "$TYPED" rows >/dev/null
"$EVTRACE" report "$T/tr" >"$T/report"
sed -n 's/^.*\] [0-9.]*: //p' "$T/report" >"$T/got"
m=$(printf 'm%.0s' $(seq 255))
l=$(printf 'l%.0s' $(seq 252))
seq=$(seq -s ', ' 0 2047)
cat >"$T/want" <<WANT
typed/all: u8=0 i8=0 u16=0 i16=0 u32=0 i32=0 u64=0 i64=0 color=red flag=false real=0 tag="" trio=[0, 0, 0] text="" seq=[] from_lib=0
typed/all: u8=255 i8=-128 u16=65535 i16=-32768 u32=4294967295 i32=-2147483648 u64=18446744073709551615 i64=-9223372036854775808 color=blue flag=true real=-1.5e-300 tag="abcdefgh" trio=[-2147483648, 0, 2147483647] text="$m" seq=[1, 2, 65535] from_lib=0
typed/all: u8=0 i8=127 u16=0 i16=32767 u32=0 i32=2147483647 u64=0 i64=9223372036854775807 color=7 flag=false real=3.25 tag="ab" trio=[1, 2, 3] text="$l..." seq=[$seq] from_lib=0
typed/all: u8=0 i8=0 u16=0 i16=0 u32=42 i32=300 u64=0 i64=0 color=green flag=false real=0 tag="" trio=[0, 0, 0] text="from the library" seq=[] from_lib=1
WANT
diff -u "$T/want" "$T/got" || fail "typed events render differently"
bt "$T/tr" >"$T/bt"
python3 "$CHECK" typed "$T/report" "$T/bt" typed/ >"$T/agree" || fail "babeltrace2 disagrees"
expect_grep '^4 typed events agree' "$T/agree" "babeltrace2 comparison"
# One event for both modules, and no stable view written: not enabled.
expect_eq "$(grep -c ' stable/' "$T/report" || true)" 0 "stable records"
grep -q '"typed/all"' "$T/tr/metadata" || fail "no typed/all in the CTF metadata"

# Many events as fast as they go: each read once, in order, and read +
# lost = written.
"$EVTRACE" record -o "$T/many" -e 'typed/*' -- "$TYPED" count 100000 >/dev/null 2>"$T/many.rec"
"$EVTRACE" report "$T/many" >"$T/many.txt" 2>"$T/many.err"
sed -n 's/^.*typed\/all: u8=0 i8=0 u16=0 i16=0 u32=\([0-9]*\) .*/\1/p' "$T/many.txt" >"$T/nums"
sort -n -c -u "$T/nums" || fail "events out of order or read twice"
read_n=$(wc -l <"$T/nums")
lost=$(sed -n 's/^# [0-9]* events, \([0-9]*\) lost.*/\1/p' "$T/many.txt")
[ "$((read_n + lost))" = 100000 ] || {
	# Seen once in many runs (0 read, 0 lost): say all there is to know.
	cat "$T/many.rec" "$T/many.err" >&2; tail -3 "$T/many.txt" >&2
	ls -la "$T/many" "$T/many/evtrace" >&2; grep -c '^event' "$T/many/evtrace/index" >&2
	fail "events read + lost: expected 100000, got $((read_n + lost))"
}
[ "$read_n" -gt 0 ] || fail "no event read"
bt_agrees "$T/many"

# format --trace: the formats the trace recorded, with no process running.
"$EVTRACE" format --trace "$T/tr" typed/all >"$T/format" || fail "format --trace"
expect_grep "$(printf '^\tfield:u64\ttype:uint64_t\tsize:64\talign:8\tsigned:0;$')" "$T/format" "a field's line"
expect_eq "$(grep -c 'field:\|array:\|string:\|sequence:' "$T/format")" 16 "every field of typed/all"
expect_status 1 "$EVTRACE" format --trace "$T/tr" typed/none
expect_grep "^evtrace: format: typed/none: no such event in $T/tr$" "$T/err" "an event the trace does not have"
expect_status 1 "$EVTRACE" format --trace "$T/nowhere" typed/all
expect_grep "^evtrace: format: $T/nowhere: not an evtrace trace" "$T/err" "no trace there"

# A filter compares 64-bit integers exactly (through a double, the two
# values past 2^53 below were the same number).
for f in 'u64 == 18446744073709551615|1' 'u64 == 18446744073709551614|0' 'u64 > 18446744073709551614|1' \
	 'i64 == -9223372036854775808|1' 'i64 == -9223372036854775807|0' 'i64 < -9223372036854775807|1' \
	 'i64 == 9223372036854775807|1' 'i64 >= 9223372036854775806|1'; do
	expect_eq "$("$EVTRACE" report -F "typed/all if ${f%|*}" "$T/tr" | grep -c ': typed/all: ' || true)" "${f#*|}" \
		"rows with ${f%|*}"
done
