/* two_units_b.c - the second unit of two_units: its copy of inline_site. */
#include "inline_site.h"

void unit_b_run(int round)
{
	inline_site("b", round);
}
