# An enable reads back from the process which flag byte is its C site's
# (flag_of), and checks it: a process whose flag_of lies (past the flag
# pages, three ways) gets its events switched on all the same, and the
# engine writes nowhere outside the flag pages (the file does not grow).
. "$(dirname "$0")/lib.sh"
start_waiter
p=$WAIT_PID
ctl=$(ls "$EVTRACE_RUNDIR"/"$p"-*.ctl) || fail "no control file of the waiter: $(ls -l "$EVTRACE_RUNDIR")"
size=$(stat -c %s "$ctl")
"$SCRIBBLE" "$ctl" 0 flagof || fail "the liar did not run: $(ls -l "$EVTRACE_RUNDIR")"
"$EVTRACE" enable -p "$p" printk/ || fail "enable, with flag bytes that lie"
"$EVTRACE" ls -p "$p" printk/ >"$T/ls"
expect_eq "$(grep -c '^1 printk/.*/[0-9][0-9-]*$' "$T/ls")" "$(grep -c '^[01] printk/.*/[0-9][0-9-]*$' "$T/ls")" \
	"every printk event on"
[ "$(grep -c '^1 printk/' "$T/ls")" -gt 0 ] || fail "no printk event listed: $(cat "$T/ls")"
expect_eq "$(stat -c %s "$ctl")" "$size" "the control file's size"
running "$p" || fail "the process died"
echo "ok: enable through a lying flag_of: events on, nothing written outside"
