# The docs: every man page renders without a groff warning and with its
# indents closed; every name a page's NAME line gives finds that page with
# man(1); every C example of the man pages and the README compiles with
# -Wall -Wextra -Werror, and runs, traced, printing what the docs say.
# Facts the docs state are the code's: the control file's version, the
# make targets the README names, the parts architecture.md lists.
. "$(dirname "$0")/lib.sh"
DOC=$(cd "$(dirname "$0")/../doc" && pwd)
README=$(dirname "$DOC")/README.md
TOP=$(dirname "$DOC")

define() { sed -n "s/^#define $1[[:space:]][[:space:]]*\\([0-9]*\\).*/\\1/p" "$TOP/format/layout.h"; }
ctl_version="$(define EVT_CTL_MAJOR).$(define EVT_CTL_MINOR)"
said=$(sed -n 's/.*`format\/layout.h`, version \([0-9.]*\):.*/\1/p' "$DOC/architecture.md")
expect_eq "$said" "$ctl_version" "the control file's version architecture.md states"
release=$(sed -n "s/^  version : '\\(.*\\)',\$/\\1/p" "$TOP/meson.build" | head -1)
expect_grep "^| $release | $ctl_version |" "$DOC/versions.md" "versions.md's line for this release"
for page in "$DOC"/*.[0-9]; do
	head -1 "$page" | grep -q "\"evtrace $release\"" ||
		fail "$(basename "$page") names another release than $release: $(head -1 "$page")"
done
expect_eq "$(sed -n 's/^#define EVTRACE_VERSION_\(MAJOR\|MINOR\|PATCH\)[[:space:]]*\([0-9]*\)$/\2/p' \
	"$INCLUDE/evtrace/evtrace.h" | paste -sd.)" "$release" "evtrace.h's EVTRACE_VERSION"
# The README's layout of the source: every directory it names is there,
# and every directory of the source is named.
sed -n '/^## Layout of the source/,/^## /p' "$README" | sed -n 's/^    \([a-z0-9/ ]*\/\)  .*/\1/p; s/^    \([a-z0-9]*\/ [a-z0-9/ ]*\/\)$/\1/p' |
	tr ' ' '\n' | grep . | sed 's|/$||' | sort -u >"$T/layout"
[ "$(wc -l <"$T/layout")" -ge 10 ] || fail "README.md's layout not read: $(cat "$T/layout")"
for dir in $(cat "$T/layout"); do
	[ -d "$TOP/$dir" ] || fail "README.md's layout names $dir/, which is not there"
done
sed 's|/.*||' "$T/layout" | sort -u >"$T/layout.top"
for dir in $(cd "$TOP" && find . -mindepth 1 -maxdepth 1 -type d -name '[a-z]*' ! -name 'build*' |
	sed 's|^\./||' | sort); do
	grep -qx "$dir" "$T/layout.top" || fail "the source directory $dir/ is not in README.md's layout"
done
for target in $(grep -o '`make [a-z-]*' "$README" | sed 's/`make //' | sort -u); do
	grep -q "^$target:" "$TOP/Makefile" || fail "README.md names 'make $target', which the Makefile has not"
done
sed -n '/^## Parts/,/^## /p' "$DOC/architecture.md" | sed -n '/^```$/,/^```$/p' |
	sed -n 's/^\([a-z][a-z/0-9]*\/\)\( .*\)\{0,1\}$/\1/p' >"$T/parts"
[ "$(wc -l <"$T/parts")" -ge 9 ] || fail "architecture.md's parts not read: $(cat "$T/parts")"
for part in $(cat "$T/parts"); do
	[ -d "$TOP/$part" ] || fail "architecture.md lists $part, which is not there"
done
sed -n '/^## Parts/,/^## /p' "$DOC/architecture.md" | sed -n 's/^  \([a-z]*\/\) .*/\1/p' >"$T/rooms"
for room in $(cat "$T/rooms"); do
	[ -d "$TOP/engine/$room" ] || fail "architecture.md lists the engine room $room, which is not there"
done

for page in "$DOC"/*.[0-9]; do
	groff -ww -man -z "$page" 2>"$T/groff" || fail "groff failed on $page"
	[ ! -s "$T/groff" ] || { cat "$T/groff" >&2; fail "groff warns about $(basename "$page")"; }
	rs=$(grep -c '^\.RS' "$page" || true)
	re=$(grep -c '^\.RE' "$page" || true)
	expect_eq "$re" "$rs" "$(basename "$page"): .RE for each .RS"
done

# man NAME for every name of every page, from a man tree as installed.
mkdir -p "$T/man/man1" "$T/man/man3"
for page in "$DOC"/*.[0-9] "$BUILD"/doc/*.[0-9]; do
	cp "$page" "$T/man/man${page##*.}/"
done
for page in "$DOC"/*.[0-9]; do
	sec=${page##*.}
	title=$(basename "$page" ".$sec")
	names=$(sed -n '/^\.SH NAME/,/\\-/p' "$page" | sed '1d; s/ \\-.*//' | tr ',\n' '  ')
	[ -n "$names" ] || fail "$page: no NAME"
	for name in $names; do
		MANWIDTH=80 man -M "$T/man" "$sec" "$name" 2>"$T/man.err" >"$T/man.out" ||
			{ cat "$T/man.err" >&2; fail "man $sec $name: no page"; }
		head -1 "$T/man.out" | grep -qi "^$title($sec)" ||
			fail "man $sec $name shows $(head -1 "$T/man.out"), not $title($sec)"
	done
done
MANWIDTH=80 man -M "$T/man" ftrace_printk | grep -q "formats at once\|ftrace/print" ||
	fail "man ftrace_printk is not trace_printk(3)"

python3 "$(dirname "$0")/doc_examples.py" "$T" "$README" "$DOC"/*.3 >"$T/examples"
for want in README-1.c README-2.c README-cpp-1.cc EVT_EVENT.c trace_printk.c trace_span.c \
	evt_consumer.c evtrace_cxx.cc; do
	grep -qx "$want" "$T/examples" || fail "the docs have no example $want"
done
skip_if_sanitized "the docs' examples"
CFLAGS="-std=gnu11 -Wall -Wextra -Werror -I$INCLUDE"
for ex in $(cat "$T/examples"); do
	case $ex in
	evt_consumer.c) libs="-L$BUILD/engine -levtrace-consumer";;
	*) libs="-L$BUILD -levtrace";;
	esac
	compile="cc $CFLAGS"
	case $ex in
	*.cc) compile="c++ -std=c++17 -Wall -Wextra -Werror -I$INCLUDE";;
	esac
	if grep -q '^int main' "$T/$ex"; then
		$compile -o "$T/${ex%.c*}" "$T/$ex" $libs 2>"$T/cc.err" ||
			{ cat "$T/cc.err" >&2; fail "the example $ex does not compile"; }
	else
		$compile -c -o "$T/${ex%.c*}.o" "$T/$ex" 2>"$T/cc.err" ||
			{ cat "$T/cc.err" >&2; fail "the example $ex does not compile"; }
	fi
done

# trace_printk(3): the argument lines and ftrace_printk's count.
(cd "$T" && "$EVTRACE" record -o "$T/tp" -- ./trace_printk one two >/dev/null 2>&1)
"$EVTRACE" report "$T/tp" | sed -n 's/.*: \(printk\/[^:]*\|ftrace\/print\): /\1 /p' >"$T/got"
cat >"$T/want" <<'W'
printk/trace_printk/DIR/trace_printk.c/6 arg 0 is ./trace_printk
printk/trace_printk/DIR/trace_printk.c/6 arg 1 is one
printk/trace_printk/DIR/trace_printk.c/6 arg 2 is two
ftrace/print 3 arguments
W
sed 's|^printk/trace_printk/.*/trace_printk.c/|printk/trace_printk/DIR/trace_printk.c/|' "$T/got" >"$T/got2"
cmp -s "$T/got2" "$T/want" || { diff "$T/want" "$T/got2" >&2; fail "trace_printk(3)'s example"; }

# trace_span(3): three scopes with their argument, counters, an async span.
(cd "$T" && "$EVTRACE" record -e 'span/**' -e 'async/**' -e 'counter/**' -o "$T/ts" -- ./trace_span >/dev/null 2>&1)
"$EVTRACE" report "$T/ts" | sed -n 's/^.*[0-9]: \([a-z]*\/[a-z]*: \)/\1/p' >"$T/got"
cat >"$T/want" <<'W'
counter/items: 0
span/parse: begin: n=0
span/parse: end
counter/items: 1
span/parse: begin: n=1
span/parse: end
counter/items: 2
span/parse: begin: n=2
span/parse: end
async/upload: begin 42
async/upload: end 42
W
cmp -s "$T/got" "$T/want" || { diff "$T/want" "$T/got" >&2; fail "trace_span(3)'s example"; }

# EVT_EVENT(3) and the README's typed example print what the page says.
for prog in EVT_EVENT README-2; do
	"$EVTRACE" record -o "$T/$prog.tr" -e sched/switch -e stable/sched_switch -- "$T/$prog" >/dev/null 2>&1
	"$EVTRACE" report "$T/$prog.tr" | sed -n 's/^.*[0-9]: \([a-z]*\/[a-z_]*: \)/\1/p' >"$T/got"
	sed -n '/^prints, after the thread/,/^\.fi/p' "$DOC/EVT_EVENT.3" | sed -n '/^\.nf/,/^\.fi/p' |
		sed '1d;$d; s/\\-/-/g' >"$T/want"
	[ "$(wc -l <"$T/want")" = 2 ] || fail "EVT_EVENT(3) no longer shows two lines of output"
	cmp -s "$T/got" "$T/want" || { diff "$T/want" "$T/got" >&2; fail "$prog's events are not what EVT_EVENT(3) says"; }
done

# The README's first example links with its own cc line (it has a main)
# and records its site at line 5, as the README names it.
[ -x "$T/README-1" ] || fail "the README's first example did not link"
(cd "$T" && "$EVTRACE" record -o "$T/r1.tr" -- ./README-1 >/dev/null 2>&1) || fail "record the README's first example"
"$EVTRACE" report "$T/r1.tr" >"$T/r1.report"
expect_grep "printk/README-1/.*README-1.c/5: migrate task kworker/0:42$" "$T/r1.report" \
	"the README's first example, at the line the README names"

# evt_consumer(3): a second of a running program's events, decoded.
"$TRACEE" loop 1 >"$T/loop.out" &
loop=$!
BG_PIDS="$BG_PIDS $loop"
wait_for 'the program to say ready in loop.out' 'grep -q ready "$T/loop.out"'
LD_LIBRARY_PATH="$BUILD/engine:$LD_LIBRARY_PATH" "$T/evt_consumer" "$loop" 'printk/tracee' >"$T/consumer.out" 2>"$T/consumer.err" ||
	{ cat "$T/consumer.err" >&2; fail "evt_consumer(3)'s example failed"; }
kill "$loop"
grep -q "^[0-9]* printk/tracee/tests/progs/tracee.c/[0-9]*: arg0=0 arg1=[0-9]" "$T/consumer.out" ||
	{ head -3 "$T/consumer.out" >&2; fail "evt_consumer(3)'s example printed no decoded event"; }
# The README's SQL runs on a trace of its spans example, with every
# CPU's sched events (its thread_state question).
need_tracefs "README's SQL over sched events"
ex=$(cd "$T" && grep -l 'trace_scope("request"' README-*.c | head -1)
[ -n "$ex" ] && [ -x "$T/${ex%.c}" ] || fail "the README's spans example is not there"
"$EVTRACE" record -a -e 'span/**' -e 'async/**' -e 'counter/**' -e kernel/sched/sched_switch \
	-e kernel/sched/sched_wakeup -o "$T/spans.tr" -- "$T/${ex%.c}" >/dev/null 2>"$T/rec.err" ||
	{ cat "$T/rec.err" >&2; fail "record the README's spans example"; }
awk -v dir="$T" '/^```sql$/ { n++; on = 1; next } /^```$/ { on = 0 } on { print > (dir "/readme-" n ".sql") }' "$README"
[ "$(ls "$T"/readme-*.sql | wc -l)" -ge 5 ] || fail "the README has fewer SQL examples than it had"
for f in "$T"/readme-*.sql; do
	"$EVTRACE" query "$T/spans.tr" "$(cat "$f")" >"$T/q.out" 2>"$T/q.err" ||
		{ cat "$f" "$T/q.err" >&2; fail "the README's SQL $(basename "$f") does not run"; }
done
# (the question of requests' states answers for each of the 3)
expect_eq "$(grep -c '^ *[0-9]' "$T/q.out")" 3 "the README's last SQL, one row a request"
# Its Python, on the same trace as "trace": the histogram holds the 3.
awk -v dir="$T" '/^```python$/ { n++; on = 1; next } /^```$/ { on = 0 } on { print > (dir "/readme-" n ".py") }' "$README"
[ -f "$T/readme-1.py" ] || fail "the README has no Python example"
ln -s spans.tr "$T/trace"
(cd "$T" && PYTHONPATH="$BUILD/python" /usr/bin/python3 readme-1.py) >"$T/py.out" 2>"$T/py.err" ||
	{ cat "$T/py.err" >&2; fail "the README's Python example"; }
expect_eq "$(grep ' us ' "$T/py.out" | awk '{ n += $5 } END { print n }')" 3 "the README's histogram of 3 requests"
expect_grep "span/request  *6$" "$T/py.out" "the README's Python count per name"

echo "ok: $(ls "$DOC"/*.[0-9] | wc -l) pages render cleanly, every name finds its page, $(wc -l <"$T/examples") examples compile and print what the docs say"
