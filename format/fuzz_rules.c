/* libFuzzer harness for evt_rules_parse(): traced processes read rules
 * files, so no input may crash or overrun it. */
#include <stddef.h>
#include <stdint.h>

#include "rules.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct evt_rules rules;
	char err[256];

	evt_rules_parse((const char *)data, size, &rules, err, sizeof(err));
	return 0;
}
