/* usdt_lib.c - a library with a USDT probe, dlopen'd by usdt_prog. */
#include <sys/sdt.h>

void usdt_lib_hit(int i);

void usdt_lib_hit(int i)
{
	STAP_PROBE1(evttest_lib, hit, i);
}
