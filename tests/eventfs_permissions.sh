# The events filesystem and real users: alice mounts a view of her own
# programs, unprivileged, and nobody else gets in; root mounts alice's
# with --allow-other: bob may look but not switch (EACCES, nothing
# switched), carol may switch the program that opted into her group only
# while she is in it, alice and root may switch all.
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root (test users, a FUSE mount for them)"; exit 77; }
. "$(dirname "$0")/lib.sh"
make_team
# A user's mount needs /dev/fuse, which this machine keeps root's.
FUSE_MODE=$(stat -c %a /dev/fuse)
RESTORE="chmod $FUSE_MODE /dev/fuse"
chmod 666 /dev/fuse
mkdir -m 700 "$R/alice" && chown evt-alice "$R/alice"
chmod 755 "$R"
export EVTRACE_RUNDIR=$R/alice/run	# alice's: root enters it

as() {	# as USER[+team] CMD...
	u=${1%+team}
	groups=--clear-groups
	[ "$u" = "$1" ] || groups=--groups=$TEAM
	shift
	${AS_EXEC:-} setpriv --reuid="$u" --regid="$(id -g "$u")" $groups \
		env LD_LIBRARY_PATH="$T/bin" "$@"
}
start_alices() {	# start_alices NAME [ENV=VALUE]: tracee wait, as alice
	AS_EXEC=exec as evt-alice ${2:-} "$TRACEE_U" wait >"$T/$1.out" 2>"$T/$1.err" &
	BG_PIDS="$BG_PIDS $!"
	eval "$1=$!"
	for _ in $(seq 100); do grep -q ready "$T/$1.out" 2>/dev/null && return 0; sleep 0.05; done
	fail "alice's $1 did not start"
}
start_alices plain
start_alices team EVTRACE_GROUP=evt-team
alive=$(tracee_event "alive")

# Alice mounts her own view, as herself: only she gets in.
mkdir -m 755 "$T/amnt" && chown evt-alice "$T/amnt"
AS_EXEC=exec as evt-alice "$EVTRACE_U" mount "$T/amnt" 2>"$T/amount.err" &
amount=$!
BG_PIDS="$BG_PIDS $amount"
MOUNTS="$MOUNTS $T/amnt"
wait_for 'as evt-alice test -e amnt/README' 'as evt-alice test -e "$T/amnt/README"'
as evt-alice test -e "$T/amnt/README" || fail "alice cannot mount: $(cat "$T/amount.err")"
expect_eq "$(as evt-alice cat "$T/amnt/proc/$plain/events/$alive/enable")" 0 "alice reads her mount"
expect_eq "$(AS_USER="as evt-alice" write_errno "$T/amnt/events/$alive/enable" 1)" OK "alice switches through her mount"
expect_eq "$(cat "$T/amnt/events/$alive/enable" 2>&1 || true)" \
	"cat: $T/amnt/events/$alive/enable: Permission denied" "root kept out of alice's private mount"
expect_eq "$(as evt-bob cat "$T/amnt/README" 2>&1 || true)" \
	"cat: $T/amnt/README: Permission denied" "bob kept out of alice's private mount"
"$EVTRACE" ls -p "$team" "$alive" >"$T/ls"
expect_grep "^1 $alive$" "$T/ls" "alice's write reached her process"
as evt-alice "$EVTRACE_U" disable "$alive"
as evt-alice fusermount3 -u "$T/amnt" 2>"$T/err" || fail "alice cannot unmount: $(cat "$T/err")"
wait "$amount" || fail "alice's mount exited $? when she unmounted it"
# A user may not open her mount to others unless fuse.conf says so.
set +e
as evt-alice "$EVTRACE_U" mount --allow-other "$T/amnt" >"$T/out" 2>"$T/err"
got=$?
set -e
expect_eq "$got" 1 "alice's --allow-other without user_allow_other"
expect_grep "evtrace: mount: $T/amnt: cannot mount here" "$T/err" "the message"
expect_grep "user_allow_other" "$T/err" "libfuse's reason"

# Root mounts alice's view for everyone.
mount_events "$T/mnt" --allow-other
M=$T/mnt
expect_eq "$(stat -c %U "$M/events/$alive/enable")" evt-alice "the files are alice's"
expect_eq "$(as evt-bob cat "$M/events/$alive/enable")" 0 "bob may look"
as evt-bob cat "$M/proc/$plain/events/$alive/format" >"$T/fmt"
expect_eq "$(cat "$T/fmt")" '"alive %ld\n"' "bob reads a format"
expect_eq "$(AS_USER="as evt-bob" write_errno "$M/events/$alive/enable" 1)" EACCES "bob switches everything"
expect_eq "$(AS_USER="as evt-bob" write_errno "$M/proc/$team/events/enable" 1)" EACCES "bob switches the team program"
expect_eq "$(AS_USER="as evt-carol" write_errno "$M/proc/$team/events/$alive/enable" 1)" EACCES \
	"carol without her group"
expect_eq "$(cat "$M/events/$alive/enable")" 0 "nothing switched by the refused"
expect_eq "$(AS_USER="as evt-carol+team" write_errno "$M/proc/$team/events/$alive/enable" 1)" OK \
	"carol in the group, on the program that opted in"
expect_eq "$(cat "$M/proc/$team/events/$alive/enable")" 1 "carol's write took"
expect_eq "$(cat "$M/proc/$plain/events/$alive/enable")" 0 "and stayed in its process"
expect_eq "$(AS_USER="as evt-carol+team" write_errno "$M/proc/$plain/events/$alive/enable" 1)" EACCES \
	"carol on the program that did not opt in"
# On every process at once, carol's group switches what it may.
expect_eq "$(AS_USER="as evt-carol+team" write_errno "$M/events/$alive/enable" 0)" OK "carol on all"
expect_eq "$(cat "$M/proc/$team/events/$alive/enable")" 0 "carol's off took in the team program"
expect_eq "$(AS_USER="as evt-alice" write_errno "$M/events/printk/enable" 1)" OK "alice on all of printk/"
expect_eq "$(cat "$M/events/printk/enable")" 1 "both programs, by alice"
expect_eq "$(write_errno "$M/events/printk/enable" 0)" OK "root on all of printk/"
expect_eq "$(cat "$M/events/printk/enable")" 0 "both programs, by root"

# trace_pipe holds every field of every process: alice's and root's alone
# (as evtraced gives stream without -e), and ls -l says so.
expect_eq "$(stat -c '%A %U' "$M/trace_pipe")" "-r-------- evt-alice" "trace_pipe's mode and owner"
expect_eq "$(stat -c '%A %G' "$M/proc/$team/events/$alive/enable")" "-rw-rw-r-- evt-team" \
	"an enable file of the program that opted into evt-team"
expect_eq "$(stat -c '%A' "$M/proc/$plain/events/$alive/enable")" "-rw-r--r--" \
	"an enable file of the program that did not"
as evt-alice "$EVTRACE_U" enable -p "$plain" "$alive"
expect_eq "$(as evt-bob cat "$M/trace_pipe" 2>&1 || true)" \
	"cat: $M/trace_pipe: Permission denied" "bob reads trace_pipe"
expect_eq "$(as evt-carol+team cat "$M/trace_pipe" 2>&1 || true)" \
	"cat: $M/trace_pipe: Permission denied" "carol reads trace_pipe"
as evt-alice timeout 10 head -n 3 "$M/trace_pipe" >"$T/pipe" || fail "alice reads trace_pipe: $(cat "$T/pipe")"
expect_eq "$(grep -c ": alive " "$T/pipe")" 3 "alice's lines from trace_pipe"
as evt-alice "$EVTRACE_U" disable "$alive"

# Readers are bounded (16), so that waiting readers never take every
# thread of the filesystem: the next is refused, alice's other files
# still answer, and killed readers let go at once.
PIPE_OPEN_PY='
import errno, os, sys
try:
    os.close(os.open(sys.argv[1], os.O_RDONLY | os.O_NONBLOCK))
    print("OK")
except OSError as e:
    print(errno.errorcode[e.errno])'
: >"$T/readers"
for i in $(seq 16); do
	AS_EXEC=exec as evt-alice cat "$M/trace_pipe" >/dev/null 2>&1 &
	echo $! >>"$T/readers"
	BG_PIDS="$BG_PIDS $!"
done
pipe_opens() {	# ANSWER WHAT: waits until alice's open of trace_pipe answers so
	wait_for "$2 to get $1" \
		"[ \"\$(as evt-alice python3 -c \"\$PIPE_OPEN_PY\" '$M/trace_pipe')\" = $1 ]"
}
# Every reader in before the 17th knocks (one that knocked while a
# reader was still on its way in took its place, and the late one left).
for p in $(cat "$T/readers"); do
	wait_for "reader $p to have trace_pipe open" "reading_pipe $p"
done
pipe_opens EBUSY "the 17th reader"
expect_eq "$(as evt-alice timeout 5 cat "$M/events/$alive/enable")" 0 "alice's enable beside 16 waiting readers"
for p in $(cat "$T/readers"); do kill -9 "$p"; done
for p in $(cat "$T/readers"); do
	wait_for "killed reader $p of trace_pipe to go" "! running $p"
done
pipe_opens OK "a reader after the killed ones"
echo "ok: a private mount, and bob, carol (with and without her group), alice and root on root's"
