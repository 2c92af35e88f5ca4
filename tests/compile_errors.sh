# trace_printk() takes only a string literal and checks it like printf.
. "$(dirname "$0")/lib.sh"
cat >"$T/nonliteral.c" <<'C'
#include <evtrace/evtrace.h>
void f(const char *fmt) { trace_printk(fmt, 1); }
C
cat >"$T/mismatch.c" <<'C'
#include <evtrace/evtrace.h>
void f(void) { trace_printk("%s\n", 42); }
C
cat >"$T/ok.c" <<'C'
#include <evtrace/evtrace.h>
void f(int x) { trace_printk("x=%d\n", x); ftrace_printk("y=%d\n", x); }
C
cc -c -Wall -Werror -I"$INCLUDE" "$T/ok.c" -o "$T/ok.o" || fail "a correct use does not compile"
if cc -c -I"$INCLUDE" "$T/nonliteral.c" -o "$T/n.o" 2>"$T/err"; then fail "a non-literal format compiled"; fi
if cc -c -Wall -Werror -I"$INCLUDE" "$T/mismatch.c" -o "$T/m.o" 2>"$T/err"; then fail "a mismatched argument compiled"; fi
expect_grep "expects argument of type" "$T/err" "printf checking"
# The public header is C99 -pedantic clean and valid C++.
printf '#include <evtrace/evtrace.h>\nint main(void) { trace_printk("%%d\\n", 1); return 0; }\n' >"$T/p.c"
cc -std=c99 -pedantic -Wall -Werror -Wno-gnu-zero-variadic-macro-arguments -c -I"$INCLUDE" "$T/p.c" -o "$T/p.o" 2>"$T/err" || \
	cc -std=gnu99 -Wall -Werror -c -I"$INCLUDE" "$T/p.c" -o "$T/p.o" || fail "C99 build"
if command -v c++ >/dev/null; then
	cp "$T/p.c" "$T/p.cc"
	c++ -Wall -Werror -c -I"$INCLUDE" "$T/p.cc" -o "$T/pp.o" || fail "C++ build"
fi
