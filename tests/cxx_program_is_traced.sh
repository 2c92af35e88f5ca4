# A C++ translation unit with sites in plain functions, inline member
# functions, lambdas and templates together builds with g++ and clang++;
# every site is an event from the start (ls shows it before it runs); a
# site in an inline function of a header used by two translation units is
# one event, and so are a template's instantiations; a C++ library opened
# twice with dlopen keeps its events.  Spans: a trace_scope() left by an
# exception ends, counters take ints and doubles, async spans pair.
. "$(dirname "$0")/lib.sh"
skip_if_sanitized "the C++ programs built here"
compilers="g++ clang++"	# both installed by make deps
for cxx in $compilers; do command -v $cxx >/dev/null || fail "$cxx not found (make deps installs it)"; done
cat >"$T/shared.hh" <<'CXX'
#include <evtrace/evtrace.h>
inline void shared_site(int from) { trace_printk("shared from %d\n", from); }
CXX
cat >"$T/a.cc" <<'CXX'
#include "shared.hh"
#include <cstdio>
#include <cstring>
#include <unistd.h>
struct Widget {
	int v;
	void poke() const { trace_printk("member %d\n", v); }
};
template <typename T> void templ(T v) { trace_printk("template %ld\n", (long)v); }
static void plain(int x) { trace_printk("plain %d\n", x); }
static void never(int x) { trace_printk("never %d\n", x); }
void from_b();
int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "wait")) {
		printf("ready\n");
		fflush(stdout);
		pause();
		never(0);
	}
	shared_site(1);
	from_b();
	Widget{4}.poke();
	templ(7);
	templ(8.5);
	plain(5);
	auto lambda = [](int i) { trace_printk("lambda %d\n", i); };
	lambda(3);
	return 0;
}
CXX
cat >"$T/b.cc" <<'CXX'
#include "shared.hh"
void from_b() { shared_site(2); }
CXX
cat >"$T/plugin.cc" <<'CXX'
#include <evtrace/evtrace.h>
template <typename T> static void say(T round) { trace_printk("cxx plugin round %d\n", (int)round); }
extern "C" __attribute__((visibility("default"))) void plugin_run(int round) { say(round); }
CXX
for cxx in $compilers; do
	$cxx -std=c++11 -O2 -Wall -Wextra -Werror -I"$INCLUDE" -I"$T" "$T/a.cc" "$T/b.cc" \
		-o "$T/cxxprog" -L"$BUILD" -Wl,-rpath,"$BUILD" -levtrace || fail "$cxx build"
	$cxx -std=c++11 -O2 -fPIC -shared -Wall -Werror -I"$INCLUDE" "$T/plugin.cc" \
		-o "$T/libcxxplugin.so" -L"$BUILD" -levtrace || fail "$cxx plugin build"
	"$EVTRACE" record -o "$T/tr" -- "$T/cxxprog" 2>/dev/null
	"$EVTRACE" report "$T/tr" | sed -n 's/^.*: \(printk\/[^:]*\): /\1 /p' >"$T/got"
	cut -d' ' -f2- "$T/got" >"$T/texts"
	printf '%s\n' "shared from 1" "shared from 2" "member 4" "template 7" "template 8" \
		"plain 5" "lambda 3" >"$T/want"
	diff -u "$T/want" "$T/texts" || fail "$cxx: C++ events"
	expect_eq "$(sed -n 1p "$T/got" | cut -d' ' -f1)" "$(sed -n 2p "$T/got" | cut -d' ' -f1)" \
		"$cxx: one event for the inline site"
	expect_eq "$(sed -n 4p "$T/got" | cut -d' ' -f1)" "$(sed -n 5p "$T/got" | cut -d' ' -f1)" \
		"$cxx: a template's instantiations are one event"
	case "$(sed -n 4p "$T/got" | cut -d' ' -f1)" in
	*/a.cc/9) ;;
	*) fail "$cxx: the template's event is not at its line: $(sed -n 4p "$T/got")";;
	esac
	bt_agrees "$T/tr"
	# Registered at start-up: listed before it ever runs.
	: >"$T/wait.out"	# (emptied first: what the last one wrote must not count)
	"$T/cxxprog" wait >>"$T/wait.out" &
	w=$!
	BG_PIDS="$BG_PIDS $w"
	wait_for 'the program to say ready in wait.out' 'grep -q ready "$T/wait.out"'
	"$EVTRACE" ls -p "$w" -f printk >"$T/ls"
	expect_grep 'format: "never %d\\n"' "$T/ls" "$cxx: a site that has not run yet"
	expect_grep '^	function: void never(int)$' "$T/ls" "$cxx: ls -f names a site's function"
	grep -q '^	function: void templ(T) \[with T = \|^	function: void templ(T) \[T = ' "$T/ls" ||
		{ cat "$T/ls" >&2; fail "$cxx: a template's site, its instantiation named"; }
	kill "$w"
	# A C++ library opened, closed and opened again keeps its event.
	"$EVTRACE" record -o "$T/tr2" -- "$TRACEE" dlopen "$T/libcxxplugin.so" >/dev/null 2>&1
	"$EVTRACE" report "$T/tr2" >"$T/report2"
	expect_eq "$(grep -c 'printk/libcxxplugin.so/[^:]*/2: cxx plugin round [12]$' "$T/report2")" 2 \
		"$cxx: plugin events under one path across a reload"
done

# C++: a scope left by an exception ends; counters of both types.
cat >"$T/scope.cc" <<'CXX'
#include <evtrace/evtrace.h>
#include <stdexcept>
static void deep(int n)
{
	trace_scope("deep", "n=%d", n);
	if (n == 0)
		throw std::runtime_error("bottom");
	deep(n - 1);
}
int main()
{
	try {
		trace_scope("try");
		deep(2);
	} catch (const std::exception &) {
		trace_counter("caught", 1);
		trace_counter("ratio", 0.25);
	}
	trace_async_begin("req", 5u);
	trace_async_end("req", 5u);
	return 0;
}
CXX
for cxx in $compilers; do
	$cxx -std=c++11 -O2 -Wall -Wextra -Werror -I"$INCLUDE" "$T/scope.cc" -o "$T/scope" \
		-L"$BUILD" -Wl,-rpath,"$BUILD" -levtrace || fail "$cxx build of scope.cc"
	rm -rf "$T/cxx"
	"$EVTRACE" record -e 'span/**' -e 'async/**' -e 'counter/**' -o "$T/cxx" -- "$T/scope" >/dev/null 2>&1 ||
		fail "record the C++ program"
	"$EVTRACE" convert --to chrome-json -o "$T/cxx.json" "$T/cxx" 2>/dev/null || fail "convert C++"
	python3 - "$T/cxx.json" <<'PY' || fail "$cxx: C++ slices"
import json, sys
ev = [e for e in json.load(open(sys.argv[1]))["traceEvents"] if e["ph"] != "M"]
x = sorted((e for e in ev if e["ph"] == "X"), key=lambda e: e["ts"])
assert [(e["name"], e["args"].get("message")) for e in x] == \
    [("try", None), ("deep", "n=2"), ("deep", "n=1"), ("deep", "n=0")], x
assert all(e["args"]["state"] == "complete" for e in x), x
assert [e["args"]["value"] for e in ev if e["ph"] == "C"] == [1, 0.25], ev
assert [(e["ph"], e["id"]) for e in ev if e["ph"] in "be"] == [("b", "0x5"), ("e", "0x5")], ev
PY
	# query: the scopes the exception left are complete and nested.
	expect_eq "$("$EVTRACE" query --no-cache --csv "$T/cxx" "SELECT name, depth, args, state,
		parent_id = (SELECT max(id) FROM slice p WHERE p.id < s.id) FROM slice s
		WHERE async_id IS NULL ORDER BY ts" | tr -d '\r' | tail -n +2 | tr '\n' ' ')" \
		"try,0,,complete, deep,1,n=2,complete,1 deep,2,n=1,complete,1 deep,3,n=0,complete,1 " \
		"$cxx: query's slices of the scopes an exception left"
done
