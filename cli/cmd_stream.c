/*
 * cmd_stream.c - evtrace stream: not yet supported.
 */
#include "cli.h"

int cmd_stream(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return cli_error("stream", "not yet supported");
}
