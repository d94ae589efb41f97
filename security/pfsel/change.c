// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel LSM - Changing what is in force
 *
 * Loading a policy, unloading one, switching the global mode: each is
 * checked here against who asks, made (policy.c, decide.c), followed by
 * pfsel_reset_caches() (reset.c), so that nothing keeps deciding by what
 * was in force before, and audited.  The securityfs files (securityfs.c)
 * are the only way in.
 */

#include <linux/cred.h>
#include <linux/err.h>
#include <linux/uidgid.h>

#include "admin.h"
#include "ask.h"
#include "audit.h"
#include "change.h"
#include "decide.h"
#include "policy.h"
#include "reset.h"

/**
 * pfsel_policy_may_load - Tell whether a policy may be loaded for a target
 *
 * @opener: credentials of whoever opened the load file.
 * @slot: the system policy or a user's.
 * @uid: the user, for PFSEL_SLOT_USER.
 *
 * The adversary is a program running as the user whose policy restrains
 * it, so the user's own uid is no right: the root side loads (pam_pfsel,
 * the administrator), and so does the user's agent process, which the root
 * side registered and at whose prompt the person answers.
 *
 * Return: true if allowed.
 */
bool pfsel_policy_may_load(const struct cred *const opener,
			   const enum pfsel_policy_slot slot, const kuid_t uid)
{
	if (pfsel_may_admin(opener))
		return true;
	return slot == PFSEL_SLOT_USER && uid_eq(opener->uid, uid) &&
	       uid_eq(current_uid(), uid) && pfsel_ask_is_agent_process(uid);
}

/**
 * pfsel_policy_load - Validate a compiled policy and put it in force
 *
 * @opener: credentials of whoever opened the load file.
 * @blob: the policy as pfwc wrote it, from kvmalloc(); consumed.
 * @len: its size in bytes.
 *
 * The target (the system or a uid) is named by the policy's own header.
 * The caller checked the opener's right to the target the header it read
 * names; it is checked again here, on the validated copy, which no one
 * can change any more.
 *
 * Return: 0 on success; -EPERM if @opener may not load for that target;
 * an error of pfsel_policydb_adopt() for a malformed blob; -EINVAL for a
 * uid that is none; -ENOMEM.  On any error the policies in force are
 * unchanged.
 */
int pfsel_policy_load(const struct cred *const opener, void *const blob,
		      const size_t len)
{
	struct pfsel_policy *policy, *old;

	policy = pfsel_policy_new(blob, len);
	if (IS_ERR(policy))
		return PTR_ERR(policy);
	if (!pfsel_policy_may_load(opener, policy->slot, policy->uid)) {
		const enum pfsel_policy_slot slot = policy->slot;
		const kuid_t uid = policy->uid;

		pfsel_policy_put(policy);
		return pfsel_admin_refuse("load", slot, uid);
	}

	/* Ours until audited: a later load may replace it at once. */
	pfsel_policy_get(policy);
	old = pfsel_policy_publish(policy);
	if (IS_ERR(old)) {
		pfsel_policy_put(policy);
		pfsel_policy_put(policy);
		return PTR_ERR(old);
	}
	/* Every cache of decisions forgets what the old policy decided. */
	pfsel_reset_caches(&(struct pfsel_change){
		.kind = PFSEL_CHANGE_POLICY,
		.slot = policy->slot,
		.uid = policy->uid,
	});
	pfsel_audit_policy_change("load", policy->slot, policy->uid,
				  policy->generation);
	pfsel_policy_put(policy);
	pfsel_policy_retire(old);
	return 0;
}

/**
 * pfsel_policy_unload - Remove a policy
 *
 * @opener: credentials of whoever opened the unload file.
 * @slot: the system policy or a user's.
 * @uid: the user, for PFSEL_SLOT_USER.
 *
 * Only the root side unloads, a user's policy as well: a program of the
 * user must not be able to take away what restrains it.
 *
 * Return: 0 on success, -EPERM if @opener may not, -ENOENT if no such
 * policy is loaded.
 */
int pfsel_policy_unload(const struct cred *const opener,
			const enum pfsel_policy_slot slot, const kuid_t uid)
{
	struct pfsel_policy *old;

	if (!pfsel_may_admin(opener))
		return pfsel_admin_refuse("unload", slot, uid);
	old = pfsel_policy_withdraw(slot, uid);
	if (!old)
		return -ENOENT;
	pfsel_reset_caches(&(struct pfsel_change){
		.kind = PFSEL_CHANGE_POLICY,
		.slot = slot,
		.uid = uid,
	});
	pfsel_audit_policy_change("unload", slot, uid, old->generation);
	pfsel_policy_retire(old);
	return 0;
}

/**
 * pfsel_set_enforcing - Switch the global mode, and audit the switch
 *
 * @enforcing: true to enforce denials, false for permissive mode.
 *
 * The caller checked that whoever asks may administer.
 */
void pfsel_set_enforcing(const bool enforcing)
{
	const bool old = pfsel_swap_enforcing(enforcing);

	pfsel_reset_caches(&(struct pfsel_change){ .kind = PFSEL_CHANGE_MODE });
	pfsel_audit_mode(enforcing, old);
}
