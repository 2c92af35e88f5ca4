/*
 * optin_group.c - the group a process lets trace it as its own user may:
 * through evtraced, its members may record and switch any of its events.
 * Named by $EVTRACE_GROUP (a group name or number) or by
 * evt_trace_allow_group(); kept in the control file's header, which only
 * the process's own user can write.
 */
#include <errno.h>
#include <grp.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime.h"

static uint32_t chosen = EVT_NO_GROUP;
static int decided;

/* $EVTRACE_GROUP as a gid; EVT_NO_GROUP when unset or unknown. */
static uint32_t from_environment(void)
{
	const char *v = secure_getenv("EVTRACE_GROUP");
	struct group g, *found = NULL;
	char buf[4096], *end;
	unsigned long n;

	if (!v || !*v)
		return EVT_NO_GROUP;
	errno = 0;
	n = strtoul(v, &end, 10);
	if (!*end && !errno && n < EVT_NO_GROUP)
		return (uint32_t)n;
	if (getgrnam_r(v, &g, buf, sizeof(buf), &found) || !found) {
		evt__debug("EVTRACE_GROUP=%s: no such group; no group may trace "
			   "this process", v);
		return EVT_NO_GROUP;
	}
	return (uint32_t)found->gr_gid;
}

uint32_t evt__optin_gid(void)
{
	if (!__atomic_load_n(&decided, __ATOMIC_ACQUIRE)) {
		chosen = from_environment();
		__atomic_store_n(&decided, 1, __ATOMIC_RELEASE);
	}
	return chosen;
}

EVT_API int evt_trace_allow_group(gid_t gid)
{
	if ((uint32_t)gid == EVT_NO_GROUP)
		return -EINVAL;
	pthread_mutex_lock(&evt__proc.lock);
	chosen = (uint32_t)gid;
	__atomic_store_n(&decided, 1, __ATOMIC_RELEASE);
	if (evt__proc.hdr && !evt__proc.shrank && !evt__proc.detached)
		__atomic_store_n(&evt__proc.hdr->optin_gid, chosen, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&evt__proc.lock);
	return 0;
}
