# The installed library, header, pkg-config file and man pages are enough
# to build and trace a program.
. "$(dirname "$0")/lib.sh"
skip_if_sanitized "a program built against the installed library"
meson install -C "$BUILD" --destdir "$T/root" >/dev/null
pc=$(find "$T/root" -name evtrace.pc)
[ -n "$pc" ] || fail "no evtrace.pc installed"
prefix=$(sed -n 's/^prefix=//p' "$pc")
flags=$(PKG_CONFIG_PATH=$(dirname "$pc") pkg-config --define-variable=prefix="$T/root$prefix" --cflags --libs evtrace)
printf '#include <evtrace/evtrace.h>\nint main(void) { trace_printk("hello %%d\\n", 7); return 0; }\n' >"$T/hello.c"
cc -o "$T/hello" "$T/hello.c" $flags || fail "cannot build with pkg-config flags: $flags"
libdir=$(dirname "$(find "$T/root" -name 'libevtrace.so.0' | head -1)")
LD_LIBRARY_PATH="$libdir" "$EVTRACE" record -o "$T/tr" -- "$T/hello" 2>/dev/null
"$EVTRACE" report "$T/tr" | grep -q ': printk/hello/[^:]*hello.c/2: hello 7$' || fail "installed build not traced"
[ -n "$(find "$T/root" -name evtrace.1)" ] && [ -n "$(find "$T/root" -name trace_printk.3)" ] || fail "man pages not installed"
