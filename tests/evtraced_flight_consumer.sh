# consumer.h's flight mode through evtraced, with real users: bob's tool
# keeps a flight recorder of alice's program (typed/all, flagged CAP_ANY),
# writes a window on demand and arms a trigger, whose windows come back to
# it; every window is bob's, holds exactly the rows alice's program wrote,
# and nothing bob may not record.  Refused: a trigger on an event he may
# not record, a directory that is not his, a rate (it would cap alice's
# own readers too).
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root (test users, a daemon)"; exit 77; }
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/daemon_lib.sh"

start_served app
start_daemon
BOB=$(id -u evt-bob)
rows() {	# rows TRACE: typed/all's u32 values, in order
	"$EVTRACE" report "$1" | sed -n 's/.*: typed\/all: .* u32=\([0-9]*\) .*/\1/p' | tr '\n' ' '
}

# A window on demand: rows 0-2, in a directory bob's tool made.
mkdir -m 700 "$T/bob/fl" && chown evt-bob "$T/bob/fl"
as_bg evt-bob "$T/bin/consume" flight "$app" typed/ "$T/bob/fl" >"$T/fl.out" 2>"$T/fl.err" &
fl=$!
BG_PIDS="$BG_PIDS $fl"
wait_for "bob's flight consumer to add typed/" "grep -q '^added 1$' '$T/fl.out'" "cat '$T/fl.out' '$T/fl.err'"
wait_for "bob's flight recorder in alice's program" "collections_applied $app 1"
feed app 3 3
kill -USR1 "$fl"
wait_for "bob's window" "grep -q '^window 1:' '$T/fl.out'" "cat '$T/fl.out' '$T/fl.err'"
expect_grep "^window 1: 0$" "$T/fl.out" "the window written: $(cat "$T/fl.err")"
expect_eq "$(rows "$T/bob/fl/w1")" "0 1 2 " "the rows in bob's window"
expect_eq "$(find "$T/bob/fl/w1" -printf '%u\n' | sort -u)" evt-bob "owner of the window's files"
expect_eq "$("$EVTRACE" report "$T/bob/fl/w1" | grep -c 'secret\|printk' || true)" 0 "events bob may not record, in his window"
bt "$T/bob/fl/w1" >/dev/null
kill -TERM "$fl"
wait "$fl" || fail "bob's flight consumer: $(cat "$T/fl.out" "$T/fl.err")"
expect_grep "^again: -1 $T/bob/fl/w1: exists (a window is never written into a directory that does)$" \
	"$T/fl.out" "a window into a directory that exists"

# A trigger: row 4 fires it; its window comes back to the tool, named in
# bob's directory, holding the row that fired it.
mkdir -m 700 "$T/bob/tr" && chown evt-bob "$T/bob/tr"
as_bg evt-bob "$T/bin/consume" triggers "$app" typed/ "$T/bob/tr" 'typed/all if u32 == 4' \
	>"$T/tr.out" 2>"$T/tr.err" &
tr=$!
BG_PIDS="$BG_PIDS $tr"
wait_for "bob's triggers armed" "grep -q '^armed' '$T/tr.out'" "cat '$T/tr.out' '$T/tr.err'"
expect_grep "^armed 0$" "$T/tr.out" "bob's trigger armed: $(cat "$T/tr.err")"
expect_grep "^evtraced: client pid [0-9]* uid $BOB (evt-bob): arms --trigger 'typed/all if u32 == 4' in pid $app$" \
	"$T/daemon.log" "the audit: the trigger armed"
wait_for "bob's flight recorder and triggers in alice's program" "collections_applied $app 2"
feed app 3 6
wait_for "the window of row 4" "grep -q '^window ' '$T/tr.out'" "cat '$T/tr.out' '$T/tr.err'"
expect_grep "^window $T/bob/tr/window-1 held=1 pid=$app tid=$app trigger=typed/all if u32 == 4 event=typed/all$" \
	"$T/tr.out" "the window, as bob's tool is told of it"
# (row 5 is in it if it came before the window was taken)
case "$(rows "$T/bob/tr/window-1")" in
"3 4 "|"3 4 5 ") ;;
*) fail "the rows in the trigger's window: $(rows "$T/bob/tr/window-1")" ;;
esac
expect_grep "^trigger: typed/all if u32 == 4$" "$T/bob/tr/window-1/evtrace/trigger" "the trigger named in the window"
expect_grep "^firing_event: held$" "$T/bob/tr/window-1/evtrace/trigger" "the firing row held"
expect_eq "$(find "$T/bob/tr" -printf '%u\n' | sort -u)" evt-bob "owner of the trigger's windows"
kill -TERM "$tr"
wait "$tr" || fail "bob's triggers: $(cat "$T/tr.out" "$T/tr.err")"
expect_grep "^evtrace: consumer: triggers fired 1 time, 1 window written$" "$T/tr.err" \
	"the summary the daemon's consumer said, at the close"
[ ! -e "$T/bob/tr/window-2" ] || fail "a second window"

# Without a window callback, the consumer says each window as record
# does, naming bob's directory (not the daemon's handle on it).
mkdir -m 700 "$T/bob/say" && chown evt-bob "$T/bob/say"
as_bg evt-bob env CONSUME_SAY=1 "$T/bin/consume" triggers "$app" typed/ "$T/bob/say" 'typed/all if u32 == 7' \
	>"$T/say.out" 2>"$T/say.err" &
say=$!
BG_PIDS="$BG_PIDS $say"
wait_for "bob's second triggers armed" "grep -q '^armed' '$T/say.out'" "cat '$T/say.out' '$T/say.err'"
wait_for "the second flight recorder in alice's program" "collections_applied $app 2"
feed app 3 9
wait_for "the window of row 7, said" "grep -q 'fired on' '$T/say.err'" "cat '$T/say.out' '$T/say.err'"
expect_grep "^evtrace: consumer: --trigger 'typed/all if u32 == 7' fired on typed/all (pid $app, tid $app): window $T/bob/say/window-1$" \
	"$T/say.err" "the window said, in bob's words"
kill -TERM "$say"
wait "$say" || fail "bob's second triggers: $(cat "$T/say.out" "$T/say.err")"
case "$(rows "$T/bob/say/window-1")" in
"6 7 "|"6 7 8 ") ;;
*) fail "the rows in the second window: $(rows "$T/bob/say/window-1")" ;;
esac

# Refusals: a trigger on an event bob may not record; a directory that
# is not his; a rate.
mkdir -m 700 "$T/bob/no" && chown evt-bob "$T/bob/no"
as_status evt-bob 1 "$T/bin/consume" triggers "$app" typed/ "$T/bob/no" 'printk/**'
expect_grep "^armed -1: $(echo "printk/typed/tests/progs/typed.c/")[0-9]* in pid $app (typed, user evt-alice): recording its fields needs privilege towards the process: .*; others may record only events flagged CAP_ANY$" \
	"$T/out" "a trigger on a printk event refused"
as_status evt-bob 1 "$T/bin/consume" triggers "$app" typed/ /tmp 'typed/all'
expect_grep "^armed -1: the directory handed over is not a directory of uid $BOB's$" "$T/out" "a directory not bob's"
[ -z "$(ls "$T/bob/no")" ] || fail "a refused trigger left files: $(ls "$T/bob/no")"
as_bg evt-bob env CONSUME_RATE=10 CONSUME_REFUSED_EXIT=1 "$T/bin/consume" record "$app" typed/ >"$T/rate.out" 2>&1 &
rc=$!
BG_PIDS="$BG_PIDS $rc"
wait_for "bob's rate asked" "grep -q '^rate' '$T/rate.out'" "cat '$T/rate.out'"
expect_grep "^rate -1: a rate caps a site for every reader of the process, its owner's too: it needs privilege towards the process$" \
	"$T/rate.out" "a stranger's rate refused"
expect_grep "^evtraced: client pid [0-9]* uid $BOB (evt-bob): asks set-rate typed/ 10 in pid $app$" \
	"$T/daemon.log" "the audit: the rate asked"
expect_grep "^evtraced: client pid [0-9]* uid $BOB (evt-bob): refused: a rate caps a site" \
	"$T/daemon.log" "the audit: the rate refused"
kill -USR2 "$rc"
wait "$rc" || fail "bob's record consumer: $(cat "$T/rate.out")"
"$EVTRACE" ls -p "$app" >"$T/ls"
if grep -q '\[' "$T/ls"; then cat "$T/ls" >&2; fail "bob's consumers left events on"; fi
