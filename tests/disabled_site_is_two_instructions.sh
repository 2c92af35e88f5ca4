# A disabled trace_printk() in C costs two instructions on x86-64: compare
# the site's flag byte with zero, branch forward.  The byte is in its
# translation unit's page-aligned pages of them (evt__unit_flags, in
# .bss), at an address the linker knows: one load, no pointer.
. "$(dirname "$0")/lib.sh"
[ "$(uname -m)" = x86_64 ] || { echo "SKIP: x86-64 only"; exit 77; }
cat >"$T/hot.c" <<'C'
#include <evtrace/evtrace.h>
void hot(const char *comm, int pid) { trace_printk("migrate task %s:%d\n", comm, pid); }
C
for flags in "-O2 -fPIC" "-O2 -fPIE" "-O3" "-O2 -fno-pic"; do
	cc $flags -I"$INCLUDE" -c "$T/hot.c" -o "$T/hot.o"
	objdump -d --no-show-raw-insn "$T/hot.o" | sed -n '/<hot>:/,/^$/p' |
		sed -n '2,4p' | sed 's/^ *[0-9a-f]*:\t//' >"$T/insns"
	sed -n 1p "$T/insns" | grep -q '^cmpb  *$0x0,0x0(%rip)' || { cat "$T/insns"; fail "$flags: first is not the compare of the flag"; }
	sed -n 2p "$T/insns" | grep -q '^jne ' || { cat "$T/insns"; fail "$flags: second is not the branch"; }
	sed -n 3p "$T/insns" | grep -q '^ret' || { cat "$T/insns"; fail "$flags: the disabled path does more"; }
	objdump -dr --no-show-raw-insn "$T/hot.o" | sed -n '/<hot>:/,/^$/p' | sed -n 3p |
		grep -q 'R_X86_64_PC32[[:space:]]*\.bss' ||
		{ objdump -dr "$T/hot.o" | sed -n '/<hot>:/,/^$/p'; fail "$flags: the flag is not in .bss"; }
	# The flags: whole pages, page-aligned, so that a control file's
	# page can be mapped over them.
	objdump -t "$T/hot.o" | grep -q '[[:space:]]0*10000[[:space:]]*evt__unit_flags$' ||
		{ objdump -t "$T/hot.o"; fail "$flags: evt__unit_flags is not 16 pages"; }
	readelf -S -W "$T/hot.o" | grep ' \.bss ' | awk '{ print $NF }' | grep -qx 4096 ||
		{ readelf -S -W "$T/hot.o"; fail "$flags: .bss is not page-aligned"; }
done
