# A C++20 coroutine's span: begun on one thread, the coroutine suspended
# and resumed on another, where the span ends: an async span (its id the
# coroutine's), one complete slice across the two threads, with g++ and
# clang++.
. "$(dirname "$0")/lib.sh"
SRC=$(dirname "$TRACEE_SRC")/coroutine.cc
for cxx in g++ clang++; do
	$cxx -std=c++20 -Wall -Wextra -Werror -I"$INCLUDE" -o "$T/co" "$SRC" \
		-L"$BUILD" -Wl,-rpath,"$BUILD" -levtrace -pthread 2>"$T/cc.err" ||
		{ cat "$T/cc.err" >&2; fail "$cxx: the coroutine does not build"; }
	"$EVTRACE" record -o "$T/tr-$cxx" -- "$T/co" >"$T/out" 2>"$T/err" || fail "$cxx: record: $(cat "$T/err")"
	a=$(sed -n 's/^begin //p' "$T/out")
	b=$(sed -n 's/^end //p' "$T/out")
	[ -n "$a" ] && [ -n "$b" ] && [ "$a" != "$b" ] || fail "$cxx: the coroutine did not move threads: $(cat "$T/out")"
	"$EVTRACE" report "$T/tr-$cxx" >"$T/report"
	expect_grep "^ *co-$a .*: async/fetch: begin [0-9]*: n=3$" "$T/report" "$cxx: the begin, on the first thread"
	expect_grep "^ *co-$b .*: async/fetch: end [0-9]*$" "$T/report" "$cxx: the end, on the second"
	expect_eq "$("$EVTRACE" query --no-cache --csv "$T/tr-$cxx" "SELECT name, state, tid, args FROM slice" | tail -n +2 | tr -d '\r')" \
		"fetch,complete,$a,n=3" "$cxx: one complete slice across the threads"
done
