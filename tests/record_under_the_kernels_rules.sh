# record -e kernel/... under the kernel's rules (it changes
# kernel.perf_event_paranoid and makes users: a serial test): root's
# capabilities dropped, tracefs still reads; paranoid 1 lets a user
# record the syscalls of their own processes, nothing else; 2 nothing.
# An ordinary user at paranoid 1 with evtraced.
. "$(dirname "$0")/lib.sh"
need_tracefs "tracefs, perf_event_paranoid"
ENTER=kernel/syscalls/sys_enter_getppid
EXIT=kernel/syscalls/sys_exit_getppid
before=$(tracee_event "before getppid")
after=$(tracee_event "after getppid")

old=$(cat /proc/sys/kernel/perf_event_paranoid)
trap 'echo "$old" >/proc/sys/kernel/perf_event_paranoid; cleanup' EXIT
nocaps() { setpriv --bounding-set=-all --inh-caps=-all --securebits=+noroot,+noroot_locked "$@"; }
echo 2 >/proc/sys/kernel/perf_event_paranoid
set +e; nocaps "$EVTRACE" record -o "$T/x" -e "$ENTER" -- true 2>"$T/err"; got=$?; set -e
expect_eq "$got" 1 "record without privilege at paranoid 2"
set +e; nocaps "$EVTRACE" record -a -o "$T/x" -e "$ENTER" 2>"$T/err2"; got=$?; set -e
expect_eq "$got" 1 "record -a without privilege"
expect_grep "^evtrace: record: .*: the kernel refuses to record it on every CPU (perf_event_open: Permission denied): kernel.perf_event_paranoid is 2" "$T/err2" "-a refused"
expect_grep "^evtrace: record: $ENTER: the kernel refuses to record it in pid [0-9]* (perf_event_open: Permission denied): kernel.perf_event_paranoid is 2; recording the syscalls/ and raw_syscalls/ events of your own processes needs it at 1 or less, other kernel events and every CPU CAP_PERFMON or root$" "$T/err" "the refusal"
echo 1 >/proc/sys/kernel/perf_event_paranoid
set +e; nocaps "$EVTRACE" record -o "$T/x" -e kernel/sched/sched_process_exec -- true 2>"$T/err"; got=$?; set -e
expect_eq "$got" 1 "a scheduler event without privilege at paranoid 1"
expect_eq "$(sed 's/pid [0-9]*/pid N/' "$T/err")" "evtrace: record: kernel/sched/sched_process_exec: the kernel refuses to record it in pid N (perf_event_open: Operation not permitted): kernel.perf_event_paranoid is 1; recording the syscalls/ and raw_syscalls/ events of your own processes needs it at 1 or less, other kernel events and every CPU CAP_PERFMON or root" "its refusal, and nothing else"
nocaps "$EVTRACE" record -o "$T/tr-user" -e "$ENTER" -e "$EXIT" -e "$before" -e "$after" -- "$TRACEE" syscalls 5 \
	>/dev/null 2>"$T/err" || fail "record at paranoid 1: $(cat "$T/err")"
"$EVTRACE" report "$T/tr-user" >"$T/report-user"
report_rounds_in_order "$T/report-user" 5 || fail "unprivileged: rounds out of order"
echo "$old" >/proc/sys/kernel/perf_event_paranoid

# An ordinary user at paranoid 1, with evtraced: names, ids and the
# kernel's own format files come from the daemon (tracefs is root's),
# the perf events are the user's own, so the kernel's check applies.
make_users
chmod 755 "$R"
mkdir -m 700 "$R/bob" && chown evt-bob "$R/bob"
mkdir -m 755 "$T/bobout" && chown evt-bob "$T/bobout"
SOCK=$T/evtraced.sock
bob() { setpriv --reuid=evt-bob --regid="$(id -g evt-bob)" --clear-groups \
	env LD_LIBRARY_PATH="$T/bin" EVTRACE_DAEMON_SOCKET="$SOCK" EVTRACE_RUNDIR="$R/bob/run" "$@"; }
set +e; bob "$EVTRACE_U" record -o "$T/bobout/t" -e "$ENTER" -- "$TRACEE_U" syscalls 2 >/dev/null 2>"$T/err"; st=$?; set -e
expect_eq "$st" 1 "bob without a daemon"
expect_eq "$(cat "$T/err")" "evtrace: record: kernel events: tracefs is root's, and evtraced, which lists them to anyone, is not running ($SOCK: No such file or directory)" "bob told"
"$EVTRACE" daemon --socket "$SOCK" 2>"$T/daemon.log" &
BG_PIDS="$BG_PIDS $!"
wait_for 'the daemon socket' '[ -S "$SOCK" ]'
bob "$EVTRACE_U" format --tracefs "$ENTER" >"$T/bob.format" || fail "bob's format --tracefs"
cat "$TR/events/syscalls/sys_enter_getppid/format" >"$T/tracefs.format"	# (tracefs says size 0)
expect_eq "$(cat "$T/bob.format")" "$(cat "$T/tracefs.format")" "format --tracefs: the file as tracefs has it"
echo 1 >/proc/sys/kernel/perf_event_paranoid
bob "$EVTRACE_U" record -o "$T/bobout/t" -e "$(tracee_event "before getppid")" -e "$(tracee_event "after getppid")" \
	-e "$ENTER" -e "$EXIT" -- "$TRACEE_U" syscalls 4 >/dev/null 2>"$T/err" || fail "bob's record: $(cat "$T/err")"
"$EVTRACE" report "$T/bobout/t" >"$T/report-bob"
report_rounds_in_order "$T/report-bob" 4 || fail "bob's recording: rounds out of order"
bob "$EVTRACE_U" trace -- "$TRACEE_U" syscalls 2 >/dev/null 2>"$T/trace-bob" || fail "bob's trace: $(cat "$T/trace-bob")"
# (A call another task's line came into the middle of shows as strace -f
# shows it: '<unfinished ...>', then '<... getppid resumed> = N'.)
[ "$(grep -Ec ': (getppid\(\)|<\.\.\. getppid resumed>) = [0-9]* <' "$T/trace-bob")" -ge 6 ] ||
	fail "bob's trace: not the rounds' calls: $(cat "$T/trace-bob")"
# Not root's process: bob may trace only his own.
"$TRACEE" wait >/dev/null 2>&1 &
rootproc=$!
BG_PIDS="$BG_PIDS $rootproc"
set +e; bob "$EVTRACE_U" trace -p "$rootproc" >/dev/null 2>"$T/err"; st=$?; set -e
expect_eq "$st" 1 "bob: trace -p of root's process"
expect_grep "^evtrace: trace: pid $rootproc (tracee, user root): evtraced traces the system calls and probes of your own processes only (the kernel's CAP_ANY rule: a task you own and could ptrace): its user ids (real 0, effective 0, saved 0) are not all yours\$" "$T/err" "bob refused by evtraced, with the rule"
kill "$rootproc"
set +e; bob "$EVTRACE_U" record -o "$T/bobout/t" -e kernel/sched/sched_process_exec -- true 2>"$T/err"; st=$?; set -e
expect_eq "$st" 1 "bob: a scheduler event"
expect_grep "kernel/sched/sched_process_exec: the kernel refuses to record it in pid [0-9]* (perf_event_open: Operation not permitted): kernel.perf_event_paranoid is 1" "$T/err" "bob refused by the kernel"
echo "$old" >/proc/sys/kernel/perf_event_paranoid
