# record -e kernel/syscalls/...: each record keeps the memory its call's
# arguments pointed to, copied at the call by the eBPF program (paths
# whole, buffers cut at --strsize, a read's bytes at its exit), and
# report, babeltrace2's plugin and babeltrace2 itself read it; stream -e
# shows it live; without eBPF, addresses and a message; what the
# program's ring could not take is counted exactly.
. "$(dirname "$0")/lib.sh"
need_tracefs "tracefs, eBPF"
skip_if_tsan "its runtime's own thread adds rings of task names this test counts"

# The syscalls/ records of a trace as "event: text", in order.
calls() {
	"$EVTRACE" report "$1" >"$T/report.out" || fail "report $1"
	sed -n 's/^.* kernel\/syscalls\/\(sys_[a-z0-9_]*\): /\1: /p' "$T/report.out"
}
# Line $1 is in file $2 exactly once; its line number.
once() {
	n=$(grep -c -F -x -- "$1" "$2" || true)
	[ "$n" = 1 ] || { cat "$2" >&2; fail "'$1' $n times, not once"; }
	grep -n -F -x -- "$1" "$2" | cut -d: -f1
}

sel="-e kernel/syscalls/sys_*_openat -e kernel/syscalls/sys_*_read -e kernel/syscalls/sys_*_write"
# shellcheck disable=SC2086
"$EVTRACE" record -q -o "$T/tr" $sel -- "$TRACEE" strace-calls "$T/created" \
	>"$T/cmd.out" 2>"$T/rec.err" || fail "record: $(cat "$T/rec.err")"
grep -q "only its addresses" "$T/rec.err" && fail "root's record without eBPF: $(cat "$T/rec.err")"
[ -s "$T/tr/stream_kernel_syscalls" ] || fail "no stream_kernel_syscalls in $(ls "$T/tr")"
calls "$T/tr" >"$T/calls"
grep -q "^sys_enter_execve\|\"/etc/ld.so.cache\"" "$T/calls" ||
	fail "the command's calls from its exec on: no ld.so.cache in $(head "$T/calls")"
grep -q "record\|/evtrace\"" "$T/calls" && fail "calls before the command's exec: $(grep "record\|/evtrace\"" "$T/calls")"
# Each call once, in order, its result on the line after it.
last=0
for want in \
	'sys_enter_openat: openat(AT_FDCWD, "/nonexistent-evtrace", O_RDONLY|O_CLOEXEC)' \
	'sys_exit_openat: <... openat resumed> = -1 ENOENT (No such file or directory)' \
	"sys_enter_openat: openat(AT_FDCWD, \"$T/created\", O_RDWR|O_CREAT|O_TRUNC, 0640)" \
	'sys_exit_openat: <... openat resumed> = 3' \
	'sys_enter_write: write(3, "hello\n\33[31mred\0tail", 19)' \
	'sys_exit_write: <... write resumed> = 19' \
	'sys_enter_read: read(3, 0x*, 64)' \
	'sys_exit_read: <... read resumed>"hello\n\33[31mred\0tail", 64) = 19' \
	'sys_enter_write: write(3, "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"..., 64)' \
	'sys_exit_write: <... write resumed> = 64' \
	'sys_enter_write: write(3, 0x1, 5)' \
	'sys_exit_write: <... write resumed> = -1 EFAULT (Bad address)'; do
	case $want in
	sys_enter_read*)	# (its buffer's address: the line before its exit)
		last=$((last + 1))
		sed -n "${last}p" "$T/calls" | grep -q '^sys_enter_read: read(3, 0x[0-9a-f]*, 64)$' ||
			fail "line $last: $(sed -n "${last}p" "$T/calls"), not the read";;
	sys_exit_*)
		last=$((last + 1))
		expect_eq "$(sed -n "${last}p" "$T/calls")" "$want" "line $last";;
	*)
		at=$(once "$want" "$T/calls")
		[ "$at" -gt "$last" ] || fail "'$want' (line $at) before line $last"
		last=$at;;
	esac
done
# A path is whole, whatever --strsize, but for what the eBPF program
# copies of an argument: 4096 bytes, its NUL included.
long=$(printf '%4095s' '' | tr ' ' x)
expect_grep "^sys_enter_openat: openat(AT_FDCWD, \"$long\"\\.\\.\\., O_RDONLY)\$" "$T/calls" "a path cut at 4095 bytes"
# Every entry has its exit, and no record is there twice.
expect_eq "$(grep -c '^sys_enter_' "$T/calls")" "$(grep -c '^sys_exit_' "$T/calls")" "entries and exits"
expect_eq "$(sed -n 's/^.*\] \([0-9.]*\): .*/\1/p' "$T/report.out" | sort | uniq -d | wc -l)" 0 "records at the same time"

# babeltrace2 reads the copied memory as what it is: a path as a string
# in the place of its address, a buffer as bytes; and its Python
# bindings the same.  The plugin prints what report prints.
bt "$T/tr" >"$T/bt.out"
expect_grep "sys_enter_openat: .*{ __syscall_nr = 257, dfd = [0-9]*, filename = \"$T/created\", flags = [0-9]*, mode = 416, evtrace_capture = 1, filename_addr = [1-9][0-9]*, filename_flags = 0 }" \
	"$T/bt.out" "babeltrace2's view of a path"
expect_grep 'sys_enter_write: .* buf = \[ \[0\] = 104, \[1\] = 101, \[2\] = 108, \[3\] = 108, \[4\] = 111,' \
	"$T/bt.out" "babeltrace2's view of a buffer"
/usr/bin/python3 - "$T/tr" "$T/created" <<'PY' || fail "babeltrace2's Python bindings"
import sys, bt2
want = sys.argv[2]
paths = [str(m.event.payload_field['filename'])
         for m in bt2.TraceCollectionMessageIterator(sys.argv[1])
         if type(m) is bt2._EventMessageConst and m.event.name.endswith('sys_enter_openat')
         and isinstance(m.event.payload_field['filename'], bt2._StringFieldConst)]
assert want in paths, paths[:5]
PY
if [ -z "$(sanitizer)" ]; then	# (babeltrace2 cannot load it then)
	babeltrace2 --plugin-path="$(dirname "$BT2_PLUGIN")" "$T/tr" -c sink.evtrace.text \
		>"$T/plugin.out" 2>"$T/plugin.err" ||
		fail "babeltrace2 with sink.evtrace.text: $(cat "$T/plugin.err")"
	sed -n 's/^.* kernel\/syscalls\/\(sys_[a-z0-9_]*\): /\1: /p' "$T/plugin.out" >"$T/plugin.calls"
	cmp -s "$T/calls" "$T/plugin.calls" ||
		fail "the plugin and report differ: $(diff "$T/calls" "$T/plugin.calls" | head -5)"
fi

# -a: every task of the machine, the command's among them.
"$EVTRACE" record -q -a -o "$T/tra" -e kernel/syscalls/sys_enter_openat \
	-- "$TRACEE" strace-calls "$T/created3" >/dev/null 2>"$T/reca.err" || fail "record -a: $(cat "$T/reca.err")"
calls "$T/tra" >"$T/callsa"
once "sys_enter_openat: openat(AT_FDCWD, \"$T/created3\", O_RDWR|O_CREAT|O_TRUNC, 0640)" "$T/callsa" >/dev/null

# A stream of such records garbled: report reads what it can, names what
# it cannot, and neither crashes nor reads out of bounds (the ASan run).
for seed in 1 2 3 4 5 6 7 8; do
	rm -rf "$T/bad"; cp -r "$T/tr" "$T/bad"
	garble "$T/bad/stream_kernel_syscalls" $seed
	set +e; "$EVTRACE" report "$T/bad" >/dev/null 2>"$T/bad.err"; st=$?; set -e
	[ "$st" -le 1 ] || { cat "$T/bad.err" >&2; fail "report exited $st on a garbled stream (seed $seed)"; }
done

# --strsize cuts buffers, not paths; 0 keeps addresses only.
# shellcheck disable=SC2086
"$EVTRACE" record -q --strsize 4 -o "$T/tr4" $sel -- "$TRACEE" strace-calls "$T/created" >/dev/null 2>&1 ||
	fail "record --strsize 4"
calls "$T/tr4" >"$T/calls4"
once 'sys_enter_write: write(3, "hell"..., 19)' "$T/calls4" >/dev/null
once "sys_enter_openat: openat(AT_FDCWD, \"$T/created\", O_RDWR|O_CREAT|O_TRUNC, 0640)" "$T/calls4" >/dev/null
# shellcheck disable=SC2086
"$EVTRACE" record -q --strsize 0 -o "$T/tr0" $sel -- "$TRACEE" strace-calls "$T/created" >/dev/null 2>"$T/rec0.err" ||
	fail "record --strsize 0"
[ -e "$T/tr0/stream_kernel_syscalls" ] && fail "--strsize 0: the eBPF program's stream"
calls "$T/tr0" >"$T/calls0"
expect_grep '^sys_enter_write: write(3, 0x[0-9a-f]*, 19)$' "$T/calls0" "--strsize 0: addresses"
grep -q '"hello' "$T/calls0" && fail "--strsize 0: memory recorded"
# Without eBPF: said once, addresses.
EVTRACE_NO_EBPF=1 "$EVTRACE" record -q -o "$T/trn" -e 'kernel/syscalls/sys_*_write' -- "$TRACEE" strace-calls "$T/created" \
	>/dev/null 2>"$T/recn.err" || fail "record without eBPF"
expect_eq "$(head -1 "$T/recn.err")" 'evtrace: kernel/syscalls/: the memory their arguments point to is not recorded, only its addresses (eBPF: not used ($EVTRACE_NO_EBPF is set))' "the message without eBPF"
expect_eq "$(grep -c "only its addresses" "$T/recn.err")" 1 "the message, once"
calls "$T/trn" >"$T/callsn"
expect_grep '^sys_enter_write: write(3, 0x[0-9a-f]*, 19)$' "$T/callsn" "no eBPF: addresses"
# Bad sizes.
for bad in 4097 -1 x ''; do
	expect_status 1 "$EVTRACE" record --strsize "$bad" -e 'kernel/syscalls/sys_enter_write' -- true
	expect_grep "^evtrace: record: --strsize $bad: not a size from 0 to 4096 bytes" "$T/err" "--strsize '$bad'"
done

# Live: stream -e kernel/syscalls/... shows the same, from an eBPF program
# for each -e, in time order across them (a resumed call's arguments
# without its entry's event: those that were copied).
"$TRACEE" strace-calls-on-signal "$T/created2" >"$T/sc.out" 2>&1 &
sp=$!
BG_PIDS="$BG_PIDS $sp"
wait_for "the program to be ready" "grep -q ready '$T/sc.out'"
"$EVTRACE" stream -p $sp -e 'kernel/syscalls/sys_*_write' -e 'kernel/syscalls/sys_exit_read' \
	>"$T/live" 2>"$T/live.err" &
st=$!
BG_PIDS="$BG_PIDS $st"
# (a sampler for each -e: its program's five tracepoints' perf events,
# then a ring of task names on each CPU for each of the program's two
# threads, each once the program follows it)
ncpu=$(getconf _NPROCESSORS_ONLN)
wait_for "the stream's eBPF programs and their rings of task names" \
	"[ \$(ls -l /proc/$st/fd 2>/dev/null | grep -c 'perf_event') = $((2 * (2 * ncpu + 5))) ]"
kill -USR1 $sp
wait $sp || fail "the program: $(cat "$T/sc.out")"
wait $st || fail "stream: $(cat "$T/live.err")"
grep -q "only its addresses" "$T/live.err" && fail "root's stream without eBPF: $(cat "$T/live.err")"
sed -n 's/^.* kernel\/syscalls\/\(sys_[a-z0-9_]*\): /\1: /p' "$T/live" >"$T/live.calls"
last=0
for want in \
	'sys_enter_write: write(3, "hello\n\33[31mred\0tail", 19)' \
	'sys_exit_write: <... write resumed> = 19' \
	'sys_exit_read: <... read resumed>"hello\n\33[31mred\0tail") = 19' \
	'sys_enter_write: write(3, 0x1, 5)'; do
	at=$(once "$want" "$T/live.calls")
	[ "$at" -gt "$last" ] || fail "stream: '$want' (line $at) before line $last"
	last=$at
done

# A stream without eBPF: said once for its two samplers, and it streams on.
"$TRACEE" lseeks-on-signal 10 >"$T/ln.out" 2>&1 &
lp=$!
BG_PIDS="$BG_PIDS $lp"
wait_for "the program to be ready" "grep -q ready '$T/ln.out'"
EVTRACE_NO_EBPF=1 "$EVTRACE" stream -p $lp -e kernel/syscalls/sys_enter_lseek \
	-e kernel/syscalls/sys_exit_lseek >/dev/null 2>"$T/ln.err" &
ls=$!
BG_PIDS="$BG_PIDS $ls"
wait_for "the stream's second sampler" \
	"[ \$(ls -l /proc/$ls/fd 2>/dev/null | grep -c 'perf_event') -ge $((2 * 2 * ncpu)) ]"
kill -USR1 $lp
wait_for "the calls" "grep -q done '$T/ln.out'"
kill -USR1 $lp
wait $lp || fail "the program"
wait $ls || fail "stream without eBPF: $(cat "$T/ln.err")"
expect_eq "$(grep -c 'kernel/syscalls/: the memory their arguments point to is not shown, only its addresses (eBPF: not used ($EVTRACE_NO_EBPF is set))$' "$T/ln.err")" 1 \
	"a stream without eBPF says so once"

# What the program's ring cannot take is counted exactly: a recorder
# stopped while its process makes 100000 calls into a small ring (8 x 8
# KiB a CPU) keeps the first ones, in order, each once, and counts the
# rest.
n=100000
"$TRACEE" lseeks-on-signal $n >"$T/ls.out" &
tp=$!
BG_PIDS="$BG_PIDS $tp"
wait_for "the program to be ready" "grep -q ready '$T/ls.out'"
"$EVTRACE" record -q -o "$T/trl" -p $tp --kernel-buffer 8 -e kernel/syscalls/sys_enter_lseek 2>"$T/recl.err" &
rp=$!
BG_PIDS="$BG_PIDS $rp"
wait_for "the recording to start" "[ -f '$T/trl/metadata' ]"
kill -STOP $rp
kill -USR1 $tp
wait_for "the calls" "grep -q done '$T/ls.out'"
kill -CONT $rp
# The program ends once the recorder has read the ring (what it read
# shows within a second; it reads a ring whole), so that what a
# sanitizer's runtime does at the end is not lost among the calls.  (The
# losses show when the next packet is written, here at the end.)
wait_for "the recorder to read the ring" \
	"'$EVTRACE' report '$T/trl' 2>/dev/null | grep -q '^# [1-9][0-9]* events'"
kill -USR1 $tp
wait $tp || fail "the program's calls"
wait $rp || fail "record -p: $(cat "$T/recl.err")"
calls "$T/trl" | sed -n 's/^sys_enter_lseek: lseek(-1, \([0-9]*\), SEEK_SET)$/\1/p' >"$T/offsets"
got=$(wc -l <"$T/offsets")
lost=$(sed -n 's/^# [0-9]* events\{0,1\}, \([0-9]*\) lost,.*/\1/p' "$T/report.out")
[ "$lost" -gt 0 ] || fail "a stopped recorder's small ring lost nothing of $n calls"
expect_eq "$((got + lost))" "$n" "calls recorded ($got) and lost ($lost)"
sort -n -c -u "$T/offsets" 2>/dev/null || fail "offsets out of order or twice"
expect_eq "$(head -1 "$T/offsets")" 0 "the first call kept"

# Children the eBPF program's map of followed processes has no room for
# are said, not left out silently (a room of 4 for the tests).
EVTRACE_BPF_TASKS_MAX=4 "$EVTRACE" record -e kernel/syscalls/sys_enter_lseek -o "$T/full" -- \
	"$TRACEE" children-at-once 8 >/dev/null 2>"$T/full.err" || fail "record of 8 children: $(cat "$T/full.err")"
expect_eq "$(sed -n 's/^evtrace: kernel\/syscalls\/: \([0-9]*\) new process\(es\)\{0,1\} not followed: the eBPF program.s map of followed processes is full; their system calls are missing$/\1/p' "$T/full.err" |
	awk '{ n += $1 } END { print n + 0 }')" 5 "children not followed, said"
expect_eq "$(calls "$T/full" | grep -c '^sys_enter_lseek: lseek(-1, 10[0-7], SEEK_SET)$')" 3 "the children followed, recorded"
