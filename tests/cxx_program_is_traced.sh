# A C++ program: a site in an inline function of a header used by two
# translation units is one event; sites in a template, an ordinary
# function and a lambda work.  (A translation unit cannot mix sites in
# inline or template functions with sites in ordinary ones: see BUGS in
# trace_printk(3).)
. "$(dirname "$0")/lib.sh"
command -v c++ >/dev/null || { echo "SKIP: no C++ compiler"; exit 77; }
skip_if_sanitized "the C++ program built here"
cat >"$T/shared.hh" <<'CXX'
#include <evtrace/evtrace.h>
inline void shared_site(int from) { trace_printk("shared from %d\n", from); }
CXX
cat >"$T/a.cc" <<'CXX'
#include "shared.hh"
void from_a() { shared_site(1); }
template <typename T> void templ(T v) { trace_printk("template %ld\n", (long)v); }
void from_b();
void ordinary();
int main()
{
	from_a();
	from_b();
	templ(7);
	ordinary();
	return 0;
}
CXX
cat >"$T/b.cc" <<'CXX'
#include "shared.hh"
void from_b() { shared_site(2); }
CXX
cat >"$T/c.cc" <<'CXX'
#include <evtrace/evtrace.h>
#include <string>
void ordinary()
{
	std::string s = "lambda";
	trace_printk("ordinary %d\n", 5);
	auto f = [&](int i) { trace_printk("%s %d\n", s.c_str(), i); };
	f(3);
}
CXX
c++ -O2 -Wall -Werror -I"$INCLUDE" -I"$T" "$T/a.cc" "$T/b.cc" "$T/c.cc" -o "$T/cxxprog" \
	-L"$BUILD" -Wl,-rpath,"$BUILD" -levtrace || fail "C++ build"
"$EVTRACE" record -o "$T/tr" -- "$T/cxxprog" 2>/dev/null
"$EVTRACE" report "$T/tr" | sed -n 's/^.*: \(printk\/[^:]*\): /\1 /p' >"$T/got"
cut -d' ' -f2- "$T/got" >"$T/texts"
printf '%s\n' "shared from 1" "shared from 2" "template 7" "ordinary 5" "lambda 3" >"$T/want"
diff -u "$T/want" "$T/texts" || fail "C++ events"
expect_eq "$(sed -n 1p "$T/got" | cut -d' ' -f1)" "$(sed -n 2p "$T/got" | cut -d' ' -f1)" "one event for the inline site"
bt_agrees "$T/tr"
