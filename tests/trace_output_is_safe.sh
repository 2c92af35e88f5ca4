# The trace directory: made 0700 with 0600 files (one there before must be
# writable by its owner alone); an old trace is kept as
# DIR.old, replaced only by its owner and never written through a planted
# symlink; a full
# disk or a removed directory stops the recording with one message naming
# the file, the traced program runs to its end, what was written reads
# back whole, and record exits 1.
. "$(dirname "$0")/lib.sh"
"$EVTRACE" record -o "$T/tr" -- "$TRACEE" threads 1 10 >/dev/null 2>&1
expect_eq "$(stat -c %a "$T/tr") $(stat -c %a "$T/tr/evtrace") $(stat -c %a "$T/tr/metadata") $(stat -c %a "$T/tr/evtrace/index")" \
	"700 700 600 600" "modes of a new trace"
for f in "$T"/tr/stream_*; do expect_eq "$(stat -c %a "$f")" 600 "mode of $f"; done
# The trace there before is kept as DIR.old, replacing an older DIR.old.
"$EVTRACE" record -o "$T/tr" -- "$TRACEE" threads 1 20 >/dev/null 2>&1
"$EVTRACE" report "$T/tr" | grep -q "# 20 events, 0 lost" || fail "the new trace"
"$EVTRACE" report "$T/tr.old" | grep -q "# 10 events, 0 lost" || fail "the old trace kept as tr.old"
expect_eq "$(stat -c %a "$T/tr.old")" 700 "mode of the kept trace"
# Symlinks planted in an old trace or in the one before are removed or
# moved, never followed.
mkdir -m 700 "$T/victim"
echo precious >"$T/victim/file"
for d in tr tr.old; do
	ln -s "$T/victim/file" "$T/$d/metadata.tmp"
	ln -s "$T/victim/file" "$T/$d/evtrace/index.tmp"
	ln -s "$T/victim/file" "$T/$d/stream_1-0_0_0_1"
done
"$EVTRACE" record -o "$T/tr" -- "$TRACEE" threads 1 30 >/dev/null 2>&1
expect_eq "$(cat "$T/victim/file")" precious "a file behind a planted symlink"
[ ! -L "$T/tr/metadata.tmp" ] && [ ! -L "$T/tr/evtrace/index.tmp" ] || fail "planted symlinks in the new trace"
"$EVTRACE" report "$T/tr" | grep -q "# 30 events, 0 lost" || fail "the replacing trace"
[ -L "$T/tr.old/metadata.tmp" ] || fail "the trace before was not moved to tr.old whole"
"$EVTRACE" report "$T/tr.old" 2>/dev/null | grep -q "^# 20 events" || fail "tr.old is not the trace before"
expect_eq "$(cat "$T/victim/file")" precious "the file, after the old trace was moved"
# A DIR.old that is not a trace of one's own, or a symlink: refused,
# DIR left alone.
rm -rf "$T/tr.old"; mkdir "$T/tr.old"; echo mine >"$T/tr.old/notes"
expect_status 1 "$EVTRACE" record -o "$T/tr" -- true
expect_grep "$T/tr.old: exists and is not an evtrace trace" "$T/err" "a foreign tr.old"
expect_eq "$(cat "$T/tr.old/notes")" mine "the foreign tr.old"
"$EVTRACE" report "$T/tr" | grep -q "# 30 events" || fail "tr was touched when tr.old was refused"
rm -rf "$T/tr.old"; ln -s "$T/victim" "$T/tr.old"
expect_status 1 "$EVTRACE" record -o "$T/tr/" -- true
expect_grep "$T/tr.old: a symbolic link, not a directory; refused" "$T/err" "a symlinked tr.old"
rm "$T/tr.old"
# An empty directory is used as it is, nothing kept.
mkdir "$T/empty"
"$EVTRACE" record -o "$T/empty" -- "$TRACEE" threads 1 5 >/dev/null 2>&1
[ ! -e "$T/empty.old" ] || fail "an empty directory was kept as .old"
"$EVTRACE" report "$T/empty" | grep -q "# 5 events" || fail "the trace in the empty directory"
# One others may write into is refused: they could replace its files
# while it is written.
mkdir "$T/open" && chmod 777 "$T/open"
expect_status 1 "$EVTRACE" record -o "$T/open" -- true
expect_eq "$(cat "$T/err")" "evtrace: record: $T/open: writable by others (mode 0777): another user could replace the trace's files; 'chmod go-w $T/open', or choose another directory with -o" \
	"an empty directory of mode 0777"
[ -z "$(ls -A "$T/open")" ] || fail "a refused directory written into"
# The output itself a symlink, or a directory holding other files: refused.
ln -s "$T/victim" "$T/link"
expect_status 1 "$EVTRACE" record -o "$T/link" -- true
expect_grep "$T/link: a symbolic link, not a directory; refused" "$T/err" "symlinked output"
mkdir "$T/tr/evtrace/notes"
expect_status 1 "$EVTRACE" record -o "$T/tr" -- true
expect_grep "$T/tr/evtrace: holds notes, which evtrace did not write" "$T/err" "foreign file in a trace"
rmdir "$T/tr/evtrace/notes"

if [ "$(id -u)" = 0 ]; then
	# Root does not replace a user's trace.
	make_users
	mkdir "$T/proj" && chown evt-alice "$T/proj"
	as_user evt-alice env EVTRACE_RUNDIR="$T/proj/run" "$EVTRACE_U" record -o "$T/proj/trace" -- "$TRACEE_U" threads 1 5 >/dev/null 2>&1 ||
		fail "alice could not record"
	expect_status 1 "$EVTRACE" record -o "$T/proj/trace" -- true
	expect_grep "$T/proj/trace: owned by uid $ALICE, not by uid 0: a trace is replaced only by its owner" "$T/err" "root and a user's trace"
	as_user evt-alice "$EVTRACE_U" report "$T/proj/trace" | grep -q "# 5 events" || fail "alice's trace was touched"
	# A user's record into a directory she may not write: the path and
	# the reason, exit 1.
	mkdir -m 555 "$T/ro"
	set +e
	as_user evt-alice env EVTRACE_RUNDIR="$T/proj/run" "$EVTRACE_U" record -o "$T/ro/trace" -- true 2>"$T/err"
	st=$?
	set -e
	expect_eq "$st" 1 "alice's record into a read-only directory"
	expect_grep "evtrace: record: $T/ro/trace: Permission denied" "$T/err" "permission denied for a real user"

	# A full file system: recording stops, the program runs on, the trace
	# reads back whole, one message names the file.
	mkdir "$T/small"
	mount -t tmpfs -o size=256k evtrace-out "$T/small" || fail "cannot mount a small tmpfs"
	trap 'umount "$T/small" 2>/dev/null; cleanup' EXIT
	set +e; "$EVTRACE" record -o "$T/small/tr" -- "$TRACEE" paced 40000 40 0 >"$T/prog.out" 2>"$T/rec.err"; st=$?; set -e
	expect_eq "$st" 1 "record's status on a full disk"
	expect_grep "^tried 40000$" "$T/prog.out" "the program ran to its end"
	expect_eq "$(grep -c 'No space left on device' "$T/rec.err")" 1 "messages about the full disk"
	expect_grep "evtrace: record: $T/small/tr/[a-z_0-9/.-]*: No space left on device; recording stopped, '$TRACEE' runs on untraced" "$T/rec.err" "the file named"
	# What the buffers held then is counted against its site.
	expect_grep "^evtrace: record: lost [1-9][0-9]* events: [1-9][0-9]* of printk/tracee/tests/progs/tracee.c/[0-9]* (the trace could not be written)\$" \
		"$T/rec.err" "the events the full disk lost, by site"
	"$EVTRACE" report "$T/small/tr" >"$T/report" 2>"$T/report.err" || { cat "$T/report.err" >&2; fail "report of a trace cut by a full disk"; }
	bt "$T/small/tr" >"$T/bt"
	n=$(sed -n 's/^# \([0-9]*\) events\{0,1\},.*/\1/p' "$T/report")
	[ "$n" -gt 0 ] && [ "$n" -lt 40000 ] || fail "$n events in a trace cut by a full disk"
	# What reached the disk is the first events, each once, in order.
	sed -n 's/.*: burst \([0-9]*\)$/\1/p' "$T/report" >"$T/nums"
	expect_eq "$(seq 0 $((n - 1)) | cmp - "$T/nums" && echo same)" same "the events kept"
	umount "$T/small"
	trap cleanup EXIT
fi

# The trace directory removed while recording.
"$EVTRACE" record -o "$T/gone" -- "$TRACEE" paced 3000 3 0 >"$T/prog.out" 2>"$T/rec.err" &
rec=$!
BG_PIDS="$BG_PIDS $rec"
wait_for 'gone/metadata to appear' '[ -f "$T/gone/metadata" ]'
# (the recorder may make a file between rm's reading and its rmdir: again)
for _ in $(seq 20); do rm -rf "$T/gone" 2>/dev/null && break; done
[ ! -e "$T/gone" ] || fail "could not remove the trace directory under the recorder"
set +e; wait "$rec"; st=$?; set -e
expect_eq "$st" 1 "record's status when its directory was removed"
expect_grep "^tried 3000$" "$T/prog.out" "the program ran to its end"
expect_grep "evtrace: record: $T/gone/[a-z_0-9/.-]*: No such file or directory (the trace directory was removed)" "$T/rec.err" "the removal named"
expect_eq "$(grep -c 'directory was removed' "$T/rec.err")" 1 "messages about the removal"
# A program whose name (its threads' comm, and its module's name in event
# paths) holds terminal escapes: report and stream print them as '?',
# never raw to a reader's terminal (another user's, through evtraced).
esc=$(printf 'ev\033]0;x\007y')
cp "$TRACEE" "$T/$esc"
"$EVTRACE" record -o "$T/esc" -- "$T/$esc" threads 1 2 >/dev/null 2>&1
"$EVTRACE" report "$T/esc" >"$T/esc.txt"
if grep -q "$(printf '\033')" "$T/esc.txt" || grep -q "$(printf '\007')" "$T/esc.txt"; then
	cat -v "$T/esc.txt" >&2; fail "a control character in report's output"
fi
expect_eq "$(grep -c '^ *ev?\]0;x?y-[0-9]* .*: printk/ev?\]0;x?y/tests/progs/tracee.c/[0-9]*: seq ' "$T/esc.txt")" 2 \
	"lines with the comm and the module escaped"
