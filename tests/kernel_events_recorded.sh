# evtrace record -e kernel/...: kernel tracepoints in the same trace as
# user events, on one clock (the TSC forced, and the default), each record
# with its task; the command's threads and forked children followed; a
# running untraced process and its children; what a full ring lost
# counted exactly; babeltrace2 reads it all; bad input and damaged
# streams.  (The kernel's rules: record_under_the_kernels_rules.)
. "$(dirname "$0")/lib.sh"
need_tracefs "tracefs, perf_event_paranoid"
ENTER=kernel/syscalls/sys_enter_getppid
EXIT=kernel/syscalls/sys_exit_getppid
before=$(tracee_event "before getppid")
after=$(tracee_event "after getppid")

# 1. Each round of each task in order: its "before" event, the system
# call's entry and exit (returning the parent's pid), its "after" event.
# Three tasks (the main thread, a second thread, a forked child) of 40
# rounds; the TSC forced, then the machine's own clock.
for clock in tsc default; do
	if [ $clock = tsc ]; then export EVTRACE_CLOCK=tsc; fi
	"$EVTRACE" record -o "$T/tr-$clock" -e "$before" -e "$after" -e "$ENTER" -e "$EXIT" \
		-- "$TRACEE" syscalls 40 >/dev/null 2>"$T/rec" || fail "record: $(cat "$T/rec")"
	unset EVTRACE_CLOCK
	"$EVTRACE" report "$T/tr-$clock" >"$T/report-$clock"
	report_rounds_in_order "$T/report-$clock" 40 || fail "$clock: rounds out of order (report in $T)"
	[ $clock = tsc ] && expect_grep "TSC, invariant" "$T/tr-$clock/metadata" "the TSC forced"
	bt_agrees "$T/tr-$clock"
done
# babeltrace2 shows each kernel record's task, and its fields.
grep -m1 "$EXIT" "$T/bt.agree" >"$T/bt.exit"
expect_grep '{ pid = [0-9]*, tid = [0-9]*, comm = "tracee" }, { __syscall_nr = 110, ret = [0-9]* }' \
	"$T/bt.exit" "babeltrace2's kernel record"
ls "$T/tr-default" | grep -q '^stream_kernel_\(cpu[0-9]*\|syscalls\)$' || fail "no kernel stream files"

# 1b. A flight recorder's window (record --overwrite --trigger) holds the
# recording's kernel events too, in the window's own directory: every
# round of a task that the window holds has its system call right before
# its "after" event, up to the round that fired.
"$EVTRACE" record --overwrite -o "$T/tr-win" -e "$before" -e "$after" -e "$ENTER" -e "$EXIT" \
	--trigger "$after if arg0 == 20" --max-windows 1 \
	-- "$TRACEE" syscalls 40 >/dev/null 2>"$T/rec-win" || fail "record: $(cat "$T/rec-win")"
expect_grep "window $T/tr-win/window-1\$" "$T/rec-win" "a window written"
ls "$T/tr-win/window-1" | grep -q '^stream_kernel_\(cpu[0-9]*\|syscalls\)$' || fail "no kernel stream files in the window"
"$EVTRACE" report "$T/tr-win/window-1" >"$T/report-win"
python3 - "$T/report-win" <<'PY' || fail "the window's kernel events (report in $T/report-win)"
import re, sys
line_re = re.compile(r'^ *(\S+)-(\d+) +\[(\d+)\] (\d+\.\d+): (\S+): (.*)$')
tasks, fired = {}, False
for l in open(sys.argv[1]):
    m = line_re.match(l)
    if m:
        tasks.setdefault(int(m.group(2)), []).append((m.group(5), m.group(6)))
        fired = fired or m.group(6) == 'after getppid 20'
assert fired, "the firing event is not in its window"
rounds = 0
for tid, evs in tasks.items():
    for i, (path, text) in enumerate(evs):
        if text.startswith('after getppid') and i > 0:
            assert evs[i - 1][0].endswith('sys_exit_getppid'), (tid, i, evs[i - 1], text)
            rounds += 1
assert rounds >= 20, "only %d rounds with their system call" % rounds
PY
bt_agrees "$T/tr-win/window-1"
grep -q "sys_exit_getppid" "$T/bt.agree" || fail "babeltrace2 shows no kernel events in the window"

# 1c. A trigger on a kernel event (recorded, though no -e names it) sees
# every one the recording writes: it fires once for each getppid exit in
# the trace, comparing a field; its window names the event.  A field the
# event lacks is refused before the command runs (kernel events are known
# then).
"$EVTRACE" record --overwrite -o "$T/tr-kt" -e "$after" --trigger "$EXIT if ret > 0" --max-windows 1 \
	-- "$TRACEE" syscalls 10 >/dev/null 2>"$T/rec-kt" || fail "record: $(cat "$T/rec-kt")"
"$EVTRACE" report "$T/tr-kt" >"$T/report-kt"
exits=$(grep -c "$EXIT: <\.\.\. getppid resumed> = [1-9]" "$T/report-kt")
[ "$exits" -ge 30 ] || fail "only $exits getppid exits recorded"
expect_grep "^evtrace: record: triggers fired $exits times, 1 window written; $((exits - 1)) firings after --max-windows 1 wrote none\$" \
	"$T/rec-kt" "a firing for each exit recorded"
expect_grep "^event: $EXIT\$" "$T/tr-kt/window-1/evtrace/trigger" "the kernel event named in the window"
"$EVTRACE" report "$T/tr-kt/window-1" | grep -q "$EXIT: <\.\.\. getppid resumed> = [1-9]" ||
	fail "the event that fired is not in its window: $("$EVTRACE" report "$T/tr-kt/window-1" 2>&1 | head -5)"
expect_status 1 "$EVTRACE" record --overwrite -o "$T/tr-kn" -e "$after" --trigger "$EXIT if nope == 1" \
	-- "$TRACEE" syscalls 10
expect_eq "$(cat "$T/err")" "evtrace: record: --trigger '$EXIT if nope == 1': no event $EXIT names has a field nope (evtrace ls -f $EXIT shows their fields)" \
	"a kernel field that is not there, refused before the command runs"
[ ! -s "$T/out" ] || fail "the command ran: $(cat "$T/out")"
[ ! -e "$T/tr-kn" ] || fail "a refused trigger left a trace directory"

# 1d. snapshot on demand of a flight recorder with kernel events: its
# recorder adds those of the snapshot's time; --no-kernel leaves them out.
"$EVTRACE" record --overwrite -o "$T/tr-snap" -e "printk/tracee/**" -e kernel/sched/sched_process_exec \
	-- sh -c '"$1" wait >"$2" & w=$!; while [ ! -e "$3" ]; do /bin/true; : >"$4"; done; kill $w' \
	sh "$TRACEE" "$T/snap.out" "$T/snap.stop" "$T/snap.looped" 2>"$T/rec-snap" &
rec=$!
BG_PIDS="$BG_PIDS $rec"
wait_for "the program to be ready" "grep -q ready '$T/snap.out'"
# Execs after the program's first event, which begins the window: the
# first ones may come before it (a loaded machine starts the loop first).
for _ in 1 2; do
	rm -f "$T/snap.looped"
	wait_for "an exec of /bin/true" "[ -e '$T/snap.looped' ]"
done
"$EVTRACE" snapshot -o "$T/snap" 2>"$T/snap.err" || fail "snapshot: $(cat "$T/snap.err")"
"$EVTRACE" snapshot --no-kernel -o "$T/snap-nk" 2>"$T/snap-nk.err" || fail "snapshot --no-kernel: $(cat "$T/snap-nk.err")"
# A recorder that does not answer (stopped): the snapshot stands, said.
kill -STOP "$rec"
"$EVTRACE" snapshot -o "$T/snap-st" 2>"$T/snap-st.err" || { kill -CONT "$rec"; fail "snapshot of a stopped recorder: $(cat "$T/snap-st.err")"; }
kill -CONT "$rec"
expect_grep "^evtrace: snapshot: note: the recording's kernel events are not in $T/snap-st: collection [0-9]*: its engine did not answer in 2 s\$" \
	"$T/snap-st.err" "a recorder that does not answer, said"
"$EVTRACE" report "$T/snap-st" | grep -q ": alive [0-9]*$" || fail "the snapshot without its kernel events holds no event"
touch "$T/snap.stop"
wait "$rec" || fail "record: $(cat "$T/rec-snap")"
grep -q "kernel events are not" "$T/snap.err" && fail "$(cat "$T/snap.err")"
"$EVTRACE" report "$T/snap" >"$T/report-snap"
[ "$(grep -c 'sched_process_exec: filename=/bin/true pid=' "$T/report-snap")" -gt 0 ] ||
	fail "no kernel event in the snapshot (report in $T/report-snap)"
expect_grep ": alive [0-9]*$" "$T/report-snap" "the program's events in the snapshot"
bt_agrees "$T/snap"
ls "$T/snap-nk" | grep -q '^stream_kernel' && fail "--no-kernel: kernel events in the snapshot"
"$EVTRACE" report "$T/snap-nk" | grep -q ": alive [0-9]*$" || fail "the snapshot without kernel events holds no event"

# 2. Strings and tasks: a running shell that is not traced, and the
# children it forks (their exec records name the program, under the new
# name), until ^C.
mkfifo "$T/in"
sh -c 'while read n; do /bin/true "$n"; echo "done $n"; done' <"$T/in" >"$T/loop.out" &
loop=$!
BG_PIDS="$BG_PIDS $loop"
exec 8>"$T/in"
"$EVTRACE" record -o "$T/tr-p" -p "$loop" -e kernel/sched/sched_process_exec \
	-e kernel/sched/sched_process_fork 2>"$T/rec-p" &
recorder=$!
# Its trace directory is made once its kernel events are open.
wait_for 'tr-p/metadata to appear' '[ -f "$T/tr-p/metadata" ]'
echo 1 >&8
echo 2 >&8
wait_for "the shell's two rounds" "grep -q 'done 2' '$T/loop.out'"
kill -INT "$recorder"
wait "$recorder" || fail "record -p failed: $(cat "$T/rec-p")"
exec 8>&-
"$EVTRACE" report "$T/tr-p" >"$T/report-p"
expect_eq "$(grep -c "^ *sh-$loop .*sched_process_fork: comm=sh pid=$loop " "$T/report-p")" 2 "the shell's two forks"
expect_eq "$(grep -c "^ *true-[0-9]* .*sched_process_exec: filename=/bin/true pid=" "$T/report-p")" 2 "its children's execs, named"
expect_grep "^# 4 events, 0 lost" "$T/report-p" "nothing else"
bt "$T/tr-p" >/dev/null

# 3. A full ring: what it lost is counted exactly.  The same command
# counted, then recorded through rings of 8 KiB.
"$EVTRACE" count -e "$ENTER" -- "$TRACEE" syscalls 20000 >/dev/null 2>"$T/count" || fail "count: $(cat "$T/count")"
total=$(sed -n "s|^ *\([0-9]*\)      $ENTER\$|\1|p" "$T/count")
[ "${total:-0}" -gt 60000 ] || fail "count: $(cat "$T/count")"
"$EVTRACE" record -o "$T/tr-lost" --kernel-buffer 8 -e "$ENTER" -- "$TRACEE" syscalls 20000 \
	>/dev/null 2>"$T/rec-lost" || fail "record: $(cat "$T/rec-lost")"
"$EVTRACE" report "$T/tr-lost" >"$T/report-lost"
read_n=$(sed -n 's/^# \([0-9]*\) events, \([0-9]*\) lost.*/\1/p' "$T/report-lost")
lost_n=$(sed -n 's/^# \([0-9]*\) events, \([0-9]*\) lost.*/\2/p' "$T/report-lost")
[ "$lost_n" -gt 0 ] && [ "$read_n" -gt 0 ] || fail "read $read_n, lost $lost_n: the ring should have overflowed"
expect_eq "$((read_n + lost_n))" "$total" "read + lost = what the kernel counted"
expect_grep "; $lost_n events lost" "$T/rec-lost" "record's summary"
bt "$T/tr-lost" >/dev/null
expect_grep "discarded $lost_n events\|discarded [0-9]* events" "$T/bt.err" "babeltrace2 told of the loss"

# 4. Every CPU (-a): a program evtrace did not start, and the user
# events of a traced process started after the recording, until ^C.
"$EVTRACE" record -a -o "$T/tr-a" -e kernel/sched/sched_process_exec -e "$before" 2>"$T/rec-a" &
recorder=$!
wait_for 'tr-a/metadata to appear' '[ -f "$T/tr-a/metadata" ]'
/bin/true evtrace-all-cpus
"$TRACEE" syscalls 2 >/dev/null &
tp=$!
wait "$tp"
# Its control file goes once the recording has read all it wrote.
wait_for "the recording to read the program's events" "! ls '$EVTRACE_RUNDIR'/$tp-*.ctl >/dev/null 2>&1"
kill -INT "$recorder"
wait "$recorder" || fail "record -a failed: $(cat "$T/rec-a")"
"$EVTRACE" report "$T/tr-a" >"$T/report-a"
expect_grep "^ *true-[0-9]* .*sched_process_exec: filename=/bin/true pid=" "$T/report-a" "an exec on some CPU"
expect_eq "$(grep -c ': before getppid [01]$' "$T/report-a")" 6 "the user events of a process started later"
expect_status 2 "$EVTRACE" record -a -p 1 -e "$ENTER"
expect_grep "^evtrace: record: -p and -a exclude each other$" "$T/err" "-a with -p"

# 5. Bad input.
expect_status 1 "$EVTRACE" record -o "$T/x" -e kernel/nosuch/event -- true
expect_eq "$(cat "$T/err")" "evtrace: record: kernel/nosuch/event: no such kernel event" "no such event"
expect_status 1 "$EVTRACE" record -o "$T/x" --kernel-buffer 12 -e "$ENTER" -- true
expect_eq "$(cat "$T/err")" "evtrace: record: --kernel-buffer 12: not a power of two from 8 to 1048576 (KiB)" "odd ring size"
# 6. A damaged kernel stream or index: errors name the file, the offset
# or the line; the rest is read; nothing crashes.
good=$T/tr-default
k=$(ls "$good"/stream_kernel_* | head -1)
cp -r "$good" "$T/bad"
kb=$T/bad/$(basename "$k")
# content_size (bits, at offset 24) of the first packet: its header and
# 20 bytes, which cut the first record's task inside it
python3 -c "import struct,sys; f=open(sys.argv[1],'r+b'); f.seek(24); f.write(struct.pack('<Q', (88 + 20) * 8))" "$kb"
expect_status 1 "$EVTRACE" report "$T/bad"
expect_grep "$kb: offset 88: truncated record header" "$T/err" "a kernel record cut in its task"
grep -q "^# [1-9][0-9]* events" "$T/out" || fail "the other streams were not read"
rm -rf "$T/bad"; cp -r "$good" "$T/bad"
sed -i 's/^kernel-stream \([0-9]*\)$/stream \1 1 "x"/' "$T/bad/evtrace/index"
expect_status 1 "$EVTRACE" report "$T/bad"
expect_grep "index:[0-9]*: a kernel event in a process stream class" "$T/err" "kernel events in a process's class"
for seed in 1 2 3 4 5 6; do
	rm -rf "$T/bad"; cp -r "$good" "$T/bad"
	garble "$kb" $seed
	set +e; "$EVTRACE" report "$T/bad" >/dev/null 2>&1; st=$?; set -e
	[ "$st" -le 1 ] || fail "report exited $st on a garbled kernel stream (seed $seed)"
done
