/*
 * relay_address.h - how a user names an lttng-relayd and what a recording
 * is filed under there: parsed alike by the CLI, evtraced's request
 * parser and consumer.h (relay_address.c).  Below the engine and the
 * daemon, with the protocol between them.
 */
#ifndef EVT_PROTOCOL_RELAY_ADDRESS_H
#define EVT_PROTOCOL_RELAY_ADDRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define EVT_RELAY_QUEUE_MAX_MIB	4096	/* what a user may give */

struct evt_relay_opts {
	const char *host;		/* name or address */
	unsigned control_port;		/* 0: 5342 */
	unsigned data_port;		/* 0: control_port + 1 */
	const char *session;		/* the relay session's name */
	const char *hostname;		/* the host it is filed under */
	size_t max_queued;		/* 0: EVT_RELAY_QUEUE_BYTES */
	uint32_t live_timer_us;		/* told to the relay and to viewers */
};

/*
 * How a user names a relay: "HOST[:PORT[:DATA_PORT]]" ("[ADDRESS]" for
 * IPv6).  Sets o's host (copied into host) and ports: 0, or -1 when arg
 * is not that.
 */
int evt_relay_parse(const char *arg, struct evt_relay_opts *o, char *host,
		    size_t host_size);
#define EVT_RELAY_ADDRESS_FORMS "HOST, HOST:PORT or HOST:PORT:DATA_PORT " \
	"(ports 1 to 65535; [ADDRESS] for IPv6)"
/* Whether name may name a relay session or host (directories on the
 * relay). */
bool evt_relay_name_ok(const char *name);
#define EVT_RELAY_NAME_FORM "1 to 64 letters, digits, '.', '_' or '-', not " \
	"starting with '.'"
/* This machine's name as the relay is to file it ("localhost" when its
 * name will not do). */
void evt_relay_default_hostname(char *buf, size_t size);

#endif
