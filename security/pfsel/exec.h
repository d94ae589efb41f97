/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfsel LSM - What execve() makes a process's application
 */

#ifndef _SECURITY_PFSEL_EXEC_H
#define _SECURITY_PFSEL_EXEC_H

#include <linux/binfmts.h>
#include <linux/init.h>

bool pfsel_exec_shares_fs(const struct linux_binprm *bprm);
__init void pfsel_add_exec_hooks(void);

#endif /* _SECURITY_PFSEL_EXEC_H */
