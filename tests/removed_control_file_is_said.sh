# A running program whose control file someone removed from the run
# directory (by hand, a cleaner of /dev/shm) can be found by no engine
# any more: every command that looks for it says so, naming the file,
# and a recording of every process counts it among those it could not
# follow, instead of 0 events and 0 lost.  A recording that reads it
# already, holding the file, loses nothing and says nothing.
. "$(dirname "$0")/lib.sh"
"$TRACEE" wait >"$T/w.out" 2>&1 &
w=$!
BG_PIDS="$BG_PIDS $w"
wait_for "the program to start" "grep -q ready '$T/w.out'"
ev=$(tracee_event "alive %ld")
"$EVTRACE" record -p "$w" -e "$ev" -o "$T/held" >/dev/null 2>"$T/held.err" &
rh=$!
BG_PIDS="$BG_PIDS $rh"
wait_for "the recording to switch the event on" "'$EVTRACE' ls -p $w '$ev' 2>/dev/null | grep -q '\\['"
rm "$EVTRACE_RUNDIR"/"$w"-*.ctl
wait_for "the recording to write what the program wrote since" \
	"[ -n \"\$(find '$T/held' -name 'stream_*' -size +0 2>/dev/null)\" ]"
kill -INT "$rh"
wait "$rh" || fail "record -p of a process whose file went: $(cat "$T/held.err")"
expect_grep "; 0 events lost\$" "$T/held.err" "the recording that held the file"
grep -q "could not follow\|was removed" "$T/held.err" && fail "a recording that reads the process said it lost it: $(cat "$T/held.err")"
"$EVTRACE" report "$T/held" | grep -q ': alive ' || fail "the recording that held the file recorded nothing"
kill "$w"
# (a file of its own: the first program's "ready" is no sign of this one)
"$TRACEE" wait >"$T/w2.out" 2>&1 &
w=$!
BG_PIDS="$BG_PIDS $w"
wait_for "the second program's control file" "ls '$EVTRACE_RUNDIR'/$w-*.ctl >/dev/null 2>&1"
file=$(ls "$EVTRACE_RUNDIR"/"$w"-*.ctl)
rm "$file"
said="its control file $file was removed while it ran, not by evtrace: no engine finds it, and it runs untraced until it starts again"
for cmd in "ls -p $w" "record -p $w -o $T/never" "stream -p $w" "enable -p $w printk"; do
	expect_status 1 "$EVTRACE" $cmd
	expect_eq "$(cat "$T/err")" "evtrace: ${cmd%% *}: pid $w: $said" "$cmd"
done
[ ! -e "$T/never" ] || fail "a recording of it made a trace"
"$EVTRACE" ls >/dev/null 2>"$T/err" || true
expect_grep "^evtrace: ls: pid $w (tracee): $said\$" "$T/err" "ls of every process"
# record -a: said at its start, counted in its summary.
record_all_until "$T/all" "$T/all.err" 'removed from the run directory'
expect_grep "^evtrace: pid $w: $file: (tracee) its control file was removed from the run directory while it ran, not by evtrace: it writes on into a file no engine finds; its events from then on are missing, in a number nobody knows\$" \
	"$T/all.err" "record -a names it"
expect_eq "$(grep -c "pid $w: $file" "$T/all.err")" 1 "said once, at the start and not again at the end"
expect_grep ", and an unknown number from 1 process it could not follow (named above)\$" "$T/all.err" "record -a counts it"
kill "$w"
