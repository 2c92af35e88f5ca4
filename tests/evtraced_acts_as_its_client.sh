#!/bin/sh
# evtraced's worker writes a client's trace as the client: its files are
# created with the client's filesystem credentials (nothing is chowned by
# name in a directory the client controls, which a client could race with
# a hard link), and without CAP_SYS_RESOURCE, so that a file system's
# reserved blocks are as closed to the trace as to the client.
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root (test users, a daemon, a loop mount)"; exit 77; }
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/daemon_lib.sh"

start_served app
start_daemon

# While bob records alice's typed/all, his worker's credentials.
as_bg evt-bob "$T/bin/evtrace" record -p "$app" -e typed -o "$T/bob/tr" 2>"$T/record.err" &
recorder=$!
BG_PIDS="$BG_PIDS $recorder"
wait_on "$app" typed/all
worker=""
for conn in $(pgrep -P "$DAEMON"); do
	worker=$(pgrep -P "$conn" || true)
	[ -n "$worker" ] && break
done
[ -n "$worker" ] || fail "no worker under evtraced ($DAEMON)"
fsuid=$(awk '/^Uid:/ { print $5 }' "/proc/$worker/status")
fsgid=$(awk '/^Gid:/ { print $5 }' "/proc/$worker/status")
euid=$(awk '/^Uid:/ { print $3 }' "/proc/$worker/status")
expect_eq "$fsuid" "$BOB" "the worker's filesystem uid"
expect_eq "$fsgid" "$(id -g evt-bob)" "the worker's filesystem gid"
expect_eq "$euid" 0 "the worker's effective uid (it reads alice's run directory)"
# CAP_SYS_RESOURCE is capability 24.
for set in CapEff CapPrm CapBnd; do
	mask=$(awk "/^$set:/ { print \$2 }" "/proc/$worker/status")
	[ $(( (0x$mask >> 24) & 1 )) = 0 ] || fail "$set of the worker holds CAP_SYS_RESOURCE ($mask)"
done
mask=$(awk '/^CapEff:/ { print $2 }' "/proc/$worker/status")
[ $(( (0x$mask >> 1) & 1 )) = 1 ] || fail "the worker lost CAP_DAC_OVERRIDE ($mask)"
feed app 3 3
kill -INT "$recorder"
wait "$recorder" || fail "bob's record failed: $(cat "$T/record.err")"
expect_eq "$(find "$T/bob/tr" -printf '%u\n' | sort -u)" evt-bob "owner of every file of bob's trace"
"$EVTRACE" report "$T/bob/tr" >"$T/report"
expect_eq "$(grep -c ': typed/all: ' "$T/report")" 3 "typed/all rows in bob's trace"
# Alice's run directory kept only her files, though bob's worker made some.
expect_eq "$(find "$R/alice/run" -printf '%u\n' | sort -u)" evt-alice "owner of every file of alice's run directory"

# A second recording into the same directory keeps the first as tr.old,
# renamed by bob's own evtrace: the worker has the directory, not its name.
as_bg evt-bob "$T/bin/evtrace" record -p "$app" -e typed -o "$T/bob/tr" 2>"$T/record2.err" &
recorder=$!
wait_on "$app" typed/all
feed app 2 5
kill -INT "$recorder"
wait "$recorder" || fail "bob's second record failed: $(cat "$T/record2.err")"
expect_eq "$("$EVTRACE" report "$T/bob/tr" | grep -c ': typed/all: ')" 2 "typed/all rows in bob's second trace"
expect_eq "$("$EVTRACE" report "$T/bob/tr.old" | grep -c ': typed/all: ')" 3 "typed/all rows in the first, kept as tr.old"
expect_eq "$(find "$T/bob/tr.old" -printf '%u\n' | sort -u)" evt-bob "owner of tr.old"

# Root in a user namespace of bob's own is bob outside: his evtrace goes
# to the daemon, which knows him as bob.
as evt-bob unshare -U -r "$T/bin/evtrace" ls -p "$app" >"$T/ns.out" 2>"$T/ns.err" ||
	fail "ls as root of bob's user namespace: $(cat "$T/ns.err")"
expect_grep "^# pid $app (typed)" "$T/ns.out" "alice's program listed through the daemon"
as_status evt-bob 1 unshare -U -r "$T/bin/evtrace" enable -p "$app" typed
expect_grep "switching another user's events needs privilege towards the process" "$T/err" "bob refused as bob"

# Alice's flight recorder is killed; bob's collections through the
# daemon then take only a guest slot and sweep nothing, so what her
# recorder left is still hers to recover.
mkdir -m 700 "$T/alice" && chown evt-alice "$T/alice"
as_bg evt-alice env EVTRACE_RUNDIR="$R/alice/run" "$T/bin/evtrace" record --overwrite -p "$app" -e typed \
	-o "$T/alice/fr" 2>"$T/fr.err" &
flight=$!
wait_on "$app" typed/all
feed app 4 9
kill -9 "$flight"
wait "$flight" 2>/dev/null || true
as_bg evt-bob "$T/bin/evtrace" stream -p "$app" -e typed/all >/dev/null 2>"$T/bstream.err" &
bstream=$!
# (typed/all is on already: the killed recorder's slot)
wait_for "bob's stream's collection" \
	"'$EVTRACE' ls -p '$app' | grep -q '^# collection [0-9]*: pid [0-9]*, evtrace stream'"
"$EVTRACE" ls -p "$app" >"$T/ls"
expect_grep "^# collection 2[2-5][0-9]: pid [0-9]*, evtrace stream -e typed/all (slot 6)$" "$T/ls" "bob's stream in a guest slot (the worker's pid)"
kill -INT "$bstream"
wait "$bstream" || fail "bob's stream failed: $(cat "$T/bstream.err")"
as evt-alice env EVTRACE_RUNDIR="$R/alice/run" "$T/bin/evtrace" recover -o "$T/alice/rec" "$app" \
	2>"$T/rec.err" || fail "alice's recover after bob's stream: $(cat "$T/rec.err")"
expect_eq "$("$EVTRACE" report "$T/alice/rec" | grep -c ': typed/all: ')" 4 "rows alice recovered"

# A file system whose blocks left are root's reserve: bob's trace gets
# none of them through the daemon, any more than bob would by himself.
truncate -s 32M "$T/ext4.img"
mkfs.ext4 -q -m 50 "$T/ext4.img" || fail "mkfs.ext4"
mkdir "$T/fs"
mount -o loop "$T/ext4.img" "$T/fs" || fail "cannot loop-mount an ext4 image"
RESTORE="umount -l '$T/fs'"
mkdir -m 755 "$T/fs/bob" "$T/fs/bob/full" && chown evt-bob "$T/fs/bob" "$T/fs/bob/full"
as evt-bob sh -c "dd if=/dev/zero of='$T/fs/bob/fill' bs=1M 2>/dev/null; dd if=/dev/zero of='$T/fs/bob/fill2' bs=1k 2>/dev/null" || true
sync -f "$T/fs"
before=$(df --output=used "$T/fs" | tail -1)
as_status evt-bob 1 "$T/bin/evtrace" record -p "$app" -e typed -o "$T/fs/bob/full"
expect_grep "No space left on device" "$T/err" "bob's recording into his full file system"
sync -f "$T/fs"
after=$(df --output=used "$T/fs" | tail -1)
expect_eq "$after" "$before" "blocks used on the file system after bob's recording"
