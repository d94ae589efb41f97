/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfsel LSM - Who may administer pfsel
 */

#ifndef _SECURITY_PFSEL_ADMIN_H
#define _SECURITY_PFSEL_ADMIN_H

#include <linux/cred.h>

bool pfsel_may_admin(const struct cred *cred);

#endif /* _SECURITY_PFSEL_ADMIN_H */
