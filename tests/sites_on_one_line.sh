# Sites on one line are numbered in source order, the same with gcc and
# clang, in C and C++, optimized or not: the first is /N, the second
# /N-1, the third /N-2 (gcc -O0 lays the sites out in reverse).
. "$(dirname "$0")/lib.sh"
skip_if_sanitized "programs built here"
cat >"$T/line.c" <<'C'
#include <evtrace/evtrace.h>
int main(void)
{
	trace_printk("first\n"); trace_printk("second\n"); trace_printk("third\n");
	trace_printk("alone\n");
	return 0;
}
C
cp "$T/line.c" "$T/line.cc"
printf 'printk/line/line.SUF/4 first\nprintk/line/line.SUF/4-1 second\nprintk/line/line.SUF/4-2 third\nprintk/line/line.SUF/5 alone\n' >"$T/want"
ran=""
for cc in gcc clang g++ clang++ "gcc -O2" "clang -O2" "g++ -O2" "clang++ -O2"; do
	command -v "${cc% *}" >/dev/null || fail "$cc is not installed (make deps installs it)"
	case ${cc% *} in *++) suf=cc;; *) suf=c;; esac
	(cd "$T" && $cc -Wall -Wextra -Werror -I"$INCLUDE" -o line line.$suf -L"$BUILD" -levtrace) ||
		fail "$cc: the program does not build"
	rm -rf "$T/tr"
	(cd "$T" && "$EVTRACE" record -o "$T/tr" -- ./line >/dev/null 2>&1) || fail "$cc: record"
	"$EVTRACE" report "$T/tr" | sed -n 's|.*: \(printk/[^:]*\): \(.*\)|\1 \2|p' |
		sed "s|printk/line/line\.$suf/|printk/line/line.SUF/|" >"$T/got"
	cmp -s "$T/got" "$T/want" || { diff "$T/want" "$T/got" >&2; fail "$cc: the sites of one line are not numbered in source order"; }
	ran="$ran, $cc"
done
echo "ok: source order with$ran"
