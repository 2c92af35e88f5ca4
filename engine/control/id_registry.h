/*
 * id_registry.h - the global ids every engine of a run directory agrees
 * on, so that an id `evtrace ls --ids` shows is the id a consumer adds
 * and reads.
 *
 * The file "event-ids" in the run directory has one line per event ever
 * given an id, in id order: the 64-bit hash of its kind, path, exact
 * format and storage types, in hex, a space and its path.  Its line number,
 * from 0, is the id.  An engine that meets an event it has no id for takes
 * an exclusive flock, reads what was added since it last looked, and
 * appends a line if the event is still missing.  A line that does not
 * parse keeps its number and names nothing.
 */
#ifndef EVT_ENGINE_ID_REGISTRY_H
#define EVT_ENGINE_ID_REGISTRY_H

#include <stdint.h>

#include "rundir.h"

#define EVT_ID_REGISTRY_NAME	"event-ids"
#define EVT_ID_REGISTRY_MAX	(16u << 20)	/* bytes: then ids are local */

struct evt_id_registry;

/* Opens (makes) the registry of rd; NULL when it cannot (said through
 * evt_report): the engine then numbers events by itself, from
 * EVT_LOCAL_IDS. */
struct evt_id_registry *evt_id_registry_open(const struct evt_rundir *rd);
/*
 * The id of the event with this hash and path, given one when new; or
 * EVT_NO_ID when the file cannot be read or grow.
 */
uint32_t evt_id_registry_get(struct evt_id_registry *r, uint64_t hash,
			     const char *path);
void evt_id_registry_close(struct evt_id_registry *r);

#endif
