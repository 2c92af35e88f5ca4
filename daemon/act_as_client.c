/*
 * act_as_client.c - a worker of evtraced touches files as its client.
 *
 * The worker stays root (it reads another user's run directory and
 * control files), but every file it creates belongs to the client from
 * the start, and whatever it writes is charged as the client's writing:
 *
 * - its filesystem uid and gid become the client's (setfsuid/setfsgid),
 *   so a trace directory and its files are created as the client's and
 *   nothing is ever chowned by name in a directory the client controls;
 * - CAP_SYS_RESOURCE goes from every set, the bounding set too, so that
 *   the client's quotas and a file system's reserved blocks apply to the
 *   trace as they would to the client's own writes;
 * - the filesystem capabilities that setfsuid takes out of the effective
 *   set (CAP_DAC_OVERRIDE, CAP_CHOWN, ...) are raised again: the run
 *   directory the worker opens is the traced user's, mode 0700, and a
 *   file it makes there is handed to that user by its fd (rundir.c).
 *
 * Runs in the worker before it starts any thread: credentials are per
 * thread, and a thread inherits its creator's.
 */
#include <errno.h>
#include <stdint.h>
#include <linux/capability.h>
#include <stdio.h>
#include <string.h>
#include <sys/fsuid.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "serve.h"

static int caps_get(struct __user_cap_data_struct data[2])
{
	struct __user_cap_header_struct head = { _LINUX_CAPABILITY_VERSION_3, 0 };

	return (int)syscall(SYS_capget, &head, data);
}

static int caps_set(struct __user_cap_data_struct data[2])
{
	struct __user_cap_header_struct head = { _LINUX_CAPABILITY_VERSION_3, 0 };

	return (int)syscall(SYS_capset, &head, data);
}

int evt_act_as_client(uid_t uid, gid_t gid, char *err, size_t err_size)
{
	struct __user_cap_data_struct caps[2];
	const unsigned word = CAP_SYS_RESOURCE / 32;
	const uint32_t bit = 1u << (CAP_SYS_RESOURCE % 32);

	if (geteuid() != 0)
		return 0;	/* nothing to give up: already a user's */
	if (prctl(PR_CAPBSET_DROP, CAP_SYS_RESOURCE, 0, 0, 0) && errno != EINVAL)
		goto fail;
	/* setfsgid and setfsuid report no error; read back below. */
	setfsgid(gid);
	setfsuid(uid);
	if ((uid_t)setfsuid((uid_t)-1) != uid || (gid_t)setfsgid((gid_t)-1) != gid) {
		errno = EPERM;
		goto fail;
	}
	if (caps_get(caps))
		goto fail;
	caps[word].permitted &= ~bit;
	caps[word].inheritable &= ~bit;
	caps[0].effective = caps[0].permitted;
	caps[1].effective = caps[1].permitted;
	if (caps_set(caps))
		goto fail;
	return 0;
fail:
	snprintf(err, err_size, "cannot act as uid %u: %s", (unsigned)uid,
		 strerror(errno));
	return -1;
}
