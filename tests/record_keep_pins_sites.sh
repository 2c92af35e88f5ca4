# record --overwrite --keep PATTERN: a flight recorder's init event,
# which a burst through small rings overwrites, is kept in rings of its
# own (DIR/keep), read with the trace by report, query and convert, once;
# every trigger window and snapshot holds it too (its keep/); bad uses
# are refused.
. "$(dirname "$0")/lib.sh"
ctor=$(tracee_event "constructor")
small="--packet-size 16384 --packets 2"
export TRACEE_CONSTRUCTOR=1

# Without --keep, the burst overwrites the init event.
# shellcheck disable=SC2086
"$EVTRACE" record --overwrite $small -o "$T/plain" -- "$TRACEE" burst 300000 >/dev/null 2>&1
expect_eq "$("$EVTRACE" report "$T/plain" | grep -c ": constructor ran in ")" 0 "the init event overwritten"

# With it, the init event is there once, beside the newest burst events.
# shellcheck disable=SC2086
"$EVTRACE" record --overwrite $small --keep "$ctor" -o "$T/kept" -- "$TRACEE" burst 300000 \
	>/dev/null 2>"$T/kept.err" || fail "record --keep: $(cat "$T/kept.err")"
expect_grep "^evtrace: record: --keep: 1 packet of the pinned sites written to $T/kept/keep$" \
	"$T/kept.err" "record says where the pinned sites went"
"$EVTRACE" report "$T/kept" >"$T/kept.txt"
expect_eq "$(grep -c ": constructor ran in " "$T/kept.txt")" 1 "the init event kept, once"
expect_grep ": burst 299999$" "$T/kept.txt" "the newest burst events too"
expect_eq "$("$EVTRACE" query --no-cache --csv "$T/kept" "SELECT count(*) AS n FROM event WHERE message LIKE 'constructor ran%'" |
	tr -d '\r' | sed -n 2p)" 1 "query reads the pinned sites"
"$EVTRACE" convert --to chrome-json -o "$T/kept.json" "$T/kept" 2>/dev/null
grep -q "constructor ran in" "$T/kept.json" || fail "convert leaves the pinned sites out"

# A trigger's window holds them: it is taken 100 ms after the burst's first
# event, when the rings have long been overwritten.
# shellcheck disable=SC2086
"$EVTRACE" record --overwrite $small --keep "$ctor" --trigger "$(tracee_event "burst")" \
	--after 100ms --max-windows 1 -o "$T/win" -- "$TRACEE" burst-wait 300000 \
	>"$T/win.out" 2>"$T/win.err" &
rec=$!
wait_for "the burst to end" "grep -q '^ready' '$T/win.out'"
wait_for "the window" "grep -q 'window $T/win/window-1' '$T/win.err'"
# snapshot -p takes the recording (not its pinned sites' collection) and
# its pinned sites with it.
"$EVTRACE" snapshot -p "$(sed -n 's/^ready //p' "$T/win.out")" -o "$T/snap" 2>"$T/snap.err" ||
	fail "snapshot of a recording with --keep: $(cat "$T/snap.err")"
[ -d "$T/snap/keep" ] || fail "the snapshot has no keep/"
expect_eq "$("$EVTRACE" report "$T/snap" | grep -c ": constructor ran in ")" 1 \
	"the snapshot holds the init event"
kill "$(sed -n 's/^ready //p' "$T/win.out")"
wait $rec || true
[ -d "$T/win/window-1/keep" ] || fail "the window has no keep/: $(ls "$T/win/window-1")"
expect_eq "$("$EVTRACE" report "$T/win/window-1" | grep -c ": constructor ran in ")" 1 \
	"the window holds the init event"

# Bad uses.
expect_status 2 "$EVTRACE" record --keep "$ctor" -o "$T/never" -- true
expect_grep "give --overwrite" "$T/err" "--keep without --overwrite"
expect_status 1 "$EVTRACE" record --overwrite --keep 'a//b' -o "$T/never" -- true
expect_status 1 "$EVTRACE" record --overwrite --keep kernel/sched/sched_switch -o "$T/never" -- true
expect_grep "kernel events are not yet supported" "$T/err" "--keep of a kernel event"
[ ! -e "$T/never" ] || fail "a refused --keep still recorded"
