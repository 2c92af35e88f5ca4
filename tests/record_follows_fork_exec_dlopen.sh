# A forked child, its exec'd image and a library opened twice with dlopen
# are all recorded; the reloaded library keeps its event.
. "$(dirname "$0")/lib.sh"
"$EVTRACE" record -o "$T/tr" -- "$TRACEE" fork >/dev/null
"$EVTRACE" report "$T/tr" >"$T/report"
for text in "parent before fork 1" "child after fork 2" "exec child 4" "parent after fork 3"; do
	expect_eq "$(grep -c ": $text\$" "$T/report")" 1 "'$text' once"
done
# The exec'd image is a new process image: its own stream class.
expect_eq "$(grep -c '^stream ' "$T/tr/evtrace/index")" 3 "stream classes (parent, child, exec'd child)"
"$EVTRACE" record -o "$T/tr2" -- "$TRACEE" dlopen "$PLUGIN" >/dev/null
"$EVTRACE" report "$T/tr2" >"$T/report2"
expect_eq "$(grep -c 'printk/libtest_plugin.so/tests/progs/plugin.c/11: plugin round [12]$' "$T/report2")" 2 "plugin events under one path"
expect_eq "$(grep -c 'main after dlclose 9' "$T/report2")" 1 "main event"
expect_eq "$(grep -c 'printk/libtest_plugin.so' "$T/tr2/evtrace/index")" 1 "one event for the reloaded site"
bt_agrees "$T/tr"
bt_agrees "$T/tr2"
