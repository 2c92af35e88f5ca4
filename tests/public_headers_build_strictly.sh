# The public headers under users' strictest flags: every macro of the
# API (tests/progs/every_macro.c, a span begin with no argument among
# them) in C11, C17 and C23 (c2x) and in C++17 and C++20, with gcc and
# clang, -Wall -Wextra -Wpedantic -Werror, and in C++ also
# -Wzero-as-null-pointer-constant and -Wold-style-cast (and g++'s
# -Wuseless-cast: clang has none), from an include directory that is not
# a system one (whose warnings the compilers would hide), and in C++
# without exceptions and RTTI (-fno-exceptions -fno-rtti).  A C and a C++
# build run, traced, and record what each macro says.
. "$(dirname "$0")/lib.sh"
SRC=$(dirname "$TRACEE_SRC")/every_macro.c
mkdir -p "$T/inc"
cp -r "$INCLUDE/evtrace" "$T/inc/"
cp "$SRC" "$T/every.c"
cp "$SRC" "$T/every.cc"
strict="-Wall -Wextra -Wpedantic -Werror -I$T/inc"
built=0
for cc in gcc clang; do
	for std in c11 c17 c2x; do
		$cc -std=$std $strict -c "$T/every.c" -o "$T/every-$cc-$std.o" 2>"$T/err" ||
			{ cat "$T/err" >&2; fail "$cc -std=$std: the public headers"; }
		built=$((built + 1))
	done
done
for cxx in g++ clang++; do
	extra="-Wzero-as-null-pointer-constant -Wold-style-cast"
	[ "$cxx" = g++ ] && extra="$extra -Wuseless-cast"
	for std in c++17 c++20; do
		$cxx -std=$std $strict $extra -c "$T/every.cc" -o "$T/every-$cxx-$std.o" 2>"$T/err" ||
			{ cat "$T/err" >&2; fail "$cxx -std=$std: the public headers"; }
		built=$((built + 1))
	done
done
# C++ without exceptions or RTTI, as many users build it.
for cxx in g++ clang++; do
	$cxx -std=c++17 -fno-exceptions -fno-rtti $strict -c "$T/every.cc" -o "$T/every-noexc.o" 2>"$T/err" ||
		{ cat "$T/err" >&2; fail "$cxx -fno-exceptions -fno-rtti: the public headers"; }
	built=$((built + 1))
done
expect_eq "$built" 12 "builds"

# What they record (a sanitized libevtrace needs its runtime linked in).
san=""
ldd "$EVTRACE" | grep -q libasan && san="-fsanitize=address,undefined"
libs="-L$BUILD -L$BUILD/engine -levtrace -levtrace-consumer"
gcc $san "$T/every-gcc-c11.o" -o "$T/every-c" $libs || fail "linking the C build"
g++ $san "$T/every-g++-c++17.o" -o "$T/every-cxx" $libs || fail "linking the C++ build"
for lang in c cxx; do
	"$EVTRACE" record -e '**' -e 'printk/**' -e 'span/**' -e 'async/**' -e 'counter/**' \
		-o "$T/tr-$lang" -- "$T/every-$lang" >/dev/null 2>"$T/rec.err" ||
		fail "record of the $lang build: $(cat "$T/rec.err")"
	"$EVTRACE" report "$T/tr-$lang" | sed -n 's/^.*[0-9]: \([a-z]*\/\)/\1/p' |
		sed 's|^printk/every-[a-z]*/.*every\.cc\{0,1\}/[0-9]*: |printk: |' >"$T/got-$lang"
	cat >"$T/want" <<'W'
printk: no arguments
printk: tool 1 x 0xADDR 0.5
ftrace/print: legacy
ftrace/print: legacy 2
demo/step: pid=1 state=R running=true load=0.5 bytes=[1, 2, 3, 4] name="init" seq=[1, 2]
stable/demo_step: pid=1
span/x: begin
span/x: end
span/y: begin: a=3
span/y: end
async/job: begin 7
async/job2: begin 8: who=me
async/job: end 7
async/job2: end 8
async/by address: begin ADDR
async/by address: end ADDR
counter/queue: 3
counter/load: 0.25
span/work: begin
span/work args: begin: n=2
span/work args: end
span/work: end
W
	sed -e 's/0x[0-9a-f]\{6,\}/0xADDR/' -e 's/\(async\/by address: [a-z]*\) [0-9]*$/\1 ADDR/' \
		"$T/got-$lang" >"$T/got2-$lang"
	cmp -s "$T/want" "$T/got2-$lang" || { diff "$T/want" "$T/got2-$lang" >&2; fail "what the $lang build recorded"; }
done
echo "ok: $built strict builds of every macro; the C and C++ builds record what each says"
