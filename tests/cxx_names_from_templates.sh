# A span's or counter's name from a C++20 template's string parameter
# (traced<"parse">(fn)) or a constexpr char array: one event per name,
# with g++ and clang++.  A name known only at run time does not compile,
# and the error names what to write instead.
. "$(dirname "$0")/lib.sh"
SRC=$(dirname "$TRACEE_SRC")/template_names.cc
printf '#include <evtrace/evtrace.h>\nvoid f(const char *n)\n{\n\ttrace_scope(n);\n}\n' >"$T/runtime.cc"
for cxx in g++ clang++; do
	$cxx -std=c++20 -Wall -Wextra -Wpedantic -Werror -I"$INCLUDE" -o "$T/tn" "$SRC" \
		-L"$BUILD" -Wl,-rpath,"$BUILD" -levtrace 2>"$T/cc.err" ||
		{ cat "$T/cc.err" >&2; fail "$cxx: names from templates do not compile"; }
	"$EVTRACE" record -e 'span/**' -e 'counter/**' -o "$T/tr-$cxx" -- "$T/tn" 2>"$T/err" ||
		fail "$cxx: record: $(cat "$T/err")"
	expect_eq "$("$EVTRACE" report "$T/tr-$cxx" | sed -n 's/^.*[0-9]: \(span\|counter\)/\1/p')" \
		"span/parse: begin
span/parse: end
span/L0 slowdown: begin
span/L0 slowdown: end
span/table lookup: begin
counter/table lookup: 3
span/table lookup: end" "$cxx: a span per template's name, and the constexpr array's"
	if $cxx -std=c++17 -c -I"$INCLUDE" -o "$T/rt.o" "$T/runtime.cc" 2>"$T/rt.err"; then
		fail "$cxx: a name known at run time compiled"
	fi
	expect_grep "evt__span_or_counter_name_must_be_a_string_literal_or_constexpr" "$T/rt.err" \
		"$cxx: the error says what a name must be"
done
