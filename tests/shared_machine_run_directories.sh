# Root and two ordinary users on one machine, with the default run
# directories: each can trace whoever came first, nobody can take over,
# hide or feed anyone else's, and whatever is planted where evtrace looks
# (another user's directory, a symlink, a FIFO, a loose mode) is refused
# with the path and the rule, never followed, never waited on.  A default
# run directory planted by another user does not turn tracing off where
# there is a fallback only its user can make (root's /run/evtrace-0, a
# user's $XDG_RUNTIME_DIR/evtrace), said once.
# Runs in a private mount namespace with a /dev/shm and /run of its own.
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root (test users, a private /dev/shm)"; exit 77; }
[ -n "${EVT_PRIVATE_NS:-}" ] ||
	exec env EVT_PRIVATE_NS=1 unshare -m --propagation private sh ${EVT_SH_FLAGS:-} "$0" "$@"
. "$(dirname "$0")/lib.sh"
unset EVTRACE_RUNDIR
rm -rf "$R"	# lib.sh's, in the /dev/shm about to be covered
fresh_shm() {
	umount /dev/shm 2>/dev/null || true
	mount -t tmpfs -o mode=1777 evt-shm /dev/shm || fail "cannot mount a private /dev/shm"
	umount /run 2>/dev/null || true
	mount -t tmpfs -o mode=755 evt-run /run || fail "cannot mount a private /run"
}
fresh_shm
make_users
mkdir -p "$T/alice" && chown evt-alice "$T/alice"

# Root first, then an ordinary user, both with the defaults.
"$TRACEE" threads 1 10 >"$T/out" 2>"$T/err"
expect_eq "$(stat -c '%U %a' /dev/shm/evtrace-0)" "root 700" "root's run directory"
! grep -q '; refused\|untraced' "$T/err" || fail "root's traced program complained: $(cat "$T/err")"
as_user evt-alice "$EVTRACE_U" record -o "$T/alice/tr" -- "$TRACEE_U" threads 2 100 \
	>/dev/null 2>"$T/err" || { cat "$T/err" >&2; fail "alice cannot record after root"; }
expect_eq "$(stat -c '%U %a' /dev/shm/evtrace-$ALICE)" "evt-alice 700" "alice's run directory"
"$EVTRACE" report "$T/alice/tr" >"$T/report"
bt "$T/alice/tr" >"$T/bt"
python3 "$CHECK" seq "$T/report" "$T/bt" 2 100
# She cannot reach into root's: not list it, not plant a slot lock, not
# truncate a control file of a running program of root's.
: >"$T/rw.out"	# (emptied first: what the last one wrote must not count)
"$TRACEE" wait >>"$T/rw.out" 2>&1 &
rw=$!
BG_PIDS="$BG_PIDS $rw"
wait_for 'the program to say ready in rw.out' 'grep -q ready "$T/rw.out"'
rctl=$(ls /dev/shm/evtrace-0/$rw-*.ctl)
if as_user evt-alice ls /dev/shm/evtrace-0 >/dev/null 2>&1; then fail "alice lists root's run directory"; fi
if as_user evt-alice touch /dev/shm/evtrace-0/slot-1.lock 2>/dev/null; then fail "alice planted a slot lock in root's run directory"; fi
if as_user evt-alice truncate -s 0 "$rctl" 2>/dev/null; then fail "alice truncated root's control file"; fi
kill "$rw"
# ... and root records after her.
"$EVTRACE" record -o "$T/root-tr" -- "$TRACEE" threads 1 50 >/dev/null 2>"$T/err"
"$EVTRACE" report "$T/root-tr" >"$T/report"
bt "$T/root-tr" >"$T/bt"
python3 "$CHECK" seq "$T/report" "$T/bt" 1 50

# An ordinary user first, squatting root's directory: root's programs are
# traced in /run/evtrace-0, which only root can make, and the first to
# make it says so, once; root's record and ls find them there; nothing of
# root's lands in her directory.
fresh_shm
as_user evt-alice sh -c "mkdir /dev/shm/evtrace-0 && chmod 777 /dev/shm/evtrace-0"
"$TRACEE" fork >"$T/out" 2>"$T/err" || fail "root's program failed beside a squatted run directory"
expect_grep "^tried" "$T/out" "root's program ran"
expect_eq "$(cat "$T/err")" "evtrace: /dev/shm/evtrace-0 is another user's directory; this user's run directory is /run/evtrace-0 instead" \
	"what a program, its fork and exec say of a squatted run directory"
expect_eq "$(stat -c '%U %a' /run/evtrace-0)" "root 700" "root's fallback run directory"
"$EVTRACE" record -o "$T/fallback" -- "$TRACEE" threads 1 20 >/dev/null 2>"$T/err" ||
	fail "root's record beside a squatted run directory: $(cat "$T/err")"
! grep -q 'run directory\|untraced\|; refused' "$T/err" || fail "what root's record said: $(cat "$T/err")"
"$EVTRACE" report "$T/fallback" >"$T/report"
bt "$T/fallback" >"$T/bt"
python3 "$CHECK" seq "$T/report" "$T/bt" 1 20
expect_eq "$(ls -A /dev/shm/evtrace-0)" "" "files root left in alice's directory"
: >"$T/rw.out"	# (emptied first: what the last one wrote must not count)
"$TRACEE" wait >>"$T/rw.out" 2>"$T/err" &
rw=$!
BG_PIDS="$BG_PIDS $rw"
wait_for 'the program to say ready in rw.out' 'grep -q ready "$T/rw.out"'
"$EVTRACE" ls >"$T/ls" 2>"$T/err" || fail "root's ls beside a squatted run directory: $(cat "$T/err")"
expect_grep "^# pid $rw (tracee)" "$T/ls" "root's ls finds its program in the fallback"
kill "$rw"
expect_eq "$(cat "$T/err")" "" "what a later program said"
# A symlink in its place is not followed: the fallback again.
rmdir /dev/shm/evtrace-0
mkdir -m 700 "$T/elsewhere"
ln -s "$T/elsewhere" /dev/shm/evtrace-0
"$TRACEE" threads 1 1 >/dev/null 2>"$T/err"
expect_eq "$(cat "$T/err")" "" "what a program said beside a symlinked run directory"
expect_eq "$(ls -A "$T/elsewhere")" "" "files made through a symlinked run directory"
rm /dev/shm/evtrace-0
# Bob squats alice's.  Without $XDG_RUNTIME_DIR she has no fallback: her
# record says so, her programs run untraced and say nothing (no terminal:
# a service's log stays clean).  With hers, she is traced there.
as_user evt-bob mkdir -m 777 "/dev/shm/evtrace-$ALICE"
set +e; as_user evt-alice "$EVTRACE_U" record -o "$T/alice/tr2" -- "$TRACEE_U" threads 1 1 >/dev/null 2>"$T/err"; st=$?; set -e
expect_eq "$st" 1 "alice's record in bob's directory"
expect_grep "/dev/shm/evtrace-$ALICE: owned by uid $BOB, not by uid $ALICE" "$T/err" "alice told who owns it"
as_user evt-alice "$TRACEE_U" threads 1 1 >"$T/out" 2>"$T/err" </dev/null
expect_grep "^tried" "$T/out" "alice's program ran"
expect_eq "$(cat "$T/err")" "" "what alice's program said, refused a run directory"
# With a home of hers (a service's, cron's, su's: no $XDG_RUNTIME_DIR),
# she gets a directory in /dev/shm under a name bob could not make first,
# named in $HOME/.evtrace-rundir: her record, her programs and root's
# engines all find it.
mkdir -m 700 "$T/alice/home" && chown evt-alice "$T/alice/home"
RESTORE="${RESTORE:+$RESTORE; }rm -rf /dev/shm/evtrace-$ALICE-*"
as_user evt-alice env HOME="$T/alice/home" "$EVTRACE_U" record -o "$T/alice/trh" -- "$TRACEE_U" threads 1 20 \
	>/dev/null 2>"$T/err" || fail "alice's record with a home: $(cat "$T/err")"
pointed=$(cat "$T/alice/home/.evtrace-rundir")
case "$pointed" in "/dev/shm/evtrace-$ALICE-"????????????????) ;; *) fail "the directory her home names: '$pointed'" ;; esac
expect_eq "$(grep -c "evtrace: record: /dev/shm/evtrace-$ALICE is another user's directory; this user's run directory is $pointed instead" "$T/err")" 1 \
	"alice told where her run directory went: $(cat "$T/err")"
expect_eq "$(stat -c '%U %a' "$pointed" "$T/alice/home/.evtrace-rundir" | tr '\n' ' ')" "evt-alice 700 evt-alice 600 " "her directory and the file naming it"
"$EVTRACE" report "$T/alice/trh" | grep -q "# 20 events, 0 lost" || fail "alice's trace through her home's directory"
as_user evt-alice env HOME="$T/alice/home" "$TRACEE_U" wait >"$T/hw.out" 2>"$T/hw.err" </dev/null &
hw=$!
BG_PIDS="$BG_PIDS $hw"
wait_for "alice's program to start" "grep -q ready '$T/hw.out'"
hw=$(sed -n 's/^ready //p' "$T/hw.out")	# (the program's, not the shell's)
expect_eq "$(ls -d /dev/shm/evtrace-$ALICE-* | wc -l)" 1 "directories made for alice"
"$EVTRACE" ls -p "$hw" >"$T/hw.ls" 2>&1 || fail "root's ls of alice's program: $(cat "$T/hw.ls")"
expect_grep "^# pid $hw " "$T/hw.ls" "root's engine finds her program there"
kill "$hw"
mkdir -m 700 "$T/alice/xdg" && chown evt-alice "$T/alice/xdg"
as_user evt-alice env XDG_RUNTIME_DIR="$T/alice/xdg" "$EVTRACE_U" record -o "$T/alice/tr3" -- "$TRACEE_U" threads 1 30 \
	>/dev/null 2>"$T/err" || fail "alice's record with a fallback: $(cat "$T/err")"
expect_eq "$(grep -c "evtrace: record: /dev/shm/evtrace-$ALICE is another user's directory; this user's run directory is $T/alice/xdg/evtrace instead" "$T/err")" 1 "alice told where her run directory went: $(cat "$T/err")"
expect_eq "$(grep -c "another user's directory" "$T/err")" 1 "how often she was told"
expect_eq "$(stat -c '%U %a' "$T/alice/xdg/evtrace")" "evt-alice 700" "alice's fallback run directory"
"$EVTRACE" report "$T/alice/tr3" >"$T/report"
bt "$T/alice/tr3" >"$T/bt"
python3 "$CHECK" seq "$T/report" "$T/bt" 1 30
rmdir "/dev/shm/evtrace-$ALICE"
# Her own directory, loosened by mistake, is refused too.
as_user evt-alice mkdir -m 700 "/dev/shm/evtrace-$ALICE"
chmod 777 "/dev/shm/evtrace-$ALICE"
as_user evt-alice "$TRACEE_U" threads 1 1 >/dev/null 2>"$T/err"
expect_grep "/dev/shm/evtrace-$ALICE: writable by group or others (mode 0777); refused" "$T/err" "a loose run directory"
chmod 700 "/dev/shm/evtrace-$ALICE"

# What alice plants in her own directory cannot make root's engines (in
# her directory on purpose) follow a symlink, block on a FIFO or keep files.
ARUN=/dev/shm/evtrace-$ALICE
mkdir -m 700 "$T/rootonly"
as_user evt-alice ln -s "$T/rootonly/nologin" "$ARUN/slot-1.lock"
set +e; EVTRACE_RUNDIR=$ARUN timeout 20 "$EVTRACE" record -o "$T/r1" -- true 2>"$T/err"; st=$?; set -e
expect_eq "$st" 1 "root's record with a symlinked slot lock"
expect_grep "$ARUN/slot-1.lock: a symbolic link, not a regular file; refused" "$T/err" "symlinked slot lock"
[ ! -e "$T/rootonly/nologin" ] || fail "root created a file through a symlink"
as_user evt-alice rm "$ARUN/slot-1.lock"
as_user evt-alice mkfifo "$ARUN/collection-x.rules"
set +e; EVTRACE_RUNDIR=$ARUN timeout 20 "$EVTRACE" record -o "$T/r2" -- true 2>"$T/err"; st=$?; set -e
[ "$st" != 124 ] || fail "root's record hung on a FIFO named like a rules file"
# A traced program of root's refuses her directory, so she cannot feed it.
EVTRACE_RUNDIR=$ARUN "$TRACEE" threads 1 1 >/dev/null 2>"$T/err"
expect_grep "$ARUN: owned by uid $ALICE, not by uid 0" "$T/err" "root's program in alice's directory"
# A FIFO or a loose file as her own program's rules: no hang, said why.
set +e; as_user evt-alice env EVTRACE_COLLECTION=collection-x.rules timeout 20 "$TRACEE_U" threads 1 1 >"$T/out" 2>"$T/err"; st=$?; set -e
expect_eq "$st" 0 "a program given a FIFO as its rules"
expect_grep "$ARUN/collection-x.rules: a FIFO, not a regular file; refused; no collection rules applied" "$T/err" "FIFO rules"
as_user evt-alice sh -c "rm $ARUN/collection-x.rules; printf 'evtrace-rules 1\nslot 1\n' >$ARUN/loose.rules; chmod 666 $ARUN/loose.rules"
as_user evt-alice env EVTRACE_COLLECTION=loose.rules "$TRACEE_U" threads 1 1 >/dev/null 2>"$T/err"
expect_grep "$ARUN/loose.rules: writable by group or others (mode 0666); refused" "$T/err" "loose rules file"
as_user evt-alice env EVTRACE_COLLECTION=../evtrace-0/x "$TRACEE_U" threads 1 1 >/dev/null 2>"$T/err"
expect_grep "EVTRACE_COLLECTION '../evtrace-0/x': not a file name in the run directory; ignored" "$T/err" "rules outside the run directory"

# Root streaming alice's processes leaves her slot lock hers: her own
# stream works afterwards.
as_user evt-alice "$TRACEE_U" wait >"$T/waiter.out" &
BG_PIDS="$BG_PIDS $!"
wait_for 'the program to say ready in waiter.out' 'grep -q ready "$T/waiter.out"'
wpid=$(pgrep -u evt-alice -f 'tracee wait' | head -1)
EVTRACE_RUNDIR=$ARUN "$EVTRACE" stream -p "$wpid" >"$T/s1" 2>&1 &
s1=$!
wait_for "root's stream to hold alice's default collection" "held_in $ARUN 0"
kill -INT "$s1"; wait "$s1" || fail "root's stream of alice's process failed: $(cat "$T/s1")"
expect_eq "$(stat -c %U "$ARUN/slot-0.lock")" evt-alice "owner of the slot lock root's stream made"
as_user evt-alice "$EVTRACE_U" stream -p "$wpid" >"$T/s2" 2>&1 &
s2=$!
wait_for "alice's stream to hold her default collection" "held_in $ARUN 0 || ! running $s2"
held_in "$ARUN" 0 || fail "alice's stream ended before it held her default collection: $(cat "$T/s2")"
# (a background job's shell ignores SIGINT: signal the stream itself)
pkill -INT -u evt-alice -f 'evtrace stream'; wait "$s2" || fail "alice's stream after root's failed: $(cat "$T/s2")"
expect_grep "^# 0 events, 0 lost" "$T/s2" "alice's stream ran"

# The environment: a relative EVTRACE_RUNDIR is refused; a setuid program
# ignores EVTRACE_RUNDIR and EVTRACE_COLLECTION.
EVTRACE_RUNDIR=rel "$TRACEE" threads 1 1 >/dev/null 2>"$T/err"
expect_grep "evtrace: EVTRACE_RUNDIR 'rel': not an absolute path; this process runs untraced" "$T/err" "relative run directory, program"
EVTRACE_RUNDIR=rel expect_status 1 "$EVTRACE" record -o "$T/r3" -- true
expect_grep "evtrace: record: EVTRACE_RUNDIR 'rel': not an absolute path" "$T/err" "relative run directory, record"
long=/$(head -c 5000 /dev/zero | tr '\0' x)
EVTRACE_RUNDIR=$long "$TRACEE" threads 1 1 >/dev/null 2>"$T/err"
expect_grep "evtrace: EVTRACE_RUNDIR '/xxxx[x]*\.\.\.': longer than 4031 bytes; this process runs untraced" "$T/err" "over-long run directory, program"
EVTRACE_RUNDIR=$long expect_status 1 "$EVTRACE" ls
expect_grep "evtrace: ls: EVTRACE_RUNDIR '/xxxx[x]*\.\.\.': longer than 4031 bytes" "$T/err" "over-long run directory, ls"
# A setuid program loads no library from a relative run path: build one
# against the copied library (sanitized like it, when it is).
san=""
ldd "$EVTRACE" | grep -q libasan && san="-fsanitize=address,undefined"
cat >"$T/suid.c" <<'C'
#include <evtrace/evtrace.h>
#include <stdio.h>
int main(void) { trace_printk("setuid %d\n", 1); puts("tried 1"); return 0; }
C
cc $san -I"$INCLUDE" "$T/suid.c" -o "$T/bin/tracee-setuid" "$T/bin/libevtrace.so.0" \
	-Wl,-rpath,"$T/bin" || fail "cannot build the setuid program"
chmod 4755 "$T/bin/tracee-setuid"
rm -rf /dev/shm/evtrace-0
as_user evt-alice env EVTRACE_RUNDIR="$T/alice/planted" EVTRACE_COLLECTION=x EVTRACE_DEBUG=1 \
	"$T/bin/tracee-setuid" >"$T/out" 2>"$T/err" || fail "setuid program failed: $(cat "$T/err")"
expect_grep "^tried 1$" "$T/out" "the setuid program ran"
[ ! -e "$T/alice/planted" ] || fail "a setuid program made its run directory where the user said"
expect_eq "$(stat -c '%U %a' /dev/shm/evtrace-0)" "root 700" "the setuid program's own run directory"
! grep -q '; refused\|untraced\|EVTRACE\|module ' "$T/err" || fail "the setuid program read the environment: $(cat "$T/err")"
# A setgid program (chage's kind) runs with its user's euid, and holds
# what its user may not read (the kernel lets them not ptrace it): it is
# not traced in its user's run directory (where they would record it);
# run by its owner, it is.
cat >"$T/sgid.c" <<'C'
#include <evtrace/evtrace.h>
#include <stdio.h>
#include <unistd.h>
int main(void)
{
	trace_printk("setgid %d\n", 1);
	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	while (getchar() != EOF)
		;
	return 0;
}
C
cc $san -I"$INCLUDE" "$T/sgid.c" -o "$T/bin/tracee-setgid" "$T/bin/libevtrace.so.0" \
	-Wl,-rpath,"$T/bin" || fail "cannot build the setgid program"
chgrp daemon "$T/bin/tracee-setgid" && chmod 2755 "$T/bin/tracee-setgid"
rm -rf "/dev/shm/evtrace-$ALICE"
as_user evt-alice mkdir -m 700 "/dev/shm/evtrace-$ALICE"
mkfifo "$T/sgid.in"
as_user evt-alice "$T/bin/tracee-setgid" <"$T/sgid.in" >"$T/sgid.out" 2>"$T/sgid.err" &
exec 7>"$T/sgid.in"
wait_for "the setgid program to start" "grep -q ready '$T/sgid.out'"
sp=$(sed -n 's/^ready //p' "$T/sgid.out")
[ -z "$(ls "/dev/shm/evtrace-$ALICE" | grep "^$sp-")" ] || fail "a setgid program traced where its user reads it"
exec 7>&-
wait_for "the setgid program to end" "! running $sp"
expect_eq "$(cat "$T/sgid.err")" "" "what the setgid program said"
: >"$T/sgid.out"	# (emptied first: the last program's "ready" must not count)
"$T/bin/tracee-setgid" <"$T/sgid.in" >"$T/sgid.out" 2>&1 &
exec 7>"$T/sgid.in"
wait_for "the program run by root to start" "grep -q ready '$T/sgid.out'"
sp=$(sed -n 's/^ready //p' "$T/sgid.out")
[ -n "$(ls /dev/shm/evtrace-0 | grep "^$sp-")" ] || fail "the program run by its owner is not traced"
exec 7>&-
wait_for "the program run by root to end" "! running $sp"
# (EVTRACE_DEBUG is honoured by the same program run by its owner.)
EVTRACE_DEBUG=1 "$T/bin/tracee-setuid" >/dev/null 2>"$T/err"
expect_grep "evtrace: module tracee-setuid: 1 sites" "$T/err" "EVTRACE_DEBUG for a program that is not setuid"
