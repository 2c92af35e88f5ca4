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

# 2000 sites ask for a huge page for the event table (lib/process.c):
# the process, outside any recording, holds one where the kernel gives
# them on request (THP "always" or "madvise").
thp=$(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null || echo "[never]")
case $thp in
*"[never]"*) echo "not checked: transparent huge pages are off here ($thp)" ;;
*)
	"$MANY_SITES" 0 wait >"$T/wait.out" &
	BG_PIDS="$BG_PIDS $!"
	wait_for 'the program to say ready in wait.out' 'grep -q ready "$T/wait.out"'
	pid=$(sed -n 's/^ready //p' "$T/wait.out")
	[ -n "$pid" ] || fail "many_sites 0 wait did not start"
	huge=$(sed -n 's/^AnonHugePages: *\([0-9]*\) kB/\1/p' "/proc/$pid/smaps_rollup")
	[ "${huge:-0}" -ge 2048 ] ||
		fail "2000 sites: ${huge:-no} kB of huge pages, not the event table's 2048"
	kill "$pid"
	;;
esac
