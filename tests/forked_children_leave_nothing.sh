#!/bin/sh
# A forked child gets a control file only when it needs one (its first
# enabled event, its first registration, or at fork when a recording
# follows children), so that the children of a pre-fork server that
# _exit or exec leave nothing in the run directory; children that write
# and _exit with no engine running leave one file at most (each child's
# file, when made, removes its dead siblings'); an exec chain leaves only
# its last image's file; and the control files of processes killed
# outright, published or not, are removed by the next process to start.
. "$(dirname "$0")/lib.sh"
SITE=$(tracee_event "forker child")
WRITER=$(tracee_event "forker writer")

mkfifo "$T/forker.in"
exec 8<>"$T/forker.in"
"$TRACEE" forker <&8 >"$T/forker.out" 2>"$T/forker.err" &
forker=$!
BG_PIDS="$BG_PIDS $forker"
exec 8>&-
ask() {	# ask LINE ANSWER: sends LINE, waits for a line matching ANSWER
	n=$(grep -c . "$T/forker.out" || true)
	echo "$1" >"$T/forker.in"
	wait_for "the forker to answer '$1' with '$2'" \
		"tail -n +$((n + 1)) '$T/forker.out' | grep -q '$2'"
}
wait_for "the forker to start" "grep -q '^ready' '$T/forker.out'"
ctl_count() { ls "$EVTRACE_RUNDIR" | grep -c '\.ctl$' || true; }
expect_eq "$(ctl_count)" 1 "control files of the forker alone"

# 300 children that _exit at once: no file made, none left.
ask "exit 300" "^forked 300$"
expect_eq "$(ctl_count)" 1 "control files after 300 children _exited"
kib=$(du -sk "$EVTRACE_RUNDIR" | cut -f1)
[ "$kib" -lt 1024 ] || fail "the run directory holds $kib KiB after 300 children"

# A child whose first event is enabled (by enable, the default
# collection) makes its file then, with that event in it.
"$EVTRACE" enable "$SITE"
"$EVTRACE" stream >"$T/stream" 2>"$T/stream.err" &
streamer=$!
BG_PIDS="$BG_PIDS $streamer"
wait_for "the stream to read the default collection" "slot_held 0"
ask "event" "^child "
child=$(sed -n 's/^child //p' "$T/forker.out" | tail -1)
[ -e "$EVTRACE_RUNDIR/$child-0.ctl" ] || fail "the child that wrote an event has no control file"
expect_eq "$("$EVTRACE" ls -p "$child" "$SITE" | tail -1)" "1 $SITE" "the enabled event in the child's own file"
wait_for "the child's event in the stream" "grep -q 'forker child $child' '$T/stream'"
expect_eq "$(grep -c ": forker child $child$" "$T/stream" || true)" 1 "the child's event, read once from its file"
kill -INT "$streamer"
wait "$streamer" || fail "stream failed: $(cat "$T/stream.err")"
# With an event on and no engine, 200 children that write it and _exit:
# the last one's file is left, beside the forker's and the child's.
"$EVTRACE" enable "$WRITER"
ask "write-exit 200" "^forked 200$"
expect_eq "$(ctl_count)" 3 "control files after 200 children wrote and _exited"
"$EVTRACE" disable "$SITE"
"$EVTRACE" disable "$WRITER"

# A child that registers events (dlopen) makes its file too, and lists them.
ask "dlopen $PLUGIN" "^child "
child2=$(sed -n 's/^child //p' "$T/forker.out" | tail -1)
"$EVTRACE" ls -p "$child2" >"$T/ls" || fail "ls of the child that dlopen'ed: $(cat "$T/ls")"
expect_grep "printk/libtest_plugin.so/tests/progs/plugin.c/" "$T/ls" "the plugin's events in the child's file"

# Killed outright, the two children leave their files; so do 20 traced
# programs killed with -9.  The next traced process to start removes them.
: >"$T/pids"
for i in $(seq 20); do
	"$TRACEE" wait >"$T/w$i.out" 2>&1 &
	echo $! >>"$T/pids"
done
for i in $(seq 20); do
	wait_for "traced program $i to start" "grep -q ready '$T/w$i.out'"
done
ask "kill" "^killed$"
for p in $(cat "$T/pids"); do kill -9 "$p"; done
for p in $(cat "$T/pids"); do wait "$p" 2>/dev/null || true; done
expect_eq "$(ctl_count)" 23 "control files left by 22 killed processes, and the forker's"
# Files never published (magic 0): a dead pid's goes, a live one's stays
# (its maker locks it just after making it).
head -c 8192 /dev/zero >"$EVTRACE_RUNDIR/3999999-0.ctl"
head -c 8192 /dev/zero >"$EVTRACE_RUNDIR/$forker-9.ctl"
chmod 600 "$EVTRACE_RUNDIR/3999999-0.ctl" "$EVTRACE_RUNDIR/$forker-9.ctl"
"$TRACEE" threads 1 1 >/dev/null
expect_eq "$(ls "$EVTRACE_RUNDIR" | grep '\.ctl$' | tr '\n' ' ')" "$forker-0.ctl $forker-9.ctl " "control files after the next process started"
rm "$EVTRACE_RUNDIR/$forker-9.ctl"
kib=$(du -sk "$EVTRACE_RUNDIR" | cut -f1)
[ "$kib" -lt 1024 ] || fail "the run directory holds $kib KiB after the sweep"

# A child of a process a recording follows gets its file at fork.
"$EVTRACE" record -o "$T/trace" -- "$TRACEE" spawn 3 1 >/dev/null 2>"$T/record.err" ||
	fail "record: $(cat "$T/record.err")"
expect_eq "$("$EVTRACE" report "$T/trace" | grep -c ': child i=')" 15 "children's events in a recording"

# An exec chain of 30 images: each image's file is removed by the next
# (an exec runs no destructor), the last one's stays while it runs.
"$TRACEE" exec-chain 30 >"$T/chain.out" 2>"$T/chain.err" &
chain=$!
BG_PIDS="$BG_PIDS $chain"
wait_for "the exec chain to end" "grep -q ready '$T/chain.out'"
expect_eq "$(ls "$EVTRACE_RUNDIR" | grep -c "^$chain-.*\.ctl$")" 1 "control files of a pid after 30 execs"
kill "$chain"
