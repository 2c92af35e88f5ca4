# %.Ns and %.*s read at most N bytes, as printf does: a buffer without a
# NUL at the end of a readable page does not crash the traced program, the
# secret after a heap buffer never reaches the trace, and every message,
# NULL strings, zero precisions and a %c of 0 included, reads back exactly
# as printf printed it (the NUL shown as \x00, as report shows control
# characters).
. "$(dirname "$0")/lib.sh"
"$EVTRACE" record -o "$T/tr" -- "$TRACEE" precision >"$T/printf" 2>"$T/err" ||
	{ cat "$T/err" >&2; fail "the traced program failed"; }
grep -a -q '^tried 5$' "$T/printf" || fail "the program ran to its end"
grep -a -v '^tried' "$T/printf" | sed 's/\x0/\\x00/g' >"$T/want"
grep -q '\\x00' "$T/want" || fail "no %c of 0 in what printf printed"
"$EVTRACE" report "$T/tr" >"$T/report"
sed -n 's/^.*: printk\/tracee\/[^:]*: //p' "$T/report" >"$T/got"
cmp "$T/want" "$T/got" || { diff -a "$T/want" "$T/got" >&2; fail "report differs from printf"; }
expect_grep "# 5 events, 0 lost" "$T/report" "summary"
if grep -a -q SECRET "$T/tr"/stream_*; then fail "bytes past the precision were recorded"; fi
bt "$T/tr" >"$T/bt"
expect_grep 'arg0 = "username", arg1_precision = 4, arg1 = "user", arg2 = "user"' "$T/bt" "babeltrace2 sees the cut strings"
