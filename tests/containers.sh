# Programs in containers: their own pid and mount namespaces and their
# own /dev/shm (unshare and a private tmpfs; with a user namespace too,
# as a user without privilege).  evtrace inside traces them as anywhere;
# root on the host reaches them by the pids the host sees (ls, record,
# stream -p), shown with the pid they see and the container's identity;
# record -a on the host says it does not cover them; and a container's
# root is not the host's root for evtraced.
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" = 0 ] || { echo "SKIP: namespaces and test users need root"; exit 77; }
command -v unshare >/dev/null || fail "unshare not found (util-linux)"
make_users
chmod 755 "$R"
# A command in a container: its own pid and mount namespaces, /proc and
# /dev/shm.  $USERNS adds a user namespace, its root the caller.
# (exec: in the background, $! is unshare's pid, whose end ends the
# container's processes)
contain() {
	exec unshare ${USERNS:-} --pid --mount --fork --kill-child sh -c \
		'mount -t tmpfs none /dev/shm && mount -t proc proc /proc && exec "$@"' sh \
		env -u EVTRACE_RUNDIR "$@"
}

# 1. Inside, evtrace installed there records as anywhere: pids are the
# container's (record is its pid 1, the program's threads come next).
(contain env LD_LIBRARY_PATH="$T/bin" "$T/bin/evtrace" record -q -o "$T/inside" -- \
	"$T/bin/tracee" threads 2 50) >/dev/null 2>"$T/inside.err" || fail "record inside: $(cat "$T/inside.err")"
"$EVTRACE" report "$T/inside" >"$T/inside.report"
expect_grep "^# 100 events, 0 lost, 2 streams$" "$T/inside.report" "inside: every event"
[ -z "$(grep -v '^#' "$T/inside.report" | grep -v '^ *tracee-[2-9] ')" ] ||
	fail "inside: not the container's tids: $(grep -v '^ *tracee-[2-9] ' "$T/inside.report" | head -3)"

# 2. A user without privilege, in a user namespace of her own (a rootless
# container), the same.
mkdir -m 700 "$T/alice" && chown evt-alice "$T/alice"
cat >"$T/alice.sh" <<EOF
exec unshare --user --map-root-user --pid --mount --fork --kill-child sh -c \
	'mount -t tmpfs none /dev/shm && mount -t proc proc /proc && exec "\$@"' sh \
	env -u EVTRACE_RUNDIR LD_LIBRARY_PATH="$T/bin" "$T/bin/evtrace" record -q -o "$T/alice/tr" -- "$T/bin/tracee" threads 2 50
EOF
setpriv --reuid=evt-alice --regid="$(id -g evt-alice)" --clear-groups sh "$T/alice.sh" \
	>/dev/null 2>"$T/alice.err" || fail "record in alice's user namespace: $(cat "$T/alice.err")"
"$EVTRACE" report "$T/alice/tr" >"$T/alice.report"
expect_grep "^# 100 events, 0 lost, 2 streams$" "$T/alice.report" "a rootless container: every event"
expect_eq "$(stat -c %U "$T/alice/tr/evtrace/index")" evt-alice "her trace is hers"

# 3. Root on the host, by the pid it sees: ls, record and stream.
: >"$T/c.out"
contain env LD_LIBRARY_PATH="$T/bin" "$T/bin/tracee" paced 100 10 -1 >"$T/c.out" 2>"$T/c.err" &
up=$!
BG_PIDS="$BG_PIDS $up"
wait_for "the contained program" "grep -q '^ready' '$T/c.out'"
expect_eq "$(sed -n 's/^ready //p' "$T/c.out")" 1 "the program is pid 1 in its container"
hp=$(pgrep -P "$up")
grep -q '^NSpid:.*[[:space:]]1$' "/proc/$hp/status" || fail "the contained program's host pid not found ($hp)"
ns=$(stat -L -c %i "/proc/$hp/ns/pid")
"$EVTRACE" ls -p "$hp" >"$T/ls" 2>"$T/ls.err" || fail "ls -p $hp: $(cat "$T/ls.err")"
expect_grep "^# pid 1 (tracee), host pid $hp, in a container: pid namespace $ns, cgroup /" "$T/ls" \
	"ls: the pid it sees, the host's, and the container"
expect_grep "^0 printk/tracee/" "$T/ls" "ls: its events"
burst=printk/tracee/tests/progs/tracee.c/$(grep -n 'trace_printk("burst %ld' "$TRACEE_SRC" | sed -n 2p | cut -d: -f1)
"$EVTRACE" record -q -p "$hp" -e "$burst" -o "$T/host" 2>"$T/host.err" &
rec=$!
"$EVTRACE" stream -p "$hp" -F "$burst if arg0 >= 95" >"$T/stream" 2>"$T/stream.err" &
st=$!
BG_PIDS="$BG_PIDS $rec $st"
wait_for "the recording and the stream in the contained program" \
	"[ \$('$EVTRACE' ls -p $hp 2>/dev/null | grep -c '^# collection [0-9]*: ') -ge 2 ]"
kill -USR1 "$hp"
wait "$rec" || fail "record -p of a contained program: $(cat "$T/host.err")"
wait "$st" || fail "stream -p of a contained program: $(cat "$T/stream.err")"
"$EVTRACE" report "$T/host" >"$T/host.report"
expect_grep "^# 100 events, 0 lost, 1 stream$" "$T/host.report" "record -p from the host: every event"
expect_eq "$(sed -n 's/^.*: burst //p' "$T/host.report" | tr '\n' ' ')" "$(seq 0 99 | tr '\n' ' ')" "in order, none twice"
expect_grep "^ *tracee-1 " "$T/host.report" "the events name the pid the container sees"
expect_grep "^# $T/host: recorded from the host in a container, pid namespace $ns, cgroup /.*; its pids, and the host's: 1=$hp\$" \
	"$T/host.report" "the trace says the container and the host's pid"
expect_grep "^evtrace-index 5\$" "$T/host/evtrace/index" "a container's trace index"
expect_grep "^container $ns \"/" "$T/host/evtrace/index" "the container in the index"
bt_agrees "$T/host"
expect_eq "$(sed -n 's/^.*: burst //p' "$T/stream" | tr '\n' ' ')" "95 96 97 98 99 " "stream -p from the host"

# 3b. Alice reaches her own rootless container's program the same way.
cat >"$T/alice2.sh" <<EOF
exec unshare --user --map-root-user --pid --mount --fork --kill-child sh -c \
	'mount -t tmpfs none /dev/shm && mount -t proc proc /proc && exec "\$@"' sh \
	env -u EVTRACE_RUNDIR LD_LIBRARY_PATH="$T/bin" "$T/bin/tracee" paced 10 10 -1
EOF
: >"$T/a2.out"
setpriv --reuid=evt-alice --regid="$(id -g evt-alice)" --clear-groups sh "$T/alice2.sh" >"$T/a2.out" 2>&1 &
BG_PIDS="$BG_PIDS $!"
wait_for "alice's contained program" "grep -q '^ready' '$T/a2.out'"
ap=$(pgrep -u evt-alice -f "$T/bin/tracee paced 10 10 -1" | while read -r p; do
	grep -q '^NSpid:.*[[:space:]]1$' "/proc/$p/status" && echo "$p"; done | head -1)
[ -n "$ap" ] || fail "alice's contained program's host pid not found"
as_user evt-alice env -u EVTRACE_RUNDIR "$T/bin/evtrace" ls -p "$ap" >"$T/als" 2>&1 ||
	fail "alice's ls -p of her container: $(cat "$T/als")"
expect_grep "^# pid 1 (tracee), host pid $ap, in a container: " "$T/als" "alice reaches her rootless container"
kill "$ap"

# 3c. Root follows a process only into a run directory of its own user:
# a container whose /dev/shm/evtrace-0 is a symlink to a host directory of
# bob's, and alice's process naming bob's as its EVTRACE_RUNDIR, are not
# followed there.
mkdir -m 700 "$T/bobs" && chown evt-bob "$T/bobs"
: >"$T/sym.out"
unshare --pid --mount --fork --kill-child sh -c \
	'mount -t tmpfs none /dev/shm && mount -t proc proc /proc && ln -s "$1" /dev/shm/evtrace-0 && shift && exec "$@"' \
	sh "$T/bobs" env -u EVTRACE_RUNDIR LD_LIBRARY_PATH="$T/bin" "$T/bin/tracee" paced 10 10 -1 >"$T/sym.out" 2>&1 &
up=$!
BG_PIDS="$BG_PIDS $up"
wait_for "the program with a planted run directory" "grep -q '^ready' '$T/sym.out'"
sp=$(pgrep -P "$up")
[ -n "$sp" ] || fail "the program with a planted run directory not found"
expect_status 1 "$EVTRACE" record -p "$sp" -o "$T/planted"
expect_grep "^evtrace: record: pid $sp: its run directory /proc/$sp/root/dev/shm/evtrace-0 belongs to uid $(id -u evt-bob), not to its user root: not followed$" \
	"$T/err" "a planted symlink in a container is not followed"
[ -z "$(ls -A "$T/bobs")" ] || fail "root wrote into bob's directory: $(ls -A "$T/bobs")"
kill "$sp"
: >"$T/env.out"
setpriv --reuid=evt-alice --regid="$(id -g evt-alice)" --clear-groups \
	env EVTRACE_RUNDIR="$T/bobs" LD_LIBRARY_PATH="$T/bin" "$T/bin/tracee" paced 10 10 -1 >"$T/env.out" 2>&1 &
ep=$!
BG_PIDS="$BG_PIDS $ep"
wait_for "alice's program naming bob's directory" "grep -q '^ready' '$T/env.out'"
expect_status 1 "$EVTRACE" ls -p "$ep"
expect_grep "^evtrace: ls: pid $ep: its run directory $T/bobs belongs to uid $(id -u evt-bob), not to its user evt-alice: not followed$" \
	"$T/err" "another user's directory named in the environment is not followed"
kill "$ep"
# ... nor made where none is (its run directory could not be made: it runs
# untraced).
mkdir -m 700 "$T/rootonly"
: >"$T/none.out"
setpriv --reuid=evt-alice --regid="$(id -g evt-alice)" --clear-groups \
	env EVTRACE_RUNDIR="$T/rootonly/run" LD_LIBRARY_PATH="$T/bin" "$T/bin/tracee" paced 10 10 -1 >"$T/none.out" 2>&1 &
np=$!
BG_PIDS="$BG_PIDS $np"
wait_for "alice's untraced program" "grep -q '^ready' '$T/none.out'"
expect_status 1 "$EVTRACE" record -p "$np" -o "$T/none"
expect_grep "^evtrace: record: pid $np: not traced (its run directory $T/rootonly/run: No such file or directory)$" "$T/err" \
	"a run directory that is not there is not made"
[ ! -e "$T/rootonly/run" ] || fail "root made the run directory of another user's process"
kill "$np"

# 4. record -a on the host says what it leaves out.
: >"$T/c2.out"
contain env LD_LIBRARY_PATH="$T/bin" "$T/bin/tracee" paced 10 10 -1 >"$T/c2.out" 2>&1 &
c2=$!
BG_PIDS="$BG_PIDS $c2"
wait_for "a second contained program" "grep -q '^ready' '$T/c2.out'"
"$EVTRACE" record -a -o "$T/all" >/dev/null 2>"$T/all.err" &
all=$!
BG_PIDS="$BG_PIDS $all"
wait_for "record -a to say what it does not cover" "grep -q 'containers' '$T/all.err'"
kill -INT "$all"
wait "$all" || true
expect_grep "^evtrace: record: -a covers the processes of $R/run; traced processes in [0-9]* other mount namespace" "$T/all.err" \
	"record -a names the containers it leaves out"
expect_grep "record -p HOSTPID reaches one" "$T/all.err" "and how to reach one"
kill -9 "$c2"	# (unshare --fork ignores SIGTERM)

# 5. A container's root is not the host's root: alice, root in a user
# namespace of her own, is a stranger to root's program.  evtrace goes
# through evtraced for her (not into root's run directory), and evtraced
# knows her by her host uid: she may list its events, not record them.
SOCK=$T/evtraced.sock
"$EVTRACE" daemon --socket "$SOCK" 2>"$T/daemon.log" &
daemon=$!
BG_PIDS="$BG_PIDS $daemon"
wait_for "evtraced to listen on $SOCK" "[ -S '$SOCK' ] || ! running $daemon"
: >"$T/h.out"
env LD_LIBRARY_PATH="$T/bin" "$T/bin/tracee" paced 10 10 -1 >"$T/h.out" 2>&1 &
hp2=$!
BG_PIDS="$BG_PIDS $hp2"
wait_for "root's program on the host" "grep -q '^ready' '$T/h.out'"
ns_root() {	# as root of alice's user namespace, stderr in $T/err
	setpriv --reuid=evt-alice --regid="$(id -g evt-alice)" --clear-groups \
		unshare --user --map-root-user env LD_LIBRARY_PATH="$T/bin" \
		EVTRACE_DAEMON_SOCKET="$SOCK" "$@" 2>"$T/err"
}
expect_eq "$(ns_root id -u)" 0 "alice is root in her namespace"
ns_root "$T/bin/evtrace" ls -p "$hp2" >"$T/nsls" || fail "ls -p as a namespace's root: $(cat "$T/err")"
expect_grep "^0 $burst\$" "$T/nsls" "she lists root's program's events, through evtraced"
expect_grep "^evtraced: client pid [0-9]* uid $(id -u evt-alice) (evt-alice): asks ls -p $hp2\$" "$T/daemon.log" \
	"evtraced knows her by her host uid"
if ns_root "$T/bin/evtrace" record -p "$hp2" -e "$burst" -o "$T/alice/nsrec"; then
	fail "a namespace's root recorded root's program"
fi
expect_grep "^evtrace: record: $burst in pid $hp2 (tracee, user root): recording its fields needs privilege towards the process: .*; others may record only events flagged CAP_ANY\$" \
	"$T/err" "her recording refused as a stranger's"
expect_grep "^evtraced: client pid [0-9]* uid $(id -u evt-alice) (evt-alice): refused: " "$T/daemon.log" "the refusal audited as hers"
if ns_root "$T/bin/evtrace" enable -p "$hp2" "$burst"; then
	fail "a namespace's root switched root's program's event"
fi
expect_eq "$("$EVTRACE" ls -p "$hp2" "$burst" | tail -1)" "0 $burst" "the event stayed off"
[ ! -e "$T/alice/nsrec" ] || fail "a trace was written for her"
kill "$hp2"
