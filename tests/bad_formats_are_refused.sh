# %n and long double are refused when the site registers: the site stays
# off, the others work, and nothing is said at the program's start.  The
# tools that would enable it say why, once per site, naming every bad
# conversion: ls, record, enable; traces stay readable.
. "$(dirname "$0")/lib.sh"
n_site=$(tracee_event "bad %n")
lf_site=$(tracee_event "also bad %Lf")
both_site=$(tracee_event "both %n and %Lf")
"$TRACEE" badformat >/dev/null 2>"$T/start.err"
[ ! -s "$T/start.err" ] || { cat "$T/start.err" >&2; fail "the program spoke of refused formats at its start"; }

"$EVTRACE" record -o "$T/tr" -- "$TRACEE" badformat >/dev/null 2>"$T/err"
expect_grep "^evtrace: record: $n_site: refused, it stays off: format \"bad %n\\\\n\": conversion '%n' at offset 4: %n writes through a pointer and is refused$" "$T/err" "%n refused"
expect_grep "^evtrace: record: $lf_site: refused, it stays off: .*length modifier not supported for this conversion$" "$T/err" "%Lf refused"
expect_grep "^evtrace: record: $both_site: refused, it stays off: format \"both %n and %Lf\\\\n\": conversion '%n' at offset 5: %n writes through a pointer and is refused; conversion '%Lf' at offset 12: length modifier not supported for this conversion$" "$T/err" "every bad conversion of one format"
expect_eq "$(grep -c "$both_site: refused" "$T/err")" 1 "said once"
"$EVTRACE" report "$T/tr" >"$T/report"
expect_grep ": good 1$" "$T/report" "good site works"
expect_grep "# 1 event, 0 lost" "$T/report" "only the good event"
bt_agrees "$T/tr"

# ls shows them as off, and why; enable names them and leaves them off.
start_waiter
[ ! -s "$T/waiter.err" ] || { cat "$T/waiter.err" >&2; fail "the waiter spoke of refused formats"; }
"$EVTRACE" ls -p "$WAIT_PID" >"$T/ls"
expect_grep "^0 $both_site (refused, stays off: conversion '%n' at offset 5: %n writes through a pointer and is refused; conversion '%Lf' at offset 12: length modifier not supported for this conversion)$" "$T/ls" "ls: why a site is off"
"$EVTRACE" enable "$n_site" 2>"$T/en.err" || fail "enable of a refused site: $(cat "$T/en.err")"
expect_grep "^evtrace: enable: $n_site: refused, it stays off: format \"bad %n\\\\n\": conversion '%n' at offset 4" "$T/en.err" "enable: why"
"$EVTRACE" ls -p "$WAIT_PID" >"$T/ls2"
expect_grep "^0 $n_site (refused" "$T/ls2" "it stays off"
"$EVTRACE" enable printk/tracee 2>"$T/en2.err"
expect_eq "$(grep -c "refused, it stays off" "$T/en2.err")" 3 "enable of the directory: each refused site once"
"$EVTRACE" ls -p "$WAIT_PID" printk/tracee/tests/progs/tracee.c >"$T/ls3"
expect_grep "^1 printk/tracee/tests/progs/tracee.c/$" "$T/ls3" "the file is on: its refused sites are no part of its state"
echo "ok: refused sites said by record, ls and enable, once each, every conversion"
