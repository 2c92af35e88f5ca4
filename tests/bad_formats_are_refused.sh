# %n and long double are refused when the site registers, and so is a
# site whose arguments disagree with its format: the site stays off, the
# others work, and nothing is said at the program's start.  The
# tools that would enable it say why, once per site, naming every bad
# conversion: ls, record, enable; traces stay readable.
. "$(dirname "$0")/lib.sh"
n_site=$(tracee_event "bad %n")
lf_site=$(tracee_event "also bad %Lf")
both_site=$(tracee_event "both %n and %Lf")
"$TRACEE" badformat >/dev/null 2>"$T/start.err"
[ ! -s "$T/start.err" ] || { cat "$T/start.err" >&2; fail "the program spoke of refused formats at its start"; }

"$EVTRACE" record -o "$T/tr" -- "$TRACEE" badformat >/dev/null 2>"$T/err"
expect_grep "^evtrace: record: $n_site: refused, it stays off: format \"bad %n\\\\n\": conversion '%n' at offset 4: %n writes through a pointer and is refused$" "$T/err" "%n refused"
expect_grep "^evtrace: record: $lf_site: refused, it stays off: .*length modifier not supported for this conversion$" "$T/err" "%Lf refused"
expect_grep "^evtrace: record: $both_site: refused, it stays off: format \"both %n and %Lf\\\\n\": conversion '%n' at offset 5: %n writes through a pointer and is refused; conversion '%Lf' at offset 12: length modifier not supported for this conversion$" "$T/err" "every bad conversion of one format"
expect_eq "$(grep -c "$both_site: refused" "$T/err")" 1 "said once"
"$EVTRACE" report "$T/tr" >"$T/report"
expect_grep ": good 1$" "$T/report" "good site works"
expect_grep "# 1 event, 0 lost" "$T/report" "only the good event"
bt_agrees "$T/tr"

# A site whose arguments disagree with its format (the types a C call
# passes are captured at compile time) is refused the same way, never
# written: a long read as a string would crash the program, which runs
# to its end; the sites of every type their formats take still write.
mm_long=$(tracee_event "string from a long %s")
mm_missing=$(tracee_event "missing %s and %d")
mm_double=$(tracee_event "a double as an int %d")
mm_extra=$(tracee_event "one too many %d")
expect_status 0 "$EVTRACE" record -o "$T/mm" -- "$TRACEE" mismatch
expect_grep "^evtrace: record: $mm_long: refused, it stays off: its arguments disagree with its format \"string from a long %s\\\\n\": argument 1 is a 64-bit integer, and '%s' at offset 19 reads a string (char pointer)$" \
	"$T/err" "a long for %s refused"
expect_grep "^evtrace: record: $mm_missing: refused, it stays off: its arguments disagree with its format \"missing %s and %d\\\\n\": the format takes 2 values, and 1 argument came: '%d' at offset 15 has none$" \
	"$T/err" "an argument missing"
expect_grep "^evtrace: record: $mm_double: refused, it stays off: .*: argument 1 is a double, and '%d' at offset 19 reads an int$" \
	"$T/err" "a double for %d"
expect_grep "^evtrace: record: $mm_extra: refused, it stays off: .*: the format takes 1 value, and 2 arguments came$" \
	"$T/err" "an argument too many"
"$EVTRACE" report "$T/mm" >"$T/mm.report"
expect_grep ": ok 1 2 3 4 5 6 7 8 c$" "$T/mm.report" "integers of every width, as their formats take them"
expect_grep ": ok str buf 0x[0-9a-f]* 0x[0-9a-f]* 2.500000 1.500000 abc    9$" "$T/mm.report" "strings, pointers, doubles, stars"
expect_grep "# 2 events, 0 lost" "$T/mm.report" "only the sites that agree wrote"

# A span's arguments too (C, gcc and clang): the begin stays off, said
# by the program at its start (as a span's bad format is), the program
# runs on, and its other sites write.
cat >"$T/span_mm.c" <<'C'
#include <evtrace/evtrace.h>
int main(void)
{
	trace_span_begin("mm", "span %s %d", (long)12345, 2);
	trace_span_end("mm");
	trace_async_begin("amm", 7, "async %f", 3);
	trace_async_end("amm", 7);
	trace_span_begin("good", "span %s %d", "x", 2);
	trace_span_end("good");
	return 0;
}
C
# (a sanitizer's libevtrace wants gcc's runtime linked in first: clang's
# is another, so clang's build is the plain suite's)
compilers="cc clang"
case "$(sanitizer)" in
asan) san=-fsanitize=address compilers=cc ;;
tsan) san=-fsanitize=thread compilers=cc ;;
*) san= ;;
esac
[ -z "$san" ] || echo "note: the span program built by cc only under $(sanitizer)"
for c in $compilers; do
	$c -w $san -I"$INCLUDE" -o "$T/span_mm" "$T/span_mm.c" -L"$BUILD" -Wl,-rpath,"$BUILD" -levtrace ||
		fail "$c: the span program does not build"
	expect_status 0 "$EVTRACE" record -o "$T/smm_$c" -- "$T/span_mm"
	expect_grep "span/mm: format \"span %s %d\": argument 1 is a 64-bit integer, and '%s' at offset 5 reads a string (char pointer); this site stays off" \
		"$T/err" "$c: the span's begin refused"
	expect_grep "async/amm: format \"async %f\": argument 1 is an int, and '%f' at offset 6 reads a double; this site stays off" \
		"$T/err" "$c: the async span's begin refused"
	"$EVTRACE" report "$T/smm_$c" >"$T/smm.report"
	expect_eq "$(grep -c 'span/good' "$T/smm.report")" 2 "$c: the good span, begun and ended"
	expect_eq "$(grep -c 'span/mm.*span\|async/amm.*async' "$T/smm.report" || true)" 0 "$c: no refused begin written"
done

# ls shows them as off, and why; enable names them and leaves them off.
start_waiter
[ ! -s "$T/waiter.err" ] || { cat "$T/waiter.err" >&2; fail "the waiter spoke of refused formats"; }
"$EVTRACE" ls -p "$WAIT_PID" >"$T/ls"
expect_grep "^0 $both_site (refused, stays off: conversion '%n' at offset 5: %n writes through a pointer and is refused; conversion '%Lf' at offset 12: length modifier not supported for this conversion)$" "$T/ls" "ls: why a site is off"
"$EVTRACE" enable "$n_site" 2>"$T/en.err" || fail "enable of a refused site: $(cat "$T/en.err")"
expect_grep "^evtrace: enable: $n_site: refused, it stays off: format \"bad %n\\\\n\": conversion '%n' at offset 4" "$T/en.err" "enable: why"
"$EVTRACE" ls -p "$WAIT_PID" >"$T/ls2"
expect_grep "^0 $n_site (refused" "$T/ls2" "it stays off"
"$EVTRACE" enable printk/tracee 2>"$T/en2.err"
expect_eq "$(grep -c "refused, it stays off" "$T/en2.err")" 7 "enable of the directory: each refused site once"
"$EVTRACE" ls -p "$WAIT_PID" printk/tracee/tests/progs/tracee.c >"$T/ls3"
expect_grep "^1 printk/tracee/tests/progs/tracee.c/$" "$T/ls3" "the file is on: its refused sites are no part of its state"
echo "ok: refused sites said by record, ls and enable, once each, every conversion"
