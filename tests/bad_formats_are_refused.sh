# %n and long double are refused when the site registers, with a message
# on stderr naming the site; the site stays off and the others work.
. "$(dirname "$0")/lib.sh"
"$EVTRACE" record -o "$T/tr" -- "$TRACEE" badformat >/dev/null 2>"$T/err"
expect_grep 'printk/tracee/tests/progs/tracee.c/[0-9]*: format "bad %n\\n": conversion .%n. at offset 4: %n writes through a pointer and is refused; this site stays off' "$T/err" "%n refused"
expect_grep "also bad %Lf.*length modifier not supported" "$T/err" "%Lf refused"
"$EVTRACE" report "$T/tr" >"$T/report"
expect_grep ": good 1$" "$T/report" "good site works"
expect_grep "# 1 event, 0 lost" "$T/report" "only the good event"
bt_agrees "$T/tr"
