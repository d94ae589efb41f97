/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfsel LSM - Who may administer pfsel
 */

#ifndef _SECURITY_PFSEL_ADMIN_H
#define _SECURITY_PFSEL_ADMIN_H

#include <linux/cred.h>
#include <linux/uidgid.h>
#include <uapi/linux/pfsel.h>

bool pfsel_may_admin(const struct cred *cred);
int pfsel_admin_refuse(const char *op, enum pfsel_policy_slot slot,
		       kuid_t uid);

#endif /* _SECURITY_PFSEL_ADMIN_H */
