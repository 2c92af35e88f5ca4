#!/bin/sh
# build.sh TARBALL OUTDIR CC...: libevtrace as released in 0.1.10 (its
# library's sources, kept in TARBALL), built with CC into
# OUTDIR/libevtrace.so.0, for programs_on_0_1_10_stay_traced.
set -eu
tarball=$1 out=$2
shift 2
src="$out/src"
rm -rf "$src"
mkdir -p "$src"
xz -dc "$tarball" | tar -x -C "$src"
top="$src/libevtrace-0.1.10"
# As 0.1.10's meson.build built it (its project arguments and library's).
"$@" -shared -fPIC -O2 -g -std=gnu11 -D_GNU_SOURCE -fvisibility=hidden \
	-DEVT_BUILDING_LIBRARY -I"$top/include" -I"$top/format" \
	"$top"/lib/*.c "$top"/format/*.c \
	-o "$out/libevtrace.so.0.1.10" -Wl,-soname,libevtrace.so.0 -lpthread -ldl
ln -sf libevtrace.so.0.1.10 "$out/libevtrace.so.0"
rm -rf "$src"
