# C++ typed events with the types C++ code has: std:: integers, a
# namespace's typedef, a template's member type, scoped and plain enums
# (signed by their underlying type).  What the compiler can refuse is a
# compile error naming the field; what only the library can (an enum
# value that does not fit) is registered refused: the program says
# nothing at its start, ls lists the event with why, and record says why
# once when asked for it.
. "$(dirname "$0")/lib.sh"
skip_if_sanitized "a C++ program built against the library"
cat >"$T/cx.cpp" <<'CXX'
#include <cstdint>
#include <cstddef>
#include <evtrace/evtrace.h>

namespace ns {
typedef unsigned short type;
enum class color : std::int8_t { red = -2, green = 1 };
enum plain { a, b };
}
template <typename T> struct box { typedef T value_type; };

EVT_EVENT(cx, q, EVT_PROTO(std::uint64_t a, std::size_t b, ns::type c, int d),
	  EVT_ARGS(a, b, c, d),
	  EVT_FIELDS(evt_integer(std::uint64_t, a, a), evt_integer(std::size_t, b, b),
		     evt_integer(ns::type, c, c), evt_integer(box<long>::value_type, d, d)))
EVT_EVENT(cx, e, EVT_PROTO(ns::color c, ns::plain p), EVT_ARGS(c, p),
	  EVT_FIELDS(evt_integer(ns::color, c, c), evt_integer(ns::plain, p, p)))
EVT_ENUM(too_big, {"small", 1}, {"big", 300})
EVT_EVENT(cx, bad, EVT_PROTO(std::uint8_t v), EVT_ARGS(v),
	  EVT_FIELDS(evt_enum(std::uint8_t, v, too_big, v)))

int main()
{
	trace_cx_q(18446744073709551615ull, 2, 65535, -4);
	trace_cx_e(ns::color::red, ns::b);
	trace_cx_bad(1);
	return 0;
}
CXX
c++ -std=c++11 -Wall -Wextra -Werror -I"$INCLUDE" -o "$T/cx" "$T/cx.cpp" -L"$BUILD" -levtrace \
	2>"$T/cc.err" || fail "C++ qualified types do not compile: $(cat "$T/cc.err")"
"$T/cx" 2>"$T/start.err" || fail "the program failed: $(cat "$T/start.err")"
[ ! -s "$T/start.err" ] || fail "the program spoke at its start: $(cat "$T/start.err")"

"$EVTRACE" record -o "$T/tr" -e 'cx/**' -- "$T/cx" 2>"$T/rec.err" || fail "record: $(cat "$T/rec.err")"
"$EVTRACE" report "$T/tr" | sed 's/^.*: cx\//cx\//' >"$T/report"
expect_eq "$(cat "$T/report")" "cx/q: a=18446744073709551615 b=2 c=65535 d=-4
cx/e: c=-2 p=1
# 2 events, 0 lost, 1 stream" "the events, signed as their types are"
why="field v: enum value big=300 does not fit the type"
expect_grep "^evtrace: record: cx/bad: refused, it stays off: $why$" "$T/rec.err" "record says why cx/bad is off"
expect_eq "$(grep -c 'cx/bad' "$T/rec.err")" 1 "said once"
grep -q 'not a type name\|cx/q\|cx/e' "$T/rec.err" && fail "record refused a good event: $(cat "$T/rec.err")"
"$EVTRACE" format --trace "$T/tr" cx/q >"$T/format" 2>&1 || fail "format: $(cat "$T/format")"
expect_grep "type:std::uint64_t" "$T/format" "the type as the source wrote it"

# ls of a running program: the refused event listed, with why.
cat >"$T/wait.cpp" <<'CXX'
#include <cstdint>
#include <cstdio>
#include <unistd.h>
#include <evtrace/evtrace.h>
EVT_ENUM(too_big, {"small", 1}, {"big", 300})
EVT_EVENT(cx, bad, EVT_PROTO(std::uint8_t v), EVT_ARGS(v),
	  EVT_FIELDS(evt_enum(std::uint8_t, v, too_big, v)))
int main()
{
	trace_cx_bad(1);
	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	pause();
	return 0;
}
CXX
c++ -std=c++11 -Wall -Wextra -Werror -I"$INCLUDE" -o "$T/wait" "$T/wait.cpp" -L"$BUILD" -levtrace \
	2>"$T/cc.err" || fail "the waiting program: $(cat "$T/cc.err")"
"$T/wait" >"$T/wait.out" 2>"$T/wait.err" &
BG_PIDS="$BG_PIDS $!"
wait_for "the program to be ready" "grep -q '^ready' '$T/wait.out'"
pid=$(sed -n 's/^ready //p' "$T/wait.out")
"$EVTRACE" ls -p "$pid" >"$T/ls" 2>&1 || fail "ls: $(cat "$T/ls")"
expect_grep "^0 cx/bad (refused, stays off: $why)$" "$T/ls" "ls: why cx/bad is off"
"$EVTRACE" enable cx/bad 2>"$T/en.err" || fail "enable: $(cat "$T/en.err")"
expect_grep "^evtrace: enable: cx/bad: refused, it stays off: $why$" "$T/en.err" "enable says why"
[ ! -s "$T/wait.err" ] || fail "the program spoke: $(cat "$T/wait.err")"

# What the compiler refuses, naming the field.
refused_at_compile() {	# FIELD-MACRO WHAT
	printf '#include <evtrace/evtrace.h>\nEVT_EVENT(cx, f, EVT_PROTO(float x), EVT_ARGS(x), EVT_FIELDS(%s))\nint main() { trace_cx_f(1); return 0; }\n' \
		"$1" >"$T/f.cpp"
	c++ -std=c++11 -I"$INCLUDE" -c -o "$T/f.o" "$T/f.cpp" 2>"$T/f.err" && fail "$2 compiled"
	grep -q "$3" "$T/f.err" || fail "$2: the error does not say '$3': $(grep error "$T/f.err" | head -3)"
}
refused_at_compile "evt_integer(float, x, x)" "a float as an integer" \
	"evt_integer(float, x): the type must be an integer of 8, 16, 32 or 64 bits"
long=f0123456789012345678901234567890123456789012345678901234567890123
refused_at_compile "evt_integer(int, $long, x)" "a field name of 64 characters" \
	"evt_integer field $long: a name of at most 63 characters"

# A string field takes what C++ code holds: a std::string, a
# std::string_view (no NUL: its size says where it ends, a view of 255
# bytes in a longer text is stored whole and one of 300 cut with "..."),
# a const char *, nullptr as (null); in C++17, with g++ and clang++.
cat >"$T/str.cpp" <<'CXX'
#include <string>
#include <string_view>
#include <evtrace/evtrace.h>

EVT_EVENT(cx, s, EVT_PROTO(std::string_view v, const std::string &s, const char *c),
	  EVT_ARGS(v, s, c),
	  EVT_FIELDS(evt_string(v, v), evt_string(s, s), evt_string(c, c),
		     evt_string(none, nullptr)))

int main()
{
	std::string text = "hello world";
	std::string big(300, 'x'), exact(400, 'y');

	trace_cx_s(std::string_view(text).substr(0, 5), text, "lit");
	trace_cx_s(std::string_view(exact).substr(0, 255), big, nullptr);
	return 0;
}
CXX
x252=$(printf '%0252d' 0 | tr 0 x)
y255=$(printf '%0255d' 0 | tr 0 y)
for cxx in g++ clang++; do
	$cxx -std=c++17 -Wall -Wextra -Werror -I"$INCLUDE" -o "$T/str" "$T/str.cpp" -L"$BUILD" -levtrace \
		2>"$T/cc.err" || fail "$cxx: C++ strings in a typed event do not compile: $(cat "$T/cc.err")"
	"$EVTRACE" record -o "$T/str-$cxx" -e 'cx/s' -- "$T/str" 2>"$T/rec.err" || fail "record: $(cat "$T/rec.err")"
	expect_eq "$("$EVTRACE" report "$T/str-$cxx" | sed -n 's/^.*: cx\/s: //p')" \
		"v=\"hello\" s=\"hello world\" c=\"lit\" none=\"(null)\"
v=\"$y255\" s=\"$x252...\" c=\"(null)\" none=\"(null)\"" "$cxx: the strings as C++ held them"
done
