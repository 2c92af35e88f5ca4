# record --relay: a numbered program streamed to a real lttng-relayd and
# read live by babeltrace2's lttng-live source while it runs (every event
# once, in order, seen before the program ends), then from what the relay
# stored (the same events as the local copy); three recordings as three
# hosts into one relay at once; relays that misbehave cost the program
# nothing and the recorder a bounded wait, with a clear message; a relay
# killed and started again mid-recording; one that comes late, what did
# not fit the queue counted exactly.
. "$(dirname "$0")/lib.sh"

P=$(free_ports3)
seq_site=$(tracee_event "seq t=")	# the events of "tracee threads"
numbers() {	# TRACE-OR-FILE: the arg0 of each "burst" event, in order
	if [ -f "$1" ]; then cat "$1"; else babeltrace2 "$1"; fi |
		sed -n 's/.*tracee\.c\/[0-9]*: .*{ arg0 = \([0-9]*\) }.*/\1/p'
}
start_relay -v

# 1. Live, and what the relay keeps.  The program waits to be told to
# begin until the live reader has attached (the relay's log says so), and
# to end until the reader has shown every event: so it is live.
"$EVTRACE" record -q --relay 127.0.0.1:$P --session numbered --hostname hostA \
	-e printk -o "$T/local" -- "$TRACEE" paced 3000 1 -2 >"$T/rec.out" 2>"$T/rec.err" &
REC=$!
wait_for "the program to be ready" "grep -q '^ready' '$T/rec.out'" "cat '$T/rec.err'"
prog=$(sed -n 's/^ready \([0-9]*\)$/\1/p' "$T/rec.out")
wait_for "a session on the relay" "ls -d '$T'/relay/hostA/numbered-* >/dev/null 2>&1" "cat '$T/rec.err'"
timeout 60 babeltrace2 --input-format=lttng-live \
	"net://127.0.0.1:$((P + 2))/host/hostA/numbered" >"$T/live.out" 2>"$T/live.err" &
LIVE=$!
wait_for "the live reader to attach" "grep -q 'Attach session ID' '$T/relayd.log'" "cat '$T/live.err'"
kill -USR1 "$prog"
wait_for "the program's events" "grep -q '^burst done' '$T/rec.out'"
wait_for "every event seen live" "[ \$(numbers '$T/live.out' | wc -l) -ge 3000 ]" "cat '$T/live.err'"
running "$REC" || fail "the program ended before the live reader saw its events"
kill -USR1 "$prog"
wait $REC || { cat "$T/rec.err" >&2; fail "record failed"; }
wait $LIVE || { cat "$T/live.err" >&2; fail "the live reader failed"; }
seq 0 2999 >"$T/expected"
numbers "$T/live.out" >"$T/live.n"
cmp -s "$T/live.n" "$T/expected" || { diff "$T/expected" "$T/live.n" | head >&2; fail "live: not every event once, in order"; }
numbers "$T/relay/hostA" >"$T/stored.n"
cmp -s "$T/stored.n" "$T/expected" || fail "the relay's trace: not every event once, in order"
numbers "$T/local" >"$T/local.n"
cmp -s "$T/local.n" "$T/expected" || fail "the local copy: not every event once, in order"
# The relay's trace says what the local one does, event for event (the
# relay's has the open packets in pieces, each opened by a CPU event).
strip() {
	babeltrace2 "$1" | grep -v ' evtrace/cpu: ' |
		sed 's/^\[[^]]*\] ([^)]*) [^ ]* //; s/first_event = [0-9]*, //'
}
strip "$T/relay/hostA" >"$T/stored.txt"
strip "$T/local" >"$T/local.txt"
cmp -s "$T/stored.txt" "$T/local.txt" || { diff "$T/local.txt" "$T/stored.txt" | head >&2; fail "the relay's trace differs from the local one"; }
# evtrace report reads the relay's copy (its index is in the metadata's
# comments) as it reads the local one; the times differ by the local
# copy's clock calibration, refined at its end, by a few ns at most.
stored=$(ls -d "$T"/relay/hostA/numbered-*/trace)
"$EVTRACE" report "$stored" | sed 's/ [0-9]*\.[0-9]*: / T: /' >"$T/stored.rep"
"$EVTRACE" report "$T/local" | sed 's/ [0-9]*\.[0-9]*: / T: /' >"$T/local.rep"
cmp -s "$T/stored.rep" "$T/local.rep" || { diff "$T/local.rep" "$T/stored.rep" | head >&2; fail "report differs on the relay's copy"; }
expect_grep "^# 3000 events, 0 lost" "$T/stored.rep" "report's summary of the relay's copy"
# A relay copy whose metadata lost its index, or has a bad one.
cp -r "$stored" "$T/mangled"
grep -v "^evtrace-index\|^/\* evtrace-index" "$stored/metadata" >"$T/mangled/metadata"
expect_status 1 "$EVTRACE" report "$T/mangled"
expect_grep "metadata: not an evtrace trace's metadata" "$T/err" "metadata without an index"
sed 's/^event 0 /evnt 0 /' "$stored/metadata" >"$T/mangled/metadata"
expect_status 1 "$EVTRACE" report "$T/mangled"
expect_grep "metadata:[0-9]*: unknown line" "$T/err" "a bad index line"
expect_grep "streaming to session numbered as hostA/numbered-" "$T/rec.err" "where it went"
expect_grep "relay 127.0.0.1 took [1-9][0-9]* packets in 1 session$" "$T/rec.err" "what the relay took"

# 2. Three hosts into one relay at once, each its own trace there.
for h in h1 h2 h3; do
	"$EVTRACE" record -q --relay 127.0.0.1:$P --session fleet --hostname $h \
		-e printk -- "$TRACEE" threads 2 500 >/dev/null 2>"$T/$h.err" &
	eval "PID_$h=\$!"
done
for h in h1 h2 h3; do
	eval "wait \$PID_$h" || { cat "$T/$h.err" >&2; fail "$h: record failed"; }
	n=$(babeltrace2 "$T/relay/$h" | grep -c "$seq_site: ")
	expect_eq "$n" 1000 "$h: events the relay stored"
	babeltrace2 "$T/relay/$h" | grep -q " $h printk/" || fail "$h: the trace is not $h's"
done

# Kernel events go too, in the same timeline: report on the relay's copy
# says what it says on the local one.
"$EVTRACE" record -q --relay 127.0.0.1:$P --session kern --hostname hostK -o "$T/klocal" \
	-e printk -e kernel/sched/sched_process_fork -e kernel/sched/sched_process_exit \
	-- "$TRACEE" fork >/dev/null 2>"$T/k.err" || { cat "$T/k.err" >&2; fail "kernel events with --relay"; }
"$EVTRACE" report "$(ls -d "$T"/relay/hostK/kern-*/trace)" | sed 's/ [0-9]*\.[0-9]*: / T: /' >"$T/k.relay"
"$EVTRACE" report "$T/klocal" | sed 's/ [0-9]*\.[0-9]*: / T: /' >"$T/k.local"
cmp -s "$T/k.relay" "$T/k.local" || { diff "$T/k.local" "$T/k.relay" >&2; fail "kernel events: the relay's copy differs"; }
# (At least the program's two processes: a sanitizer's helpers add some.)
[ "$(grep -c 'kernel/sched/sched_process_exit' "$T/k.relay")" -ge 2 ] &&
	[ "$(grep -c 'kernel/sched/sched_process_fork' "$T/k.relay")" -ge 1 ] ||
	{ cat "$T/k.relay" >&2; fail "kernel events missing from the relay's copy"; }

# consumer.h's relay mode: a tool streams a running program's printk
# events to the relay; every event once, in order, nothing lost, and the
# tool's numbers say so.  Its bad attributes are refused with the form.
"$TRACEE" paced 2000 1 -1 >"$T/paced.out" 2>&1 &
tp=$!
BG_PIDS="$BG_PIDS $tp"
wait_for "the paced program" "grep -q ready '$T/paced.out'"
sites=$("$EVTRACE" ls -p $tp | grep -c '^[01X?] printk/.*[^/]$')
"$CONSUME" relay "$tp" printk 127.0.0.1:$P tool hostT >"$T/tool.out" 2>"$T/tool.err" &
tool=$!
wait_for "the relay consumer" "grep -q '^added' '$T/tool.out'"
kill -USR1 "$tp"
wait "$tool" || { cat "$T/tool.out" "$T/tool.err" >&2; fail "consume relay failed"; }
wait $tp || fail "the program under the relay consumer failed"
[ "$sites" -gt 40 ] || fail "the tracee lists $sites printk events"
expect_eq "$(head -1 "$T/tool.out")" "added $sites" "events the relay consumer added (the tracee's printk events)"
expect_grep "^counts: -1 a relay consumer counts nothing: evt_consumer_read()$" "$T/tool.out" "counts of a relay consumer"
expect_grep "^relay sessions=1 packets>0=1 refused=0 queued=0 lost=0$" "$T/tool.out" "what the relay consumer says it sent"
expect_grep "relay 127.0.0.1:$P: streaming to session tool as hostT/tool-" "$T/tool.err" "where the relay consumer streamed"
seq 0 1999 >"$T/expected"
numbers "$T/relay/hostT" >"$T/tool.n"
cmp -s "$T/tool.n" "$T/expected" || { diff "$T/expected" "$T/tool.n" | head >&2; fail "the relay consumer's trace: not every event once, in order"; }
expect_status 1 "$CONSUME" relay "$tp" printk 127.0.0.1:0
expect_eq "$(cat "$T/out")" "open: relay '127.0.0.1:0': HOST, HOST:PORT or HOST:PORT:DATA_PORT (ports 1 to 65535; [ADDRESS] for IPv6)" "a relay consumer's bad address"
expect_status 1 "$CONSUME" relay "$tp" printk 127.0.0.1 ok ../etc
expect_eq "$(cat "$T/out")" "open: relay session or host name '../etc': 1 to 64 letters, digits, '.', '_' or '-', not starting with '.'" "a relay consumer's bad host name"
CONSUME_RELAY_MIB=4097 expect_status 1 "$CONSUME" relay "$tp" printk 127.0.0.1
expect_eq "$(cat "$T/out")" "open: relay_buffer_mib 4097: 1 to 4096, or 0" "a relay consumer's bad queue size"

# 3. Misbehaving relays: the program runs to its end (exit 0, its events
# all in the local copy); record ends within its bounds and says why.
FAKE_PY='
import os, socket, sys, time
how, port = sys.argv[1], int(sys.argv[2])
ls = socket.socket(); ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
ls.bind(("127.0.0.1", port)); ls.listen(8)
ds = socket.socket(); ds.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
ds.bind(("127.0.0.1", port + 1)); ds.listen(8)
open(sys.argv[3], "w").close()
held = []
while True:
    c, _ = ls.accept(); d, _ = ds.accept(); held += [c, d]
    if how == "garbage":
        c.recv(64); c.sendall(os.urandom(3) + b"\x07" + os.urandom(4))
    elif how == "close":
        c.recv(10); c.close(); d.close()
    # "silent": accepts and never reads
'
fake() {	# BEHAVIOUR: a fake relay on port $F, its pid in FAKE
	# Two ports free when looked at; one taken before the fake binds it
	# (the fake once did not listen) makes it exit: another pair.
	for _ in 1 2 3; do
		F=$(free_ports3)
		python3 -c "$FAKE_PY" "$1" "$F" "$T/fake.ready" 2>/dev/null &
		FAKE=$!
		BG_PIDS="$BG_PIDS $FAKE"
		# (Not probed by connecting: it takes connections in pairs.)
		for _ in $(seq 100); do
			[ -e "$T/fake.ready" ] && rm "$T/fake.ready" && return
			running "$FAKE" || break
			sleep 0.05
		done
	done
	fail "the fake relay did not listen"
}
for how in garbage close silent; do
	fake $how
	t0=$(date +%s%N)
	"$EVTRACE" record -q --relay 127.0.0.1:"$F" -o "$T/$how" -e printk -- \
		"$TRACEE" threads 2 500 >"$T/$how.out" 2>"$T/$how.err" ||
		{ cat "$T/$how.err" >&2; fail "$how: record or the program failed"; }
	ms=$((($(date +%s%N) - t0) / 1000000))
	[ "$ms" -lt 25000 ] || fail "$how: record took $ms ms"
	expect_grep "tried 1000" "$T/$how.out" "$how: the program ran to its end"
	expect_eq "$(babeltrace2 "$T/$how" | grep -c "$seq_site: ")" 1000 "$how: the local copy"
	expect_grep "relay 127.0.0.1 took 0 packets in 0 sessions; [0-9]* packets* could not be sent before the end" \
		"$T/$how.err" "$how: what the relay did not take"
	kill "$FAKE"
done
expect_grep "relay: 127.0.0.1:[0-9]*: relay protocol version\|relay: 127.0.0.1:[0-9]*: lttng-relayd .* is too old\|relay: 127.0.0.1:[0-9]*: what answered is not an lttng-relayd" \
	"$T/garbage.err" "a garbage answer"
expect_grep "closed the connection before answering VERSION" "$T/close.err" "a connection closed mid-command"
expect_grep "did not answer VERSION within 5 s" "$T/silent.err" "a relay that never reads"

# 4. The relay killed mid-recording and started again 1 s later: the
# program runs on unharmed (its events all in the local copy, on time),
# record says it reconnected, and the relay holds two traces, each read
# whole, in order, nothing twice; between them every event (a packet the
# first did not acknowledge goes again, first, to the second).
"$EVTRACE" record --relay 127.0.0.1:$P --session restart --hostname hostR \
	-e printk -o "$T/rlocal" -- "$TRACEE" paced 4000 1 200 >"$T/r.out" 2>"$T/r.err" &
REC=$!
wait_for "the first session" "grep -q 'streaming to session restart' '$T/r.err'" "cat '$T/r.err'"
wait_for "packets in the first session" "ls '$T'/relay/hostR/restart-*/trace/stream_* >/dev/null 2>&1"
kill -9 "$RELAYD"
wait "$RELAYD" 2>/dev/null || true
sleep 1
start_relay
t0=$(date +%s%N)
wait $REC || { cat "$T/r.err" >&2; fail "record failed across the relay's restart"; }
ms=$((($(date +%s%N) - t0) / 1000000))
[ "$ms" -lt 12000 ] || fail "record ended $ms ms after the relay came back"
expect_grep "tried 4000" "$T/r.out" "the program ran to its end"
expect_eq "$(numbers "$T/rlocal" | wc -l)" 4000 "the local copy"
expect_grep "closed the connection before answering\|Connection reset\|Connection refused" "$T/r.err" "the failure said"
expect_grep "reconnected: a new session restart as hostR/restart-" "$T/r.err" "the reconnection said"
expect_grep "took [0-9]* packets in 2 sessions" "$T/r.err" "two sessions"
expect_eq "$(ls -d "$T"/relay/hostR/restart-* | wc -l)" 2 "relay traces"
# The first may end in a packet cut by the kill; the second reads whole.
babeltrace2 "$(ls -d "$T"/relay/hostR/restart-* | tail -1)" >/dev/null ||
	fail "the trace after the restart does not read"
: >"$T/union"
for d in "$T"/relay/hostR/restart-*; do
	numbers "$d" >"$T/part" 2>/dev/null
	sort -n -c "$T/part" 2>/dev/null && [ -z "$(uniq -d "$T/part")" ] ||
		fail "$d: events out of order or twice"
	cat "$T/part" >>"$T/union"
done
sort -n -u "$T/union" >"$T/union.n"
seq 0 3999 >"$T/expected6"
cmp -s "$T/union.n" "$T/expected6" || fail "events missing from both relay traces: $(comm -23 "$T/expected6" "$T/union.n" | wc -l)"

# 4b. A relay that answers each packet's index but never writes its data
# (as lttng-relayd's control thread answers before its data thread has
# written): a proxy forwards the control connection and swallows the data
# of the first session, then drops both.  What was swallowed goes again in
# the next session, which the proxy forwards whole: none lost.
HOLES_PY='
import os, socket, sys, threading
port, relay, swallowed, cut = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
def listen(p):
    s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("127.0.0.1", p)); s.listen(8); return s
def pump(a, b, keep):
    n = 0
    try:
        while (buf := a.recv(65536)):
            if keep: b.sendall(buf)
            else:
                n += len(buf)
                with open(swallowed, "w") as f: f.write(str(n))
    except OSError: pass
ls, ds = listen(port), listen(port + 1)
open(sys.argv[5], "w").close()
first = True
while True:
    c, _ = ls.accept(); d, _ = ds.accept()
    rc = socket.create_connection(("127.0.0.1", relay))
    rd = socket.create_connection(("127.0.0.1", relay + 1))
    pairs = [(c, rc, True), (rc, c, True), (d, rd, not first), (rd, d, True)]
    for a, b, keep in pairs:
        threading.Thread(target=pump, args=(a, b, keep), daemon=True).start()
    if first:
        while not os.path.exists(cut): threading.Event().wait(0.02)
        for x in (c, d, rc, rd): x.shutdown(socket.SHUT_RDWR)
        first = False
'
H=$(free_ports3)
python3 -c "$HOLES_PY" "$H" "$P" "$T/swallowed" "$T/cut" "$T/holes.ready" 2>"$T/holes.log" &
BG_PIDS="$BG_PIDS $!"
wait_for "the proxy to listen" "[ -e '$T/holes.ready' ]"
"$EVTRACE" record --relay 127.0.0.1:$H --session holes --hostname hostH \
	-e printk -o "$T/hlocal" -- sh -c '"$1" paced 2000 1 1 && until [ -e "$2" ]; do sleep 0.05; done' \
	sh "$TRACEE" "$T/hgo" >"$T/h.out" 2>"$T/h.err" &
REC=$!
wait_for "the program's events" "grep -q '^tried 2000$' '$T/h.out'"
# (the recorder drains the program's last events 100 ms after them at most)
wait_for "the relay to be sent packets" "[ \"\$(cat '$T/swallowed' 2>/dev/null)\" -gt 4096 ]"
touch "$T/cut"
wait_for "the reconnection" "grep -q 'reconnected: a new session holes' '$T/h.err'"
touch "$T/hgo"
wait $REC || { cat "$T/h.err" >&2; fail "record failed across the swallowing relay"; }
expect_grep "took [0-9]* packets in 2 sessions" "$T/h.err" "two sessions"
: >"$T/hunion"
for d in "$T"/relay/hostH/holes-*; do numbers "$d" >>"$T/hunion" 2>/dev/null; done
sort -n -u "$T/hunion" >"$T/hunion.n"
seq 0 1999 >"$T/expected_h"
cmp -s "$T/hunion.n" "$T/expected_h" ||
	fail "events the relay never wrote were not sent again: $(comm -23 "$T/expected_h" "$T/hunion.n" | wc -l) missing"

# 5. No relay until the traced program has ended (its command, a shell,
# waits on), and 1 MiB for what waits: the packets past it are dropped,
# and counted exactly in the relay's trace (read + lost = written) once
# the relay is there, the count in the stream's last packet, queued when
# the queue was full; record says how many did not fit.
kill -9 "$RELAYD"
wait "$RELAYD" 2>/dev/null || true
"$EVTRACE" record --relay 127.0.0.1:$P --relay-buffer 1 --session late --hostname hostL \
	-e printk -- sh -c '"$1" paced 200000 100 200 && until [ -e "$2" ]; do sleep 0.1; done' \
	sh "$TRACEE" "$T/go" >"$T/l.out" 2>"$T/l.err" &
REC=$!
for _ in $(seq 200); do grep -q '^tried' "$T/l.out" && break; sleep 0.05; done
grep -q '^tried 200000$' "$T/l.out" || fail "the program under the late relay did not end"
wait_for "record to find no relay" "grep -q 'Connection refused' '$T/l.err'"
start_relay
wait_for 'ls -d relay/hostL/late-* >/dev/null 2>&1' 'ls -d "$T"/relay/hostL/late-* >/dev/null 2>&1'
touch "$T/go"
wait $REC || { cat "$T/l.err" >&2; fail "record failed with a late relay"; }
expect_grep "Connection refused; recording on, trying again" "$T/l.err" "the refusal said"
expect_grep "packets did not fit its queue" "$T/l.err" "the overflow said"
late=$(ls -d "$T"/relay/hostL/late-*/trace)
# (lttng-relayd writes what it got on its own time: the recording's last
# packet, which names the relay's losses, may reach the files after
# record has ended)
# (what the reader says is kept: a fresh clone's CI run here waited the
# whole 30 s once, and nothing told whether the packet never came or the
# trace did not read)
named_loss() {
	"$EVTRACE" query --no-cache --csv "$late" "SELECT count(*) FROM loss WHERE cause = 'relay_full'" \
		>"$T/named.out" 2>"$T/named.err" && sed -n 2p "$T/named.out" | grep -q '^[1-9]'
}
_tries=0
until named_loss; do
	_tries=$((_tries + 1))
	if [ "$_tries" -ge 600 ]; then
		echo "query said: $(cat "$T/named.out" "$T/named.err")" >&2
		echo "record said: $(cat "$T/l.err")" >&2
		ls -l "$late" >&2
		tail -5 "$T/relayd.log" >&2
		fail "waited 30 s for the relay to write the packet that names its losses"
	fi
	sleep 0.05
done
"$EVTRACE" report "$late" >"$T/late.rep" || fail "the late relay's trace does not read"
read_n=$(grep -c 'tracee.c/[0-9]*: burst' "$T/late.rep")
lost_n=$(sed -n 's/^# \([0-9]*\) events, \([0-9]*\) lost.*/\2/p' "$T/late.rep")
[ "$lost_n" -gt 0 ] || fail "nothing was lost: the queue did not overflow"
[ $((read_n + lost_n)) = 200000 ] ||
	{ cat "$T/l.err" >&2; fail "read + lost in the relay's trace: $read_n + $lost_n, not 200000"; }
numbers "$late" >"$T/late.n"
sort -n -c "$T/late.n" && [ -z "$(uniq -d "$T/late.n")" ] || fail "late: out of order or twice"
# What did not fit is named, all of it, against its site, for the cause:
# in record's summary and in the relay's trace.
burst_site=printk/tracee/tests/progs/tracee.c/$(grep -n 'trace_printk("burst %ld' "$TRACEE_SRC" | sed -n 2p | cut -d: -f1)
expect_grep "^evtrace: record: the relay's trace lost $lost_n events: $lost_n of $burst_site (relay queue full)\$" \
	"$T/l.err" "record names what the relay's queue refused"
burst_id=$("$EVTRACE" query --no-cache --csv "$late" "SELECT id FROM site WHERE format LIKE 'burst%'" | sed -n 2p | tr -d '\r')
expect_eq "$("$EVTRACE" query --no-cache --csv "$late" \
	"SELECT coalesce(cause, 'unnamed'), site_id = $burst_id, sum(count) FROM loss GROUP BY 1, 2" | tail -n +2 | tr -d '\r')" \
	"relay_full,1,$lost_n" "the loss named by site and cause"


# 6. Bad input.
expect_status 1 "$EVTRACE" record --relay 127.0.0.1:99999 -- true
expect_status 1 "$EVTRACE" record --relay no-such-host.invalid -- true
expect_status 2 "$EVTRACE" record --relay 127.0.0.1 --overwrite -- true
expect_status 2 "$EVTRACE" record --session x -- true
expect_status 2 "$EVTRACE" record --relay-buffer 8 -- true
expect_status 1 "$EVTRACE" record --relay 127.0.0.1 --relay-buffer 0 -- true
expect_grep "MiB, 1 to 4096" "$T/err" "a bad --relay-buffer"
expect_status 1 "$EVTRACE" record --relay 127.0.0.1 --session ../x -- true
"$EVTRACE" record --relay 127.0.0.1:99999 -- true 2>"$T/bad.err" || true
expect_grep "ports 1 to 65535" "$T/bad.err" "a bad port"
"$EVTRACE" record --relay no-such-host.invalid -- true 2>"$T/bad.err" || true
expect_grep "relay host no-such-host.invalid:" "$T/bad.err" "a host that does not resolve"
"$EVTRACE" record --relay 127.0.0.1 --session ../x -- true 2>"$T/bad.err" || true
expect_grep "letters, digits" "$T/bad.err" "a bad session name"
exit 0
