/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfsel LSM - One reset path for every cache of decisions
 */

#ifndef _SECURITY_PFSEL_RESET_H
#define _SECURITY_PFSEL_RESET_H

#include <linux/types.h>
#include <linux/uidgid.h>
#include <uapi/linux/pfsel.h>

/**
 * enum pfsel_change_kind - What changed
 *
 * @PFSEL_CHANGE_POLICY: a policy was loaded, replaced or unloaded.
 * @PFSEL_CHANGE_MODE: the global switch went enforcing or permissive.
 */
enum pfsel_change_kind {
	PFSEL_CHANGE_POLICY,
	PFSEL_CHANGE_MODE,
};

/**
 * struct pfsel_change - A change that may make cached decisions stale
 *
 * @kind: what changed.
 * @slot: for a policy, whose: the system's or a user's.
 * @uid: for a user's policy, the user.
 */
struct pfsel_change {
	enum pfsel_change_kind kind;
	enum pfsel_policy_slot slot;
	kuid_t uid;
};

void pfsel_reset_caches(const struct pfsel_change *change);

#endif /* _SECURITY_PFSEL_RESET_H */
