# ls --probes lists the USDT probes a binary or library carries, and
# those of the files a running process maps, with their arguments'
# types; a file that is no ELF, a FIFO, a directory, a truncated or
# corrupt binary is said, not a crash nor a hang.  The commands that do
# not take usdt/ yet say so.
. "$(dirname "$0")/lib.sh"

"$EVTRACE" ls --probes "$USDT_PROG" >"$T/prog" || fail "ls --probes usdt_prog"
expect_grep "^usdt/evttest/args arg1:s32 arg2:s64 arg3:s32  ($USDT_PROG+0x[0-9a-f]*, semaphore)\$" \
	"$T/prog" "a probe's arguments typed from its note, its semaphore"
expect_grep "^usdt/evttest/guarded arg1:s32  ($USDT_PROG+0x[0-9a-f]*, semaphore)\$" "$T/prog" "the guarded probe"
expect_eq "$(wc -l <"$T/prog")" 2 "usdt_prog's probes"
"$EVTRACE" ls --probes "$USDT_LIB" >"$T/lib" || fail "ls --probes of a library"
expect_grep "^usdt/evttest_lib/hit arg1:s32  ($USDT_LIB+0x[0-9a-f]*)\$" "$T/lib" "a library's probe, no semaphore"
# Debian's libstdc++ carries its exceptions' probes; Python its functions'
# (file and function names as strings, as CPython documents them).
libstdcxx=$(ldconfig -p | sed -n 's/^[[:space:]]*libstdc++\.so\.6 (libc6,x86-64) => //p' | head -1)
"$EVTRACE" ls --probes "$libstdcxx" >"$T/cxx" || fail "ls --probes $libstdcxx"
for p in throw catch rethrow; do
	expect_grep "^usdt/libstdcxx/$p arg1:u64 arg2:u64 " "$T/cxx" "libstdc++'s $p"
done
"$EVTRACE" ls --probes "$(readlink -f /usr/bin/python3)" >"$T/py" || fail "ls --probes python3"
expect_grep "^usdt/python/function__entry arg1:string arg2:string arg3:s32 " "$T/py" "Python's function__entry"
"$EVTRACE" ls --probes /bin/true >"$T/none" || fail "ls --probes of a binary without"
expect_eq "$(cat "$T/none")" "# /bin/true: no USDT probes" "a binary without probes"

# A running process: the files it maps, each once.
"$USDT_PROG" guarded >"$T/g.out" &
G=$!
BG_PIDS="$BG_PIDS $G"
wait_for "usdt_prog to start" "grep -q ready '$T/g.out'"
"$EVTRACE" ls --probes -p "$G" >"$T/pid" || fail "ls --probes -p"
expect_grep "^# pid $G\$" "$T/pid" "the process's heading"
expect_eq "$(grep -c "^usdt/evttest/args " "$T/pid")" 1 "its binary's probes, once"
kill "$G"

# What is not a binary with probes.
mkfifo "$T/fifo"
ln -s "$T/fifo" "$T/link"
printf 'not elf' >"$T/text"
head -c 3000 "$USDT_PROG" >"$T/cut"
expect_status 1 "$EVTRACE" ls --probes "$T/fifo"
expect_grep "^evtrace: ls: $T/fifo: not a regular file\$" "$T/err" "a FIFO"
expect_status 1 "$EVTRACE" ls --probes "$T/link"
expect_grep "not a regular file\$" "$T/err" "a symlink to a FIFO"
expect_status 1 "$EVTRACE" ls --probes "$T"
expect_grep "^evtrace: ls: $T: not a regular file\$" "$T/err" "a directory"
expect_status 1 "$EVTRACE" ls --probes "$T/text"
expect_grep "^evtrace: ls: $T/text: not an ELF file\$" "$T/err" "a text file"
expect_status 1 "$EVTRACE" ls --probes "$T/nope"
expect_grep "^evtrace: ls: $T/nope: No such file or directory\$" "$T/err" "no file"
set +e; "$EVTRACE" ls --probes "$T/cut" >"$T/out" 2>"$T/err"; st=$?; set -e
[ "$st" -le 1 ] || fail "a truncated binary: exit $st"
# Notes whose strings lie: each byte of the note section in turn made
# 0xff, the reader says what it cannot read or lists what it can.
python3 - "$USDT_PROG" "$T/bad" <<'PY'
import sys
data = bytearray(open(sys.argv[1], 'rb').read())
at = data.find(b'stapsdt\0')
assert at > 0, 'no stapsdt note'
for k, off in enumerate(range(at - 12, at + 60, 3)):
    bad = bytearray(data)
    bad[off] ^= 0xff
    open('%s.%d' % (sys.argv[2], k), 'wb').write(bad)
PY
for f in "$T"/bad.*; do
	set +e; "$EVTRACE" ls --probes "$f" >/dev/null 2>"$T/err"; st=$?; set -e
	[ "$st" -le 1 ] || { cat "$T/err" >&2; fail "$f: exit $st"; }
done
expect_status 1 "$EVTRACE" ls --probes
expect_grep "^evtrace: ls: --probes: name a binary or library, or -p PID\$" "$T/err" "--probes without a file"

# ls takes no usdt/ path: ls --probes lists them.
expect_status 1 "$EVTRACE" ls usdt/evttest
expect_grep "^evtrace: ls: usdt/evttest: a program's USDT probes are listed by ls --probes FILE (or -p PID)\$" \
	"$T/err" "ls of usdt/"
