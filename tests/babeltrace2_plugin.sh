# The babeltrace2 plugin: `babeltrace2 TRACE -c sink.evtrace.text` prints
# what `evtrace report --clock realtime` prints, byte for byte: printk
# messages of every conversion rendered, typed and stable events, spans
# and counters, several
# processes, losses, kernel events; the plain babeltrace2 still reads it.
. "$(dirname "$0")/lib.sh"
skip_if_sanitized "babeltrace2 (unsanitized) loading the sanitized plugin"
PLUGINS=$(dirname "$BT2_PLUGIN")
same_as_report() {	# same_as_report TRACE
	babeltrace2 --plugin-path="$PLUGINS" "$1" -c sink.evtrace.text >"$T/bt2.out" 2>"$T/bt2.err" ||
		{ cat "$T/bt2.err" >&2; fail "babeltrace2 with sink.evtrace.text on $1"; }
	[ ! -s "$T/bt2.err" ] || { cat "$T/bt2.err" >&2; fail "babeltrace2 complained about $1"; }
	"$EVTRACE" report --clock realtime "$1" >"$T/report.out"
	cmp -s "$T/bt2.out" "$T/report.out" ||
		{ diff "$T/report.out" "$T/bt2.out" | head >&2; fail "sink.evtrace.text differs from report on $1"; }
	bt_agrees "$1"
}
"$EVTRACE" record -o "$T/types" -- "$TRACEE" types >/dev/null 2>&1
same_as_report "$T/types"
expect_grep ": misc Z beef 010  3.14 -1.500000e-300 0x1234 %$" "$T/bt2.out" "a printk message rendered"
expect_grep "strings \[\] \[(null)\] \[ab    \] \[abc\]$" "$T/bt2.out" "strings, NULL and precision"
"$EVTRACE" record -o "$T/typed" -- "$TYPED" rows >/dev/null 2>&1
same_as_report "$T/typed"
expect_grep "typed/all: .*color=blue flag=true" "$T/bt2.out" "a typed event's enum and bool"
"$EVTRACE" record -e 'span/**' -e 'async/**' -e 'counter/**' -o "$T/spans" -- "$SPANS" 2 >/dev/null 2>&1
same_as_report "$T/spans"
expect_grep ": span/step: begin: i=1$" "$T/bt2.out" "a span's begin with its message"
expect_grep ": async/job: end 10[01]$" "$T/bt2.out" "an async end with its id"
expect_grep ": counter/load: 1.5$" "$T/bt2.out" "a real counter"
"$EVTRACE" record -o "$T/fork" -- "$TRACEE" fork >/dev/null 2>&1
same_as_report "$T/fork"
expect_grep "^# 4 events, 0 lost, 3 streams$" "$T/bt2.out" "three streams"
"$EVTRACE" record --packet-size 16384 --packets 2 -o "$T/lost" -- "$TRACEE" burst 100000 >/dev/null 2>&1
same_as_report "$T/lost"
grep -q "\[---\] .*: lost [0-9]* events\?: [0-9]* of printk/.* (buffer full)$" "$T/bt2.out" ||
	fail "no loss line naming its site from the sink"
# A thread moved between CPUs: its records say each CPU (in CPU records
# between them, which babeltrace2 shows as evtrace/cpu events); and an
# ftrace_printk() message.
"$EVTRACE" record -o "$T/migrate" -- "$TRACEE" migrate 20 >/dev/null 2>&1
same_as_report "$T/migrate"
grep -c ': hop [0-9]* to cpu [0-9]*$' "$T/bt2.out" | grep -qx 20 || fail "not 20 hops"
sed -n 's/.*\[0*\([0-9][0-9]*\)\] .*: hop [0-9]* to cpu \([0-9]*\)$/\1 \2/p' "$T/bt2.out" |
	awk '$1 != $2 { bad++ } END { exit bad ? 1 : 0 }' || fail "a hop shown on another CPU than it ran on"
expect_grep ": ftrace/print: hopped 20 times$" "$T/bt2.out" "an ftrace_printk() message rendered"
[ "$(babeltrace2 "$T/migrate" | grep -c ' evtrace/cpu: ')" -ge 20 ] || fail "fewer CPU events than hops"
if [ "$(id -u)" = 0 ]; then
	"$EVTRACE" record -o "$T/kernel" -e printk -e kernel/syscalls/sys_enter_getppid \
		-- "$TRACEE" syscalls 5 >/dev/null 2>"$T/rec.err" || fail "record with kernel events: $(cat "$T/rec.err")"
	same_as_report "$T/kernel"
	expect_grep "tracee-[0-9]* *\[[0-9]*\] [^ ]*: kernel/syscalls/sys_enter_getppid: getppid()$" "$T/bt2.out" "a kernel event, its task, in strace's notation"
fi
echo "ok: sink.evtrace.text prints what report prints on $(ls -d "$T"/*/ | wc -l) traces"
