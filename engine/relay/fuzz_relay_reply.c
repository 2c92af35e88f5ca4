/* libFuzzer harness for the relay's replies (relay_proto.h): whatever
 * listens on a relay's port may answer anything. */

#include <stddef.h>
#include <stdint.h>

#include "relay_proto.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum evt_relay_cmd cmds[] = {
		EVT_RELAY_VERSION, EVT_RELAY_CREATE_SESSION, EVT_RELAY_ADD_STREAM,
		EVT_RELAY_SEND_INDEX, EVT_RELAY_STREAMS_SENT,
		EVT_RELAY_CREATE_TRACE_CHUNK, EVT_RELAY_ROTATE_STREAMS,
		EVT_RELAY_CLOSE_STREAM, EVT_RELAY_SEND_METADATA,
	};
	struct evt_relay_reply r;
	enum evt_relay_cmd cmd;
	size_t fixed;
	char err[256];

	if (!size)
		return 0;
	cmd = cmds[data[0] % (sizeof(cmds) / sizeof(cmds[0]))];
	data++;
	size--;
	fixed = evt_relay_reply_fixed(cmd);
	if (evt_relay_reply_parse(cmd, data, size < fixed ? size : fixed, &r, err,
				  sizeof(err)) == 0 && r.tail &&
	    size - fixed >= r.tail)
		evt_relay_tail_check(data + fixed, r.tail, err, sizeof(err));
	return 0;
}
