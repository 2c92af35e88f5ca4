# daemon_lib.sh - sourced after lib.sh by the tests of evtraced with real
# users: evt-alice, whose programs are traced in a run directory only she
# can open ($R/alice/run), evt-bob and evt-carol with directories of their
# own ($T/bob, $T/carol), the group evt-team, a daemon on $SOCK, and the
# helpers to act as each of them.
make_team
cp "$TYPED" "$CONSUME" "$T/bin/"
cp -L "$BUILD/engine/libevtrace-consumer.so.0" "$T/bin/"
cp -L "$BUILD/tests/libtyped_lib.so" "$T/bin/"
SOCK=$T/evtraced.sock
mkdir -m 755 "$T/bob" "$T/carol" && chown evt-bob "$T/bob" && chown evt-carol "$T/carol"
mkdir -m 700 "$R/alice" && chown evt-alice "$R/alice"
chmod 755 "$R"

as() {	# as USER[+team] CMD...: with the daemon's socket named
	u=${1%+team}
	groups=--clear-groups
	[ "$u" = "$1" ] || groups=--groups=$TEAM
	shift
	${AS_EXEC:-} setpriv --reuid="$u" --regid="$(id -g "$u")" $groups \
		env LD_LIBRARY_PATH="$T/bin" EVTRACE_DAEMON_SOCKET="$SOCK" "$@"
}
# In the background ("as_bg ... &"), so that $! is the command's pid.
as_bg() { AS_EXEC=exec; as "$@"; }
# Runs as a user a command that must exit $2, its stderr in $T/err.
as_status() {
	u=$1; want=$2; shift 2
	set +e; as "$u" "$@" >"$T/out" 2>"$T/err"; got=$?; set -e
	[ "$got" = "$want" ] || { cat "$T/err" >&2; fail "$u: '$*' exited $got, expected $want"; }
}
# Alice's program, fed through a FIFO: "serve" emits N rows per number.
# (TYPED_MODE=threads: each row from a thread of its own.)
start_served() {	# start_served NAME [ENV=VALUE]
	mkfifo -m 600 "$T/$1.in"
	exec 8<>"$T/$1.in"
	setpriv --reuid=evt-alice --regid="$(id -g evt-alice)" --clear-groups \
		env LD_LIBRARY_PATH="$T/bin" EVTRACE_RUNDIR="$R/alice/run" ${2:-} \
		"$T/bin/typed" "${TYPED_MODE:-serve}" <&8 >"$T/$1.out" 2>"$T/$1.err" &
	BG_PIDS="$BG_PIDS $!"
	eval "$1=$!"
	exec 8>&-
	wait_for "alice's $1 to start" "grep -q ready '$T/$1.out'"
}
feed() {	# feed NAME N TOTAL: emits N rows, waits until TOTAL are done
	echo "$2" >"$T/$1.in"
	wait_for "alice's $1 to emit up to $3" "grep -q '^done $3\$' '$T/$1.out'"
}
start_daemon() {	# start_daemon [OPTION...]: on $SOCK, its pid DAEMON
	"$EVTRACE" daemon --socket "$SOCK" "$@" 2>"$T/daemon.log" &
	DAEMON=$!
	BG_PIDS="$BG_PIDS $DAEMON"
	wait_for "evtraced to listen on $SOCK" "[ -S '$SOCK' ] || ! running $DAEMON"
	[ -S "$SOCK" ] || fail "evtraced did not start: $(cat "$T/daemon.log")"
}
# Waits until pid $1 has slot bits on for event $2 (a collection is on);
# with an engine's pid $3 and its messages' file $4, fails saying them if
# that engine ends first.
wait_on() {
	wait_for "a collection to switch $2 on in pid $1" \
		"'$EVTRACE' ls -p '$1' '$2' 2>/dev/null | grep -q '\[' ${3:+|| ! running $3}"
	[ -z "${3:-}" ] || running "$3" || fail "the engine of pid $3 ended: $(cat "$4")"
}

