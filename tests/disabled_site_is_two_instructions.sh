# A disabled trace_printk() costs three instructions on x86-64: load the
# site's enable pointer, compare its word with zero, branch forward.  The
# pointer is read from the module's dense array of them (section
# evt_enables), not from the site.
. "$(dirname "$0")/lib.sh"
[ "$(uname -m)" = x86_64 ] || { echo "SKIP: x86-64 only"; exit 77; }
cat >"$T/hot.c" <<'C'
#include <evtrace/evtrace.h>
void hot(const char *comm, int pid) { trace_printk("migrate task %s:%d\n", comm, pid); }
C
for flags in "-O2 -fPIC" "-O2 -fPIE" "-O3" "-O2 -fno-pic"; do
	cc $flags -I"$INCLUDE" -c "$T/hot.c" -o "$T/hot.o"
	objdump -d --no-show-raw-insn "$T/hot.o" | sed -n '/<hot>:/,/^$/p' |
		sed -n '2,5p' | sed 's/^ *[0-9a-f]*:\t//' >"$T/insns"
	sed -n 1p "$T/insns" | grep -q '^mov  *0x0(%rip),%rax' || { cat "$T/insns"; fail "$flags: first is not the pointer load"; }
	sed -n 2p "$T/insns" | grep -q '^cmpl  *$0x0,(%rax)' || { cat "$T/insns"; fail "$flags: second is not the compare"; }
	sed -n 3p "$T/insns" | grep -q '^jne ' || { cat "$T/insns"; fail "$flags: third is not the branch"; }
	sed -n 4p "$T/insns" | grep -q '^ret' || { cat "$T/insns"; fail "$flags: the disabled path does more"; }
	objdump -dr --no-show-raw-insn "$T/hot.o" | sed -n '/<hot>:/,/^$/p' | sed -n 3p |
		grep -q 'R_X86_64_PC32[[:space:]]*evt_enables-0x4$' ||
		{ objdump -dr "$T/hot.o" | sed -n '/<hot>:/,/^$/p'; fail "$flags: the pointer is not read from evt_enables"; }
done
