/*
 * relay_address.c - what a user names a relay by: its address and ports,
 * the session and host names the relay files a recording under.  The
 * names become directories on the relay, so only a safe few characters.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "relay_address.h"

#define NAME_CHARS "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ" \
		   "0123456789._-"
#define NAME_MAX_CHARS 64

bool evt_relay_name_ok(const char *name)
{
	size_t n = strspn(name, NAME_CHARS);

	return *name && !name[n] && name[0] != '.' && n <= NAME_MAX_CHARS;
}

void evt_relay_default_hostname(char *buf, size_t size)
{
	char name[256] = "";

	gethostname(name, sizeof(name) - 1);
	name[strspn(name, NAME_CHARS)] = '\0';
	name[NAME_MAX_CHARS] = '\0';
	snprintf(buf, size, "%s", name[0] && name[0] != '.' ? name : "localhost");
}

int evt_relay_parse(const char *arg, struct evt_relay_opts *o, char *host,
		    size_t host_size)
{
	const char *colon;
	unsigned long ports[2] = { 0, 0 };
	size_t n;
	int k;

	if (arg[0] == '[') {
		const char *close = strchr(arg, ']');

		if (!close || (close[1] && close[1] != ':'))
			return -1;
		n = (size_t)(close - arg - 1);
		colon = close[1] ? close + 1 : NULL;
		arg++;
	} else {
		colon = strchr(arg, ':');
		n = colon ? (size_t)(colon - arg) : strlen(arg);
	}
	if (!n || n >= host_size || memchr(arg, ' ', n) || memchr(arg, '\n', n))
		return -1;
	memcpy(host, arg, n);
	host[n] = '\0';
	for (k = 0; colon && k < 2; k++) {
		char *end;

		errno = 0;
		ports[k] = strtoul(colon + 1, &end, 10);
		if (errno || end == colon + 1 || ports[k] < 1 || ports[k] > 65535 ||
		    (*end && *end != ':') || colon[1] == '-' || colon[1] == '+' ||
		    colon[1] == ' ')
			return -1;
		colon = *end ? end : NULL;
	}
	if (colon)
		return -1;
	o->host = host;
	o->control_port = (unsigned)ports[0];
	o->data_port = (unsigned)ports[1];
	return 0;
}
