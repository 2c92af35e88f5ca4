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
# A non-literal format says so, in C and C++, with gcc and clang, for
# trace_printk and ftrace_printk.
printf '#include <evtrace/evtrace.h>\nvoid g(const char *fmt) { ftrace_printk(fmt, 1); }\n' >"$T/nonliteral_f.c"
cp "$T/nonliteral.c" "$T/nonliteral.cc"
for c in "cc nonliteral.c" "cc nonliteral_f.c" "clang nonliteral.c" "g++ nonliteral.cc" "clang++ nonliteral.cc"; do
	set -- $c
	if $1 -c -I"$INCLUDE" "$T/$2" -o "$T/n.o" 2>"$T/err"; then fail "$c: a non-literal format compiled"; fi
	expect_grep "the format of [f]*trace_printk() must be a string literal" "$T/err" "$c: the reason"
done
if cc -c -Wall -Werror -I"$INCLUDE" "$T/mismatch.c" -o "$T/m.o" 2>"$T/err"; then fail "a mismatched argument compiled"; fi
expect_grep "expects argument of type" "$T/err" "printf checking"
# The public header is C99 -pedantic clean and valid C++ (-pedantic too).
printf '#include <evtrace/evtrace.h>\nint main(void) { trace_printk("%%d\\n", 1); ftrace_printk("x\\n"); return 0; }\n' >"$T/p.c"
cc -std=c99 -pedantic -Wall -Wextra -Werror -c -I"$INCLUDE" "$T/p.c" -o "$T/p.o" || fail "C99 -pedantic build"
cp "$T/p.c" "$T/p.cc"
c++ -std=c++11 -pedantic -Wall -Wextra -Werror -c -I"$INCLUDE" "$T/p.cc" -o "$T/pp.o" || fail "C++11 -pedantic build"

# Typed events: an unsupported type, a field name used twice and a stable
# view its raw event no longer feeds are compile errors that say so.
typed_case() {	# typed_case NAME 'definitions' 'expected error'
	printf '#include <evtrace/evtrace.h>\nstruct S { int a; };\n%s\n' "$2" >"$T/$1.c"
	if cc -std=gnu11 -Wall -Wextra -c -I"$INCLUDE" "$T/$1.c" -o "$T/$1.o" 2>"$T/err"; then
		fail "typed event case $1 compiled"
	fi
	expect_grep "$3" "$T/err" "typed event case $1"
}
typed_case double 'EVT_EVENT(bad, type, EVT_PROTO(double x), EVT_ARGS(x), EVT_FIELDS(evt_integer(double, x, x)))' \
	'evt_integer(double, x): the type must be an integer of 8, 16, 32 or 64 bits'
typed_case struct 'EVT_EVENT(bad, st, EVT_PROTO(struct S s), EVT_ARGS(s), EVT_FIELDS(evt_integer(struct S, s, s)))' \
	'evt_integer(struct S, s): the type must be an integer'
typed_case array 'EVT_EVENT(bad, arr, EVT_PROTO(const float *f), EVT_ARGS(f), EVT_FIELDS(evt_array(float, f, 4, f)))' \
	'evt_array(float, f): the type must be an integer'
typed_case dup 'EVT_EVENT(bad, dup, EVT_PROTO(int x), EVT_ARGS(x), EVT_FIELDS(evt_integer(int, x, x), evt_integer(long, x, x)))' \
	"duplicate member .x."
typed_case stable 'EVT_EVENT(good, ev, EVT_PROTO(int y), EVT_ARGS(y), EVT_FIELDS(evt_integer(int, y, y)))
EVT_STABLE_EVENT(gone, good, ev, EVT_FIELDS(evt_integer(int, x, args->x)))' \
	"has no member named .x."
cat >"$T/typed_ok.c" <<'C'
#include <evtrace/evtrace.h>
EVT_ENUM(st, {"R", 0}, {"S", 1})
EVT_EVENT(good, ev, EVT_PROTO(int y, const char *s), EVT_ARGS(y, s),
	EVT_FIELDS(evt_integer(int, y, y), evt_string(s, s), evt_enum(unsigned char, e, st, y)))
EVT_EVENT_FLAGS(good, ev, EVT_FL_CAP_ANY)
EVT_STABLE_EVENT(fine, good, ev, EVT_FIELDS(evt_integer(short, y, args->y)))
void f(int y) { trace_good_ev(y, "x"); }
C
cc -std=gnu11 -Wall -Wextra -Werror -c -I"$INCLUDE" "$T/typed_ok.c" -o "$T/typed_ok.o" || fail "typed event definition in C"
cp "$T/typed_ok.c" "$T/typed_ok.cc"
c++ -std=c++11 -Wall -Wextra -Werror -c -I"$INCLUDE" "$T/typed_ok.cc" -o "$T/typed_ok_cc.o" || fail "typed event definition in C++"
