# The project's stable formats (abi/stable) match the sched demo; a changed,
# removed or added stable format fails abi-check with the difference shown.
. "$(dirname "$0")/lib.sh"
"$EVTRACE" abi-check "$ABI_DIR" -- "$SCHED" 1 >"$T/out" 2>"$T/err" || { cat "$T/out" "$T/err" >&2; fail "the shipped baseline does not match"; }
expect_grep '^abi-check: 2 stable event formats match' "$T/out" "baseline matches"

# A saved trace works as well as a command.
"$EVTRACE" record -o "$T/tr" -- "$SCHED" 1 >/dev/null 2>&1
"$EVTRACE" abi-check "$ABI_DIR" "$T/tr" >"$T/out" || fail "abi-check of a trace"

cp -r "$ABI_DIR" "$T/base"
sed -i 's/prev_state\ttype:char\tsize:8\talign:1/prev_state\ttype:long\tsize:64\talign:8/' "$T/base/sched_switch.format"
expect_status 1 "$EVTRACE" abi-check "$T/base" "$T/tr"
expect_grep '^stable/sched_switch: format changed$' "$T/out" "the change named"
expect_grep '^-	field:prev_state	type:long	size:64	align:8	signed:1;$' "$T/out" "the old line"
expect_grep '^+	field:prev_state	type:char	size:8	align:1	signed:1;$' "$T/out" "the new line"
expect_grep '1 stable event differs from the baseline' "$T/err" "summary"

cp "$ABI_DIR/sched_switch.format" "$T/base/"
mv "$T/base/sched_migrate_task.format" "$T/base/sched_gone.format"
expect_status 1 "$EVTRACE" abi-check "$T/base" "$T/tr"
expect_grep '^stable/sched_gone: in the baseline, not in the program$' "$T/out" "a removed event"
expect_grep '^stable/sched_migrate_task: new, not in the baseline' "$T/out" "an added event"

expect_status 0 "$EVTRACE" abi-check --update "$T/new" "$T/tr"
diff -r "$ABI_DIR" "$T/new" || fail "--update wrote other formats"
expect_status 2 "$EVTRACE" abi-check "$T/base"
expect_grep 'a baseline directory and a trace directory or -- COMMAND are needed' "$T/err" "usage error"
expect_status 1 "$EVTRACE" abi-check "$T/base" "$T/nonexistent"
expect_grep "nonexistent/evtrace/index" "$T/err" "a missing trace"
