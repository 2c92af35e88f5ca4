/*
 * template_names.cc - span and counter names that are not literals at the
 * call: a C++20 template's string parameter and a constexpr char array,
 * for tests/cxx_names_from_templates.sh.
 */
#include <evtrace/evtrace.h>
#include <algorithm>
#include <cstddef>

template <std::size_t N> struct fixed_name {
	char s[N];
	constexpr fixed_name(const char (&a)[N]) { std::copy_n(a, N, s); }
};
template <fixed_name Name, class F> auto traced(F f)
{
	trace_scope(Name.s);
	return f();
}
static constexpr char table_name[] = "table lookup";
int main()
{
	int a = traced<"parse">([] { return 1; });
	int b = traced<"L0 slowdown">([] { return 2; });
	{
		trace_scope(table_name);
		trace_counter(table_name, a + b);
	}
	return a + b - 3;
}
