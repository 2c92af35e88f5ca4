/*
 * align.h - --align FLOW: the offsets that line up the traces of several
 * machines, from messages that went from one to another (report, query,
 * convert).
 */
#ifndef EVT_CLI_ALIGN_H
#define EVT_CLI_ALIGN_H

#include <stdint.h>

/* Most --align options a command takes. */
#define ALIGN_FLOWS_MAX 16

/* An --align FLOW argument, the nth: 0, or 1 (said) when it is not a
 * flow or one too many. */
int align_flow_check(const char *cmd, const char *flow, unsigned n);

/*
 * Reads the n traces in dirs once and computes, for each, the offset in
 * nanoseconds to add to its real time (offsets_ns[n]).  Each flow names
 * async spans (async/NAME) whose begin is a message sent and whose end,
 * matched by name and id, is that message received; or two events,
 * SEND:RECV:FIELD, matched by the value of their field FIELD (an
 * integer, or a string compared by its 64-bit hash): on two machines
 * (told apart by the traces' host and boot id), a receive must not come
 * before its send.  The first trace's machine keeps its clock; every
 * other machine reached through matched pairs, from it, moves by the
 * least that puts each receive after its send, or, with pairs both
 * ways, to the middle of what both directions allow.  What it applied
 * per machine is said on standard error.  *offsets_ns is then an array
 * of n to free (NULL without flows).  0, or 1 (said; also when the flows
 * are given fewer than two traces).
 */
int align_offsets(const char *cmd, const char *const *dirs, unsigned n,
		  const char *const *flows, unsigned nflows, int64_t **offsets_ns);

#endif
