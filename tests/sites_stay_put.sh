# Names that stay put.  Every instantiation of a C++ template's
# trace_printk() is one event, whatever order the objects are linked in
# (it was util.hpp/4 and util.hpp/4-1, by which ran first).  fn: and
# fmt: select sites by function and format; ls --patterns prints such a
# pattern per site, record --events-from takes the list back, and it
# still names the same sites after an edit moved every line.
. "$(dirname "$0")/lib.sh"
skip_if_sanitized "a C++ program built against the library"
mkdir "$T/src"
cd "$T/src"
cat >util.hpp <<'CXX'
#include <evtrace/evtrace.h>
template <typename T> void put(T v)
{
	trace_printk("put %d\n", (int)v);
}
void put_int(int);
void put_long(long);
CXX
printf '#include "util.hpp"\nvoid put_int(int v) { put<int>(v); }\n' >a.cpp
printf '#include "util.hpp"\nvoid put_long(long v) { put<long>(v); }\n' >b.cpp
cat >main.cpp <<'CXX'
#include "util.hpp"
static void handle_request(int ms) { trace_printk("request timeout after %d ms\n", ms); }
static void other(int x) { trace_printk("other %d\n", x); }
int main()
{
	put_long(2);
	put_int(1);
	handle_request(30);
	other(4);
	return 0;
}
CXX
build() {	# NAME OBJECTS...
	name=$1; shift
	c++ -I"$INCLUDE" -o "$T/$name" main.cpp "$@" -L"$BUILD" -levtrace 2>"$T/cc.err" ||
		fail "cannot build $name: $(cat "$T/cc.err")"
}
build ab a.cpp b.cpp
build ba b.cpp a.cpp
for p in ab ba; do
	"$EVTRACE" record -q -o "$T/$p.tr" -- "$T/$p" 2>"$T/$p.err" || fail "record $p: $(cat "$T/$p.err")"
	"$EVTRACE" report "$T/$p.tr" | sed -n "s/^.*: printk\/$p\///p" >"$T/$p.report"
	expect_eq "$(cat "$T/$p.report")" "util.hpp/4: put 2
util.hpp/4: put 1
main.cpp/2: request timeout after 30 ms
main.cpp/3: other 4" "$p: both instantiations are util.hpp/4"
done

# fn: and fmt:, alone and under a path; record and report.
sites() {	# RECORD-OPTIONS...: the sites recorded, by line
	rm -rf "$T/sel"
	"$EVTRACE" record -q -o "$T/sel" "$@" -- "$T/ab" 2>"$T/sel.err" ||
		fail "record $*: $(cat "$T/sel.err")"
	"$EVTRACE" report "$T/sel" | sed -n 's/^.*: printk\/ab\/\([^:]*\): .*$/\1/p' | tr '\n' ' '
}
expect_eq "$(sites -e fn:handle_request)" "main.cpp/2 " "fn: names a function"
expect_eq "$(sites -e 'fmt:*timeout*')" "main.cpp/2 " "fmt: names a format"
expect_eq "$(sites -e 'fmt:other %d*' -e 'printk/ab/fn:put')" "util.hpp/4 util.hpp/4 main.cpp/3 " \
	"fmt: with a space, and fn: under the module's path: a template's every instantiation"
expect_eq "$(sites -e 'printk/ab/fn:other/fmt:*timeout*')" "" "fn: and fmt: together: both must hold"
expect_grep "printk/ab/fn:other/fmt:\*timeout\*: named no event of the processes$" "$T/sel.err" "a pair that names nothing is said"
"$EVTRACE" report -e 'fn:handle_*' "$T/ab.tr" >"$T/rep.fn"
expect_grep "^# 1 of 4 events" "$T/rep.fn" "report -e fn:"
expect_grep ": printk/ab/main.cpp/2: request timeout after 30 ms$" "$T/rep.fn" "report -e fn: names the site"

# ls --patterns of a running program, then an edit that moves every line.
sed 's/^int main()$/int main(int argc, char **)/; s/^\treturn 0;$/\tif (argc > 1) { printf("ready\\n"); fflush(stdout); pause(); }\n\treturn 0;/' \
	main.cpp >main2.cpp
printf '#include <cstdio>\n#include <unistd.h>\n' | cat - main2.cpp >main.cpp
build waiting a.cpp b.cpp
"$T/waiting" wait >"$T/waiting.out" &
wpid=$!
BG_PIDS="$BG_PIDS $wpid"
wait_for "the program to register" "grep -q '^ready' '$T/waiting.out'"
"$EVTRACE" ls -p "$wpid" --patterns >"$T/patterns" 2>&1 || fail "ls --patterns: $(cat "$T/patterns")"
kill "$wpid"
expect_eq "$(grep -v '^#' "$T/patterns" | sort | tr '\n' ' ')" \
	"ftrace/print printk/waiting/fn:handle_request/fmt:request timeout after %d ms? printk/waiting/fn:other/fmt:other %d? printk/waiting/fn:put/fmt:put %d? " \
	"ls --patterns: a pattern per site, by function and format"
grep -v 'fn:other' "$T/patterns" | sed 's|printk/waiting/|printk/edited/|' >"$T/config"
{ printf '// moved\n// every\n// line\n'; cat main.cpp; } >main3.cpp && mv main3.cpp main.cpp
printf '\n\n' | cat - util.hpp >util3.hpp && mv util3.hpp util.hpp
build edited a.cpp b.cpp
"$EVTRACE" record -q -o "$T/edited.tr" --events-from "$T/config" -- "$T/edited" 2>"$T/edited.err" ||
	fail "record --events-from: $(cat "$T/edited.err")"
"$EVTRACE" report "$T/edited.tr" | sed -n 's/^.*: printk\/edited\///p' >"$T/edited.report"
expect_eq "$(cat "$T/edited.report")" "util.hpp/6: put 2
util.hpp/6: put 1
main.cpp/7: request timeout after 30 ms" "the saved list names the same sites on their new lines"

# Bad input.
expect_status 1 "$EVTRACE" record -e 'sched/fn:x' -- true
expect_grep "pattern 'sched/fn:x': fn: and fmt: select printk sites: the path before them must start with printk" "$T/err" "fn: outside printk"
expect_status 1 "$EVTRACE" record -e 'fn:a/b' -- true
expect_grep "selectors at position 1 are not fn:GLOB, fmt:GLOB or fn:GLOB/fmt:GLOB" "$T/err" "a bad selector"
expect_status 1 "$EVTRACE" record --events-from "$T/nosuch" -- true
expect_grep "^evtrace: record: --events-from $T/nosuch: No such file or directory$" "$T/err" "a missing list"
seq 70 | sed 's|^|printk/many/|' >"$T/longlist"
expect_status 1 "$EVTRACE" record --events-from "$T/longlist" -- true
expect_grep "^evtrace: record: $T/longlist:65: more than 64 patterns in all$" "$T/err" "a list longer than a selection takes"
printf 'printk/x\n# a comment\n\nsched/fn:y\n' >"$T/badlist"
expect_status 1 "$EVTRACE" record --events-from "$T/badlist" -- true
expect_grep "^evtrace: record: $T/badlist:4: pattern 'sched/fn:y': " "$T/err" "the bad line named"
# A trigger by function and format fires on that site alone.
cd "$T"
"$EVTRACE" record -q --overwrite --trigger 'fmt:request?timeout*' --after 10ms -o "$T/trig" -- "$T/ab" \
	>/dev/null 2>"$T/trig.err" || fail "record --trigger fmt:: $(cat "$T/trig.err")"
expect_grep "^evtrace: record: triggers fired 1 time, 1 window written" "$T/trig.err" "a trigger by format fired once"
"$EVTRACE" report "$T/trig/window-1" >"$T/trig.report" 2>&1
expect_grep ": printk/ab/main.cpp/2: request timeout after 30 ms$" "$T/trig.report" "the window holds the site"
