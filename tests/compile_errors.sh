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
# The public header is C99 -pedantic clean and valid C++ (-pedantic too).
printf '#include <evtrace/evtrace.h>\nint main(void) { trace_printk("%%d\\n", 1); ftrace_printk("x\\n"); return 0; }\n' >"$T/p.c"
cc -std=c99 -pedantic -Wall -Wextra -Werror -c -I"$INCLUDE" "$T/p.c" -o "$T/p.o" || fail "C99 -pedantic build"
cp "$T/p.c" "$T/p.cc"
c++ -std=c++11 -pedantic -Wall -Wextra -Werror -c -I"$INCLUDE" "$T/p.cc" -o "$T/pp.o" || fail "C++11 -pedantic build"
