#!/bin/sh
# A client of evtraced that stops reading what the daemon sends it is
# dropped after the stall timeout: its command ends as if it had left, its
# collection's events go off and its slot is free again; the daemon and
# the traced program go on.
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root (test users, a daemon)"; exit 77; }
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/daemon_lib.sh"

start_served app
"$EVTRACE" daemon --socket "$SOCK" --stall-timeout 1 2>"$T/daemon.log" &
DAEMON=$!
BG_PIDS="$BG_PIDS $DAEMON"
for _ in $(seq 100); do [ -S "$SOCK" ] && break; sleep 0.05; done
[ -S "$SOCK" ] || fail "evtraced did not start: $(cat "$T/daemon.log")"

as_bg evt-bob "$T/bin/evtrace" stream -p "$app" -e typed/all >"$T/stream.out" 2>"$T/stream.err" &
streamer=$!
BG_PIDS="$BG_PIDS $streamer"
wait_on "$app" typed/all
kill -STOP "$streamer"
# Far more lines than the socket and pipes between them hold.
feed app 20000 20000
for _ in $(seq 300); do
	"$EVTRACE" ls -p "$app" typed/all | grep -q '\[' || break
	sleep 0.05
done
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
for _ in $(seq 100); do [ "$(grep -c ': typed/all: ' "$T/stream2.out")" = 2 ] && break; sleep 0.05; done
expect_eq "$(grep -c ': typed/all: ' "$T/stream2.out")" 2 "lines of the next client: $(cat "$T/stream2.err")"
kill -INT "$streamer2"
wait "$streamer2" || fail "the next client's stream failed: $(cat "$T/stream2.err")"
