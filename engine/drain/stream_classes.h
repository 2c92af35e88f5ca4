/*
 * stream_classes.h - which processes of a trace share a CTF stream class.
 *
 * Records carry a process's local event ids, and CTF declares events per
 * stream class, so a class is a map from local id to global id.  Processes
 * whose maps agree share one class: the children a program forks, and
 * every run of one program, have the same registry, so a trace describes
 * each of their events once however many processes registered it.  A
 * process whose later registrations disagree with its class (another
 * library dlopen'd after a fork) moves to a class that agrees, found or
 * made, and only then is anything described twice.
 */
#ifndef EVT_ENGINE_STREAM_CLASSES_H
#define EVT_ENGINE_STREAM_CLASSES_H

#include <stdint.h>

#define EVT_NO_CLASS UINT32_MAX

struct evt_stream_class_map {
	uint32_t *gids;			/* by local id */
	uint32_t len, cap;
};

struct evt_stream_classes {
	struct evt_stream_class_map *v;
	uint32_t n;
};

/*
 * The class for a process now in class cur (EVT_NO_CLASS: none yet) whose
 * local ids 0..n-1 have global ids gids[]: cur when it agrees, grown when
 * the process has more events; else one that agrees, or a new one.
 * *described is set to how many local ids of the returned class were
 * described before this call (the rest are new to it).  EVT_NO_CLASS when
 * out of memory.
 */
uint32_t evt_stream_classes_place(struct evt_stream_classes *cs, uint32_t cur,
				  const uint32_t *gids, uint32_t n,
				  uint32_t *described);
void evt_stream_classes_free(struct evt_stream_classes *cs);

#endif
