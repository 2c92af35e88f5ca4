# Truncated, corrupted and mismatched traces: errors name the file and the
# offset, the rest is still read, report exits 1, nothing crashes.
. "$(dirname "$0")/lib.sh"
"$EVTRACE" record -o "$T/tr" -- "$TRACEE" threads 2 300 >/dev/null
cp -r "$T/tr" "$T/good"
s=$(ls "$T/tr"/stream_* | head -1)
size=$(stat -c %s "$s")
# 1. A stream cut in the middle of a record.
truncate -s $((size - 5)) "$s"
expect_status 1 "$EVTRACE" report "$T/tr"
expect_grep "$s: offset 0: packet runs past the end of the file (truncated)" "$T/err" "truncated stream"
grep -q "^# [1-9][0-9]* events" "$T/out" || fail "the other streams were not read"
# 2. A bad magic.
rm -rf "$T/tr"; cp -r "$T/good" "$T/tr"
printf '\000\000\000\000' | dd of="$s" bs=1 seek=0 conv=notrunc 2>/dev/null
expect_status 1 "$EVTRACE" report "$T/tr"
expect_grep "$s: offset 0: bad packet magic" "$T/err" "bad magic"
# 3. A record whose event id is unknown: the first after the 88-byte packet
# header and the 14-byte CPU record, compact, made event 2000.
rm -rf "$T/tr"; cp -r "$T/good" "$T/tr"
printf '\320\007' | dd of="$s" bs=1 seek=102 conv=notrunc 2>/dev/null
expect_status 1 "$EVTRACE" report "$T/tr"
expect_grep "$s: offset 88: event id 2000 not in the metadata" "$T/err" "unknown event id"
# A compact record first in its packet has no CPU (nor a whole time).
rm -rf "$T/tr"; cp -r "$T/good" "$T/tr"
printf '\001\000' | dd of="$s" bs=1 seek=88 conv=notrunc 2>/dev/null
expect_status 1 "$EVTRACE" report "$T/tr"
expect_grep "$s: offset 88: record header with no CPU record before it" "$T/err" \
	"a packet not starting with a CPU record"
# 4. Content size beyond the packet.
rm -rf "$T/tr"; cp -r "$T/good" "$T/tr"
printf '\377\377\377\177' | dd of="$s" bs=1 seek=24 conv=notrunc 2>/dev/null
expect_status 1 "$EVTRACE" report "$T/tr"
expect_grep "$s: offset 0: bad packet sizes" "$T/err" "bad sizes"
# 5. An index line that does not parse names its line.
rm -rf "$T/tr"; cp -r "$T/good" "$T/tr"
sed -i '3s/.*/event 0 x/' "$T/tr/evtrace/index"
expect_status 1 "$EVTRACE" report "$T/tr"
expect_grep "$T/tr/evtrace/index:3: malformed event line" "$T/err" "bad index line"
# A function line must follow its event's line, once.
rm -rf "$T/tr"; cp -r "$T/good" "$T/tr"
fl=$(grep -n '^function ' "$T/tr/evtrace/index" | head -1 | cut -d: -f1)
[ -n "$fl" ] || fail "the index names no printk site's function"
sed -i "${fl}p" "$T/tr/evtrace/index"
expect_status 1 "$EVTRACE" report "$T/tr"
expect_grep "$T/tr/evtrace/index:$((fl + 1)): a function line not after its event's" "$T/err" \
	"a function line twice"
rm -rf "$T/tr"; cp -r "$T/good" "$T/tr"
sed -i "${fl}s/\"\$/ x/" "$T/tr/evtrace/index"
expect_status 1 "$EVTRACE" report "$T/tr"
expect_grep "$T/tr/evtrace/index:$fl: bad quoted function" "$T/err" "a function line that does not parse"
# 6. An index whose format disagrees with its stored types.
rm -rf "$T/tr"; cp -r "$T/good" "$T/tr"
sed -i 's/"seq t=%d i=%d\\n"/"seq t=%s i=%d\\n"/' "$T/tr/evtrace/index"
expect_status 1 "$EVTRACE" report "$T/tr"
expect_grep "argument types disagree with the format" "$T/err" "types vs format"
# 7. Random garbage everywhere in a stream never crashes the reader.
for seed in 1 2 3 4 5 6 7 8; do
	rm -rf "$T/tr"; cp -r "$T/good" "$T/tr"
	garble "$s" $seed
	set +e; "$EVTRACE" report "$T/tr" >/dev/null 2>&1; st=$?; set -e
	[ "$st" -le 1 ] || fail "report exited $st on garbage (seed $seed)"
done
# 8. A FIFO where a stream or the index should be: skipped or refused,
# never waited on.
rm -rf "$T/tr"; cp -r "$T/good" "$T/tr"
mkfifo "$T/tr/stream_999-0_9_0_1"
set +e; timeout 10 "$EVTRACE" report "$T/tr" >"$T/out" 2>"$T/err"; st=$?; set -e
[ "$st" != 124 ] || fail "report waited on a FIFO stream"
expect_grep "stream_999-0_9_0_1: a FIFO, not a regular file; skipped" "$T/err" "FIFO stream"
expect_grep "^# [1-9][0-9]* events" "$T/out" "the real streams still read"
rm -rf "$T/tr"; cp -r "$T/good" "$T/tr"
rm "$T/tr/evtrace/index"; mkfifo "$T/tr/evtrace/index"
set +e; timeout 10 "$EVTRACE" report "$T/tr" >"$T/out" 2>"$T/err"; st=$?; set -e
expect_eq "$st" 1 "report of a trace whose index is a FIFO"
expect_grep "evtrace/index: a FIFO, not a regular file" "$T/err" "FIFO index"
# 9. An event described twice in the index: named with the line of the
# second description.
rm -rf "$T/tr"; cp -r "$T/good" "$T/tr"
grep '^event ' "$T/tr/evtrace/index" | head -1 >>"$T/tr/evtrace/index"
n=$(wc -l <"$T/tr/evtrace/index")
dup=$(tail -1 "$T/tr/evtrace/index" | cut -d' ' -f2,3)
expect_status 1 "$EVTRACE" report "$T/tr"
expect_grep "evtrace/index:$n: event ${dup#* } of stream ${dup% *} twice" "$T/err" "an event described twice"
# 10. A stream class described twice.
rm -rf "$T/tr"; cp -r "$T/good" "$T/tr"
grep '^stream ' "$T/tr/evtrace/index" | head -1 >>"$T/tr/evtrace/index"
sid=$(tail -1 "$T/tr/evtrace/index" | cut -d' ' -f2)
expect_status 1 "$EVTRACE" report "$T/tr"
expect_grep "evtrace/index: stream $sid twice" "$T/err" "a stream class described twice"
# 11. Clocks no trace can have (a rate of 1 Hz, times past 146 years, a
# snapshot at the end of time) are refused with their line; 50,000
# snapshots read as any other trace, merged on real time with another
# (every time computed in 128 bits and clamped: no signed overflow, which
# UBSan would stop on in the sanitized run).
cl=$(grep -n '^clock ' "$T/good/evtrace/index" | cut -d: -f1)
for bad in 'clock 1 1 0 0 0' 'clock 1 2000000000 0 0 9223372036854775807' \
	   'clock 2 1000000000 18446744073709551615 0 0'; do
	rm -rf "$T/tr"; cp -r "$T/good" "$T/tr"
	sed -i "${cl}s/.*/$bad/" "$T/tr/evtrace/index"
	expect_status 1 "$EVTRACE" report "$T/tr"
	expect_grep "$T/tr/evtrace/index:$cl: clock line out of range" "$T/err" "'$bad'"
done
rm -rf "$T/tr"; cp -r "$T/good" "$T/tr"
echo 'clock-snapshot 18446744073709551615 -9223372036854775808 9223372036854775807' >>"$T/tr/evtrace/index"
expect_status 1 "$EVTRACE" report "$T/tr"
expect_grep "$T/tr/evtrace/index:$(wc -l <"$T/tr/evtrace/index"): clock-snapshot line out of range" "$T/err" "a snapshot at the end of time"
rm -rf "$T/tr"; cp -r "$T/good" "$T/tr"
python3 - "$T/tr/evtrace/index" <<'PY'
import sys
f = open(sys.argv[1], 'a')
for i in range(50000):	# values far past the trace's, a second apart
    f.write('clock-snapshot %d %d %d\n' % (2**62 - 50000 + i, 2**61 + i * 10**9, 2**61 + i * 10**9))
PY
"$EVTRACE" report --clock realtime "$T/tr" "$T/good" >"$T/out" 2>"$T/err" || true
expect_grep "^# [1-9][0-9]* events" "$T/out" "two traces, one with 50,000 hostile snapshots, merged"
