# C++'s trace_printk() and spans' arguments (C++14 on): the format checked against its
# arguments' types when the call compiles, with g++ and clang++, C++14,
# C++17 and C++20, under users' strictest flags; a disagreement is a
# compile error that names the argument.  C++ values recorded as their
# format reads them: std::string, std::string_view (which has no NUL:
# passed as a pointer, it was read past its end), nullptr as (null),
# enums, bool, std::chrono durations, pointers, every integer width.
. "$(dirname "$0")/lib.sh"
cat >"$T/values.cc" <<'C'
#include <evtrace/evtrace.h>
#include <chrono>
#include <cstdint>
#include <string>
#if __cplusplus >= 201703L
#include <string_view>
#define VIEW(s) std::string_view(s).substr(0, 5)
#else
#define VIEW(s) s.substr(0, 5)
#endif
enum class Color : int64_t { red = -3 };
enum Plain { plain = 7 };
int main()
{
	std::string s = "hello";
	std::string text = "worldwide";
	auto sv = VIEW(text);
	const char *np = nullptr;
	char buf[8] = "buf";
	int x = 1;
	trace_printk("s=%s sv=%s np=%s lit=%s buf=%s\n", s, sv, np, "lit", buf);
	trace_printk("e=%ld p=%d b=%d %d\n", Color::red, plain, true, false);
	trace_printk("dur=%lld ms=%ld f=%f %.1f\n", std::chrono::nanoseconds(42),
		     std::chrono::milliseconds(5), 1.5f, std::chrono::duration<double>(2.5));
	trace_printk("p=%d %p %p\n", &x == static_cast<void *>(&x), static_cast<void *>(nullptr), nullptr);
	trace_printk("i=%hhd %hd %d %u %x %ld %lu %lld %zu %c\n", static_cast<signed char>(-1),
		     static_cast<short>(-2), -3, 4u, 255u, -6L, 7UL, -8LL, sizeof(int), 'z');
	trace_printk("star %*d %.*s\n", 4, 9, 2, "abc");
	trace_span_begin("req", "who=%s color=%ld", s, Color::red);
	trace_span_end("req");
	trace_async_begin("job", 7, "who=%s", sv);
	trace_async_end("job", 7);
	{
		trace_scope("scoped", "n=%d s=%s", 3, s);
	}
	return 0;
}
C
strict="-Wall -Wextra -Wpedantic -Werror -Wzero-as-null-pointer-constant -Wold-style-cast"
want="s=hello sv=world np=(null) lit=lit buf=buf
e=-3 p=7 b=1 0
dur=42 ms=5 f=1.500000 2.5
p=1 (nil) (nil)
i=-1 -2 -3 4 ff -6 7 -8 4 z
star    9 ab"
for cxx in g++ clang++; do
	flags=$strict
	[ "$cxx" = clang++ ] || flags="$flags -Wuseless-cast"
	for std in c++14 c++17 c++20; do
		$cxx -std=$std $flags -I"$INCLUDE" -o "$T/values" "$T/values.cc" \
			-L"$BUILD" -Wl,-rpath,"$BUILD" -levtrace 2>"$T/cc.err" ||
			{ cat "$T/cc.err" >&2; fail "$cxx -std=$std: the values do not compile"; }
		"$EVTRACE" record -o "$T/tr-$cxx-$std" -- "$T/values" >/dev/null 2>"$T/err" ||
			fail "$cxx -std=$std: record: $(cat "$T/err")"
		"$EVTRACE" report "$T/tr-$cxx-$std" >"$T/report"
		expect_eq "$(sed -n 's/.*: printk\/values\/[^ ]*: //p' "$T/report")" \
			"$want" "$cxx -std=$std: the values recorded"
		expect_eq "$(sed -n 's/.*: \(span\/\|async\/\)/\1/p' "$T/report" | grep begin)" \
			"span/req: begin: who=hello color=-3
async/job: begin 7: who=world
span/scoped: begin: n=3 s=hello" "$cxx -std=$std: the spans' arguments"
	done
done
bt_agrees "$T/tr-g++-c++17"

# Disagreements: each a compile error naming the argument (1 is the first
# after the format; -1: too few, -2: too many).
bad() {	# bad N ARGS...: trace_printk(ARGS) must fail, naming N
	printf '#include <evtrace/evtrace.h>\n#include <string>\nstruct S { int a; };\nvoid f(std::string s, S st)\n{\n\t(void)s; (void)st;\n\ttrace_printk(%s);\n}\n' "$2" >"$T/bad.cc"
	for cxx in g++ clang++; do
		if $cxx -std=c++17 -c -I"$INCLUDE" -o "$T/bad.o" "$T/bad.cc" 2>"$T/bad.err"; then
			fail "$cxx: trace_printk($2) compiled"
		fi
		expect_grep "evt__trace_printk_argument_disagrees_with_its_format<$1>" "$T/bad.err" \
			"$cxx: trace_printk($2) names argument $1"
		expect_grep "trace_printk(): an argument disagrees with its format" "$T/bad.err" \
			"$cxx: trace_printk($2) says what is wrong"
	done
}
bad 1 '"view %s\\n", 42L'
bad 2 '"%d %s\\n", 1, 2.5'
bad 1 '"%d\\n", s'
bad 1 '"%ld\\n", 1'
bad 1 '"%d\\n", st'
bad -1 '"%d %d\\n", 1'
bad -2 '"%d\\n", 1, 2'
bad 1 '"%f\\n", 1'
printf '#include <evtrace/evtrace.h>\n#include <string>\nvoid f(std::string s)\n{\n\ttrace_span_begin("x", "%%d", s);\n\ttrace_span_end("x");\n}\n' >"$T/badspan.cc"
if g++ -std=c++17 -c -I"$INCLUDE" -o "$T/bad.o" "$T/badspan.cc" 2>"$T/bad.err"; then fail "a span's disagreeing argument compiled"; fi
expect_grep "evt__trace_printk_argument_disagrees_with_its_format<1>" "$T/bad.err" "a span's argument named"
