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
# The headers' version macros are the project's version.
printf '#include <evtrace/evtrace.h>\n#include <stdio.h>\nint main(void) { printf("%%d.%%d.%%d %%d %%d\\n", EVTRACE_VERSION_MAJOR, EVTRACE_VERSION_MINOR, EVTRACE_VERSION_PATCH, EVTRACE_VERSION, EVT_STRING_MAX_BYTES); return 0; }\n' >"$T/version.c"
cc -o "$T/version" "$T/version.c" $flags || fail "cannot build the version check"
v=$(sed -n "s/^  version : '\([0-9.]*\)',$/\1/p" "$(dirname "$0")/../meson.build" | head -1)
expect_eq "$(LD_LIBRARY_PATH="$libdir" "$T/version")" \
	"$v $(echo "$v" | awk -F. '{ print $1 * 10000 + $2 * 100 + $3 }') 256" "version macros"
[ -n "$(find "$T/root" -name evtrace.1)" ] && [ -n "$(find "$T/root" -name trace_printk.3)" ] || fail "man pages not installed"
[ -n "$(find "$T/root" -name ftrace_printk.3)" ] && [ -n "$(find "$T/root" -name EVT_ENUM.3)" ] || fail "man page aliases not installed"
[ -f "$(find "$T/root" -path '*/bash-completion/completions/evtrace' | head -1)" ] || fail "bash completion not installed"
plugin=$(find "$T/root" -path '*/babeltrace2/plugins/babeltrace-plugin-evtrace.so' | head -1)
[ -f "$plugin" ] || fail "the babeltrace2 plugin not installed"
babeltrace2 --plugin-path="$(dirname "$plugin")" list-plugins 2>/dev/null | grep -q "sink.evtrace.text" ||
	fail "babeltrace2 does not find sink.evtrace.text in the installed plugin"
# The Python module, where Debian's Python looks for it (under the
# prefix), and working from there.
init=$(find "$T/root" -path '*/evtrace/__init__.py' | head -1)
[ -n "$init" ] && [ -f "$(dirname "$init")/_reader.so" ] || fail "the Python module is not installed"
pkgdir=$(dirname "$(dirname "$init")")
/usr/bin/python3 -c "import sys; sys.exit('${pkgdir#"$T/root"}' not in sys.path)" ||
	fail "the Python module went to ${pkgdir#"$T/root"}, not on Debian's Python's path"
"$EVTRACE" record -e 'span/**' -o "$T/spans" -- "$SPANS" 1 >/dev/null 2>&1 || fail "record spans"
expect_eq "$(PYTHONPATH="$pkgdir" /usr/bin/python3 -c "import evtrace; print(len(evtrace.Trace('$T/spans').slices()))")" 4 \
	"the installed Python module reads a trace"
# consumer.h: its header, library (exporting only evt_consumer_*),
# pkg-config file and man page are installed and enough to build a tool.
[ -n "$(find "$T/root" -name evt_consumer.3)" ] || fail "evt_consumer(3) not installed"
cflags=$(PKG_CONFIG_PATH=$(dirname "$pc") pkg-config --define-variable=prefix="$T/root$prefix" --cflags --libs evtrace-consumer) ||
	fail "no evtrace-consumer.pc"
printf '#include <evtrace/consumer.h>\n#include <stdio.h>\nint main(void) { struct evt_consumer_attr a = { .size = sizeof(a), .pid = 999999 }; struct evt_consumer *c; char err[300]; if (evt_consumer_open(&a, &c, err, sizeof(err))) { puts(err); return 1; } return 0; }\n' >"$T/tool.c"
cc -o "$T/tool" "$T/tool.c" $cflags || fail "cannot build a tool with: $cflags"
LD_LIBRARY_PATH="$libdir" "$T/tool" >"$T/tool.out" && fail "a consumer of no process opened"
expect_grep "^pid 999999: no traced process with this pid in " "$T/tool.out" "the installed consumer library"
exported=$(nm -D --defined-only "$libdir/libevtrace-consumer.so.0" | awk '$2 == "T" { print $3 }' | grep -v '^evt_consumer_' || true)
[ -z "$exported" ] || fail "libevtrace-consumer exports more than consumer.h: $exported"
# evtraced's systemd units, the service starting the installed evtrace.
unit=$(find "$T/root" -name evtraced.service)
[ -n "$unit" ] && [ -n "$(find "$T/root" -name evtraced.socket)" ] || fail "evtraced's systemd units not installed"
exe=$(sed -n 's/^ExecStart=\([^ ]*\) daemon$/\1/p' "$unit")
[ -x "$T/root$exe" ] || fail "evtraced.service starts '$exe', which is not installed"
grep -q '^ListenStream=/run/evtrace/evtraced.sock$' "$(find "$T/root" -name evtraced.socket)" || fail "evtraced.socket listens elsewhere"
