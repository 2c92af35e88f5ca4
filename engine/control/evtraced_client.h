/*
 * evtraced_client.h - the engine as a client of evtraced: a consumer of
 * another user's process, and the kernel's events as the daemon lists
 * them (daemon/serve_consumer.c): each call a request and its answer.
 */
#ifndef EVT_ENGINE_EVTRACED_CLIENT_H
#define EVT_ENGINE_EVTRACED_CLIENT_H

#include <stdbool.h>
#include <stddef.h>

#include "protocol.h"

/* Whether pid is another user's, to be read through evtraced. */
bool evt_remote_needed(int pid);
/* Opens a session, r being its "consume" request (pid, count, relay);
 * the socket, or -1 with err set. */
int evt_remote_open(const struct evt_request *r, char *err, size_t err_size);
/*
 * Sends r and hands each data frame of the answer to frame (its kind,
 * and a wire reader past it) until the result: returns it, or -1 with err
 * set (refused, or the daemon gone).
 */
int evt_remote_call(int sock, const struct evt_request *r,
		    void (*frame)(char kind, struct evt_wire *w, void *ctx),
		    void *ctx, char *err, size_t err_size);
/* The same, handing fd over with the request (a window's directory). */
int evt_remote_call_fd(int sock, const struct evt_request *r, int fd,
		       void (*frame)(char kind, struct evt_wire *w, void *ctx),
		       void *ctx, char *err, size_t err_size);

/*
 * The kernel's events and their tracepoint ids, as evtraced lists them to
 * anyone (tracefs is root's): `ls --ids kernel/`.  0 and the arrays set
 * (paths freed with evt_kernel_event_paths_free, ids with free), or -1
 * with err set.
 */
int evt_remote_kernel_ids(char ***paths, long **ids, unsigned *n, char *err,
			  size_t err_size);
/* A kernel event's tracefs format file, as evtraced reads it to anyone
 * (`format --tracefs`): 0 and *text (free it), *len; or -1 with err set. */
int evt_remote_kernel_format(const char *path, char **text, size_t *len,
			     char *err, size_t err_size);

#endif
