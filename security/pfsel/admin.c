// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel LSM - Who may administer pfsel
 *
 * The administrator loads the system policy and other users' policies,
 * unloads any, switches the global mode, and reads what would tell one
 * user's program about another's (pending questions, the names programs
 * looked up).  The right is asked of the credentials that opened the file
 * (securityfs.c), so that a descriptor handed down lends nothing.  Who
 * else may load a user's policy (the user's agent) is change.c's to say.
 */

#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/security.h>
#include <linux/user_namespace.h>

#include "admin.h"

/**
 * pfsel_may_admin - Tell whether credentials may administer pfsel
 *
 * @cred: credentials of whoever opened the control file.
 *
 * It takes CAP_MAC_ADMIN in the initial user namespace: a user
 * namespace's root must not loosen what the host imposes.
 *
 * Return: true if allowed.
 */
bool pfsel_may_admin(const struct cred *const cred)
{
	return security_capable(cred, &init_user_ns, CAP_MAC_ADMIN,
				CAP_OPT_NONE) == 0;
}
