#!/bin/sh
# A client of evtraced that stops reading what the daemon sends it is
# dropped after the stall timeout: its command ends as if it had left, its
# collection's events go off and its slot is free again; the daemon and
# the traced program go on.
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root (test users, a daemon)"; exit 77; }
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/daemon_lib.sh"

start_served app
start_daemon --stall-timeout 1

as_bg evt-bob "$T/bin/evtrace" stream -p "$app" -e typed/all >"$T/stream.out" 2>"$T/stream.err" &
streamer=$!
BG_PIDS="$BG_PIDS $streamer"
wait_on "$app" typed/all
kill -STOP "$streamer"
# Far more lines than the socket and pipes between them hold.
feed app 20000 20000
wait_for "the stalled client's collection to go" \
	"! '$EVTRACE' ls -p '$app' typed/all | grep -q '\\['"
"$EVTRACE" ls -p "$app" >"$T/ls"
if grep -q '\[\|^# collection' "$T/ls"; then cat "$T/ls" >&2; fail "the stalled client's collection is still there"; fi
running "$DAEMON" || fail "the daemon died"
kill -CONT "$streamer"
set +e; wait "$streamer"; got=$?; set -e
[ "$got" != 0 ] || fail "the dropped client exited 0: $(cat "$T/stream.err")"
grep -q "evtraced dropped this client: it took nothing of what was sent to it for 1 s\|evtraced ended the connection" "$T/stream.err" ||
	fail "the dropped client was not told: $(cat "$T/stream.err")"
# The slot is free for the next client, and the program still traced.
as_bg evt-bob "$T/bin/evtrace" stream -p "$app" -e typed/all >"$T/stream2.out" 2>"$T/stream2.err" &
streamer2=$!
BG_PIDS="$BG_PIDS $streamer2"
wait_on "$app" typed/all
feed app 2 20002
wait_for "the next client's 2 lines" "[ \"\$(grep -c ': typed/all: ' '$T/stream2.out')\" = 2 ]"
kill -INT "$streamer2"
wait "$streamer2" || fail "the next client's stream failed: $(cat "$T/stream2.err")"

# Bob holding 16 connections (requests not yet sent) has what one user
# may: his 17th client is told to try later; alice's is served.
as_bg evt-bob python3 -c '
import socket, sys, time
held = []
for _ in range(16):
    s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); held.append(s)
print("held", flush=True)
time.sleep(4)' "$SOCK" >"$T/held.out" &
holder=$!
BG_PIDS="$BG_PIDS $holder"
wait_for "bob's 16 connections to be served" \
	"[ \"\$(grep -c 'client pid $holder uid $BOB: served' '$T/daemon.log')\" = 16 ]"
as_status evt-bob 1 "$T/bin/evtrace" ls -p "$app"
expect_eq "$(cat "$T/err")" "evtrace: evtraced: serving as many clients of your user as it may; try again later" "bob's 17th client"
as_status evt-carol 0 "$T/bin/evtrace" ls -p "$app"
expect_grep "^# pid $app (typed)" "$T/out" "carol served beside bob's 16"
kill "$holder" 2>/dev/null || true
