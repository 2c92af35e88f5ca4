/*
 * policy.c - the restrictions of an engine acting for someone else.
 */
#include <unistd.h>

#include "event_format.h"
#include "pattern.h"
#include "policy.h"

static bool cap_any_only;
static bool owner_set;
static uid_t owner_uid;

bool evt_privileged(uid_t uid, gid_t gid, const gid_t *groups, unsigned ngroups,
		    uid_t owner, uint32_t optin_gid)
{
	unsigned i;

	if (uid == 0 || uid == owner)
		return true;
	if (optin_gid == EVT_NO_GROUP)
		return false;
	if ((uint32_t)gid == optin_gid)
		return true;
	for (i = 0; i < ngroups; i++)
		if ((uint32_t)groups[i] == optin_gid)
			return true;
	return false;
}

void evt_policy_cap_any_only(void)
{
	cap_any_only = true;
}

bool evt_policy_guest(void)
{
	return cap_any_only;
}

bool evt_event_cap_any(const struct evt_ctl_event *e)
{
	return evt_event_kind_is_typed(e->layout.kind) &&
	       (e->layout.typed.flags & EVT_FORMAT_FL_CAP_ANY);
}

const struct evt_ctl_event *evt_uncapped_event(const struct evt_ctl *ctl,
					       const char *pattern)
{
	uint32_t i;

	for (i = 0; i < ctl->nevents; i++)
		if (evt_pattern_match_site(pattern, ctl->events[i].path,
					   ctl->events[i].func,
					   ctl->events[i].format) &&
		    !evt_event_cap_any(&ctl->events[i]))
			return &ctl->events[i];
	return NULL;
}

bool evt_policy_may_record(const struct evt_ctl_event *e)
{
	return !cap_any_only || evt_event_cap_any(e);
}

void evt_policy_output_owner(uid_t uid)
{
	owner_set = true;
	owner_uid = uid;
}

uid_t evt_policy_output_uid(void)
{
	return owner_set ? owner_uid : geteuid();
}
