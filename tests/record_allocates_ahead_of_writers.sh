# The recorder allocates a writer's buffer pages ahead of it, from the
# buffer's second packet on, so that the writer's first pass only maps
# them: after 3,000 events (past the first 16 KiB packet of a 512 x 16 KiB
# buffer) the process's control file holds 2 MiB more; after 10 events
# (a packet not yet full) nothing is allocated ahead.
. "$(dirname "$0")/lib.sh"

# allocated N: the KiB the control file of a process that wrote N events
# holds once the recorder has looked (the most seen in 2 s, or the first
# 2 MiB or more).
allocated() {
	: >"$T/out"
	"$EVTRACE" record -q --packet-size 16384 --packets 512 -o "$T/tr$1" -- \
		"$TRACEE" burst-wait "$1" >"$T/out" 2>"$T/rec.err" &
	rec=$!
	BG_PIDS="$BG_PIDS $rec"
	wait_for 'the program to say ready in out' 'grep -q ready "$T/out"'
	pid=$(sed -n 's/^ready //p' "$T/out")
	[ -n "$pid" ] || fail "tracee burst-wait $1 did not start: $(cat "$T/rec.err")"
	ctl=$(ls "$EVTRACE_RUNDIR/$pid"-*.ctl)
	most=0
	for _ in $(seq 40); do
		kib=$(($(stat -c '%b * %B' "$ctl") / 1024))
		[ "$kib" -gt "$most" ] && most=$kib
		[ "$most" -ge 2048 ] && break
		sleep 0.05
	done
	kill "$pid"
	wait "$rec" || true
	echo "$most"
}
few=$(allocated 10)
many=$(allocated 3000)
[ "$few" -lt 1024 ] || fail "10 events: $few KiB allocated, as if ahead of a writer that filled no packet"
# (Without it, 3,000 events take some 70 KiB more than 10.)
[ "$many" -ge $((few + 1536)) ] ||
	fail "3,000 events: $many KiB allocated, not 2 MiB ahead of the writer (10 events: $few KiB)"
echo "ok: 10 events $few KiB, 3,000 events $many KiB"
