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
 * A change refused is audited: the program of a user that tries to take
 * away what restrains it leaves a trace.
 */

#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/security.h>
#include <linux/user_namespace.h>

#include "admin.h"
#include "audit.h"
#include "cred.h"

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

/**
 * pfsel_admin_refuse - Refuse, and audit, a change its caller may not make
 *
 * @op: the change: "load", "unload", "forget", "enforce", "hook_timing",
 *      "cache_threshold", "register", "answer".
 * @slot: the policy it was for (a user's, too, for a user's answers or
 *        agent), or PFSEL_SLOT_COUNT.
 * @uid: that user, for PFSEL_SLOT_USER.
 *
 * The record is a denial by the calling task, refused=admin, with the
 * change and what it was for.  A read of what is the administrator's
 * (ask_stats, hosts, another user's check) is refused without one: every
 * "pfsel status" of a user tries the first.
 *
 * Return: -EPERM.
 */
int pfsel_admin_refuse(const char *const op, const enum pfsel_policy_slot slot,
		       const kuid_t uid)
{
	const struct pfsel_subject subject = pfsel_current_subject();
	const struct pfsel_refused refused = {
		.what = PFSEL_REFUSED_ADMIN,
		.op = op,
		.slot = PFSEL_SLOT_COUNT,
		.has_target = slot < PFSEL_SLOT_COUNT,
		.target_slot = slot,
		.target_uid = uid,
	};

	pfsel_audit_refusal(&subject, &refused);
	return -EPERM;
}
