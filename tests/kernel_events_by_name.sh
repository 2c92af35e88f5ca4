# The kernel's tracepoints by name, kernel/<system>/<event>: every event
# tracefs has is listed, each format is the kernel's turned into evtrace's
# syntax (checked against tracefs's own format files by an independent
# conversion below), and what is not there, not readable or not yet
# supported says so.  A user who may not read tracefs asks evtraced.
. "$(dirname "$0")/lib.sh"
need_tracefs "tracefs, test users"

# 1. Every event (what tracefs can switch: ftrace/ is its own), once,
# with its directories, all off.
"$EVTRACE" ls kernel/ >"$T/ls" || fail "ls kernel/ failed: $(cat "$T/ls")"
find "$TR/events" -mindepth 3 -maxdepth 3 -name enable | sed "s|^$TR/events/|kernel/|; s|/enable\$||" | sort >"$T/want"
grep -v '/$' "$T/ls" | sed 's/^0 //' | sort >"$T/got"
cmp -s "$T/want" "$T/got" || { diff "$T/want" "$T/got" | head >&2; fail "ls kernel/ lists other events than tracefs has"; }
[ "$(wc -l <"$T/got")" -gt 100 ] || fail "only $(wc -l <"$T/got") kernel events"
expect_eq "$(head -1 "$T/ls")" "0 kernel/" "the kernel/ directory"
grep -v '^0 ' "$T/ls" && fail "a kernel event is not off"
expect_eq "$("$EVTRACE" ls kernel/sched/sched_switch)" "0 kernel/sched/sched_switch" "one event"
"$EVTRACE" ls kernel/sched >"$T/sched"
expect_eq "$(head -1 "$T/sched")" "0 kernel/sched/" "a system"
expect_grep "^0 kernel/sched/sched_wakeup$" "$T/sched" "a system's events"

# 2. Formats: the same conversion, written independently, for every event
# (ls -f); format prints the same.
python3 - "$TR/events" "$EVTRACE" >"$T/formats.out" <<'EOF' || fail "formats differ: $(tail -20 "$T/formats.out")"
import os, re, subprocess, sys
root, evtrace = sys.argv[1], sys.argv[2]
def convert(system, text):
    out = ["\tflags:CAP_ANY;"] if system in ("syscalls", "raw_syscalls") else []
    for line in text.splitlines():
        m = re.match(r"\tfield:(.*);\toffset:\d+;\tsize:(\d+);\tsigned:(\d);", line)
        if not m:
            continue
        decl, size, signed = m.group(1), int(m.group(2)), m.group(3)
        if re.search(r"\bcommon_\w+$", decl):
            continue
        dyn = re.match(r"__(data|rel)_loc (.*?)\s*(\[\])? (\w+)$", decl)
        arr = re.match(r"(.*?)\s*(\w+)\[(\d+)\]$", decl)
        if dyn:
            t, name = dyn.group(2), dyn.group(4)
            if t == "char":
                out.append("\tstring:%s\ttype:char\tsize:8\talign:1\tsigned:%s;" % (name, signed))
            elif not dyn.group(3):  # a bitmask and the like: its bytes
                out.append("\tsequence:%s\ttype:uint8_t\tsize:8\tlength:32\talign:1\tsigned:0;" % name)
            else:
                return None  # element size needs libtraceevent: not checked here
        elif arr:
            t, name, n = arr.group(1), arr.group(2), int(arr.group(3))
            if n == 0 or size % n:
                return None
            e = size // n
            out.append("\tarray:%s\ttype:%s\tsize:%d\tcount:%d\talign:%d\tsigned:%s;" % (name, t, e * 8, n, e, signed))
        else:
            m2 = re.match(r"(.*?)\s*(\w+)$", decl)
            t, name = m2.group(1), m2.group(2)
            t = re.sub(r"(\w)\*", r"\1 *", t)  # libtraceevent writes "void *"
            t = re.sub(r"\*(\w)", r"* \1", t)  # and "char * const"
            if size not in (1, 2, 4, 8):
                out.append("\tarray:%s\ttype:uint8_t\tsize:8\tcount:%d\talign:1\tsigned:0;" % (name, size))
                continue
            if t.endswith("*"):
                signed = "0"
            out.append("\tfield:%s\ttype:%s\tsize:%d\talign:%d\tsigned:%s;" % (name, t, size * 8, size, signed))
    return "\n".join(out) + "\n"
# One run of ls -f for every format (a run per event is slow under ASan).
got, path = {}, None
for line in subprocess.run([evtrace, "ls", "-f", "kernel/"], capture_output=True,
                           text=True, check=True).stdout.splitlines():
    if line.startswith("0 kernel/") and not line.endswith("/"):
        path = line[2:]
        got[path] = ""
    elif path and line.startswith("\t\t"):
        got[path] += line[1:] + "\n"
    elif path and line.startswith("\tformat: "):
        got[path] = line
checked = bad = 0
for system in sorted(os.listdir(root)):
    sdir = os.path.join(root, system)
    if not os.path.isdir(sdir):
        continue
    for event in sorted(os.listdir(sdir)):
        fmt = os.path.join(sdir, event, "format")
        if not os.path.isfile(fmt) or not os.path.isfile(os.path.join(sdir, event, "enable")):
            continue
        want = convert(system, open(fmt).read())
        if want is None:
            continue
        path = "kernel/%s/%s" % (system, event)
        checked += 1
        if got.get(path) != want:
            bad += 1
            if bad <= 6:
                print("%s:\n want %r\n got  %r" % (path, want, got.get(path)))
print("checked", checked, "different", bad)
sys.exit(1 if bad or checked < 100 else 0)
EOF
expect_grep "^checked [0-9]* different 0$" "$T/formats.out" "formats compared"
"$EVTRACE" ls -f kernel/sched/sched_switch | sed -n 's/^\t//; 3,$p' >"$T/ls-f"
"$EVTRACE" format kernel/sched/sched_switch >"$T/format"
cmp -s "$T/ls-f" "$T/format" || fail "ls -f and format differ"
"$EVTRACE" format kernel/sched/sched_process_exec >"$T/exec"
expect_eq "$(head -1 "$T/exec")" "$(printf '\tstring:filename\ttype:char\tsize:8\talign:1\tsigned:0;')" "a __data_loc string"
"$EVTRACE" ls -f kernel/syscalls/sys_enter_openat >"$T/openat"
expect_grep "^		flags:CAP_ANY;$" "$T/openat" "a syscall event's CAP_ANY"
expect_grep "^		field:filename	type:const char \*	size:64	align:8	signed:0;$" "$T/openat" "a pointer field"

# 3. What is not there, or not yet supported.
expect_status 1 "$EVTRACE" format kernel/nosuch/event
expect_eq "$(cat "$T/err")" "evtrace: format: kernel/nosuch/event: no such kernel event" "no such event"
expect_status 1 "$EVTRACE" format kernel/sched
expect_eq "$(cat "$T/err")" "evtrace: format: kernel/sched: not a kernel event (kernel/<system>/<event>)" "a system is not an event"
expect_status 1 "$EVTRACE" format kernel/../events/sched
expect_eq "$(cat "$T/err")" "evtrace: format: kernel/../events/sched: not a kernel event (kernel/<system>/<event>)" "a path out of events/"
expect_status 1 "$EVTRACE" ls kernel/nosuch
expect_eq "$(cat "$T/err")" "evtrace: ls: kernel/nosuch: no such kernel event or directory" "ls of nothing"
expect_status 1 "$EVTRACE" ls -p 1 kernel/
expect_eq "$(cat "$T/err")" "evtrace: ls: -p: kernel events are the whole system's, not a process's" "ls -p of kernel events"
expect_status 1 "$EVTRACE" enable kernel/nosuch
expect_eq "$(cat "$T/err")" "evtrace: enable: kernel/nosuch: no such kernel event" "enable of nothing"
expect_status 1 "$EVTRACE" enable -p 1 kernel/sched
expect_eq "$(cat "$T/err")" "evtrace: enable: -p 1 kernel/sched: kernel events are switched for every process (stream -p PID, without -e, shows those of PID)" "enable -p of kernel events"
expect_status 1 "$EVTRACE" enable --rate 5 kernel/sched
expect_eq "$(cat "$T/err")" "evtrace: enable: --rate kernel/sched: kernel events take no rate cap" "enable --rate of kernel events"
expect_status 1 "$EVTRACE" stream -e kernel/sched/nosuch
expect_eq "$(cat "$T/err")" "evtrace: stream: kernel/sched/nosuch: no such kernel event" "stream -e of nothing"

# 4. A user tracefs does not let in is told, and evtraced shows them.
make_users
SOCK=$T/evtraced.sock
bob() { setpriv --reuid=evt-bob --regid="$(id -g evt-bob)" --clear-groups \
	env LD_LIBRARY_PATH="$T/bin" EVTRACE_DAEMON_SOCKET="$SOCK" "$@"; }
set +e; bob "$EVTRACE_U" ls kernel/sched/sched_switch >"$T/out" 2>"$T/err"; got=$?; set -e
expect_eq "$got" 1 "bob without a daemon"
expect_eq "$(cat "$T/err")" "evtrace: ls: only root may read the kernel's events in tracefs; others ask evtraced, and none is running ($SOCK: No such file or directory); start it as root with 'evtrace daemon' or 'systemctl start evtraced.socket'" "bob told"
"$EVTRACE" daemon --socket "$SOCK" 2>"$T/daemon.log" &
BG_PIDS="$BG_PIDS $!"
wait_for 'the daemon socket' '[ -S "$SOCK" ]'
bob "$EVTRACE_U" ls kernel/sched/sched_switch >"$T/out" 2>"$T/err" || fail "bob's ls through the daemon: $(cat "$T/err")"
expect_eq "$(cat "$T/out")" "0 kernel/sched/sched_switch" "bob's ls through the daemon"
bob "$EVTRACE_U" format kernel/sched/sched_process_exec >"$T/out" 2>"$T/err" || fail "bob's format: $(cat "$T/err")"
cmp -s "$T/out" "$T/exec" || fail "bob's format differs from root's"

# 5. No tracefs at all (a user cannot mount it): said, not an empty list.
unshare -m sh -c "umount $TR 2>/dev/null; umount /sys/kernel/debug 2>/dev/null;
	setpriv --reuid=evt-bob --regid=$(id -g evt-bob) --clear-groups \
	env LD_LIBRARY_PATH=$T/bin EVTRACE_DAEMON_SOCKET=/nonexistent $EVTRACE_U ls kernel/" >"$T/out" 2>"$T/err" && fail "ls kernel/ without tracefs succeeded"
expect_eq "$(cat "$T/err")" "evtrace: ls: kernel events: tracefs is not mounted (as root: mount -t tracefs nodev /sys/kernel/tracing)" "no tracefs"
