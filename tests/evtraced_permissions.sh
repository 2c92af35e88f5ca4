# evtraced, the system engine, with real users: alice's program, traced in
# a run directory only she can open; bob, who may list its
# events and record those flagged CAP_ANY, through the daemon, and is
# refused the rest with the event and the rule named; carol, in the group
# alice's second program opted into, who may do anything to that one;
# root, who reaches it without the daemon.  Then what the daemon must
# survive: no daemon at all, garbage, half messages, huge lengths, a
# directory that is not the client's, and its own death mid-recording.
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root (test users, a daemon)"; exit 77; }
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/daemon_lib.sh"

start_served app
SECRET=printk/typed/tests/progs/typed.c/$(grep -n 'trace_printk("secret' "$TYPED_SRC" | cut -d: -f1)
NOBODY="root or user evt-alice (it opted into no group)"

# No daemon: bob is told, and how to start one.
as_status evt-bob 1 "$T/bin/evtrace" ls -p "$app"
expect_grep "evtrace: ls: pid $app is user evt-alice's: another user's processes are reached through evtraced, and none is running ($SOCK: " "$T/err" "no daemon"
expect_grep "start it as root with 'evtrace daemon'" "$T/err" "how to start one"

start_daemon
expect_status 1 "$EVTRACE" daemon --socket "$SOCK"
expect_grep "evtrace: daemon: $SOCK: another evtraced listens there" "$T/err" "a second daemon"

# Bob may list and read formats.
as_status evt-bob 0 "$T/bin/evtrace" ls -p "$app"
expect_grep "^# pid $app (typed)" "$T/out" "bob lists alice's program"
expect_grep "^0 typed/all$" "$T/out" "bob sees typed/all"
as_status evt-bob 0 "$T/bin/evtrace" ls --ids -p "$app" typed/all
TYPED_ID=$(sed -n 's/^0 typed\/all id=\([0-9]*\)$/\1/p' "$T/out")
[ -n "$TYPED_ID" ] || fail "no id from ls --ids through the daemon: $(cat "$T/out")"
expect_eq "$(sed -n "$((TYPED_ID + 1))p" "$R/alice/run/event-ids" | cut -d' ' -f2)" typed/all "the id in alice's registry"
as_status evt-bob 0 "$T/bin/evtrace" format -p "$app" typed/all
expect_grep "flags:CAP_ANY" "$T/out" "the format bob reads"

# evtraced's audit: a line per request, who asked what and what came of it.
BOB=$(id -u evt-bob)
expect_grep "^evtraced: client pid [0-9]* uid $BOB (evt-bob): asks ls -p $app\$" "$T/daemon.log" "the audit: what bob asked"
expect_grep "^evtraced: client pid [0-9]* uid $BOB (evt-bob): served, exit status 0\$" "$T/daemon.log" "the audit: served"

# A process that exists but is not traced is not called missing: pid 1
# (whose pid namespace the daemon may not be allowed to read, in a
# sandbox) gets either why.
as_status evt-bob 1 "$T/bin/evtrace" ls -p 1
grep -q "no such process" "$T/err" && fail "ls -p 1 through evtraced: $(cat "$T/err")"
expect_grep "^evtrace: ls: pid 1: \(no traced process with this pid\|not traced\|evtraced cannot read its pid namespace\)" "$T/err" "ls -p 1 says why"

# He may not switch her events, read her default collection, or record
# fields of events not flagged CAP_ANY.
as_status evt-bob 1 "$T/bin/evtrace" enable -p "$app" printk
expect_eq "$(cat "$T/err")" "evtrace: enable: printk in pid $app (typed, user evt-alice): switching another user's events needs privilege towards the process: $NOBODY" "enable refused"
expect_grep "^evtraced: client pid [0-9]* uid $BOB (evt-bob): asks enable -p $app printk\$" "$T/daemon.log" "the audit: the enable asked"
expect_grep "^evtraced: client pid [0-9]* uid $BOB (evt-bob): refused: printk in pid $app (typed, user evt-alice): switching another user's events needs privilege" \
	"$T/daemon.log" "the audit: the enable refused, and why"
# Root of a container of his own (a user namespace) is still bob.
set +e
as evt-bob unshare --user --map-root-user sh -c 'id -u; exec "$@"' sh \
	"$T/bin/evtrace" enable -p "$app" printk >"$T/out" 2>"$T/err"
got=$?
set -e
expect_eq "$got" 1 "enable by a container's root"
expect_eq "$(head -1 "$T/out")" 0 "bob is uid 0 in his user namespace"
expect_grep "^evtrace: enable: printk in pid $app (typed, user evt-alice): switching another user's events needs privilege towards the process" \
	"$T/err" "a container's root is not the host's root"
expect_grep "^evtraced: client pid [0-9]* uid $BOB (evt-bob): asks enable -p $app printk\$" "$T/daemon.log" "evtraced takes him for bob"
as_status evt-bob 1 "$T/bin/evtrace" disable -p "$app" typed
expect_grep "evtrace: disable: typed in pid $app (typed, user evt-alice): switching another user's events needs privilege" "$T/err" "disable refused"
as_status evt-bob 1 "$T/bin/evtrace" stream -p "$app"
expect_eq "$(cat "$T/err")" "evtrace: stream: pid $app (typed, user evt-alice): reading its default collection needs privilege towards the process: $NOBODY; give -e for a stream of your own" "stream of the default collection refused"
as_status evt-bob 1 "$T/bin/evtrace" record -p "$app" -o "$T/bob/no"
expect_eq "$(cat "$T/err")" "evtrace: record: pid $app (typed, user evt-alice): without -e, record takes every printk event, and recording their fields needs privilege towards the process: $NOBODY; give -e for events flagged CAP_ANY" "record without -e refused"
as_status evt-bob 1 "$T/bin/evtrace" record -p "$app" -e typed -e printk -o "$T/bob/no"
expect_eq "$(cat "$T/err")" "evtrace: record: $SECRET in pid $app (typed, user evt-alice): recording its fields needs privilege towards the process: $NOBODY; others may record only events flagged CAP_ANY" "record of a printk event refused"
as_status evt-bob 1 "$T/bin/evtrace" record -p "$app" -e typed -e kernel/sched/sched_switch -o "$T/bob/nok"
expect_eq "$(cat "$T/err")" "evtrace: record: kernel/sched/sched_switch: kernel events of another user's process are the kernel's to grant (root or CAP_PERFMON), and evtraced does not open them for anyone: a user's evtrace opens those of their own processes itself" "kernel events through evtraced refused"
[ ! -e "$T/bob/nok" ] || fail "a refused record left a directory"
as_status evt-bob 1 "$T/bin/evtrace" record --block -p "$app" -e typed -o "$T/bob/nob"
expect_eq "$(cat "$T/err")" "evtrace: record: pid $app (typed, user evt-alice): making another user's threads wait for your reader (--block, block_ms) needs privilege towards the process: $NOBODY; read without it (what your reader misses is counted)" "a stranger's --block refused: it would set alice's pace"
CONSUME_BLOCK_MS=inf as_status evt-bob 1 "$T/bin/consume" record "$app" typed/
expect_grep "making another user's threads wait for your reader" "$T/out" "a stranger's consumer with block_ms refused"
[ ! -e "$T/bob/nob" ] || fail "a refused --block record left a directory"
as_status evt-bob 1 "$T/bin/evtrace" record --relay 127.0.0.1:1 -p "$app" -e printk
expect_grep "evtrace: record: $SECRET in pid $app (typed, user evt-alice): recording its fields needs privilege" "$T/err" "--relay of a printk event refused"
as_status evt-bob 1 "$T/bin/evtrace" stream -p "$app" -e 'printk/typed/*'
expect_grep "evtrace: stream: $SECRET in pid $app (typed, user evt-alice): recording its fields needs privilege" "$T/err" "stream of a printk event refused"
as_status evt-bob 1 "$T/bin/evtrace" stream -p "$app" -e kernel/syscalls/sys_enter_getppid
expect_eq "$(cat "$T/err")" "evtrace: stream: kernel/syscalls/sys_enter_getppid: kernel events of another user's process are the kernel's to grant (root or CAP_PERFMON), and evtraced does not open them for anyone: a user's evtrace opens those of their own processes itself" "stream of another user's kernel events refused"
"$EVTRACE" ls -p "$app" >"$T/ls"
if grep -q '^1 \|\[' "$T/ls"; then cat "$T/ls" >&2; fail "a refused request switched something on"; fi

# He may not count her events either: that would put every counted site
# of her hot paths on the counting path (perf asks ptrace access for it).
as_status evt-bob 1 "$T/bin/evtrace" count -p "$app" -e typed
expect_eq "$(cat "$T/err")" "evtrace: count: pid $app (typed, user evt-alice): counting another user's events needs privilege towards the process: $NOBODY (it would put the process's counted sites on the counting path; perf asks ptrace access for the same)" "count refused"
as_status evt-bob 1 "$T/bin/consume" count "$app" typed
expect_grep "counting another user's events needs privilege towards the process: $NOBODY" "$T/out" "a counting consumer refused"
"$EVTRACE" ls -p "$app" >"$T/ls"
if grep -q '^1 \|\[' "$T/ls"; then cat "$T/ls" >&2; fail "a refused count switched something on"; fi

# What he may do, with exact numbers: record and stream typed/all
# (CAP_ANY) while the program emits 5 rows, in the two slots open to
# other users; a third collection of his is refused, while alice's own
# still gets a slot.
as_bg evt-bob "$T/bin/evtrace" record -p "$app" -e typed -o "$T/bob/tr" 2>"$T/record.err" &
recorder=$!
as_bg evt-bob "$T/bin/evtrace" stream -p "$app" -e typed/all >"$T/stream.out" 2>"$T/stream.err" &
streamer=$!
BG_PIDS="$BG_PIDS $recorder $streamer"
wait_for "2 collections in alice's program" "collections_applied $app 2"
expect_eq "$("$EVTRACE" ls -p "$app" | sed -n 's/^# collection 2[2-5][0-9]: .* (slot \([0-9]\))$/\1/p' | sort | tr '\n' ' ')" "6 7 " "the slots of bob's collections: $(cat "$T/record.err" "$T/stream.err")"
as_status evt-bob 1 "$T/bin/evtrace" stream -p "$app" -e typed/all
expect_grep "pid $app: not streamed: every collection slot of the process is taken (slot 6: collection 2[2-5][0-9]: pid [0-9]*, evtrace .*; slot 7: collection 2[2-5][0-9]: pid " "$T/err" "bob's third collection"
as_bg evt-alice env EVTRACE_RUNDIR="$R/alice/run" "$T/bin/evtrace" stream -p "$app" -e typed/all >"$T/alice.out" 2>"$T/alice.err" &
alices=$!
BG_PIDS="$BG_PIDS $alices"
wait_for "3 collections in alice's program" "collections_applied $app 3"
"$EVTRACE" ls -p "$app" >"$T/ls"
expect_grep "^# collection 1: pid $alices, evtrace stream -e typed/all (slot 1)" "$T/ls" "alice's stream beside bob's two: $(cat "$T/alice.err")"
kill -TERM "$alices"
wait "$alices" || fail "alice's stream failed: $(cat "$T/alice.err")"
feed app 5 5
# (the recording drains the rest when it ends; the stream prints as it goes)
wait_for "bob's stream to print 5 rows" "[ \"\$(grep -c ': typed/all: ' '$T/stream.out')\" = 5 ]"
kill -TERM "$recorder" "$streamer"
wait "$recorder" || fail "bob's record failed: $(cat "$T/record.err")"
wait "$streamer" || fail "bob's stream failed: $(cat "$T/stream.err")"
expect_grep "written to $T/bob/tr; 0 events lost" "$T/record.err" "bob's recording, named as he named it"
expect_eq "$(stat -c %U "$T/bob/tr" "$T/bob/tr/metadata" "$T/bob/tr/evtrace/index" | sort -u)" evt-bob "owner of bob's trace files"
"$EVTRACE" report "$T/bob/tr" >"$T/report"
expect_eq "$(grep -c ': typed/all: ' "$T/report")" 5 "typed/all rows in bob's trace"
expect_eq "$(sed -n 's/.*: typed\/all: .* u32=\([0-9]*\) .*/\1/p' "$T/report" | tr '\n' ' ')" "0 1 2 3 4 " "typed/all values in bob's trace"
expect_eq "$(grep -c 'secret\|ftrace/print' "$T/report" || true)" 0 "events bob may not record in his trace"
bt_agrees "$T/bob/tr"
expect_eq "$(sed -n 's/.*: typed\/all: .* u32=\([0-9]*\) .*/\1/p' "$T/stream.out" | tr '\n' ' ')" "0 1 2 3 4 " "typed/all values bob streamed"
"$EVTRACE" ls -p "$app" >"$T/ls"
if grep -q '^1 \|\[' "$T/ls"; then cat "$T/ls" >&2; fail "bob's collections left events on"; fi

# His own tool, on consumer.h, reads through the daemon too: typed/all
# with its fields, and a refusal for the rest.
: >"$T/consume.out"	# (emptied first: what the last one wrote must not count)
as_bg evt-bob "$T/bin/consume" record "$app" typed/ >>"$T/consume.out" 2>&1 &
consumer=$!
BG_PIDS="$BG_PIDS $consumer"
wait_on "$app" typed/all
feed app 3 8
wait_for "bob's consumer to read 3 events" "[ \$(grep -c '^typed/all ' '$T/consume.out') = 3 ]"
kill "$consumer"
expect_eq "$(head -1 "$T/consume.out")" "added 1" "bob's consumer added typed/all"
expect_grep "^typed/all id=$TYPED_ID pid=$app " "$T/consume.out" "the id bob's consumer reads"
expect_eq "$(sed -n 's/^typed\/all id=[0-9]* pid='"$app"' .* u32=u:\([0-9]*\) .*text=s:6:shared .*/\1/p' "$T/consume.out" | tr '\n' ' ')" "5 6 7 " "typed/all records bob's consumer read"
as_status evt-bob 3 env CONSUME_REFUSED_EXIT=1 "$T/bin/consume" record "$app" printk
expect_eq "$(head -1 "$T/out")" "added -1: $SECRET in pid $app (typed, user evt-alice): recording its fields needs privilege towards the process: $NOBODY; others may record only events flagged CAP_ANY" "bob's consumer refused a printk event"
as_status evt-bob 3 env CONSUME_REFUSED_EXIT=1 "$T/bin/consume" record "$app" kernel/syscalls/sys_enter_getppid
expect_eq "$(head -1 "$T/out")" "added -1: kernel/syscalls/sys_enter_getppid: kernel events of another user's process are the kernel's to grant (root or CAP_PERFMON), and evtraced does not open them for anyone: a user's evtrace opens those of their own processes itself" "bob's consumer refused a kernel event"
"$EVTRACE" ls -p "$app" >"$T/ls"
if grep -q '\[' "$T/ls"; then cat "$T/ls" >&2; fail "bob's consumers left events on"; fi

# A filter through the daemon: his stream shows the typed/all rows whose
# u32 is 9 or more, the daemon's worker testing the fields; a filter on
# an event he may not record is refused as an -e of it is.
: >"$T/fstream.out"
as_bg evt-bob "$T/bin/evtrace" stream -p "$app" -F 'typed/all if u32 >= 9' >>"$T/fstream.out" 2>"$T/fstream.err" &
fstream=$!
BG_PIDS="$BG_PIDS $fstream"
wait_on "$app" typed/all "$fstream" "$T/fstream.err"
feed app 3 11
wait_for "bob's filtered stream to print 2 rows" "[ \"\$(grep -c ': typed/all: ' '$T/fstream.out')\" = 2 ]"
kill -INT "$fstream"
wait "$fstream" || fail "bob's filtered stream: $(cat "$T/fstream.err")"
expect_eq "$(sed -n 's/.*: typed\/all: .* u32=\([0-9]*\) .*/\1/p' "$T/fstream.out" | tr '\n' ' ')" "9 10 " "rows bob's filter let through"
expect_grep "^evtraced: client pid [0-9]* uid $BOB (evt-bob): asks stream -p $app -F typed/all if u32 >= 9\$" "$T/daemon.log" "the audit: the filter asked"
as_status evt-bob 1 "$T/bin/evtrace" stream -p "$app" -F 'printk/typed/* if arg0 > 1'
expect_grep "evtrace: stream: $SECRET in pid $app (typed, user evt-alice): recording its fields needs privilege" "$T/err" "a filter on a printk event refused"

# Bob streams typed/all to an lttng-relayd through the daemon (its
# worker connects, as root, where he said): the relay files it under the
# host and session he named, and it reads as his local trace did.
P=$(free_ports3)
start_relay
as_bg evt-bob "$T/bin/evtrace" record -p "$app" -e typed --relay 127.0.0.1:$P \
	--session bobs --hostname hostB --relay-buffer 2 2>"$T/relay.err" &
recorder=$!
BG_PIDS="$BG_PIDS $recorder"
wait_on "$app" typed/all
feed app 4 15
kill -TERM "$recorder"	# (it drains and sends the rest as it ends)
wait "$recorder" || fail "bob's relay record failed: $(cat "$T/relay.err")"
expect_grep "for relay 127.0.0.1; 0 events lost" "$T/relay.err" "bob's relay recording"
expect_grep "relay 127.0.0.1 took [1-9][0-9]* packets\{0,1\} in 1 session$" "$T/relay.err" "what the relay took for bob"
stored=$(ls -d "$T"/relay/hostB/bobs-*/trace) || fail "no trace of bob's on the relay: $(cat "$T/relay.err")"
"$EVTRACE" report "$stored" >"$T/report"
expect_eq "$(sed -n 's/.*: typed\/all: .* u32=\([0-9]*\) .*/\1/p' "$T/report" | tr '\n' ' ')" "11 12 13 14 " "typed/all values bob streamed to the relay"
expect_eq "$(grep -c 'secret\|ftrace/print' "$T/report" || true)" 0 "events bob may not record, on the relay"
expect_eq "$(babeltrace2 "$stored" | grep -c ' typed/all: ')" 4 "babeltrace2 on bob's relay trace"
# His own tool streams too (consumer.h's relay mode, through the daemon),
# and is refused a printk event as record is.
as_bg evt-bob "$T/bin/consume" relay "$app" typed/ 127.0.0.1:$P bobtool hostBT >"$T/tool.out" 2>&1 &
tool=$!
BG_PIDS="$BG_PIDS $tool"
wait_on "$app" typed/all
feed app 2 17
kill -TERM "$tool"	# (it sends the rest as it closes)
wait "$tool" || fail "bob's relay consumer exited $?: $(cat "$T/tool.out")"
expect_eq "$(head -1 "$T/tool.out")" "added 1" "bob's relay consumer added typed/all"
expect_grep "^relay sessions=1 packets>0=1 refused=0 queued=0 lost=0$" "$T/tool.out" "what bob's relay consumer says it sent"
stored=$(ls -d "$T"/relay/hostBT/bobtool-*/trace) || fail "no trace of bob's tool on the relay: $(cat "$T/tool.out")"
"$EVTRACE" report "$stored" >"$T/report"
expect_eq "$(sed -n 's/.*: typed\/all: .* u32=\([0-9]*\) .*/\1/p' "$T/report" | tr '\n' ' ')" "15 16 " "typed/all values bob's tool streamed to the relay"
as_status evt-bob 3 env CONSUME_REFUSED_EXIT=1 "$T/bin/consume" relay "$app" printk 127.0.0.1:$P
expect_eq "$(head -1 "$T/out")" "added -1: $SECRET in pid $app (typed, user evt-alice): recording its fields needs privilege towards the process: $NOBODY; others may record only events flagged CAP_ANY" "bob's relay consumer refused a printk event"
kill "$RELAYD"

# A flight recorder with a trigger, through evtraced (its worker runs the
# recording, triggers and windows as record does): bob's trigger on
# typed/all fires on the row it names, and its window, his, holds that row
# and the one before it.  A trigger or --keep on an event he may not
# record is refused as an -e of it is; one on kernel events too.
as_bg evt-bob "$T/bin/evtrace" record --overwrite -p "$app" -e typed \
	--trigger 'typed/all if u32 == 18' -o "$T/bob/fl" 2>"$T/fl.err" &
flight=$!
BG_PIDS="$BG_PIDS $flight"
wait_for "bob's flight recorder and triggers in alice's program" "collections_applied $app 2" \
	"cat '$T/fl.err'"
feed app 3 20
wait_for "the trigger's window" "[ -s '$T/bob/fl/window-1/evtrace/trigger' ]" "cat '$T/fl.err'"
# His snapshot of it, through evtraced too: the rows so far.
as_status evt-bob 0 "$T/bin/evtrace" snapshot -p "$app" -o "$T/bob/snap"
expect_grep "^evtrace: snapshot: .* from 1 process written to $T/bob/snap; 0 events overwritten before it, 0 lost$" \
	"$T/err" "bob's snapshot"
expect_eq "$(stat -c %U "$T/bob/snap" "$T/bob/snap/metadata" | sort -u)" evt-bob "owner of bob's snapshot"
expect_eq "$("$EVTRACE" report "$T/bob/snap" | sed -n 's/.*: typed\/all: .* u32=\([0-9]*\) .*/\1/p' | tr '\n' ' ')" \
	"17 18 19 " "the rows in bob's snapshot"
# By its collection's number too, as ls names it.
num=$("$EVTRACE" ls -p "$app" | sed -n 's/^# collection \([0-9]*\): .*evtrace record -o .*/\1/p' | head -1)
[ -n "$num" ] || fail "bob's flight recorder not listed: $("$EVTRACE" ls -p "$app" | grep '^#')"
as_status evt-bob 0 "$T/bin/evtrace" snapshot -p "$app" --collection "$num" -o "$T/bob/snap2"
expect_eq "$("$EVTRACE" report "$T/bob/snap2" | sed -n 's/.*: typed\/all: .* u32=\([0-9]*\) .*/\1/p' | tr '\n' ' ')" \
	"17 18 19 " "the rows in bob's snapshot by collection number"
kill -TERM "$flight"
wait "$flight" || fail "bob's flight recorder failed: $(cat "$T/fl.err")"
expect_grep "^evtrace: record: --trigger 'typed/all if u32 == 18' fired on typed/all (pid $app, tid [0-9]*): window $T/bob/fl/window-1$" \
	"$T/fl.err" "bob's trigger fired"
expect_grep "^evtrace: record: triggers fired 1 time, 1 window written$" "$T/fl.err" "the triggers' summary"
expect_grep '^firing_event: held$' "$T/bob/fl/window-1/evtrace/trigger" "the window holds its firing row"
expect_eq "$(stat -c %U "$T/bob/fl/window-1" "$T/bob/fl/window-1/evtrace/trigger" | sort -u)" evt-bob "owner of bob's window"
"$EVTRACE" report "$T/bob/fl/window-1" >"$T/report"
sed -n 's/.*: typed\/all: .* u32=\([0-9]*\) .*/\1/p' "$T/report" | tr '\n' ' ' >"$T/rows"
grep -q "^\(.* \)\?17 18 " "$T/rows" || fail "bob's window: rows '$(cat "$T/rows")', not 17 then 18"
expect_eq "$(grep -c 'secret\|ftrace/print' "$T/report" || true)" 0 "events bob may not record in his window"
as_status evt-bob 1 "$T/bin/evtrace" record --overwrite -p "$app" -e typed --trigger "$SECRET" -o "$T/bob/no"
expect_eq "$(cat "$T/err")" "evtrace: record: $SECRET in pid $app (typed, user evt-alice): recording its fields needs privilege towards the process: $NOBODY; others may record only events flagged CAP_ANY" "a trigger on a printk event refused"
as_status evt-bob 1 "$T/bin/evtrace" record --overwrite -p "$app" -e typed --keep "$SECRET" -o "$T/bob/no"
expect_eq "$(cat "$T/err")" "evtrace: record: $SECRET in pid $app (typed, user evt-alice): recording its fields needs privilege towards the process: $NOBODY; others may record only events flagged CAP_ANY" "--keep of a printk event refused"
as_status evt-bob 1 "$T/bin/evtrace" record --overwrite -p "$app" -e typed --trigger kernel/sched/sched_switch -o "$T/bob/no"
expect_grep "kernel/sched/sched_switch: kernel events of another user's process are the kernel's to grant" "$T/err" "a trigger on kernel events through evtraced refused"
[ ! -e "$T/bob/no" ] || fail "a refused record left a directory"
# A snapshot takes only a recording evtraced made for a user without
# privilege: not alice's own flight recorder.
as_bg evt-alice env EVTRACE_RUNDIR="$R/alice/run" "$T/bin/evtrace" record --overwrite -p "$app" \
	-o "$R/alice/fl" 2>"$T/alicefl.err" &
alicefl=$!
BG_PIDS="$BG_PIDS $alicefl"
wait_for "alice's flight recorder in her program" "collections_applied $app 1" "cat '$T/alicefl.err'"
as_status evt-bob 1 "$T/bin/evtrace" snapshot -p "$app" -o "$T/bob/no"
expect_eq "$(cat "$T/err")" "evtrace: snapshot: pid $app: no running --overwrite recording made through evtraced for a user without privilege towards it (only those hold events flagged CAP_ANY alone, which a snapshot of yours may take)" \
	"bob's snapshot of alice's flight recorder refused"
[ ! -e "$T/bob/no" ] || fail "a refused snapshot left a directory"
kill -TERM "$alicefl"
wait "$alicefl" || fail "alice's flight recorder: $(cat "$T/alicefl.err")"
# --guard and --fail-on-loss go through evtraced too.
as_bg evt-bob "$T/bin/evtrace" record --guard 50 --fail-on-loss -p "$app" -e typed \
	-o "$T/bob/guarded" 2>"$T/guarded.err" &
guarded=$!
BG_PIDS="$BG_PIDS $guarded"
wait_for "bob's guarded recording in alice's program" "collections_applied $app 1" \
	"cat '$T/guarded.err'"
feed app 1 21
kill -TERM "$guarded"
wait "$guarded" || fail "bob's guarded recording failed: $(cat "$T/guarded.err")"
expect_grep "written to $T/bob/guarded; 0 events lost" "$T/guarded.err" "bob's guarded recording"
expect_grep "^evtraced: client pid [0-9]* uid $BOB (evt-bob): asks record -p $app -e typed .*--guard 50 --fail-on-loss\$" \
	"$T/daemon.log" "the audit: the guard and fail-on-loss asked"
expect_grep "^evtraced: client pid [0-9]* uid $BOB (evt-bob): asks record -p $app -e typed .*--overwrite --trigger 'typed/all if u32 == 18'\$" \
	"$T/daemon.log" "the audit: the trigger asked"
expect_eq "$("$EVTRACE" report "$T/bob/guarded" | sed -n 's/.*: typed\/all: .* u32=\([0-9]*\) .*/\1/p')" 20 "the row bob's guarded recording took"

# Carol is in the group alice's second program opted into: she may do
# anything to it, and nothing more to the first.
start_served team EVTRACE_GROUP=evt-team
TEAMWHO="root, user evt-alice, or a member of group evt-team, which it opted into"
as_status evt-carol 1 "$T/bin/evtrace" enable -p "$team" printk
expect_grep "privilege towards the process: $TEAMWHO$" "$T/err" "carol without her group"
as_status evt-carol+team 0 "$T/bin/evtrace" enable -p "$team" "$SECRET"
as_status evt-carol+team 0 "$T/bin/evtrace" ls -p "$team" "$SECRET"
expect_grep "^1 $SECRET$" "$T/out" "carol enabled the printk event"
as_status evt-carol+team 0 "$T/bin/evtrace" disable -p "$team" "$SECRET"
# A rate cap too: set, shown, lifted (enable --rate through evtraced).
as_status evt-carol+team 0 "$T/bin/evtrace" enable --rate 7 -p "$team" typed/all
"$EVTRACE" ls -p "$team" typed/all >"$T/ls"
expect_grep "^0 typed/all (rate 7/s, " "$T/ls" "the cap carol set"
expect_grep "^evtraced: client pid [0-9]* uid [0-9]* (evt-carol): asks enable -p $team typed/all --rate 7\$" \
	"$T/daemon.log" "the audit: the rate asked"
as_status evt-carol+team 0 "$T/bin/evtrace" enable --rate 0 -p "$team" typed/all
"$EVTRACE" ls -p "$team" typed/all >"$T/ls"
if grep -q 'rate' "$T/ls"; then fail "carol's cap not lifted: $(cat "$T/ls")"; fi
as_status evt-carol+team 1 "$T/bin/evtrace" enable --rate 7 -p "$app" typed/all
expect_grep "typed/all in pid $app (typed, user evt-alice): switching another user's events needs privilege towards the process: $NOBODY\$" \
	"$T/err" "a cap on the program that did not opt in"
as_bg evt-carol+team "$T/bin/evtrace" record --block=inf -p "$team" -e printk -o "$T/carol/tr" 2>"$T/carol.err" &
carol=$!
BG_PIDS="$BG_PIDS $carol"
wait_on "$team" "$SECRET"
feed team 3 3
kill -TERM "$carol"	# (it drains the rest as it ends)
wait "$carol" || fail "carol's record failed: $(cat "$T/carol.err")"
"$EVTRACE" report "$T/carol/tr" >"$T/report"
expect_eq "$(grep -o 'secret [0-9]*' "$T/report" | tr '\n' ' ')" "secret 0 secret 1 secret 2 " "printk events carol recorded"
expect_grep "^evtraced: client pid [0-9]* uid [0-9]* (evt-carol): asks record -p $team -e printk --block=inf\$" "$T/daemon.log" \
	"carol's --block=inf went to evtraced, which took it (she may set the pace of the program that opted into her group)"
as_status evt-carol+team 1 "$T/bin/evtrace" enable -p "$app" printk
expect_grep "needs privilege towards the process: $NOBODY" "$T/err" "carol on the program that did not opt in"

# The daemon stopped (SIGTERM) ends its sessions as their clients would:
# a consumer's events go off at once, and its tool is told.
: >"$T/consume.out"	# (emptied first: what the last one wrote must not count)
as_bg evt-bob "$T/bin/consume" record "$app" typed/ >>"$T/consume.out" 2>&1 &
consumer=$!
BG_PIDS="$BG_PIDS $consumer"
wait_on "$app" typed/all
kill "$DAEMON"
wait "$DAEMON" 2>/dev/null || true
wait "$consumer" 2>/dev/null || true
expect_grep "evtraced: stopped" "$T/daemon.log" "the daemon stopped on SIGTERM"
"$EVTRACE" ls -p "$app" typed/all >"$T/ls"
if grep -q '\[\|^# collection' "$T/ls"; then cat "$T/ls" >&2; fail "a session the daemon ended left its events on"; fi

# Root needs no daemon: its evtrace goes to alice's run directory.
[ ! -e "$SOCK" ] || fail "the daemon left its socket behind"
"$EVTRACE" ls -p "$app" typed >"$T/out" || fail "root cannot list alice's program"
expect_grep "^0 typed/all$" "$T/out" "root lists alice's program"
"$CONSUME" ids "$app" typed/all >"$T/out" 2>&1 || fail "root's consumer of alice's program: $(cat "$T/out")"
expect_grep "^event $TYPED_ID typed/all$" "$T/out" "root's consumer: alice's program, the run directory's id"

# Garbage, half messages, huge lengths and another user's directory do
# not hurt the daemon or its other clients; nothing is run for them.
start_daemon
as evt-bob python3 - "$SOCK" "$app" "$T/bin" "$T/bob" >"$T/raw.out" <<'EOF' || fail "raw clients: $(cat "$T/raw.out")"
import os, socket, struct, sys, time
path, pid, tmp, bobs = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
def frame(body, magic=b"EVTD"):
    return magic + struct.pack("<I", len(body)) + body
def talk(data, fds=None, read=True):
    s = socket.socket(socket.AF_UNIX)
    s.connect(path)
    if fds:
        socket.send_fds(s, [data], fds)
    else:
        s.sendall(data)
    out = b""
    while read:
        chunk = s.recv(65536)
        if not chunk:
            break
        out += chunk
    text = out.decode(errors="replace").replace("\n", "|")
    return s, "".join(ch for ch in text if ch.isprintable())
stalled = [talk(frame(b"verb ls\n")[:6], read=False)[0] for _ in range(3)]
for name, data in [
    ("garbage", b"\x00\xffhello, daemon" * 10),
    ("huge", b"EVTD" + struct.pack("<I", 0xFFFFFFF0)),
    ("verb", frame(b"verb rm -rf /\npid 1\n")),
    ("key", frame(("verb ls\npid %s\nfile /etc/shadow\n" % pid).encode())),
    ("pid", frame(b"verb ls\npid 0x10\n")),
    ("unended", frame(("verb ls\npid %s" % pid).encode())),
    ("nul", frame(("verb ls\npid %s\n\x00\n" % pid).encode())),
    ("nopath", frame(("verb enable\npid %s\n" % pid).encode())),
    ("nofd", frame(("verb record\npid %s\nevent typed\n" % pid).encode())),
    ("kernel", frame(("verb count\npid %s\nevent kernel/sched/sched_switch\n" % pid).encode())),
]:
    print(name, talk(data)[1])
root_dir = os.open(tmp, os.O_RDONLY | os.O_DIRECTORY)
print("notyours", talk(frame(("verb record\npid %s\nevent typed\n" % pid).encode()), [root_dir])[1])
bob_dir = os.open(bobs, os.O_RDONLY | os.O_DIRECTORY)
print("trigger", talk(frame(("verb record\npid %s\nevent typed\noverwrite 1\ntrigger span x >> 1ms\n" % pid).encode()), [bob_dir])[1])
print("ok", talk(frame(("verb ls\npid %s\npath typed\n" % pid).encode()))[1])
for s in stalled:
    s.close()
EOF
# Each client's answer: "name|what it must say".
while IFS='|' read -r name want; do
	grep -q "^$name $want" "$T/raw.out" || fail "$name: $(cat "$T/raw.out")"
done <<EOF
garbage|.*not an evtrace message (magic 0x
huge|.*message of 4294967280 bytes, more than 65536
verb|.*request line 1: not a verb this daemon knows
key|.*request line 3: unknown key 'file'
pid|.*request line 2: not a process id
unended|.*last line does not end
nul|.*a NUL byte in the request
nopath|.*enable: path missing
nofd|.*no trace directory came with the request
kernel|.*kernel/sched/sched_switch: kernel events of another user's process are the kernel's to grant
notyours|.*the trace directory handed over is not a directory of uid $BOB's
trigger|.*--trigger 'span x >> 1ms': at position 8: expected '>' after the span's name
ok|.*0 typed/all
EOF
running "$DAEMON" || fail "the daemon died of its clients"

# A stranger's recording, with buffers as large as any may ask, takes its
# share of the process's buffer memory and no more (a quarter: two 8 MiB
# buffers): his threads past it lose their rows, counted, and alice's
# recording after his, with the usual buffers, has every row.
TYPED_MODE=threads start_served busy
as_bg evt-bob "$T/bin/evtrace" record -p "$busy" -e typed/all --packet-size 4194304 --packets 2 \
	-o "$T/bob/big" 2>"$T/big.err" &
big=$!
BG_PIDS="$BG_PIDS $big"
wait_on "$busy" typed/all "$big" "$T/big.err"
feed busy 10 10
kill -INT "$big"
wait "$big" || fail "bob's large recording: $(cat "$T/big.err")"
"$EVTRACE" report "$T/bob/big" >"$T/report"
got=$(grep -c ': typed/all: ' "$T/report" || true)
lost=$(sed -n 's/.*written to .*; \([0-9]*\) events\{0,1\} lost$/\1/p' "$T/big.err")
expect_eq "$((got + lost))" 10 "bob's rows, recorded ($got) and lost ($lost)"
[ "$got" -le 2 ] && [ "$lost" -ge 8 ] || fail "bob's recording took more than its share: $got rows recorded"
# alice_records NAME DIR ROWS TOTAL: alice's own recording of typed/all
# in her program $NAME while it emits ROWS rows (TOTAL done then), into
# $R/alice/DIR, its messages in $T/DIR.err.
alice_records() {
	eval "_prog=\$$1"
	as_bg evt-alice env EVTRACE_RUNDIR="$R/alice/run" "$T/bin/evtrace" record -p "$_prog" \
		-e typed/all -o "$R/alice/$2" 2>"$T/$2.err" &
	_rec=$!
	BG_PIDS="$BG_PIDS $_rec"
	wait_on "$_prog" typed/all
	feed "$1" "$3" "$4"
	kill -INT "$_rec"
	wait "$_rec" || fail "alice's recording $2: $(cat "$T/$2.err")"
}
alice_records busy after 10 20
expect_grep "written to $R/alice/after; 0 events lost$" "$T/after.err" "alice's recording after bob's"
expect_eq "$("$EVTRACE" report "$R/alice/after" | grep -c ': typed/all: ')" 10 "alice's rows after bob's recording"

# A program on libevtrace 0.1.10, which does not bound what another
# user's collection takes from it (doc/versions.md): bob is told why and
# what would let him; alice, its owner, records it.
mkdir -p "$T/bin/old"
cp -P "$LIB_0_1_10_DIR"/libevtrace.so.0* "$T/bin/old/"
chmod -R a+rX "$T/bin/old"
start_served oldapp "LD_LIBRARY_PATH=$T/bin/old:$T/bin"
grep -q " $T/bin/old/libevtrace.so" "/proc/$oldapp/maps" || fail "alice's program did not load 0.1.10's library"
as_status evt-bob 0 "$T/bin/evtrace" ls -p "$oldapp"
expect_grep "^# pid $oldapp (typed), libevtrace 0.1.10\$" "$T/out" "bob sees which library alice's program runs"
as_status evt-bob 1 "$T/bin/evtrace" record -p "$oldapp" -e typed/all -o "$T/bob/old"
expect_eq "$(cat "$T/err")" "evtrace: record: pid $oldapp: not recorded: it runs libevtrace 0.1.10, which cannot bound the buffers another user's collection takes from it: its owner or root may record it, or restart it with libevtrace $("$EVTRACE" --version | sed 's/^evtrace //') or later" \
	"bob's recording of a 0.1.10 program refused, saying why"
[ ! -e "$T/bob/old" ] || fail "a refused record left a directory: $(find "$T/bob/old")"
alice_records oldapp old 4 4
expect_eq "$("$EVTRACE" report "$R/alice/old" | sed -n 's/.*: typed\/all: .* u32=\([0-9]*\) .*/\1/p' | tr '\n' ' ')" "0 1 2 3 " \
	"alice's rows from her 0.1.10 program"

# A client's connection process killed outright: the client says so, the
# command it ran ends all the same (its events off).
as_bg evt-bob "$T/bin/evtrace" stream -p "$app" -e typed/all >/dev/null 2>"$T/stream.err" &
streamer=$!
BG_PIDS="$BG_PIDS $streamer"
wait_on "$app" typed/all
server=$(sed -n "s/^evtraced: client pid $streamer uid $BOB: served by pid \([0-9]*\)$/\1/p" "$T/daemon.log")
[ -n "$server" ] || fail "the daemon did not log who serves the stream: $(cat "$T/daemon.log")"
kill -9 "$server"
set +e; wait "$streamer"; got=$?; set -e
expect_eq "$got" 1 "bob's stream when its connection process died"
expect_grep "^evtrace: stream: evtraced ended the connection before the stream did (did it stop?)$" "$T/stream.err" "bob told"
wait_for "the stream's bits to go from typed/all" "! '$EVTRACE' ls -p $app typed/all | grep -q '\\['"

# The daemon killed mid-recording: bob is told, alice's program runs on
# unharmed, and what was drained stays readable.
as_bg evt-bob "$T/bin/evtrace" record -p "$app" -e typed/all -o "$T/bob/tr2" 2>"$T/record.err" &
recorder=$!
: >"$T/consume.out"	# (emptied first: what the last one wrote must not count)
as_bg evt-bob "$T/bin/consume" record "$app" typed/ >>"$T/consume.out" 2>&1 &
consumer=$!
BG_PIDS="$BG_PIDS $recorder $consumer"
# Both collections on (either one's bit on typed/all came first, and a
# recording not yet on kept nothing in a loaded run).
wait_for "bob's recording and consumer in alice's program" "collections_applied $app 2" \
	"cat '$T/record.err' '$T/consume.out'"
wait_for "bob's consumer to add typed/all" "grep -q '^added 1\$' '$T/consume.out'"
feed app 4 25
wait_for "bob's consumer to read the 4 events" "[ \$(grep -c '^typed/all ' '$T/consume.out') = 4 ]"
kill -9 "$DAEMON"
set +e; wait "$recorder"; got=$?; set -e
expect_eq "$got" 1 "bob's record when the daemon died"
expect_grep "written to $T/bob/tr2; 0 events lost" "$T/record.err" "bob's recording finished when the daemon died"
expect_grep "^evtrace: record: evtraced stopped, which ended it$" "$T/record.err" "bob told of the daemon's death"
wait "$consumer" || fail "bob's consumer exited $? when the daemon died"
expect_grep "^read: evtraced ended the session (did it stop?)$" "$T/consume.out" "bob's consumer told of the daemon's death"
# Its worker ends the recording as ^C would, switching typed/all off.
wait_for "the dead daemon's collection's bits to go from typed/all" "! '$EVTRACE' ls -p $app typed/all | grep -q '\\['"
feed app 2 27
running "$app" || fail "alice's program died with the daemon"
"$EVTRACE" report "$T/bob/tr2" >"$T/report"
expect_eq "$(sed -n 's/.*: typed\/all: .* u32=\([0-9]*\) .*/\1/p' "$T/report" | tr '\n' ' ')" "21 22 23 24 " "what bob's recording kept"
