# A program with 2000 sites that forks 200 children: its trace describes
# each event once, however many processes registered it, so metadata and
# index stay small, and every event comes back once with its value.
. "$(dirname "$0")/lib.sh"
n=200
# A sanitized child takes 0.15 s or more to fork and exit: fewer there.
if ldd "$EVTRACE" | grep -qE 'libasan|libtsan'; then n=50; fi
"$EVTRACE" record -o "$T/tr" -- "$MANY_SITES" "$n" >"$T/out"
expect_grep "sites 2000 children $n" "$T/out" "program output"
"$EVTRACE" report "$T/tr" >"$T/report"
expect_grep "^# $((n + 1)) events, 0 lost" "$T/report" "events read"
k=0
while [ $k -lt $n ]; do
	expect_eq "$(grep -c ": site $k: $k\$" "$T/report")" 1 "child $k's event"
	k=$((k + 1))
done
expect_eq "$(grep -c ': site 0: -1$' "$T/report")" 1 "parent's event"
expect_eq "$(grep -c '^stream ' "$T/tr/evtrace/index")" 1 "stream classes"
expect_eq "$(grep -c "^event .*\"printk/many_sites/" "$T/tr/evtrace/index")" 2000 "sites in the index"
expect_eq "$(grep -c "^event " "$T/tr/evtrace/index")" 2001 "events in the index (and ftrace/print)"
for f in metadata evtrace/index; do
	size=$(stat -c %s "$T/tr/$f")
	[ "$size" -lt 1048576 ] || fail "$f is $size bytes, not under 1 MiB"
done
bt_agrees "$T/tr"
