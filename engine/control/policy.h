/*
 * policy.h - what an engine acting for someone else may do.  evtraced
 * serves users who are not privileged towards the processes they trace:
 * for them it records only events flagged CAP_ANY, and writes the trace
 * into a directory they handed over, as them.  An engine run by a user
 * for their own processes leaves both unset.
 */
#ifndef EVT_ENGINE_POLICY_H
#define EVT_ENGINE_POLICY_H

#include <stdbool.h>
#include <sys/types.h>

#include "ctl.h"

/*
 * The rule every front end applies (evtraced, the events filesystem):
 * privileged towards a process of user owner that opted into the group
 * optin_gid (EVT_NO_GROUP: none) is root, that user, or a member of that
 * group; gid is the caller's primary group, groups its others.
 */
bool evt_privileged(uid_t uid, gid_t gid, const gid_t *groups, unsigned ngroups,
		    uid_t owner, uint32_t optin_gid);

/*
 * From now on, record (not count) only events flagged CAP_ANY, and take
 * only a guest slot (EVT_GUEST_SLOTS): the engine acts for a user without
 * privilege towards the processes.
 */
void evt_policy_cap_any_only(void);
/* Whether this engine may take only a guest slot. */
bool evt_policy_guest(void);
/* Whether event e is flagged CAP_ANY: its fields are anyone's to record. */
bool evt_event_cap_any(const struct evt_ctl_event *e);
/* The first event of process ctl that pattern names and that is not
 * flagged CAP_ANY, or NULL. */
const struct evt_ctl_event *evt_uncapped_event(const struct evt_ctl *ctl,
					       const char *pattern);
/* Whether this engine may record the fields of event e. */
bool evt_policy_may_record(const struct evt_ctl_event *e);
/*
 * Trace directories are owned by uid, not by the engine's user: evtraced's
 * worker creates their files with uid's filesystem credentials, so that
 * they are uid's from the start (daemon/act_as_client.c).
 */
void evt_policy_output_owner(uid_t uid);
/* The owner a trace directory must have. */
uid_t evt_policy_output_uid(void);

#endif
