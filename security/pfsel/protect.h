/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfsel LSM - Protected applications
 */

#ifndef _SECURITY_PFSEL_PROTECT_H
#define _SECURITY_PFSEL_PROTECT_H

#include <linux/binfmts.h>

struct pfsel_app;

int pfsel_protect_exec(struct linux_binprm *bprm, struct pfsel_app *app);
void pfsel_protect_commit(const struct pfsel_app *app);

#endif /* _SECURITY_PFSEL_PROTECT_H */
