# A C site's disabled path tests one byte, its flag in its translation
# unit's pages of them, which the process maps from its control file: an
# engine's enable sets it, the site's first run after a disable clears
# it, and a recording attached to the running program gets exactly the
# rounds it was there for.
. "$(dirname "$0")/lib.sh"
one=$(site_flags_event "site one")
two=$(site_flags_event "site two")
"$SITE_FLAGS" >"$T/out" &
p=$!
BG_PIDS="$BG_PIDS $p"
wait_for "the program" "grep -q ready '$T/out'"
ask() { answer "$p" "$T/out" "$1"; }
expect_eq "$(ask USR2)" "flags 0 mapped 1" "registered: the page mapped, every byte off"
"$EVTRACE" enable -p "$p" "$one"
expect_eq "$(ask USR2)" "flags 1 mapped 1" "enable sets the site's byte"
expect_eq "$(ask USR1)" "flags 1 mapped 1" "an enabled site keeps it"
"$EVTRACE" disable -p "$p" "$one"
expect_eq "$(ask USR2)" "flags 1 mapped 1" "disable leaves it to the site"
expect_eq "$(ask USR1)" "flags 0 mapped 1" "the site's next run clears it"
"$EVTRACE" enable -p "$p" printk/site_flags
expect_eq "$(ask USR2)" "flags 2 mapped 1" "a directory's enable sets both"
"$EVTRACE" disable -p "$p" printk/site_flags
expect_eq "$(ask USR1)" "flags 0 mapped 1" "both cleared by their runs"
# Rounds 4 and 5 are recorded, site two's only; the recording's end
# leaves the byte to the site again.
"$EVTRACE" record -q -p "$p" -e "$two" -o "$T/tr" 2>"$T/rec.err" &
rec=$!
BG_PIDS="$BG_PIDS $rec"
wait_for "the recording's collection" "collection_in $p $rec"
expect_eq "$(ask USR2)" "flags 1 mapped 1" "the recording's enable"
ask USR1 >/dev/null
ask USR1 >/dev/null
kill -INT "$rec"
wait "$rec" || fail "record -p: $(cat "$T/rec.err")"
"$EVTRACE" report "$T/tr" >"$T/report"
expect_eq "$(grep -o 'site [a-z]* [0-9]*' "$T/report" | tr '\n' ,)" "site two 4,site two 5," \
	"the events recorded"
expect_eq "$(ask USR1)" "flags 0 mapped 1" "after the recording"
kill -TERM "$p"
wait "$p" || fail "the program did not end well"
echo "ok: one byte per site, set by enables, cleared by the site"
