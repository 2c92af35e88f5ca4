# The events filesystem on a real FUSE mount, walked with shell commands
# as the seed does: enable at every level reads 0, 1, X or ?; writing
# one switches everything below (the top leaving printk/ alone), in
# running processes and in those started and libraries loaded later;
# formats and ids are evtrace's; bad writes get their errno; a process
# that exits while its directory is open goes, and nothing hangs.
. "$(dirname "$0")/lib.sh"
M=$T/mnt
st() { cat "$M/events/$1/enable"; }
start_waiter
p=$WAIT_PID
alive=$(tracee_event "alive")
other=$(tracee_event "other")
file=${alive%/*}
# Bad command lines.
expect_status 2 "$EVTRACE" mount
expect_grep "evtrace: mount: no directory to mount on given" "$T/err" "no directory"
expect_status 1 "$EVTRACE" mount "$T/nosuch"
expect_grep "evtrace: mount: $T/nosuch: No such file or directory" "$T/err" "a missing directory"
touch "$T/file"
expect_status 1 "$EVTRACE" mount "$T/file"
expect_grep "evtrace: mount: $T/file: not a directory" "$T/err" "a file"
expect_status 1 "$EVTRACE" mount -p x "$T"
expect_grep "evtrace: mount: 'x': not a process id" "$T/err" "a bad pid"
expect_status 2 "$EVTRACE" mount "$T" "$T"
expect_grep "evtrace: mount: unexpected argument '$T'" "$T/err" "two directories"
mount_events "$M"

# The directories a user finds.
expect_eq "$(ls "$M" | tr '\n' ' ')" "README available_events events proc trace_pipe " "top level"
expect_eq "$(ls "$M/proc")" "$p" "proc/ lists the process"
expect_eq "$(ls "$M/events/$alive" | tr '\n' ' ')" "enable format id rate " "an event's files"
expect_eq "$(cat "$M/events/enable")" 0 "top starts off"
expect_eq "$(st printk)" 0 "printk/ starts off"

# Files planted where the mount looks, named as control files: refused,
# said once each however often the view is refreshed, never waited on.
mkfifo "$EVTRACE_RUNDIR/99991-0.ctl"
ln -s /etc/passwd "$EVTRACE_RUNDIR/99992-0.ctl"
for _ in 1 2 3 4; do
	expect_eq "$(timeout 5 ls "$M/proc")" "$p" "proc/ beside planted files"
	sleep 0.06
done
expect_eq "$(grep -c '99991-0.ctl' "$T/mount.err")" 1 "the FIFO said once"
expect_eq "$(grep -c '99992-0.ctl' "$T/mount.err")" 1 "the symlink said once"
rm "$EVTRACE_RUNDIR/99991-0.ctl" "$EVTRACE_RUNDIR/99992-0.ctl"

# rate beside enable: a cap, read back, shown by ls, X where the events
# below differ; a bad value is EINVAL; 0 takes it away.
expect_eq "$(cat "$M/events/$alive/rate")" 0 "no cap at first"
echo 250 >"$M/events/$alive/rate"
expect_eq "$(cat "$M/events/$alive/rate")" 250 "the cap written"
"$EVTRACE" ls -p "$p" "$alive" >"$T/ls"
expect_grep "^0 $alive (rate 250/s, a rule: enable --rate or eventfs, until --rate 0 or disable)$" "$T/ls" "evtrace ls sees the cap"
expect_eq "$(cat "$M/events/$file/rate")" X "the file's sites differ"
write_errno "$M/events/$alive/rate" "fast" >"$T/errno"
expect_eq "$(cat "$T/errno")" EINVAL "a rate that is not a number"
echo 0 >"$M/events/$alive/rate"
expect_eq "$(cat "$M/events/$file/rate")" 0 "the cap taken away"

# One site, then its file, then the top.
echo 1 >"$M/events/$alive/enable"
expect_eq "$(st "$alive")" 1 "the site after echo 1"
expect_eq "$(st "$file")" X "its file is mixed"
expect_eq "$(st printk)" X "printk/ is mixed"
expect_eq "$(cat "$M/events/enable")" 0 "the top does not count printk/"
"$EVTRACE" ls -p "$p" "$alive" >"$T/ls"
expect_grep "^1 $alive$" "$T/ls" "evtrace ls sees the site on"
echo 1 >"$M/events/$file/enable"
expect_eq "$(st "$file")" 1 "the file after echo 1"
expect_eq "$(st "$other")" 1 "another site of the file"
expect_eq "$(st printk/tracee)" 1 "the file's directory"
echo 0 >"$M/events/$file/enable"
expect_eq "$(st printk)" 0 "printk/ off again"
echo 1 >"$M/events/enable"
expect_eq "$(cat "$M/events/enable")" 1 "the top after echo 1"
expect_eq "$(st ftrace/print)" 1 "ftrace/print after the top"
expect_eq "$(st printk)" 0 "printk/ left off by the top"
"$EVTRACE" ls -p "$p" printk >"$T/ls"
expect_grep "^0 printk/$" "$T/ls" "evtrace ls agrees: printk/ off"
printf 0 >"$M/events/enable"	# no newline
expect_eq "$(cat "$M/events/enable")" 0 "the top after 0 without a newline"

# format and id are evtrace's.
"$EVTRACE" format -p "$p" "$alive" >"$T/fmt"
cat "$M/events/$alive/format" >"$T/fsfmt"
cmp "$T/fmt" "$T/fsfmt" || fail "a printk site's format differs from evtrace format"
expect_eq "$(cat "$T/fsfmt")" '"alive %ld\n"' "the printk format itself"
"$EVTRACE" ls --ids -p "$p" "$alive" >"$T/ids"
expect_eq "$(cat "$M/events/$alive/id")" "$(sed -n 's/.* id=\([0-9]*\).*/\1/p' "$T/ids")" "id as ls --ids"
grep -qx "$alive" "$M/available_events" || fail "available_events lacks $alive"
grep -qx "ftrace/print" "$M/available_events" || fail "available_events lacks ftrace/print"
expect_grep "trace_pipe" "$M/README" "README says what trace_pipe is"
mkfifo "$T/hold"	# typed waits until its input ends: with the test
"$TYPED" wait <"$T/hold" >"$T/typed.out" &
BG_PIDS="$BG_PIDS $!"
exec 9>"$T/hold"
wait_for '[ -d M/events/stable/typed_small ]' '[ -d "$M/events/stable/typed_small" ]'
[ -d "$M/events/stable/typed_small" ] || fail "a stable event did not show"
typed=$(ls "$M/proc" | grep -vx "$p")
"$EVTRACE" format -p "$typed" stable/typed_small >"$T/fmt"
cat "$M/events/stable/typed_small/format" >"$T/fsfmt"
cmp "$T/fmt" "$T/fsfmt" || fail "a stable event's format differs from evtrace format"
expect_grep "field:number	type:uint32_t	size:32" "$T/fsfmt" "the stable format's field"

# Per process: proc/<pid>/events switches that process alone.
start_waiter
p2=$WAIT_PID
wait_for '[ -d M/proc/p2 ]' '[ -d "$M/proc/$p2" ]'
[ -d "$M/proc/$p2" ] || fail "a new process did not show in proc/"
echo 1 >"$M/proc/$p/events/$other/enable"
expect_eq "$(cat "$M/proc/$p/events/$other/enable")" 1 "on in the one process"
expect_eq "$(cat "$M/proc/$p2/events/$other/enable")" 0 "off in the other"
expect_eq "$(st "$other")" X "mixed across the two"
echo 0 >"$M/proc/$p/events/$other/enable"

# -p: a mount of one process.
mount_events "$T/one" -p "$p2"
expect_eq "$(ls "$T/one/proc")" "$p2" "-p shows that process alone"
echo 1 >"$T/one/events/enable"
expect_eq "$(cat "$M/proc/$p2/events/ftrace/print/enable")" 1 "-p's top switched its process"
expect_eq "$(cat "$M/proc/$p/events/ftrace/print/enable")" 0 "and not the other"
echo 0 >"$T/one/events/enable"
fusermount3 -u "$T/one"

# A directory's enable covers events registered later: a process
# started after it, and a library it loads.
echo 1 >"$M/events/printk/enable"
"$TRACEE" wait-dlopen "$PLUGIN" >"$T/late.out" 2>"$T/late.err" &
late=$!
BG_PIDS="$BG_PIDS $late"
wait_for 'the program to say ready in late.out' 'grep -q ready "$T/late.out"'
wait_for '[ -d M/proc/late/events/alive ]' '[ -d "$M/proc/$late/events/$alive" ]'
expect_eq "$(cat "$M/proc/$late/events/$alive/enable")" 1 "a process started later"
kill -USR1 "$late"
wait_for 'grep -q loaded late.out' 'grep -q loaded "$T/late.out"'
plugin=""
for _ in $(seq 100); do
	plugin=$(grep '^printk/.*plugin\.c/' "$M/available_events" | head -1 || true)
	[ -n "$plugin" ] && break
	sleep 0.02
done
[ -n "$plugin" ] || fail "the dlopen'd library's event did not show"
expect_eq "$(cat "$M/proc/$late/events/$plugin/enable")" 1 "a library loaded later"
expect_eq "$(cat "$M/proc/$late/events/printk/enable")" 1 "all of printk/ in the later process"
echo 0 >"$M/events/printk/enable"

# A library unloaded: its events leave the process's tree.
"$TRACEE" wait-unload "$PLUGIN" >"$T/unload.out" 2>"$T/unload.err" &
unload=$!
BG_PIDS="$BG_PIDS $unload"
wait_for 'the program to say ready in unload.out' 'grep -q ready "$T/unload.out"'
plugin_dir=$M/proc/$unload/events/${plugin%/*}
wait_for '[ -d plugin_dir ]' '[ -d "$plugin_dir" ]'
[ -d "$plugin_dir" ] || fail "the loaded library's events did not show"
kill -USR1 "$unload"
wait_for 'grep -q closed unload.out' 'grep -q closed "$T/unload.out"'
grep -q closed "$T/unload.out" || fail "the library was not unloaded"
start_ns=$(date +%s%N)
wait_for 'not: [ -d plugin_dir ]' '! [ -d "$plugin_dir" ]'
unload_ms=$((($(date +%s%N) - start_ns) / 1000000))
[ -d "$plugin_dir" ] && fail "an unloaded library's events stay in the tree"
[ "$unload_ms" -le 300 ] || fail "an unloaded library's events stayed $unload_ms ms"
kill "$unload"

# Bad writes and their errno.
expect_eq "$(write_errno "$M/events/$alive/enable" '2')" EINVAL "writing 2"
expect_eq "$(write_errno "$M/events/$alive/enable" '1\n\n')" EINVAL "writing 1 and two newlines"
expect_eq "$(write_errno "$M/events/$alive/enable" 'on')" EINVAL "writing on"
expect_eq "$(write_errno "$M/events/$alive/enable" '')" OK "an empty write (truncation)"
expect_eq "$(write_errno "$M/events/$alive/enable" '1\n')" OK "writing 1 and a newline"
expect_eq "$(st "$alive")" 1 "the site after the good write"
expect_eq "$(write_errno "$M/events/$alive/format" '1')" EACCES "writing format"
expect_eq "$(write_errno "$M/events/$alive/id" '1')" EACCES "writing id"
expect_eq "$(write_errno "$M/available_events" '1')" EACCES "writing available_events"
expect_eq "$(write_errno "$M/README" '1')" EACCES "writing README"
expect_eq "$(write_errno "$M/events/printk/nosuch/enable" '1')" ENOENT "an unknown directory"
expect_eq "$(write_errno "$M/events/$file/format" '1')" ENOENT "a directory has no format"
expect_eq "$(write_errno "$M/events/printk/enabel" '1')" ENOENT "a misspelt name"
mkdir "$M/events/newdir" 2>"$T/mkdir.err" && fail "mkdir worked"
expect_grep "Permission denied" "$T/mkdir.err" "mkdir refused"
cat "$M/events/nosuch" 2>"$T/cat.err" && fail "reading an unknown name worked"
expect_grep "No such file or directory" "$T/cat.err" "unknown names are ENOENT"
expect_eq "$(cat "$M/proc/1/events/enable" 2>&1 || true)" \
	"cat: $M/proc/1/events/enable: No such file or directory" "an untraced pid"
if [ -d "$M/events/kernel/sched/sched_switch" ]; then
	expect_eq "$(cat "$M/events/kernel/sched/sched_switch/enable")" 0 "a kernel event reads 0"
	"$EVTRACE" format kernel/sched/sched_switch >"$T/fmt"
	cat "$M/events/kernel/sched/sched_switch/format" >"$T/fsfmt"
	cmp "$T/fmt" "$T/fsfmt" || fail "a kernel event's format differs from evtrace format"
	expect_eq "$(write_errno "$M/events/kernel/sched/sched_switch/enable" '1')" \
		ENOTSUP "switching a kernel event (EOPNOTSUPP)"
	grep -qx kernel/sched/sched_switch "$M/available_events" || fail "available_events lacks kernel events"
elif [ "$(id -u)" = 0 ]; then
	fail "root's mount has no events/kernel/"
fi

# A process that exits while its directory is open: its files go, the
# open directory reads as gone, within 100 ms of its end (+ slack).
start_waiter
doomed=$WAIT_PID
wait_for '[ -d M/proc/doomed/events ]' '[ -d "$M/proc/$doomed/events" ]'
python3 - "$M/proc/$doomed/events" "$doomed" >"$T/gone" <<'PY' || fail "$(cat "$T/gone")"
import os, signal, sys, time
d, pid = sys.argv[1], int(sys.argv[2])
fd = os.open(d, os.O_RDONLY | os.O_DIRECTORY)
assert "enable" in os.listdir(fd)
os.kill(pid, signal.SIGKILL)
def running():
    try:
        return open("/proc/%d/stat" % pid).read().split()[2] != "Z"
    except OSError:	# gone, or reaped while read
        return False
while running():
    time.sleep(0.001)
t0 = time.monotonic()
while os.path.exists(os.path.dirname(d)):
    if time.monotonic() - t0 > 2:
        print("still there after 2 s"); sys.exit(1)
    time.sleep(0.005)
gone_ms = (time.monotonic() - t0) * 1000
try:
    os.listdir(fd)
    print("the open directory still lists"); sys.exit(1)
except FileNotFoundError:
    pass
try:
    os.open("enable", os.O_RDONLY, dir_fd=fd)
    print("its enable still opens"); sys.exit(1)
except FileNotFoundError:
    pass
print("gone in %.0f ms" % gone_ms)
PY
ms=$(sed -n 's/gone in \([0-9]*\) ms/\1/p' "$T/gone")
[ "$ms" -le 300 ] || fail "an exited process stayed $ms ms"
expect_eq "$(cat "$M/events/$alive/enable")" 1 "the other process is unharmed"

# fusermount3 -u ends the mount; evtrace mount exits 0.
fusermount3 -u "$M"
wait "$MOUNT_PID" || fail "evtrace mount exited $? after fusermount3 -u"
[ ! -e "$M/README" ] || fail "still mounted"
# -d: mounted when it returns, serving from the background until
# unmounted.
"$EVTRACE" mount -d "$M" 2>"$T/d.err" || fail "mount -d: $(cat "$T/d.err")"
[ -e "$M/README" ] || fail "mount -d returned before the mount was there"
daemon=$(pgrep -f "mount -d $M")
[ -n "$daemon" ] || fail "no process serves the mount -d"
BG_PIDS="$BG_PIDS $daemon"
MOUNTS="$MOUNTS $M"
sleep 0.3	# it keeps serving
expect_eq "$(cat "$M/events/$alive/enable")" 1 "served from the background"
fusermount3 -u "$M"
wait_for 'daemon to end' '! running "$daemon"'
running "$daemon" && fail "the background mount still runs after fusermount3 -u"
echo "ok: walk-through, formats, bad writes, per-process views, later events, unload ($unload_ms ms), exit ($ms ms)"
