# ls, enable and disable on a running process: 0/1/X/? states, and the
# root never switches printk/ events.
. "$(dirname "$0")/lib.sh"
start_waiter
p=$WAIT_PID
alive=$(tracee_event "alive")
other=$(tracee_event "other")
state() { "$EVTRACE" ls -p "$p" "$1" | sed -n 2p | cut -d' ' -f1; }
expect_eq "$(state printk)" 0 "printk/ starts off"
# Two sites on one line: the second gets -1.
"$EVTRACE" ls -p "$p" printk/tracee/tests/progs/tracee.c >"$T/ls"
expect_grep "^0 $other$" "$T/ls" "first site on the line"
expect_grep "^0 ${other}-1$" "$T/ls" "second site on the line"
expect_eq "$(state /)" 0 "root starts off"
"$EVTRACE" enable -p "$p" /
expect_eq "$(state /)" 1 "root after enable /"
expect_eq "$(state ftrace/print)" 1 "ftrace/print after enable /"
expect_eq "$(state printk)" 0 "printk/ untouched by the root"
"$EVTRACE" enable -p "$p" $other
expect_eq "$(state $other)" 1 "one event on"
expect_eq "$(state printk/tracee/tests/progs/tracee.c)" X "its file is mixed"
expect_eq "$(state printk)" X "printk/ is mixed"
"$EVTRACE" enable -p "$p" printk/
expect_eq "$(state printk)" 1 "printk/ after enable printk/"
"$EVTRACE" disable -p "$p" $alive
expect_eq "$(state printk/tracee/tests/progs/tracee.c)" X "mixed again"
"$EVTRACE" disable -p "$p" /
expect_eq "$(state ftrace/print)" 0 "ftrace/print off"
expect_eq "$(state printk)" X "printk/ untouched by disable /"
"$EVTRACE" ls -f -p "$p" $alive >"$T/lsf"
expect_grep 'format: "alive %ld\\n"' "$T/lsf" "ls -f shows the format"
expect_grep '^	function: mode_wait$' "$T/lsf" "ls -f shows the site's function"
"$EVTRACE" format -p "$p" $alive >"$T/fmt"
expect_eq "$(cat "$T/fmt")" '"alive %ld\n"' "evtrace format"
# An empty directory-less tree node reads '?': a pattern naming nothing.
expect_status 1 "$EVTRACE" ls -p "$p" nosuch/dir
expect_grep "evtrace: ls: nosuch/dir: no such event or directory" "$T/err" "ls error"
expect_status 1 "$EVTRACE" enable -p "$p" printk/nosuch
expect_grep "evtrace: enable: printk/nosuch: no such event or directory" "$T/err" "enable error"
expect_status 1 "$EVTRACE" format -p "$p" printk/tracee
expect_grep "is a directory" "$T/err" "format on a directory"
