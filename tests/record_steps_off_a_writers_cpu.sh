# A recorder that shares the CPU of a writer it cannot keep up with takes
# that CPU out of its affinity (for a second): the scheduler is made to
# put the two together (the other CPU held by two busy loops, the writer
# pinned), and the recorder's allowed CPUs are watched.  A recorder
# allowed one CPU only never changes its affinity.
. "$(dirname "$0")/lib.sh"

if [ "$(nproc)" -lt 2 ]; then
	echo "SKIP: needs 2 CPUs, this machine has $(nproc)"
	exit 77
fi
RESTORE="pkill -9 -f '$TRACEE burst 1000000000'"
allowed() { sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "/proc/$1/status" 2>/dev/null; }

taskset -c 1 sh -c 'while :; do :; done' &
BG_PIDS="$BG_PIDS $!"
taskset -c 1 sh -c 'while :; do :; done' &
BG_PIDS="$BG_PIDS $!"
taskset -c 0,1 "$EVTRACE" record -q --stats -o "$T/tr" -- taskset -c 0 "$TRACEE" burst 1000000000 \
	2>"$T/rec.err" &
rec=$!
BG_PIDS="$BG_PIDS $rec"
[ "$(allowed $rec)" = 0-1 ] || fail "the recorder was not allowed CPUs 0-1: $(allowed $rec)"
seen=""
for _ in $(seq 1000); do
	a=$(allowed $rec)
	[ "$a" = 1 ] && { seen=1; break; }
	[ -n "$a" ] || break
	sleep 0.01
done
pkill -9 -P "$rec" || true	# the program, not its recorder
wait $rec || true
[ -n "$seen" ] || fail "the recorder never left CPU 0, where the writer ran: $(cat "$T/rec.err")"
grep -q "left a writer's CPU [1-9][0-9]* times" "$T/rec.err" ||
	fail "record --stats does not count the step: $(cat "$T/rec.err")"

# Pinned to the writer's CPU by its user: it stays there.
taskset -c 0 "$EVTRACE" record -q --stats -o "$T/tr2" -- taskset -c 0 "$TRACEE" burst 1000000000 \
	2>"$T/rec2.err" &
rec=$!
BG_PIDS="$BG_PIDS $rec"
# Until taskset has set its affinity and run evtrace, $rec is allowed
# what this shell is; the recorder's program runs only after that.
wait_for "the recorder to start its program" 'pgrep -P "$rec" >/dev/null'
for _ in $(seq 50); do
	a=$(allowed $rec)
	[ -z "$a" ] || [ "$a" = 0 ] || fail "a recorder allowed CPU 0 only changed its affinity to $a"
	sleep 0.01
done
pkill -9 -P "$rec" || true	# the program, not its recorder
wait $rec || true
grep -q "left a writer's CPU 0 times" "$T/rec2.err" ||
	fail "a recorder pinned by its user stepped off: $(cat "$T/rec2.err")"
echo "ok: the recorder left the writer's CPU; pinned, it stayed"
