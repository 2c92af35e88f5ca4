/* libFuzzer harness for evtraced's frame header check and request parser:
 * every byte comes from a client, so no input may crash or overrun them,
 * and what parses must format back to a request that parses the same. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "protocol.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char body[EVT_PROTO_MAX_BODY + 1], again[EVT_PROTO_MAX_BODY + 1];
	struct evt_request r, r2;
	char err[300];
	uint32_t len;
	int n;

	if (size >= EVT_PROTO_HEADER)
		evt_proto_header(data, &len, err, sizeof(err));
	if (size > EVT_PROTO_MAX_BODY)
		return 0;
	memcpy(body, data, size);
	if (evt_proto_parse(body, size, &r, err, sizeof(err)))
		return 0;
	n = evt_proto_format(&r, again, sizeof(again));
	if (n < 0 || evt_proto_parse(again, (size_t)n, &r2, err, sizeof(err)) ||
	    r2.verb != r.verb || r2.npids != r.npids || r2.nevents != r.nevents)
		abort();
	return 0;
}
