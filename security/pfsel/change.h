/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfsel LSM - Changing what is in force
 */

#ifndef _SECURITY_PFSEL_CHANGE_H
#define _SECURITY_PFSEL_CHANGE_H

#include <linux/cred.h>
#include <linux/types.h>
#include <linux/uidgid.h>
#include <uapi/linux/pfsel.h>

bool pfsel_policy_may_load(const struct cred *opener,
			   enum pfsel_policy_slot slot, kuid_t uid);
int pfsel_policy_load(const struct cred *opener, void *blob, size_t len);
int pfsel_policy_unload(const struct cred *opener,
			enum pfsel_policy_slot slot, kuid_t uid);
void pfsel_set_enforcing(bool enforcing);

#endif /* _SECURITY_PFSEL_CHANGE_H */
