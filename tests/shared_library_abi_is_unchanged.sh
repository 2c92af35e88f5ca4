#!/bin/sh
# The ABI of the shared libraries (their exported functions and variables
# and the public types they use) is the one in abi/libs/, read by
# libabigail's abidiff: a change, even an addition, fails here until the
# baseline is made again on purpose (make abi-baseline) and the version
# says what changed.
. "$(dirname "$0")/lib.sh"
skip_if_sanitized "the baseline is of the plain build"
command -v abidiff >/dev/null || fail "abidiff is missing (Debian package abigail-tools; make deps installs it)"
top=$(dirname "$0")/..
for lib in libevtrace:"$BUILD/libevtrace.so.0" libevtrace-consumer:"$BUILD/engine/libevtrace-consumer.so.0"; do
	name=${lib%%:*}
	set +e
	# (The baseline holds the public types alone; given the headers here
	# too, abidiff 2.2 aborts.)
	abidiff --no-show-locs "$top/abi/libs/$name.abi" "${lib#*:}" >"$T/$name.diff" 2>&1
	st=$?
	set -e
	[ "$st" = 0 ] || { cat "$T/$name.diff" >&2; fail "$name's ABI differs from abi/libs/$name.abi (abidiff status $st)"; }
done
