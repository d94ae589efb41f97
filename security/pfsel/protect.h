/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfsel LSM - Protected applications
 */

#ifndef _SECURITY_PFSEL_PROTECT_H
#define _SECURITY_PFSEL_PROTECT_H

#include <linux/binfmts.h>
#include <linux/init.h>

int pfsel_protect_exec(struct linux_binprm *bprm);

__init void pfsel_add_protect_hooks(void);

#endif /* _SECURITY_PFSEL_PROTECT_H */
