# A forked child, its exec'd image and a library opened twice with dlopen
# are all recorded; the reloaded library keeps its event.
. "$(dirname "$0")/lib.sh"
"$EVTRACE" record -o "$T/tr" -- "$TRACEE" fork >/dev/null
"$EVTRACE" report "$T/tr" >"$T/report"
for text in "parent before fork 1" "child after fork 2" "exec child 4" "parent after fork 3"; do
	expect_eq "$(grep -c ": $text\$" "$T/report")" 1 "'$text' once"
done
# The child and the exec'd image register what the parent did, in the
# same order: the three share one stream class, each event described once.
expect_eq "$(grep -c '^stream ' "$T/tr/evtrace/index")" 1 "stream classes (parent, child, exec'd child)"
expect_eq "$(grep -c 'tracee.c/.*parent before fork' "$T/tr/evtrace/index")" 1 "events described once"
"$EVTRACE" record -o "$T/tr2" -- "$TRACEE" dlopen "$PLUGIN" >/dev/null
"$EVTRACE" report "$T/tr2" >"$T/report2"
expect_eq "$(grep -c 'printk/libtest_plugin.so/tests/progs/plugin.c/11: plugin round [12]$' "$T/report2")" 2 "plugin events under one path"
expect_eq "$(grep -c 'main after dlclose 9' "$T/report2")" 1 "main event"
expect_eq "$(grep -c 'printk/libtest_plugin.so' "$T/tr2/evtrace/index")" 1 "one event for the reloaded site"
bt_agrees "$T/tr"
bt_agrees "$T/tr2"

# Children that dlopen different libraries after a fork disagree about
# their next event id: two classes, each library's event in one of them,
# every event read back under its own name.
"$EVTRACE" record -o "$T/tr3" -- "$TRACEE" fork-dlopen "$PLUGIN" "$PLUGIN_B" >/dev/null
"$EVTRACE" report "$T/tr3" >"$T/report3"
expect_eq "$(grep -c '^stream ' "$T/tr3/evtrace/index")" 2 "stream classes after diverging dlopens"
expect_eq "$(grep -c '"plugin round' "$T/tr3/evtrace/index")" 1 "plugin A's event described"
expect_eq "$(grep -c '"plugin B round' "$T/tr3/evtrace/index")" 1 "plugin B's event described"
for k in 0 1; do
	expect_eq "$(grep -c "libtest_plugin.so/tests/progs/plugin.c/11: plugin round $k\$" "$T/report3")" 1 "child $k's plugin event"
done
for k in 2 3; do
	expect_eq "$(grep -c "libtest_plugin_b.so/tests/progs/plugin_b.c/12: plugin B round $k\$" "$T/report3")" 1 "child $k's plugin B event"
done
expect_eq "$(grep -c ': forked child [0-3]$' "$T/report3")" 4 "children's own events"
expect_grep "# 9 events, 0 lost" "$T/report3" "event total"
bt_agrees "$T/tr3"
