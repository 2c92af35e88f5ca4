# evtrace count -e kernel/...: kernel tracepoints counted with
# perf_event_open in a command from its exec on, with the children it
# forks, beside its user events, or in one running process (traced or
# not); exact counts, and the kernel's refusal with the setting named.
# A user tracefs keeps out gets the events' ids from evtraced and opens
# the counters as themselves, so that the kernel's own check applies.
. "$(dirname "$0")/lib.sh"
need_tracefs "tracefs, perf_event_paranoid"
OPENAT=kernel/syscalls/sys_enter_openat
# The count of event $1 in count's output $2.
count_of() { sed -n "s|^ *\([0-9]*\)      $1\$|\1|p" "$2"; }
# A shell that opens /etc/hostname $1 times, and nothing else it does
# differs with $1.
opens() { "$EVTRACE" count -e "$OPENAT" -- sh -c "i=0; while [ \$i -lt $1 ]; do : </etc/hostname; i=\$((i+1)); done" 2>"$T/c$1" || fail "count failed: $(cat "$T/c$1")"; }

# 1. Exact: 30 opens count 20 more than 10.
opens 10
opens 30
a=$(count_of "$OPENAT" "$T/c10")
b=$(count_of "$OPENAT" "$T/c30")
[ -n "$a" ] && [ -n "$b" ] || fail "no openat counts: $(cat "$T/c10")"
expect_eq "$((b - a))" 20 "openat counts of 30 and 10 opens"

# 2. Inherited: the children the command forks, and theirs.
"$EVTRACE" count -e kernel/sched/sched_process_fork -e 'kernel/sched/sched_process_e*' \
	-- sh -c 'sh -c "true & wait" & wait' 2>"$T/fork" || fail "count failed: $(cat "$T/fork")"
expect_eq "$(count_of kernel/sched/sched_process_fork "$T/fork")" 2 "forks of the command and its child"
expect_eq "$(count_of kernel/sched/sched_process_exec "$T/fork")" 2 "execs: the command's own (counting starts with it) and its child's"
expect_eq "$(count_of kernel/sched/sched_process_exit "$T/fork")" 3 "exits"

# 3. Beside user events, in one run and one list.  sched_process_fork
# fires for every task the kernel makes (a sanitized build makes one of
# its own): 5 threads make 3 more than 2.
seq_site=$(tracee_event "seq t=")
for n in 2 5; do
	"$EVTRACE" count -e "$seq_site" -e kernel/sched/sched_process_fork -- "$TRACEE" threads $n 50 \
		>/dev/null 2>"$T/both$n" || fail "count failed: $(cat "$T/both$n")"
	expect_eq "$(count_of "$seq_site" "$T/both$n")" $((n * 50)) "the user event, $n threads"
done
expect_eq "$(($(count_of kernel/sched/sched_process_fork "$T/both5") - $(count_of kernel/sched/sched_process_fork "$T/both2")))" 3 "tasks made by 5 threads and by 2"

# 4. A running process, traced or not, until ^C.
mkfifo "$T/in"
sh -c 'while read n; do i=0; while [ $i -lt $n ]; do : </etc/hostname; i=$((i+1)); done; echo "done $n"; done' \
	<"$T/in" >"$T/loop.out" &
loop=$!
BG_PIDS="$BG_PIDS $loop"
exec 8>"$T/in"
"$EVTRACE" count -p "$loop" -e "$OPENAT" 2>"$T/p" &
counter=$!
wait_for "count's perf counters" "ls -l /proc/$counter/fd 2>/dev/null | grep -q perf_event"
echo 7 >&8
wait_for "the shell's round" "grep -q 'done 7' '$T/loop.out'"
kill -INT "$counter"
wait "$counter" || fail "count -p failed: $(cat "$T/p")"
exec 8>&-
expect_grep "^ Event counts for pid $loop (kernel events):" "$T/p" "the header"
expect_eq "$(count_of "$OPENAT" "$T/p")" 7 "opens of the running process"

# 5. What is not there or not allowed.
expect_status 1 "$EVTRACE" count -e kernel/nosuch/event -- true
expect_eq "$(cat "$T/err")" "evtrace: count: kernel/nosuch/event: no such kernel event" "no such event"
expect_status 1 "$EVTRACE" count -p "$loop,$$" -e "$OPENAT"
expect_grep "counting kernel events in several processes at once is not yet supported: give one -p" "$T/err" "several pids"
# Without privilege (root's capabilities dropped: tracefs still reads),
# the kernel's rule: paranoid 2 refuses, 1 allows one's own processes.
old=$(cat /proc/sys/kernel/perf_event_paranoid)
trap 'echo "$old" >/proc/sys/kernel/perf_event_paranoid; cleanup' EXIT
nocaps() { setpriv --bounding-set=-all --inh-caps=-all --securebits=+noroot,+noroot_locked "$@"; }
echo 2 >/proc/sys/kernel/perf_event_paranoid
set +e; nocaps "$EVTRACE" count -e "$OPENAT" -- true 2>"$T/err"; got=$?; set -e
expect_eq "$got" 1 "count without privilege at paranoid 2"
expect_grep "^evtrace: count: $OPENAT: the kernel refuses to count it in pid [0-9]* (perf_event_open: Permission denied): kernel.perf_event_paranoid is 2; counting kernel events of your own processes needs it at 1 or less, those of others CAP_PERFMON or root$" "$T/err" "the refusal"
echo 1 >/proc/sys/kernel/perf_event_paranoid
nocaps "$EVTRACE" count -e "$OPENAT" -- sh -c ': </etc/hostname' 2>"$T/err" || fail "count at paranoid 1: $(cat "$T/err")"
[ "$(count_of "$OPENAT" "$T/err")" -ge 1 ] || fail "nothing counted at paranoid 1: $(cat "$T/err")"

# 6. An ordinary user: names and ids from evtraced, counters their own.
make_users
chmod 755 "$R"
mkdir -m 700 "$R/bob" && chown evt-bob "$R/bob"
SOCK=$T/evtraced.sock
bob() { setpriv --reuid=evt-bob --regid="$(id -g evt-bob)" --clear-groups \
	env LD_LIBRARY_PATH="$T/bin" EVTRACE_DAEMON_SOCKET="$SOCK" EVTRACE_RUNDIR="$R/bob/run" "$@"; }
set +e; bob "$EVTRACE_U" count -e "$OPENAT" -- true 2>"$T/err"; got=$?; set -e
expect_eq "$got" 1 "bob without a daemon"
expect_eq "$(cat "$T/err")" "evtrace: count: kernel events: tracefs is root's, and evtraced, which lists them to anyone, is not running ($SOCK: No such file or directory)" "bob told"
"$EVTRACE" daemon --socket "$SOCK" 2>"$T/daemon.log" &
BG_PIDS="$BG_PIDS $!"
wait_for 'the daemon socket' '[ -S "$SOCK" ]'
"$EVTRACE" ls --ids kernel/syscalls/sys_enter_openat >"$T/ids"
expect_eq "$(cat "$T/ids")" "0 $OPENAT id=$(cat "$TR/events/syscalls/sys_enter_openat/id")" "ls --ids: the kernel's tracepoint id"
echo 2 >/proc/sys/kernel/perf_event_paranoid
set +e; bob "$EVTRACE_U" count -e "$OPENAT" -- true 2>"$T/err"; got=$?; set -e
expect_eq "$got" 1 "bob at paranoid 2"
expect_grep "^evtrace: count: $OPENAT: the kernel refuses to count it in pid [0-9]* (perf_event_open: Permission denied): kernel.perf_event_paranoid is 2" "$T/err" "bob refused by the kernel"
echo 1 >/proc/sys/kernel/perf_event_paranoid
for n in 3 8; do
	bob "$EVTRACE_U" count -e "$OPENAT" -- sh -c "i=0; while [ \$i -lt $n ]; do : </etc/hostname; i=\$((i+1)); done" \
		2>"$T/bob$n" || fail "bob's count at paranoid 1: $(cat "$T/bob$n")"
done
expect_eq "$(($(count_of "$OPENAT" "$T/bob8") - $(count_of "$OPENAT" "$T/bob3")))" 5 "bob's openat counts of 8 and 3 opens"
echo "$old" >/proc/sys/kernel/perf_event_paranoid
